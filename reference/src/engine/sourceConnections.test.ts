// The connections of a source added by pg_add_source: a metadata request's transaction on the source
// gives its connection back to the source's pool (reset when user SQL ran on it: run_sql may leave
// settings, temporary tables or locks in the session), and the check that a source answers uses a
// connection the request or the pool already has before it opens one.
// Watched in pg_stat_activity, through a role that may hold one connection at a time.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import * as sql from 'pg-sql2';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { startServer, type RunningServer } from '../server';

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
const role = `engine_one_connection_${randomBytes(4).toString('hex')}`;
const password = randomBytes(12).toString('hex');
let main: { name: string; url: string };
let source: { name: string; url: string };
let watcher: Client;
let server: RunningServer;

const metadata = async (type: string, args: unknown, path = '/v1/metadata'): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-engine-admin-secret': 'sources', 'content-type': 'application/json' },
    body: JSON.stringify({ type, args }),
  });
  return { status: r.status, body: await r.json() };
};

const SUCCESS = { status: 200, body: { message: 'success' } };
const THINGS = { source: 'limited', table: { schema: 'public', name: 'things' } };
const track = () => metadata('pg_track_table', THINGS);
const untrack = () => metadata('pg_untrack_table', THINGS);

/** The backends of the source's pool: the role's connections to the source's database. */
async function sourceBackends(): Promise<number[]> {
  const r = await watcher.query('select pid from pg_stat_activity where datname = $1 and usename = $2 order by pid', [source.name, role]);
  return r.rows.map((row: { pid: number }) => row.pid);
}

beforeAll(async () => {
  [main, source] = await Promise.all([createDatabase(cluster()), createDatabase(cluster())]);
  watcher = new Client({ connectionString: cluster() });
  await watcher.connect();
  await watcher.query(sql.compile(sql.query`create role ${sql.identifier(role)} login connection limit 1 password ${sql.literal(password)}`));
  const db = new Client({ connectionString: source.url });
  await db.connect();
  await db.query(sql.compile(sql.query`create table things (id int primary key); alter table things owner to ${sql.identifier(role)}`));
  await db.end();
  const url = new URL(source.url);
  url.username = role;
  url.password = password;
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: 'sources' });
  server = await startServer(config, main.url, createLogger('silent'));
  expect(
    await metadata('pg_add_source', {
      name: 'limited',
      configuration: { connection_info: { database_url: url.toString(), pool_settings: { max_connections: 1 } } },
    }),
  ).toEqual({ status: 200, body: { message: 'success' } });
});

afterAll(async () => {
  await server?.close();
  await Promise.all([main, source].map((d) => d && dropDatabase(cluster(), d.name)));
  await watcher?.query(sql.compile(sql.query`drop role if exists ${sql.identifier(role)}`));
  await watcher?.end();
});

test('a metadata request gives the source connection it used back to the pool', async () => {
  expect(await track()).toEqual(SUCCESS);
  const kept = await sourceBackends();
  expect(kept).toHaveLength(1);
  expect(await untrack()).toEqual(SUCCESS);
  expect(await track()).toEqual(SUCCESS);
  expect(await sourceBackends()).toEqual(kept);
});

test('whether the source answers is asked on the connection the request holds: a role limited to one connection is consistent', async () => {
  expect(await metadata('get_inconsistent_metadata', {})).toEqual({ status: 200, body: [] });
  const exported = await metadata('export_metadata', {});
  expect(await metadata('replace_metadata', { allow_inconsistent_metadata: true, metadata: exported.body })).toEqual({
    status: 200,
    body: { is_consistent: true, inconsistent_objects: [] },
  });
  expect(await sourceBackends()).toHaveLength(1);
});

test('the connection user SQL ran on is reset before it is used again: what the SQL set does not reach the next request', async () => {
  const before = await sourceBackends();
  for (const read_only of [false, true]) {
    expect(await metadata('run_sql', { source: 'limited', sql: "set work_mem = '7MB'", read_only }, '/v2/query')).toEqual({
      status: 200,
      body: { result_type: 'CommandOk', result: null },
    });
    expect(await metadata('run_sql', { source: 'limited', sql: 'show work_mem' }, '/v2/query')).toEqual({
      status: 200,
      body: { result_type: 'TuplesOk', result: [['work_mem'], ['4MB']] },
    });
  }
  expect(await sourceBackends()).toEqual(before);
});

test('with nothing tracked in the source, whether it answers is asked on the connection idle in its pool', async () => {
  expect(await untrack()).toEqual(SUCCESS);
  const kept = await sourceBackends();
  expect(kept).toHaveLength(1);
  expect(await metadata('get_inconsistent_metadata', {})).toEqual({ status: 200, body: [] });
  const exported = await metadata('export_metadata', {});
  expect(await metadata('replace_metadata', { allow_inconsistent_metadata: true, metadata: exported.body })).toEqual({
    status: 200,
    body: { is_consistent: true, inconsistent_objects: [] },
  });
  expect(await sourceBackends()).toEqual(kept);
});
