// The commit of a request over several databases (decision dec.source.atomic-commit), on real
// databases: committed on every database or on none, whichever part refuses (a deferred unique
// violation at the server's own COMMIT or at a source's PREPARE, a source whose PostgreSQL cannot
// prepare); a single writer committed without PREPARE; every connection given back; and a request
// stopped after its own COMMIT has recorded its prepared transactions (named by the catalog and the
// server) and holds the catalog lock until its connection goes, after which recovery commits them.
import { randomUUID } from 'node:crypto';
import { Client, DatabaseError, Pool, type PoolClient } from 'pg';
import { createDatabase, dropDatabase, onCluster } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { startOtherCluster, type OtherCluster } from '../../../conformance/harness/otherCluster';
import type { MetadataDocument } from '../../../spec';
import { ensureCatalog } from '../catalog/catalog';
import { SourcePools } from '../db/sourcePools';
import { EngineError } from '../errors';
import * as q from '../sql';
import { commitTogether, type Coordinator, type SourceParticipant } from './atomicCommit';
import { PreparedRecovery } from './preparedRecovery';

jest.setTimeout(60_000);

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let own: { name: string; url: string };
let source: { name: string; url: string };
let second: { name: string; url: string };
let lean: OtherCluster;
let coordinator: Coordinator;
const left: string[] = [];
/** The connections given back, by name, and whether they were closed rather than kept. */
let released: { name: string; destroyed: boolean }[] = [];
/** A key of the second row of which fails only at commit. */
const ONCE = 'create table once (k int, constraint once_k unique (k) deferrable initially deferred); insert into once values (1)';

beforeAll(async () => {
  [own, source, second, lean] = await Promise.all([
    createDatabase(cluster()),
    createDatabase(cluster()),
    createDatabase(cluster()),
    startOtherCluster({ max_prepared_transactions: '0' }),
  ]);
  const client = new Client({ connectionString: own.url });
  await client.connect();
  await ensureCatalog(client);
  await client.query(`create table note (id int primary key); ${ONCE}`);
  const tag = (await q.run<{ tag: string }>(client, q.readCatalogTag))[0]!.tag;
  await client.end();
  coordinator = { catalogTag: tag, serverId: randomUUID(), leftBehind: () => void left.push('left') };
  for (const url of [source.url, lean.url, second.url]) await onCluster(url, (c) => c.query(`create table ledger (id int primary key); ${ONCE}`));
});
afterAll(async () => {
  await lean?.stop();
  await Promise.all([own, source, second].map((d) => d && dropDatabase(cluster(), d.name)));
});
beforeEach(async () => {
  released = [];
  left.length = 0;
  for (const url of [own.url, source.url, second.url]) await onCluster(url, (c) => c.query(`truncate ${url === own.url ? 'note' : 'ledger'}`));
});

/** A connection in a transaction that ran `statements`, lent as the engine's pools lend one: released, it is closed. */
async function lend(url: string, name: string, ...statements: string[]): Promise<PoolClient> {
  const client = new Client({ connectionString: url });
  await client.connect();
  for (const statement of ['begin', ...statements]) await client.query(statement);
  const release = (destroy?: boolean | Error) => {
    released.push({ name, destroyed: destroy !== undefined && destroy !== false });
    void client.end();
  };
  return Object.assign(client, { release }) as unknown as PoolClient;
}
const participant = async (url: string, name: string, ...statements: string[]): Promise<SourceParticipant> => ({
  name,
  client: await lend(url, name, ...statements),
  ranSql: false,
});
async function writing(url: string, table: 'note' | 'ledger', id: number): Promise<PoolClient> {
  return lend(url, table, `insert into ${table} values (${Number(id)})`);
}
const rowsOf = (url: string, text: string) => onCluster(url, async (c) => (await c.query(text)).rows);
const preparedOn = (url: string) => rowsOf(url, 'select gid from pg_prepared_xacts where database = current_database()');
/** Whether another session can take the catalog lock now (no request holds it). */
const lockFree = () =>
  onCluster(own.url, async (c) => {
    await c.query('begin');
    const [row] = await q.run<{ locked: boolean }>(c, q.tryLockCatalog);
    await c.query('rollback');
    return row!.locked;
  });

test('own and two sources that wrote: committed on all three, nothing left prepared or recorded, the lock free, every connection kept', async () => {
  const ownClient = await writing(own.url, 'note', 1);
  const parts = [
    await participant(source.url, 'archive', 'insert into ledger values (1)'),
    await participant(second.url, 'annex', 'insert into ledger values (2)'),
  ];
  let ended = false;
  await commitTogether(ownClient, parts, coordinator, () => (ended = true));
  expect(ended).toBe(true);
  ownClient.release();
  expect(await rowsOf(source.url, 'select id from ledger')).toEqual([{ id: 1 }]);
  expect(await rowsOf(second.url, 'select id from ledger')).toEqual([{ id: 2 }]);
  expect(await rowsOf(own.url, 'select id from note')).toEqual([{ id: 1 }]);
  expect([await preparedOn(source.url), await preparedOn(second.url), await rowsOf(own.url, 'select gid from engine_catalog.engine_prepared_commit')]).toEqual([
    [],
    [],
    [],
  ]);
  expect(await lockFree()).toBe(true);
  expect(left).toEqual([]);
  expect(released.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { name: 'annex', destroyed: false },
    { name: 'archive', destroyed: false },
    { name: 'note', destroyed: false },
  ]);
});

test('one source wrote and own did not: committed plainly (a temporary table, which PREPARE refuses, is taken); a reader committed too', async () => {
  const ownClient = await lend(own.url, 'own', 'select 1');
  const writer = await participant(source.url, 'archive', 'create temporary table scratch (id int)', 'insert into ledger values (3)');
  const reader = await participant(second.url, 'annex', 'select count(*) from ledger');
  let ended = false;
  await commitTogether(ownClient, [writer, reader], coordinator, () => (ended = true));
  expect(ended).toBe(true);
  ownClient.release();
  expect(await rowsOf(source.url, 'select id from ledger')).toEqual([{ id: 3 }]);
  expect(released.map((r) => r.destroyed)).toEqual([false, false, false]);
});

test("the server's own COMMIT refused (a deferred unique violation): the prepared transaction rolled back, nothing recorded, the lock free", async () => {
  const ownClient = await lend(own.url, 'own', 'insert into once values (1)');
  const writer = await participant(source.url, 'archive', 'insert into ledger values (4)');
  let ended = false;
  const failure = await commitTogether(ownClient, [writer], coordinator, () => (ended = true)).catch((error: unknown) => error);
  expect([failure instanceof DatabaseError, (failure as DatabaseError).code]).toEqual([true, '23505']);
  // The transaction is over: the caller has nothing to roll back.
  expect(ended).toBe(true);
  expect(await lockFree()).toBe(true);
  ownClient.release();
  expect(await rowsOf(source.url, 'select id from ledger')).toEqual([]);
  expect(await preparedOn(source.url)).toEqual([]);
  expect(await rowsOf(own.url, 'select gid from engine_catalog.engine_prepared_commit')).toEqual([]);
  expect(left).toEqual([]);
});

test("a source's PREPARE refused (its deferred unique violation): the other source rolled back, a reader too, the server's own transaction left to the caller", async () => {
  const ownClient = await writing(own.url, 'note', 5);
  const parts = [
    await participant(source.url, 'archive', 'insert into ledger values (5)'),
    await participant(second.url, 'annex', 'insert into once values (1)'),
    await participant(second.url, 'reader', 'select 1'),
  ];
  let ended = false;
  const failure = await commitTogether(ownClient, parts, coordinator, () => (ended = true)).catch((error: unknown) => error);
  expect([failure instanceof DatabaseError, (failure as DatabaseError).code]).toEqual([true, '23505']);
  expect(ended).toBe(false);
  await ownClient.query('rollback');
  ownClient.release();
  expect(await rowsOf(source.url, 'select id from ledger')).toEqual([]);
  expect([await preparedOn(source.url), await preparedOn(second.url)]).toEqual([[], []]);
  expect(released.map((r) => r.name).sort()).toEqual(['annex', 'archive', 'note', 'reader']);
  expect(released.every((r) => !r.destroyed)).toBe(true);
});

test('a source whose PostgreSQL has max_prepared_transactions = 0 refuses the commit, named, and nothing is committed', async () => {
  const ownClient = await writing(own.url, 'note', 1);
  const participants = [
    { name: 'archive', client: await writing(source.url, 'ledger', 1), ranSql: false },
    { name: 'lean', client: await writing(lean.url, 'ledger', 1), ranSql: false },
  ];
  let ended = false;
  const failure = await commitTogether(ownClient, participants, coordinator, () => (ended = true)).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(EngineError);
  expect((failure as EngineError).toBody()).toEqual({
    path: '$',
    code: 'invalid-configuration',
    error:
      'source "lean" cannot commit together with other databases: its PostgreSQL has max_prepared_transactions = 0; set max_prepared_transactions (for instance to its max_connections) in its postgresql.conf and restart it',
  });
  // The request's own transaction is the caller's to roll back.
  expect(ended).toBe(false);
  await ownClient.query('rollback');
  ownClient.release();
  for (const url of [source.url, lean.url]) expect(await onCluster(url, async (c) => (await c.query('select id from ledger')).rows)).toEqual([]);
  expect(await onCluster(source.url, async (c) => (await c.query('select gid from pg_prepared_xacts where database = current_database()')).rows)).toEqual([]);
  expect(await onCluster(own.url, async (c) => (await c.query('select id from note')).rows)).toEqual([]);
});

test('stopped after its own COMMIT, a request has recorded its prepared transactions and holds the catalog lock; once its connection goes, recovery commits them', async () => {
  const ownClient = await writing(own.url, 'note', 2);
  const participants = [{ name: 'archive', client: await writing(source.url, 'ledger', 2), ranSql: false }];
  process.env.ENGINE_TEST_PAUSE_AT = 'committed';
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    void commitTogether(ownClient, participants, coordinator, () => {});
    const recorded = () => onCluster(own.url, (c) => q.run<{ gid: string; source: string }>(c, q.readPreparedRecords));
    const deadline = Date.now() + 10_000;
    while ((await recorded()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const [entry] = await recorded();
    expect(entry).toEqual({
      gid: expect.stringMatching(new RegExp(`^engine_commit_${coordinator.catalogTag}_${coordinator.serverId}_[0-9a-f]{16}$`)),
      source: 'archive',
    });
    expect(await onCluster(own.url, async (c) => (await c.query('select id from note')).rows)).toEqual([{ id: 2 }]);
    const pools = new SourcePools();
    const ownPool = new Pool({ connectionString: own.url, max: 2 });
    const document: MetadataDocument = {
      version: 2,
      tables: [],
      sources: [{ name: 'archive', kind: 'postgres', configuration: { connection_info: { database_url: source.url } }, tables: [] }],
    };
    const recovery = new PreparedRecovery(
      ownPool,
      pools,
      () => document,
      () => coordinator.catalogTag,
      { log: () => {} },
    );
    try {
      // Between its phases the request holds the lock: recovery leaves it alone.
      expect(await recovery.recover(false)).toEqual({ committed: [], rolledBack: [] });
      expect(await onCluster(source.url, async (c) => (await c.query('select id from ledger')).rows)).toEqual([]);
      await (ownClient as unknown as Client).end();
      await (participants[0]!.client as unknown as Client).end();
      expect(await recovery.recover(true)).toEqual({ committed: [entry!.gid], rolledBack: [] });
      expect(await onCluster(source.url, async (c) => (await c.query('select id from ledger')).rows)).toEqual([{ id: 2 }]);
      expect(await onCluster(own.url, (c) => q.run(c, q.readPreparedRecords))).toEqual([]);
    } finally {
      await pools.close();
      await ownPool.end();
    }
  } finally {
    delete process.env.ENGINE_TEST_PAUSE_AT;
    stderr.mockRestore();
  }
});
