import { weightedCache } from './weightedCache';

const byLength = (key: string, value: string) => key.length + value.length;

describe('weightedCache', () => {
  test('forgets the least recently used entries once the weight passes the bound', () => {
    const cache = weightedCache<string>(10, byLength);
    cache.set('a', '1234'); // 5
    cache.set('b', '1234'); // 10
    expect(cache.get('a')).toBe('1234'); // a is now the most recent
    cache.set('c', '12'); // 13 > 10: b goes
    expect([cache.get('b'), cache.get('a'), cache.get('c'), cache.calculatedSize, cache.size]).toEqual([undefined, '1234', '12', 8, 2]);
  });

  test('replacing an entry counts only its new weight', () => {
    const cache = weightedCache<string>(10, byLength);
    cache.set('a', '123456789');
    cache.set('a', '1');
    expect([cache.calculatedSize, cache.size]).toEqual([2, 1]);
  });

  test('an entry heavier than the bound is not kept and pushes nothing out', () => {
    const cache = weightedCache<string>(10, byLength);
    cache.set('a', '1');
    cache.set('b', 'x'.repeat(20));
    expect([cache.get('a'), cache.get('b'), cache.calculatedSize]).toEqual(['1', undefined, 2]);
  });
});
