// The transaction guard behind run_sql's own check: PostgreSQL itself refuses a COMMIT in run_sql's
// text that the check did not see. Here the database reads strings with backslash escapes
// (standard_conforming_strings off), so `'a\''` ends early for PostgreSQL but not for the check.
import { Client } from 'pg';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { startServer, type RunningServer } from '../server';
import { findTransactionControl } from './transactionControl';

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let database: { name: string; url: string };
let server: RunningServer;

const runSql = async (sql: string) => {
  const r = await fetch(`${server.url}/v1/query`, {
    method: 'POST',
    body: JSON.stringify({
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql } },
        { type: 'track_table', args: { table: 'nope' } },
      ],
    }),
    headers: { 'x-engine-role': 'admin' },
  });
  return { status: r.status, body: (await r.json()) as { path: string; code: string; internal?: { error: { message: string } } } };
};

beforeAll(async () => {
  database = await createDatabase(cluster());
  // Set before the server opens any connection: every one of them reads strings the old way.
  const client = new Client({ connectionString: database.url });
  await client.connect();
  await client.query(`create table probe (id int); alter database ${database.name} set standard_conforming_strings = off`);
  await client.end();
  server = await startServer(loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1' }), database.url, createLogger('silent'));
});
afterAll(async () => {
  await server.close();
  await dropDatabase(cluster(), database.name);
});

test('a COMMIT hidden from the check is refused by PostgreSQL, and nothing is kept', async () => {
  const hidden = "insert into probe values (1); select 'a\\'' ; commit; select 'b'";
  expect(findTransactionControl(hidden)).toBeUndefined();
  const r = await runSql(hidden);
  expect({ status: r.status, path: r.body.path, code: r.body.code, message: r.body.internal?.error.message }).toEqual({
    status: 400,
    path: '$.args[0]',
    code: 'postgres-error',
    message: 'run_sql may not end the transaction of its request',
  });
  const direct = await fetch(`${server.url}/v2/query`, {
    method: 'POST',
    body: JSON.stringify({ type: 'run_sql', args: { sql: 'select count(*) as n from probe', read_only: true } }),
    headers: { 'x-engine-role': 'admin' },
  });
  expect(await direct.json()).toEqual({ result_type: 'TuplesOk', result: [['n'], ['0']] });
});

test('a ROLLBACK hidden from the check leaves nothing written after it, and the request is refused', async () => {
  const hidden = "select 'a\\'' ; rollback; insert into probe values (2); select 'b'";
  expect(findTransactionControl(hidden)).toBeUndefined();
  const r = await runSql(hidden);
  expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 'postgres-error' });
  const direct = await fetch(`${server.url}/v2/query`, {
    method: 'POST',
    body: JSON.stringify({ type: 'run_sql', args: { sql: 'select count(*) as n from probe', read_only: true } }),
    headers: { 'x-engine-role': 'admin' },
  });
  expect(await direct.json()).toEqual({ result_type: 'TuplesOk', result: [['n'], ['0']] });
});
