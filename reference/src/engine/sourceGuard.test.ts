// The transaction guard of other sources' databases (decision dec.source.transaction-guard): SQL
// that reaches a source's transaction and ends it — past run_sql's parser check, as a parser
// difference would let it — fails at that COMMIT, with everything it wrote; a token read from the
// guard's row does not pass; the engine's own commit, plain or prepared, does, and leaves no row;
// a database whose user may not make the guard keeps working without it.
import { randomUUID } from 'node:crypto';
import { Client, DatabaseError, Pool } from 'pg';
import { createDatabase, dropDatabase, onCluster } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { ensureCatalog } from '../catalog/catalog';
import * as q from '../sql';
import { commitTogether, type Coordinator } from './atomicCommit';
import { SourceTransactions } from './sourceTransactions';

jest.setTimeout(60_000);

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let own: { name: string; url: string };
let source: { name: string; url: string };
let second: { name: string; url: string };
let coordinator: Coordinator;
const pools: Pool[] = [];
const poolOf = (url: string) => {
  const pool = new Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return pool;
};

beforeAll(async () => {
  [own, source, second] = await Promise.all([createDatabase(cluster()), createDatabase(cluster()), createDatabase(cluster())]);
  const client = new Client({ connectionString: own.url });
  await client.connect();
  await ensureCatalog(client);
  await client.query('create table note (id int primary key)');
  const tag = (await q.run<{ tag: string }>(client, q.readCatalogTag))[0]!.tag;
  await client.end();
  coordinator = { catalogTag: tag, serverId: randomUUID(), leftBehind: () => {} };
  for (const url of [source.url, second.url]) await onCluster(url, (c) => c.query('create table ledger (id int primary key)'));
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await Promise.all([own, source, second].map((d) => d && dropDatabase(cluster(), d.name)));
});
beforeEach(async () => {
  for (const url of [source.url, second.url]) await onCluster(url, (c) => c.query('truncate ledger'));
  await onCluster(own.url, (c) => c.query('truncate note'));
});

const rowsOf = (url: string, text: string) => onCluster(url, async (c) => (await c.query(text)).rows);
const ledger = (url: string) => rowsOf(url, 'select id from ledger order by id');
const guardRows = (url: string) => rowsOf(url, 'select token from engine_catalog.source_transaction_guard');
const failureOf = (error: unknown) => (error instanceof DatabaseError ? `${error.code} ${error.message}` : String(error));

test('a COMMIT in SQL run on a source fails there, and what it wrote before and after is gone [dec.source.transaction-guard]', async () => {
  const transactions = new SourceTransactions();
  const pool = poolOf(source.url);
  const failure = await transactions
    .run(
      's',
      () => pool,
      (db) => db.query('insert into ledger values (1); commit; insert into ledger values (2)'),
    )
    .catch(failureOf);
  await transactions.rollback();
  expect(failure).toBe('EA001 run_sql may not end the transaction of its request');
  // The guard made for it went with the transaction, as everything else it did.
  expect({
    rows: await ledger(source.url),
    guard: await rowsOf(source.url, "select to_regclass('engine_catalog.source_transaction_guard')::text as guard"),
  }).toEqual({
    rows: [],
    guard: [{ guard: null }],
  });
});

test("SQL that commits with what the guard's row holds fails too", async () => {
  const transactions = new SourceTransactions();
  const pool = poolOf(source.url);
  const forged =
    "insert into ledger values (3); select set_config('engine.source_commit_token', token, true) from engine_catalog.source_transaction_guard; commit";
  const failure = await transactions
    .run(
      's',
      () => pool,
      (db) => db.query(forged),
    )
    .catch(failureOf);
  await transactions.rollback();
  expect(failure).toBe('EA001 run_sql may not end the transaction of its request');
  expect(await ledger(source.url)).toEqual([]);
});

test("the engine's commit passes: one source alone, committed plainly, and no guard row left", async () => {
  const transactions = new SourceTransactions();
  const pool = poolOf(source.url);
  await transactions.run(
    's',
    () => pool,
    (db) => db.query('insert into ledger values (4)'),
  );
  const ownClient = await poolOf(own.url).connect();
  await q.run(ownClient, q.begin);
  let ended = false;
  await commitTogether(ownClient, transactions.participants(), coordinator, () => (ended = true));
  ownClient.release();
  expect({ ended, rows: await ledger(source.url), guard: await guardRows(source.url) }).toEqual({ ended: true, rows: [{ id: 4 }], guard: [] });
});

test("the engine's commit passes when it prepares: two sources and the server's own database", async () => {
  const transactions = new SourceTransactions();
  const [a, b] = [poolOf(source.url), poolOf(second.url)];
  await transactions.run(
    'a',
    () => a,
    (db) => db.query('insert into ledger values (5)'),
  );
  await transactions.run(
    'b',
    () => b,
    (db) => db.query('insert into ledger values (6)'),
  );
  const ownClient = await poolOf(own.url).connect();
  await q.run(ownClient, q.begin);
  await ownClient.query('insert into note values (7)');
  await commitTogether(ownClient, transactions.participants(), coordinator, () => {});
  ownClient.release();
  expect({
    source: await ledger(source.url),
    second: await ledger(second.url),
    own: await rowsOf(own.url, 'select id from note'),
    guards: [...(await guardRows(source.url)), ...(await guardRows(second.url))],
    prepared: await rowsOf(source.url, 'select gid from pg_prepared_xacts where database = current_database()'),
  }).toEqual({ source: [{ id: 5 }], second: [{ id: 6 }], own: [{ id: 7 }], guards: [], prepared: [] });
});

test('a source whose user may not make the guard runs its SQL without it, and commits', async () => {
  const fresh = await createDatabase(cluster());
  try {
    const role = `guardless_${randomUUID().slice(0, 8)}`;
    await onCluster(fresh.url, async (c) => {
      await c.query(`create role ${role} login password 'pw'`);
      await c.query(`revoke create on database ${fresh.name} from public`);
      await c.query('revoke create on schema public from public');
      await c.query(`create table ledger (id int primary key); grant all on ledger to ${role}`);
    });
    const url = new URL(fresh.url);
    url.username = role;
    url.password = 'pw';
    const pool = poolOf(url.toString());
    const transactions = new SourceTransactions();
    await transactions.run(
      's',
      () => pool,
      (db) => db.query('insert into ledger values (8)'),
    );
    const ownClient = await poolOf(own.url).connect();
    await q.run(ownClient, q.begin);
    await commitTogether(ownClient, transactions.participants(), coordinator, () => {});
    ownClient.release();
    expect({
      rows: await ledger(fresh.url),
      guard: await rowsOf(fresh.url, "select to_regclass('engine_catalog.source_transaction_guard')::text as guard"),
    }).toEqual({ rows: [{ id: 8 }], guard: [{ guard: null }] });
  } finally {
    await Promise.all(pools.splice(0).map((p) => p.end()));
    await dropDatabase(cluster(), fresh.name);
  }
});
