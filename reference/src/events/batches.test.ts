// Writes sent together: one alone at once, what comes while a batch is written in the next, in order,
// at most so many per batch, and a failure only for the items of the batch that failed.
import { Batches } from './batches';

/** A write that records its batches and ends when the case says so. */
function recordingWrite() {
  const batches: string[][] = [];
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const write = (items: readonly string[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push([...items]);
      pending.push({ resolve, reject });
    });
  const end = (n = 0, error?: Error) => (error ? pending[n]!.reject(error) : pending[n]!.resolve());
  return { batches, write, end };
}

const settled = (p: Promise<void>) =>
  p.then(
    () => 'written',
    (e: Error) => `failed: ${e.message}`,
  );

test('one write alone is sent at once, before anything else runs', () => {
  const { batches, write } = recordingWrite();
  const batch = new Batches(write, 10);
  void batch.add('a');
  expect(batches).toEqual([['a']]);
});

test('what comes while a batch is written goes together in the next, in the order it came, when that one ends', async () => {
  const { batches, write, end } = recordingWrite();
  const batch = new Batches(write, 10);
  const a = settled(batch.add('a'));
  const rest = ['b', 'c', 'd'].map((x) => settled(batch.add(x)));
  expect(batches).toEqual([['a']]);
  end(0);
  expect(await a).toBe('written');
  expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  end(1);
  expect(await Promise.all(rest)).toEqual(['written', 'written', 'written']);
  // Nothing waits any more: the next one is sent at once again.
  void batch.add('e');
  expect(batches).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
});

test('a batch takes at most so many items; the rest follow in batches of their own', async () => {
  const { batches, write, end } = recordingWrite();
  const batch = new Batches(write, 2);
  const all = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => settled(batch.add(x)));
  for (let n = 0; n < 4; n++) {
    end(n);
    await all[Math.min(5, 2 * n)];
  }
  expect(await Promise.all(all)).toEqual(Array(6).fill('written'));
  expect(batches).toEqual([['a'], ['b', 'c'], ['d', 'e'], ['f']]);
});

test('a failed batch fails its own items only; the next batch is written', async () => {
  const { batches, write, end } = recordingWrite();
  const batch = new Batches(write, 10);
  const a = settled(batch.add('a'));
  const b = settled(batch.add('b'));
  const c = settled(batch.add('c'));
  end(0, new Error('connection lost'));
  expect(await a).toBe('failed: connection lost');
  expect(batches).toEqual([['a'], ['b', 'c']]);
  end(1);
  expect([await b, await c]).toEqual(['written', 'written']);
  void batch.add('d');
  expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
});
