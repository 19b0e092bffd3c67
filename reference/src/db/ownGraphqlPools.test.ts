// The server's own GraphQL pools follow the default source's isolation level: the same level keeps
// the pools open, another opens new ones with the level's startup option, and the old ones are
// ended only once no request waits for one of their connections.
import type { Pool } from 'pg';
import { OwnGraphqlPools, shapeOf, type GraphqlPoolPair, type PoolShape } from './ownGraphqlPools';

interface FakePool {
  waitingCount: number;
  ended: number;
  options: string | undefined;
  max?: number | undefined;
  end: () => Promise<void>;
}

function fakes() {
  const made: FakePool[] = [];
  const one = (options: string | undefined, max?: number): FakePool => {
    const pool: FakePool = {
      waitingCount: 0,
      ended: 0,
      options,
      ...(max !== undefined ? { max } : {}),
      end: async () => {
        pool.ended++;
      },
    };
    made.push(pool);
    return pool;
  };
  const open = (shape: PoolShape): GraphqlPoolPair => ({
    roles: one(shape.options, shape.max) as unknown as Pool,
    adminGraphql: one(shape.options, shape.max) as unknown as Pool,
  });
  return { made, open };
}

afterEach(() => jest.useRealTimers());

test('the same level keeps its pools; another opens pools with its startup option and ends the old ones', () => {
  const { made, open } = fakes();
  const pools = new OwnGraphqlPools(open);
  const first = pools.at(undefined);
  expect(pools.at(undefined)).toBe(first);
  expect(made.map((p) => p.options)).toEqual([undefined, undefined]);
  const serializable = pools.at({ isolation_level: 'serializable' });
  expect(serializable).not.toBe(first);
  expect(pools.at({ isolation_level: 'serializable' })).toBe(serializable);
  expect(made.map((p) => [p.options, p.ended])).toEqual([
    [undefined, 1],
    [undefined, 1],
    ['-c default_transaction_isolation=serializable', 0],
    ['-c default_transaction_isolation=serializable', 0],
  ]);
  pools.at({ isolation_level: 'repeatable-read' });
  expect(made.slice(4).map((p) => p.options)).toEqual([
    '-c default_transaction_isolation=repeatable\\ read',
    '-c default_transaction_isolation=repeatable\\ read',
  ]);
  expect(made.map((p) => p.ended)).toEqual([1, 1, 1, 1, 0, 0]);
});

test('a retired pool with a request waiting for a connection is ended once none waits; close ends it at once', async () => {
  jest.useFakeTimers();
  const { made, open } = fakes();
  const pools = new OwnGraphqlPools(open, { isolation_level: 'serializable' });
  made[0]!.waitingCount = 1;
  made[1]!.waitingCount = 1;
  pools.at({ isolation_level: 'read-committed' });
  expect(made.map((p) => p.ended)).toEqual([0, 0, 0, 0]);
  made[0]!.waitingCount = 0;
  jest.advanceTimersByTime(60);
  expect(made.map((p) => p.ended)).toEqual([1, 0, 0, 0]);
  jest.advanceTimersByTime(600);
  expect(made.map((p) => p.ended)).toEqual([1, 0, 0, 0]);
  await pools.close();
  expect(made.map((p) => p.ended)).toEqual([1, 1, 1, 1]);
  made[1]!.waitingCount = 0;
  jest.advanceTimersByTime(60);
  expect(made.map((p) => p.ended)).toEqual([1, 1, 1, 1]);
});

test('max_connections sizes the pools: another size opens new ones, the same settings keep them', () => {
  const { made, open } = fakes();
  const pools = new OwnGraphqlPools(open, { isolation_level: 'serializable', pool_settings: {} });
  const first = pools.at({ isolation_level: 'serializable' });
  expect(made).toHaveLength(2);
  const two = pools.at({ isolation_level: 'serializable', pool_settings: { max_connections: 2 } });
  expect(two).not.toBe(first);
  expect(pools.at({ isolation_level: 'serializable', pool_settings: { max_connections: 2 } })).toBe(two);
  expect(pools.at({ isolation_level: 'serializable', pool_settings: { max_connections: 3 } })).not.toBe(two);
  pools.at(undefined);
  expect(made.map((p) => [p.options, p.max, p.ended])).toEqual([
    ['-c default_transaction_isolation=serializable', undefined, 1],
    ['-c default_transaction_isolation=serializable', undefined, 1],
    ['-c default_transaction_isolation=serializable', 2, 1],
    ['-c default_transaction_isolation=serializable', 2, 1],
    ['-c default_transaction_isolation=serializable', 3, 1],
    ['-c default_transaction_isolation=serializable', 3, 1],
    [undefined, undefined, 0],
    [undefined, undefined, 0],
  ]);
});

test("the default source's pool_settings as node-postgres takes them: seconds as milliseconds, a pool_timeout of 0 as no bound", () => {
  expect(shapeOf(undefined)).toEqual({});
  expect(
    shapeOf({ isolation_level: 'repeatable-read', pool_settings: { max_connections: 4, idle_timeout: 7, connection_lifetime: 90, pool_timeout: 3 } }),
  ).toEqual({
    options: '-c default_transaction_isolation=repeatable\\ read',
    max: 4,
    idleTimeoutMillis: 7_000,
    maxLifetimeSeconds: 90,
    connectionTimeoutMillis: 3_000,
  });
  expect(shapeOf({ pool_settings: { idle_timeout: 0, connection_lifetime: 0, pool_timeout: 0 } })).toEqual({ idleTimeoutMillis: 0, maxLifetimeSeconds: 0 });
});

test('another idle timeout, lifetime or wait opens new pools; the same settings keep them', () => {
  const { made, open } = fakes();
  const pools = new OwnGraphqlPools(open);
  const first = pools.at({ pool_settings: { idle_timeout: 5 } });
  expect(pools.at({ pool_settings: { idle_timeout: 5 } })).toBe(first);
  const lifetime = pools.at({ pool_settings: { idle_timeout: 5, connection_lifetime: 60 } });
  expect(lifetime).not.toBe(first);
  const waiting = pools.at({ pool_settings: { idle_timeout: 5, connection_lifetime: 60, pool_timeout: 2 } });
  expect(waiting).not.toBe(lifetime);
  expect(pools.at({ pool_settings: { idle_timeout: 6, connection_lifetime: 60, pool_timeout: 2 } })).not.toBe(waiting);
  expect(made).toHaveLength(10);
});
