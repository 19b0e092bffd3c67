import { generatedRuns } from './generatedRuns';

const saved = { runs: process.env.ENGINE_X_RUNS, long: process.env.ENGINE_TEST_LONG };
afterEach(() => {
  for (const [name, value] of [
    ['ENGINE_X_RUNS', saved.runs],
    ['ENGINE_TEST_LONG', saved.long],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test('the short form unless the long one is asked for; a number given wins over both', () => {
  delete process.env.ENGINE_X_RUNS;
  delete process.env.ENGINE_TEST_LONG;
  expect(generatedRuns('ENGINE_X_RUNS', 6, 40)).toBe(6);
  process.env.ENGINE_TEST_LONG = '1';
  expect(generatedRuns('ENGINE_X_RUNS', 6, 40)).toBe(40);
  process.env.ENGINE_X_RUNS = '7';
  expect(generatedRuns('ENGINE_X_RUNS', 6, 40)).toBe(7);
  process.env.ENGINE_TEST_LONG = '0';
  expect(generatedRuns('ENGINE_X_RUNS', 6, 40)).toBe(7);
});

test('a number of runs that is not a whole number of at least 1 is an error that names the variable', () => {
  for (const bad of ['0', '-3', '2.5', 'many']) {
    process.env.ENGINE_X_RUNS = bad;
    expect(() => generatedRuns('ENGINE_X_RUNS', 6, 40)).toThrow(`ENGINE_X_RUNS must be a whole number of runs of at least 1, not "${bad}"`);
  }
});
