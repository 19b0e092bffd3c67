// The commit of a request over several databases (decision dec.source.atomic-commit), on real
// databases: a source whose PostgreSQL cannot prepare refuses the commit with a message that says
// how to fix it, nothing committed; and a request stopped after its own COMMIT has recorded its
// prepared transactions (named by the catalog and the server) and holds the catalog lock until its
// connection goes, after which recovery commits them.
import { randomUUID } from 'node:crypto';
import { Client, Pool, type PoolClient } from 'pg';
import { createDatabase, dropDatabase, onCluster } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { startOtherCluster, type OtherCluster } from '../../../conformance/harness/otherCluster';
import type { MetadataDocument } from '../../../spec';
import { ensureCatalog } from '../catalog/catalog';
import { SourcePools } from '../db/sourcePools';
import { EngineError } from '../errors';
import * as q from '../sql';
import { commitTogether, type Coordinator } from './atomicCommit';
import { PreparedRecovery } from './preparedRecovery';

jest.setTimeout(60_000);

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let own: { name: string; url: string };
let source: { name: string; url: string };
let lean: OtherCluster;
let coordinator: Coordinator;
const left: string[] = [];

beforeAll(async () => {
  [own, source, lean] = await Promise.all([createDatabase(cluster()), createDatabase(cluster()), startOtherCluster({ max_prepared_transactions: '0' })]);
  const client = new Client({ connectionString: own.url });
  await client.connect();
  await ensureCatalog(client);
  await client.query('create table note (id int primary key)');
  const tag = (await q.run<{ tag: string }>(client, q.readCatalogTag))[0]!.tag;
  await client.end();
  coordinator = { catalogTag: tag, serverId: randomUUID(), leftBehind: () => void left.push('left') };
  for (const url of [source.url, lean.url]) await onCluster(url, (c) => c.query('create table ledger (id int primary key)'));
});
afterAll(async () => {
  await lean?.stop();
  await Promise.all([own, source].map((d) => d && dropDatabase(cluster(), d.name)));
});

/** A connection in a transaction that inserted `id` into `table`, lent as the engine's pools lend one (released: closed). */
async function writing(url: string, table: 'note' | 'ledger', id: number): Promise<PoolClient> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(table === 'note' ? 'insert into note values ($1)' : 'insert into ledger values ($1)', [id]);
  return Object.assign(client, { release: () => void client.end() }) as unknown as PoolClient;
}

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
