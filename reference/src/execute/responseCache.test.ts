// The answers of @cached queries: kept for their ttl, gone after it, bounded by the bytes they hold.
import { ResponseCache } from './responseCache';

test('an answer is served until its ttl has passed, with the seconds it has left', () => {
  const cache = new ResponseCache(1024 * 1024);
  cache.set('k', '{"data":{}}', 10, 1_000);
  expect(cache.get('k', 1_000)).toEqual({ body: '{"data":{}}', secondsLeft: 10 });
  expect(cache.get('k', 5_500)).toEqual({ body: '{"data":{}}', secondsLeft: 6 });
  expect(cache.get('k', 10_999)).toEqual({ body: '{"data":{}}', secondsLeft: 1 });
  expect(cache.get('k', 11_000)).toBeUndefined();
  expect(cache.size).toBe(0);
  expect(cache.get('other', 1_000)).toBeUndefined();
});

test('a ttl of 0 or less keeps nothing', () => {
  const cache = new ResponseCache(1024 * 1024);
  cache.set('zero', 'x', 0, 1_000);
  cache.set('negative', 'x', -5, 1_000);
  expect(cache.size).toBe(0);
});

test('the bytes held are bounded: the least recently used answer goes first, one larger than the bound is not kept', () => {
  const cache = new ResponseCache(1_500);
  const body = 'x'.repeat(200);
  for (const key of ['a', 'b', 'c']) cache.set(key, body, 60, 0);
  expect(cache.get('a', 0)?.body).toBe(body);
  cache.set('d', body, 60, 0);
  expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0), cache.get('d', 0)].map((e) => e !== undefined)).toEqual([true, false, true, true]);
  cache.set('huge', 'y'.repeat(10_000), 60, 0);
  expect(cache.get('huge', 0)).toBeUndefined();
  const none = new ResponseCache(0);
  none.set('k', 'x', 60, 0);
  expect([none.get('k', 0), none.size]).toEqual([undefined, 0]);
});
