import { Lru } from './lru';

const byLength = (key: string, value: string) => key.length + value.length;

describe('Lru', () => {
  test('forgets the least recently used entries once the weight passes the bound', () => {
    const lru = new Lru<string, string>(10, byLength);
    lru.set('a', '1234'); // 5
    lru.set('b', '1234'); // 10
    expect(lru.get('a')).toBe('1234'); // a is now the most recent
    lru.set('c', '12'); // 13 > 10: b goes
    expect([lru.get('b'), lru.get('a'), lru.get('c'), lru.weight, lru.size]).toEqual([undefined, '1234', '12', 8, 2]);
  });

  test('replacing an entry counts only its new weight', () => {
    const lru = new Lru<string, string>(10, byLength);
    lru.set('a', '123456789');
    lru.set('a', '1');
    expect([lru.weight, lru.size]).toEqual([2, 1]);
  });

  test('an entry heavier than the bound is not kept and pushes nothing out', () => {
    const lru = new Lru<string, string>(10, byLength);
    lru.set('a', '1');
    lru.set('b', 'x'.repeat(20));
    expect([lru.get('a'), lru.get('b'), lru.weight]).toEqual(['1', undefined, 2]);
  });
});
