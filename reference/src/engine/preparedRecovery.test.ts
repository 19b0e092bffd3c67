// Recovery of what commits over several databases left prepared (decision
// dec.source.atomic-commit): under the catalog lock, a transaction of this catalog that the catalog
// records is committed, one it does not record is rolled back, another catalog's is left alone; a
// record whose transaction is gone is forgotten; while another holds the catalog lock (a request
// between its phases) a look that may not wait touches nothing.
import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import type { MetadataDocument } from '../../../spec';
import { ensureCatalog } from '../catalog/catalog';
import { SourcePools } from '../db/sourcePools';
import * as q from '../sql';
import { PreparedRecovery } from './preparedRecovery';

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let own: { name: string; url: string };
let source: { name: string; url: string };
let ownDb: Client;
let sourceDb: Client;
let pool: Pool;
let tag: string;
const pools = new SourcePools();
const logged: unknown[] = [];

beforeAll(async () => {
  [own, source] = await Promise.all([createDatabase(cluster()), createDatabase(cluster())]);
  ownDb = new Client({ connectionString: own.url });
  sourceDb = new Client({ connectionString: source.url });
  await Promise.all([ownDb.connect(), sourceDb.connect()]);
  await ensureCatalog(ownDb);
  tag = (await q.run<{ tag: string }>(ownDb, q.readCatalogTag))[0]!.tag;
  await sourceDb.query('create table ledger (id int primary key)');
  pool = new Pool({ connectionString: own.url, max: 2 });
});
afterAll(async () => {
  await pools.close();
  await pool.end();
  await Promise.all([ownDb.end(), sourceDb.end()]);
  await Promise.all([own, source].map((d) => dropDatabase(cluster(), d.name)));
});
afterEach(async () => {
  // What a case left prepared (another catalog's) would keep its database from being dropped.
  const left = await sourceDb.query<{ gid: string }>('select gid from pg_prepared_xacts where database = current_database()');
  for (const { gid } of left.rows) await q.run(sourceDb, q.rollbackPrepared(gid));
  await sourceDb.query('truncate ledger');
  await ownDb.query('truncate engine_catalog.engine_prepared_commit');
  logged.length = 0;
});

const document: MetadataDocument = {
  version: 2,
  tables: [],
  sources: [{ name: 'archive', kind: 'postgres', configuration: { connection_info: { database_url: '' } }, tables: [] }],
};
const recovery = () => {
  document.sources![0]!.configuration.connection_info.database_url = source.url;
  return new PreparedRecovery(
    pool,
    pools,
    () => document,
    () => tag,
    { log: (...line) => void logged.push(line) },
  );
};

/** A transaction on the source that inserts `id`, prepared as `gid`. */
async function prepared(gid: string, id: number): Promise<string> {
  const client = new Client({ connectionString: source.url });
  await client.connect();
  await client.query('begin');
  await client.query('insert into ledger values ($1)', [id]);
  await q.run(client, q.prepareTransaction(gid));
  await client.end();
  return gid;
}
const ours = () => `${q.gidPrefix(tag)}${randomUUID()}_test`;
const record = (gid: string) => q.run(ownDb, q.recordPrepared([{ gid, source: 'archive' }]));
const preparedNow = async () =>
  (await sourceDb.query('select gid from pg_prepared_xacts where database = current_database() order by gid')).rows.map((r) => r.gid);
const ledger = async () => (await sourceDb.query('select id from ledger order by id')).rows.map((r) => r.id);
const records = async () => (await ownDb.query('select gid from engine_catalog.engine_prepared_commit order by gid')).rows.map((r) => r.gid);

test("recorded: committed; not recorded: rolled back; another catalog's: left alone; a record whose transaction is gone: forgotten", async () => {
  const decided = await prepared(ours(), 1);
  await record(decided);
  const undecided = await prepared(ours(), 2);
  const foreign = await prepared(`${q.gidPrefix('0'.repeat(32))}${randomUUID()}_test`, 3);
  const gone = ours();
  await record(gone);
  expect(await recovery().recover(false)).toEqual({ committed: [decided], rolledBack: [undecided] });
  expect(await ledger()).toEqual([1]);
  expect(await preparedNow()).toEqual([foreign]);
  expect(await records()).toEqual([]);
  expect(logged).toHaveLength(2);
  expect(logged).toEqual(
    expect.arrayContaining([
      ['warn', 'prepared-transactions', { source: 'archive', gid: decided, message: 'committed by recovery' }],
      ['warn', 'prepared-transactions', { source: 'archive', gid: undecided, message: 'rolled back by recovery' }],
    ]),
  );
});

test('with nothing prepared, a record whose transaction is gone is forgotten, and the catalog lock is not asked for', async () => {
  const gone = ours();
  await record(gone);
  const holder = new Client({ connectionString: own.url });
  await holder.connect();
  await q.run(holder, q.holdCatalogLock);
  try {
    expect(await recovery().recover(true)).toEqual({ committed: [], rolledBack: [] });
    expect(await records()).toEqual([]);
  } finally {
    await holder.end();
  }
});

test('while another holds the catalog lock nothing is touched; a look that waits settles once the lock is free', async () => {
  const decided = await prepared(ours(), 4);
  await record(decided);
  const undecided = await prepared(ours(), 5);
  const holder = new Client({ connectionString: own.url });
  await holder.connect();
  await q.run(holder, q.holdCatalogLock);
  expect(await recovery().recover(false)).toEqual({ committed: [], rolledBack: [] });
  expect((await preparedNow()).sort()).toEqual([decided, undecided].sort());
  // The look that left gave its connection back, its transaction ended.
  const inTransaction = await ownDb.query("select pid from pg_stat_activity where datname = $1 and state like 'idle in transaction%'", [own.name]);
  expect([inTransaction.rows, pool.totalCount > 0, pool.idleCount === pool.totalCount]).toEqual([[], true, true]);
  let settled = false;
  const waiting = recovery()
    .recover(true)
    .finally(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(settled).toBe(false);
  await holder.end();
  expect(await waiting).toEqual({ committed: [decided], rolledBack: [undecided] });
  expect(await ledger()).toEqual([4]);
  expect(await records()).toEqual([]);
});

test('a record of a source the metadata does not name is kept: its transaction may be on a database not asked', async () => {
  const elsewhere = ours();
  await q.run(ownDb, q.recordPrepared([{ gid: elsewhere, source: 'elsewhere' }]));
  expect(await recovery().recover(true)).toEqual({ committed: [], rolledBack: [] });
  expect(await records()).toEqual([elsewhere]);
});

test('soon() looks within about a second, and a stopped recovery looks no more', async () => {
  const running = recovery();
  const first = await prepared(ours(), 6);
  running.soon();
  const deadline = Date.now() + 5000;
  while ((await preparedNow()).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await preparedNow()).toEqual([]);
  expect(logged).toEqual([['warn', 'prepared-transactions', { source: 'archive', gid: first, message: 'rolled back by recovery' }]]);
  await running.stop();
  const second = await prepared(ours(), 7);
  running.soon();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await preparedNow()).toEqual([second]);
});

test('several sources: a database named twice has each transaction settled once; one with none, and one that does not answer, hold nothing up', async () => {
  const decided = await prepared(ours(), 8);
  await record(decided);
  const undecided = await prepared(ours(), 9);
  const entry = (name: string, url: string) => ({ name, kind: 'postgres' as const, configuration: { connection_info: { database_url: url } }, tables: [] });
  const several: MetadataDocument = {
    version: 2,
    tables: [],
    sources: [entry('archive', source.url), entry('again', source.url), entry('empty', own.url), entry('gone', 'postgres://engine:engine@127.0.0.1:1/nowhere')],
  };
  const recovered = await new PreparedRecovery(
    pool,
    pools,
    () => several,
    () => tag,
    { log: (...line) => void logged.push(line) },
  ).recover(false);
  expect(recovered).toEqual({ committed: [decided], rolledBack: [undecided] });
  expect(logged).toHaveLength(2);
  expect([await ledger(), await preparedNow(), await records()]).toEqual([[8], [], []]);
});

test('a source dropped while a pass settles its transactions keeps its pool until the pass ends (dec.source.in-flight)', async () => {
  const first = await prepared(ours(), 10);
  const second = await prepared(ours(), 11);
  await Promise.all([record(first), record(second)]);
  const dropping = new SourcePools();
  const told: unknown[] = [];
  const recovered = await new PreparedRecovery(
    pool,
    dropping,
    () => document,
    () => tag,
    {
      log: (...line) => {
        told.push(line);
        // A metadata change that drops the source commits between the pass's two commits.
        if (told.length === 1) dropping.keepOnly([]);
      },
    },
  ).recover(false);
  expect([recovered.committed.sort(), recovered.rolledBack]).toEqual([[first, second].sort(), []]);
  expect(told.map((line) => (line as [string, string, { message?: string }])[2].message)).toEqual(['committed by recovery', 'committed by recovery']);
  expect([await ledger(), await preparedNow(), await records()]).toEqual([[10, 11], [], []]);
  // Given back at the end of the pass: the retired pool is ended.
  expect(dropping.retiredInUse).toBe(0);
  await dropping.close();
});
