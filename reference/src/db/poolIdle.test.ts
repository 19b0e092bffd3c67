// ENGINE_GRAPHQL_PG_TIMEOUT: how long a pooled connection may sit idle before the server closes it
// (180 s by default, as the engine's HASURA_GRAPHQL_PG_TIMEOUT). Watched in pg_stat_activity through
// the admin GraphQL pool, which nothing but admin's GraphQL requests uses.
import { Client } from 'pg';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { startServer } from '../server';

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let database: { name: string; url: string };
let watcher: Client;

beforeAll(async () => {
  database = await createDatabase(cluster());
  watcher = new Client({ connectionString: cluster() });
  await watcher.connect();
  const db = new Client({ connectionString: database.url });
  await db.connect();
  await db.query('create table engine_idle (id int primary key); insert into engine_idle values (1)');
  await db.end();
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: 'idle' });
  const server = await startServer(config, database.url, createLogger('silent'));
  const tracked = await fetch(`${server.url}/v1/metadata`, {
    method: 'POST',
    headers: { 'x-engine-admin-secret': 'idle', 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'pg_track_table', args: { table: { schema: 'public', name: 'engine_idle' } } }),
  });
  expect(tracked.status).toBe(200);
  await server.close();
});
afterAll(async () => {
  await watcher.end();
  await dropDatabase(cluster(), database.name);
});

/** Backends of the admin GraphQL pool on this test's database. */
async function adminGraphqlConnections(): Promise<number> {
  const r = await watcher.query("select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'engine-reference-admin-graphql'", [
    database.name,
  ]);
  return r.rows[0].n as number;
}

/**
 * Starts a server with the settings (and the default source's `poolSettings`, given by
 * replace_metadata), sends admin three GraphQL requests at once, and watches its pool for `seconds`.
 */
async function watchPool(settings: Record<string, string>, seconds: number, poolSettings?: Record<string, number>): Promise<number[]> {
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: 'idle', ...settings });
  const server = await startServer(config, database.url, createLogger('silent'));
  try {
    const connection_info = { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, use_prepared_statements: true, pool_settings: poolSettings };
    const replaced = await fetch(`${server.url}/v1/metadata`, {
      method: 'POST',
      headers: { 'x-engine-admin-secret': 'idle', 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'replace_metadata',
        args: {
          version: 2,
          tables: [{ table: { schema: 'public', name: 'engine_idle' } }],
          default_source: poolSettings ? { configuration: { connection_info } } : null,
        },
      }),
    });
    expect(replaced.status).toBe(200);
    const ask = () =>
      fetch(`${server.url}/v1/graphql`, {
        method: 'POST',
        headers: { 'x-engine-admin-secret': 'idle', 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query { engine_idle(order_by: {id: asc}) { id } }' }),
      }).then((r) => r.json());
    expect(await Promise.all([ask(), ask(), ask()])).toEqual(Array(3).fill({ data: { engine_idle: [{ id: 1 }] } }));
    const seen: number[] = [];
    for (let i = 0; i < seconds * 4; i++) {
      seen.push(await adminGraphqlConnections());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return seen;
  } finally {
    await server.close();
  }
}

test('a connection idle for ENGINE_GRAPHQL_PG_TIMEOUT seconds is closed; not before', async () => {
  const seen = await watchPool({ ENGINE_GRAPHQL_PG_TIMEOUT: '1' }, 2.5);
  // Open for the first half second after the requests, closed once they have been idle a second.
  expect(seen.slice(0, 2).every((n) => n > 0)).toBe(true);
  expect(seen.slice(2)).toContain(0);
  expect(seen[seen.length - 1]).toBe(0);
});

test('by default (180 s) and with 0 the connections stay open', async () => {
  for (const settings of [{}, { ENGINE_GRAPHQL_PG_TIMEOUT: '0' }] as Record<string, string>[]) {
    const seen = await watchPool(settings, 1.5);
    expect(seen.every((n) => n > 0)).toBe(true);
  }
});

test("the default source's pool_settings.idle_timeout closes them in place of ENGINE_GRAPHQL_PG_TIMEOUT", async () => {
  const seen = await watchPool({ ENGINE_GRAPHQL_PG_TIMEOUT: '0' }, 2.5, { idle_timeout: 1 });
  expect(seen.slice(0, 2).every((n) => n > 0)).toBe(true);
  expect(seen[seen.length - 1]).toBe(0);
});
