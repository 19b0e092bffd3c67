// The database goes away under a running server and comes back on the same address: requests get
// `postgres-error` "connection error" meanwhile (err.postgres-error.connection), /healthz says what
// is wrong (dec.healthz), and the server answers again without a restart.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config';
import { freePort, provisionDatabase, type ProvisionedDatabase } from './db/provision';
import { createLogger } from './log';
import { startServer, type RunningServer } from './server';

jest.setTimeout(60_000);

let parent: string;
let database: ProvisionedDatabase | undefined;
let server: RunningServer | undefined;

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), 'engine-outage-'));
  chmodSync(parent, 0o755);
});
afterAll(async () => {
  await server?.close();
  await database?.stop();
  rmSync(parent, { recursive: true, force: true });
});

const post = async (body: unknown, endpoint: string) => {
  const r = await fetch(server!.url + endpoint, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, body: await r.json() };
};
const health = async () => {
  const r = await fetch(server!.url + '/healthz');
  return { status: r.status, body: await r.text() };
};
const query = { query: '{ outage { id } }' };

/** `npm start` once makes the data directory (initdb runs where Node's own require loads ES modules). */
async function initialiseDataDir(dataDir: string): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ENGINE_GRAPHQL_DATA_DIR: dataDir,
    ENGINE_GRAPHQL_SERVER_PORT: String(await freePort()),
    ENGINE_GRAPHQL_LOG_LEVEL: 'error',
  };
  delete env.ENGINE_GRAPHQL_DATABASE_URL;
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [join(__dirname, '..', '..', 'bin', 'engine-reference.js')], { env, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${env.ENGINE_GRAPHQL_SERVER_PORT}/healthz`;
  while (
    !(await fetch(url).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  await exited;
}

test('while PostgreSQL is down every API says so, and all answer again when it is back [err.postgres-error.connection] [dec.healthz]', async () => {
  const port = await freePort();
  const dataDir = join(parent, 'data');
  await initialiseDataDir(dataDir);
  database = await provisionDatabase({ persistentDir: dataDir, port });
  server = await startServer(loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0' }), database.url, createLogger('error'));
  expect(await post({ type: 'run_sql', args: { sql: 'create table outage (id int primary key); insert into outage values (1)' } }, '/v2/query')).toMatchObject({
    status: 200,
  });
  expect(await post({ type: 'track_table', args: { table: 'outage' } }, '/v1/metadata')).toEqual({ status: 200, body: { message: 'success' } });
  expect(await post(query, '/v1/graphql')).toEqual({ status: 200, body: { data: { outage: [{ id: 1 }] } } });

  await database.stop();
  const connectionError = { errors: [{ message: 'connection error', extensions: { path: '$', code: 'postgres-error' } }] };
  expect(await post(query, '/v1/graphql')).toEqual({ status: 500, body: connectionError });
  expect(await post({ type: 'run_sql', args: { sql: 'select 1' } }, '/v2/query')).toMatchObject({
    status: 500,
    body: { path: '$', error: 'connection error', code: 'postgres-error' },
  });
  expect(await health()).toEqual({ status: 500, body: 'ERROR: the database does not answer' });

  database = await provisionDatabase({ persistentDir: dataDir, port });
  expect(await health()).toEqual({ status: 200, body: 'OK' });
  expect(await post(query, '/v1/graphql')).toEqual({ status: 200, body: { data: { outage: [{ id: 1 }] } } });
  expect(await post({ type: 'run_sql', args: { sql: 'select count(*) from outage' } }, '/v2/query')).toEqual({
    status: 200,
    body: { result_type: 'TuplesOk', result: [['count'], ['1']] },
  });
});
