// Connections that prepared statements before the database changed are closed, not used again; a
// statement refused for a changed object runs again once, on connections of the new generation.
import { DatabaseError, type Pool, type PoolClient } from 'pg';
import { StatementGenerations } from './preparedStatements';

/** A pool of numbered fake connections, most recently released first; `closed` lists those released with an error. */
function fakePool(answer: (connection: number) => unknown = () => ({ rows: [{ ok: 1 }] })) {
  const idle: PoolClient[] = [];
  const closed: number[] = [];
  let made = 0;
  const pool = {
    connect: async () => {
      const found = idle.pop();
      if (found) return found;
      const id = ++made;
      const client = {
        id,
        query: async () => {
          const result = answer(id);
          if (result instanceof Error) throw result;
          return result;
        },
        release: (destroy?: boolean) => (destroy ? closed.push(id) : idle.push(client as unknown as PoolClient)),
      };
      return client as unknown as PoolClient;
    },
  } as unknown as Pool;
  return { pool, closed, idOf: (c: PoolClient) => (c as unknown as { id: number }).id };
}

const statement = { name: 'engine_x', text: 'select 1 as ok', values: [] };
const refusal = (code: string, message: string) => Object.assign(new DatabaseError(message, 0, 'error'), { code });

test('a connection that prepared statements before the database changed is closed; one that prepared none is kept', async () => {
  const generations = new StatementGenerations();
  const { pool, closed, idOf } = fakePool();
  const first = await generations.connect(pool);
  await generations.query(first, statement);
  const untouched = await generations.connect(pool);
  untouched.release();
  first.release();
  // Same generation: the connection is taken again as it is.
  const again = await generations.connect(pool);
  expect([idOf(again), closed]).toEqual([1, []]);
  again.release();
  generations.advance();
  const after = await generations.connect(pool);
  // Connection 1 prepared in the old generation: closed; connection 2 never prepared anything.
  expect([idOf(after), closed]).toEqual([2, [1]]);
  await generations.query(after, statement);
  after.release();
  expect(idOf(await generations.connect(pool))).toBe(2);
});

test.each([
  ['0A000', 'cached plan must not change result type'],
  ['XX000', 'cache lookup failed for type 16385'],
])('a statement refused with %s "%s" runs once more, on a connection of the new generation', async (code, message) => {
  const generations = new StatementGenerations();
  const { pool, closed, idOf } = fakePool((id) => (id === 1 ? refusal(code, message) : { rows: [{ ok: id }] }));
  const used: number[] = [];
  const work = async () => {
    const client = await generations.connect(pool);
    used.push(idOf(client));
    try {
      return await generations.query<{ ok: number }>(client, statement);
    } finally {
      client.release();
    }
  };
  expect(await generations.retryingStale(work)).toEqual([{ ok: 2 }]);
  expect([used, closed]).toEqual([[1, 2], [1]]);
});

test('other refusals, and a second stale refusal, are answered as they are', async () => {
  const generations = new StatementGenerations();
  let calls = 0;
  const failing = (error: Error) => async () => {
    calls++;
    throw error;
  };
  await expect(generations.retryingStale(failing(refusal('0A000', 'FOR UPDATE is not allowed with aggregate functions')))).rejects.toThrow('FOR UPDATE');
  await expect(generations.retryingStale(failing(refusal('XX000', 'could not open file')))).rejects.toThrow('could not open file');
  await expect(generations.retryingStale(failing(new Error('cache lookup failed for type 1')))).rejects.toThrow('cache lookup');
  await expect(generations.retryingStale(failing(refusal('42704', 'cache lookup failed for type 1')))).rejects.toThrow('cache lookup');
  expect(calls).toBe(4);
  await expect(generations.retryingStale(failing(refusal('XX000', 'cache lookup failed for type 1')))).rejects.toThrow('cache lookup');
  expect(calls).toBe(6);
});
