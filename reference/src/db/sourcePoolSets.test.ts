// The pools SourcePools hands out and when it ends them: one set per source and configuration, the
// reads spread over the read replicas past those resting after a failure, and a pool retired by a
// change (or a source gone) ended once the last request holding it gives it back
// (dec.source.forms, dec.source.in-flight). node-postgres opens no connection before a query, so
// none of these pools ever reaches the (unreachable) addresses they are given.
import type { Pool } from 'pg';
import type { ConnectionInfo, SourceEntry } from '../../../spec';
import { SourcePools } from './sourcePools';

const at = (database: string): ConnectionInfo => ({ database_url: `postgres://u@127.0.0.1:1/${database}` });
const source = (name: string, info: ConnectionInfo, read_replicas?: ConnectionInfo[]): SourceEntry => ({
  name,
  kind: 'postgres',
  configuration: { connection_info: info, ...(read_replicas ? { read_replicas } : {}) },
  tables: [],
});
const timeouts = { statementTimeoutMs: 1_500, adminStatementTimeoutMs: 0 };
/** The database a pool was made for. */
const target = (pool: Pool | undefined) => (pool as (Pool & { options: { connectionString: string } }) | undefined)?.options.connectionString.split('/').pop();
const ended = (pool: Pool) => (pool as Pool & { ending: boolean }).ending;

let pools: SourcePools;
let told: [string, string][];
beforeEach(() => {
  pools = new SourcePools();
  told = [];
  pools.onConnectionFailure = (name, cause) => told.push([name, cause]);
});
afterEach(async () => {
  jest.restoreAllMocks();
  await pools.close();
});

describe('graphqlPoolsOf', () => {
  test("the same pools while the configuration stays; the primary's for writes, with no replica to leave aside", () => {
    const s = source('s', at('primary'));
    const first = pools.graphqlPoolsOf(s, timeouts)!;
    const again = pools.graphqlPoolsOf(s, timeouts, false)!;
    expect([target(first.admin), target(first.roles), target(first.adminGraphql)]).toEqual(['primary', 'primary', 'primary']);
    expect([again.admin, again.roles, again.adminGraphql]).toEqual([first.admin, first.roles, first.adminGraphql]);
    expect(first.admin).toBe(pools.poolOf(s));
    expect(new Set([first.admin, first.roles, first.adminGraphql]).size).toBe(3);
    expect('unreachable' in first || 'unreachable' in again).toBe(false);
  });

  test('each pool with its statement timeout; 0 sets none', () => {
    const set = pools.graphqlPoolsOf(source('s', at('primary')), timeouts)!;
    expect((set.roles as Pool & { options: object }).options).toMatchObject({ statement_timeout: 1_500 });
    expect((set.adminGraphql as Pool & { options: object }).options).not.toHaveProperty('statement_timeout');
  });

  test('a source whose URL cannot be had has none', () => {
    expect(pools.graphqlPoolsOf(source('s', { database_url: { from_env: 'ENGINE_TEST_UNSET_URL' } }), timeouts)).toBeUndefined();
  });

  test('a primary that can no longer be had when the replicas change has none either', () => {
    process.env.ENGINE_TEST_POOL_SETS_URL = 'postgres://u@127.0.0.1:1/from_env';
    const info = { database_url: { from_env: 'ENGINE_TEST_POOL_SETS_URL' } };
    try {
      expect(target(pools.graphqlPoolsOf(source('s', info), timeouts)?.roles)).toBe('from_env');
      delete process.env.ENGINE_TEST_POOL_SETS_URL;
      expect(pools.graphqlPoolsOf(source('s', info, [at('r1')]), timeouts)).toBeUndefined();
    } finally {
      delete process.env.ENGINE_TEST_POOL_SETS_URL;
    }
  });

  test('reads go to the replicas in turn, writes (the default) to the primary', () => {
    const s = source('s', at('primary'), [at('r1'), at('r2')]);
    const reads = [1, 2, 3, 4].map(() => pools.graphqlPoolsOf(s, timeouts, false)!);
    expect(reads.map((r) => [target(r.roles), target(r.adminGraphql), target(r.admin), typeof r.unreachable])).toEqual([
      ['r1', 'r1', 'primary', 'function'],
      ['r2', 'r2', 'primary', 'function'],
      ['r1', 'r1', 'primary', 'function'],
      ['r2', 'r2', 'primary', 'function'],
    ]);
    expect(reads[0]!.roles).toBe(reads[2]!.roles);
    const write = pools.graphqlPoolsOf(s, timeouts)!;
    expect([target(write.roles), 'unreachable' in write]).toEqual(['primary', false]);
  });

  test('a replica that could not be had rests 30 s, told to the log, while the reads go to the others', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    const s = source('s', at('primary'), [at('r1'), at('r2')]);
    pools.graphqlPoolsOf(s, timeouts, false)!.unreachable!();
    expect(told).toEqual([['s', 'a read replica did not answer; reads go to the primary for a while']]);
    const readsWhileResting = [1, 2, 3].map(() => target(pools.graphqlPoolsOf(s, timeouts, false)!.roles));
    expect(readsWhileResting).toEqual(['r2', 'r2', 'r2']);
    now.mockReturnValue(1_029_999);
    expect(target(pools.graphqlPoolsOf(s, timeouts, false)!.roles)).toBe('r2');
    now.mockReturnValue(1_030_000);
    const back = [1, 2].map(() => target(pools.graphqlPoolsOf(s, timeouts, false)!.roles)).sort();
    expect(back).toEqual(['r1', 'r2']);
  });

  test('every replica resting: the reads go to the primary', () => {
    jest.spyOn(Date, 'now').mockReturnValue(5_000);
    const s = source('s', at('primary'), [at('r1')]);
    pools.graphqlPoolsOf(s, timeouts, false)!.unreachable!();
    const read = pools.graphqlPoolsOf(s, timeouts, false)!;
    expect([target(read.roles), 'unreachable' in read]).toEqual(['primary', false]);
  });

  test('a replica whose URL cannot be had is left out', () => {
    const read = pools.graphqlPoolsOf(source('s', at('primary'), [{ database_url: { from_env: 'ENGINE_TEST_UNSET_URL' } }]), timeouts, false)!;
    expect([target(read.roles), 'unreachable' in read]).toEqual(['primary', false]);
  });

  test('new replicas make new pools, and the old ones are ended once no request holds them', async () => {
    const held = pools.graphqlPoolsOf(source('s', at('primary'), [at('r1')]), timeouts, false)!;
    const write = pools.graphqlPoolsOf(source('s', at('primary'), [at('r1')]), timeouts)!;
    write.release();
    const renewed = pools.graphqlPoolsOf(source('s', at('primary'), [at('r1'), at('r2')]), timeouts, false)!;
    expect(renewed.roles).not.toBe(held.roles);
    expect(renewed.admin).toBe(held.admin);
    expect([target(renewed.roles), target(pools.graphqlPoolsOf(source('s', at('primary'), [at('r1'), at('r2')]), timeouts, false)!.roles)]).toEqual([
      'r1',
      'r2',
    ]);
    // The old primary's pools were held by no one: ended at once; the replica's wait for `held`.
    expect([ended(write.roles), ended(write.adminGraphql)]).toEqual([true, true]);
    expect([ended(held.roles), ended(held.adminGraphql), pools.retiredInUse]).toEqual([false, false, 1]);
    held.release();
    held.release();
    expect([ended(held.roles), ended(held.adminGraphql), ended(held.admin), pools.retiredInUse]).toEqual([true, true, false, 0]);
  });

  test("a new connection retires the source's pool too, ended once the request holding it gives it back", () => {
    const held = pools.graphqlPoolsOf(source('s', at('old')), timeouts)!;
    const renewed = pools.graphqlPoolsOf(source('s', at('new')), timeouts)!;
    expect([target(renewed.admin), ended(held.admin), ended(held.roles)]).toEqual(['new', false, false]);
    held.release();
    expect([ended(held.admin), ended(held.roles), ended(renewed.admin)]).toEqual([true, true, false]);
  });
});

describe('poolOf, leasedPoolOf, openPoolOf', () => {
  test('one pool per configuration; the old one ended at once when nothing holds it', () => {
    const first = pools.poolOf(source('s', at('a'))) as Pool;
    expect(pools.poolOf(source('s', at('a')))).toBe(first);
    const second = pools.poolOf(source('s', at('b'))) as Pool;
    expect([target(first), target(second), ended(first), ended(second)]).toEqual(['a', 'b', true, false]);
  });

  test('a configuration that cannot be had is answered with its problem, and no pool is opened', () => {
    const unset = source('s', { database_url: { from_env: 'ENGINE_TEST_UNSET_URL' } });
    const problem = { problem: 'environment variable "ENGINE_TEST_UNSET_URL" is not set' };
    expect(pools.poolOf(unset)).toEqual(problem);
    expect(pools.leasedPoolOf(unset)).toEqual(problem);
    expect(pools.openPoolOf(unset)).toBeUndefined();
  });

  test('a leased pool retired meanwhile is ended only once given back', () => {
    const leased = pools.leasedPoolOf(source('s', at('a')));
    if ('problem' in leased) throw new Error(leased.problem);
    expect(leased.pool).toBe(pools.poolOf(source('s', at('a'))));
    pools.poolOf(source('s', at('b')));
    expect([ended(leased.pool), pools.retiredInUse]).toEqual([false, 1]);
    leased.release();
    expect([ended(leased.pool), pools.retiredInUse]).toEqual([true, 0]);
  });

  test('openPoolOf: the pool of the present configuration, never one it opens', () => {
    expect(pools.openPoolOf(source('s', at('a')))).toBeUndefined();
    const open = pools.poolOf(source('s', at('a')));
    expect(pools.openPoolOf(source('s', at('a')))).toBe(open);
    expect(pools.openPoolOf(source('s', at('b')))).toBeUndefined();
    expect(pools.openPoolOf(source('t', at('a')))).toBeUndefined();
  });
});

describe('keepOnly and close', () => {
  test('keepOnly ends the pools of the sources left out, and keeps the others', () => {
    const kept = pools.graphqlPoolsOf(source('kept', at('k')), timeouts)!;
    const gone = pools.graphqlPoolsOf(source('gone', at('g'), [at('gr')]), timeouts, false)!;
    kept.release();
    gone.release();
    pools.keepOnly([source('kept', at('k'))]);
    expect([kept.admin, kept.roles, kept.adminGraphql].map(ended)).toEqual([false, false, false]);
    expect([gone.admin, gone.roles, gone.adminGraphql].map(ended)).toEqual([true, true, true]);
    const primaryOfGone = pools.graphqlPoolsOf(source('gone', at('g')), timeouts)!;
    expect(ended(primaryOfGone.roles)).toBe(false);
    expect(pools.poolOf(source('kept', at('k')))).toBe(kept.admin);
    expect(pools.graphqlPoolsOf(source('kept', at('k')), timeouts)!.roles).toBe(kept.roles);
  });

  test('close ends every pool, those retired and still held too', async () => {
    const held = pools.graphqlPoolsOf(source('a', at('a1')), timeouts)!;
    pools.graphqlPoolsOf(source('a', at('a2')), timeouts);
    const open = pools.graphqlPoolsOf(source('b', at('b'), [at('br')]), timeouts, false)!;
    const primaryOfB = pools.graphqlPoolsOf(source('b', at('b'), [at('br')]), timeouts)!;
    const current = pools.graphqlPoolsOf(source('a', at('a2')), timeouts)!;
    expect(ended(held.admin)).toBe(false);
    await pools.close();
    const all = [held, open, primaryOfB, current].flatMap((set) => [set.admin, set.roles, set.adminGraphql]);
    expect(all.map(ended)).toEqual(all.map(() => true));
    expect(pools.openPoolOf(source('a', at('a2')))).toBeUndefined();
  });
});
