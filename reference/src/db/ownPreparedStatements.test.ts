// ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS (the engine's HASURA_GRAPHQL_USE_PREPARED_STATEMENTS, true by
// default): whether the server's own GraphQL statements are prepared while the default source has no
// configuration (decision dec.source.prepared-statements). Seen from inside the statement: a view
// counts the session's prepared statements, which a named statement is among while it runs.
import { Client } from 'pg';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { startServer } from '../server';

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let database: { name: string; url: string };

beforeAll(async () => {
  database = await createDatabase(cluster());
  const db = new Client({ connectionString: database.url });
  await db.connect();
  await db.query('create view prepared_here as select count(*)::int as n from pg_prepared_statements');
  await db.end();
});
afterAll(async () => {
  await dropDatabase(cluster(), database.name);
});

/** What the view answers to three queries in a row, on a server started with `settings` and the default source's `configuration`. */
async function seen(settings: Record<string, string>, configuration?: unknown): Promise<number[]> {
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: 'prep', ...settings });
  const server = await startServer(config, database.url, createLogger('silent'));
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'x-engine-admin-secret': 'prep', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: { prepared_here: { n: number }[] } } }));
  try {
    const tables = [{ table: { schema: 'public', name: 'prepared_here' } }];
    const replaced = await post('/v1/metadata', {
      type: 'replace_metadata',
      args: { version: 2, tables, default_source: configuration ? { configuration } : null },
    });
    expect(replaced.status).toBe(200);
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) counts.push((await post('/v1/graphql', { query: '{ prepared_here { n } }' })).body.data!.prepared_here[0]!.n);
    return counts;
  } finally {
    await server.close();
  }
}

const own = (extra: Record<string, unknown>) => ({ connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, ...extra } });

// Prepared by default, and unprepared under a configuration that does not say true: the
// conformance case prepared-statements.test.ts, on the run's own servers.
test("not prepared with ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS=false; the default source's use_prepared_statements true wins over it", async () => {
  expect(await seen({ ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS: 'false' })).toEqual([0, 0, 0]);
  expect((await seen({ ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS: 'false' }, own({ use_prepared_statements: true }))).every((n) => n >= 1)).toBe(true);
});
