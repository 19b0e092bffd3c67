import { chooseProvider } from './provider';

describe('chooseProvider', () => {
  test('a configured URL wins over everything', () => {
    expect(chooseProvider({ databaseUrl: 'postgres://h/db', dockerAnswers: true, testcontainersInstalled: true })).toEqual({
      kind: 'url',
      url: 'postgres://h/db',
    });
  });
  test('a container when Docker answers and testcontainers is installed', () => {
    expect(chooseProvider({ dockerAnswers: true, testcontainersInstalled: true })).toEqual({ kind: 'testcontainers' });
  });
  test('embedded when Docker answers but testcontainers is not installed', () => {
    expect(chooseProvider({ dockerAnswers: true, testcontainersInstalled: false })).toEqual({ kind: 'embedded' });
  });
  test('embedded when no Docker engine answers', () => {
    expect(chooseProvider({ dockerAnswers: false, testcontainersInstalled: true })).toEqual({ kind: 'embedded' });
  });
  test('an empty URL counts as none', () => {
    expect(chooseProvider({ databaseUrl: '', dockerAnswers: false, testcontainersInstalled: false })).toEqual({ kind: 'embedded' });
  });
});
