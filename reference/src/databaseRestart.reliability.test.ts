// The database restarts or fails over under a running server, as processes: PostgreSQL terminates
// the server's connections (57P01) during metadata writes, and the embedded PostgreSQL is killed.
// The server answers "connection error" meanwhile, reconnects, listens again, and goes on; an
// embedded PostgreSQL that cannot be started again ends the server with one line and exit code 1.
import { chmodSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { useDatabase } from '../../conformance/harness/database';
import { loadConfig } from './config';
import { readPostmasterLock } from './db/postmaster';
import { waitForExit } from './db/processes';
import { createLogger } from './log';
import { startServer as startInProcess } from './server';
import { children, post, startServer, startServerOn } from '../test-support/serverProcess';

jest.setTimeout(90_000);

const database = useDatabase('all');
let parent: string;

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), 'engine-restart-'));
  chmodSync(parent, 0o755);
});
afterAll(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  const lock = readPostmasterLock(join(parent, 'data', 'pgdata'));
  if (lock) await waitForExit(lock.pid, 10_000);
  rmSync(parent, { recursive: true, force: true });
});

const graphql = (url: string, query: string) => post(url, { query }, '/v1/graphql');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CONNECTION_ERROR = { path: '$', error: 'connection error', code: 'postgres-error' };

test('connections terminated during metadata writes: the server lives, answers connection error meanwhile, then serves and hears other servers again [err.postgres-error.connection]', async () => {
  const databaseUrl = database.url;
  const server = await startServerOn(databaseUrl);
  const killer = new Client({ connectionString: databaseUrl });
  await killer.connect();
  const answers = new Map<string, number>();
  let writing = true;
  const writer = async (w: number) => {
    for (let i = 0; writing; i++) {
      const table = `w${w}_${i}`;
      for (const [body, endpoint] of [
        [{ type: 'run_sql', args: { sql: `create table if not exists ${table} (id int primary key)` } }, '/v2/query'],
        [{ type: 'track_table', args: { table } }, '/v1/metadata'],
        [{ query: '{ __typename }' }, '/v1/graphql'],
      ] as const) {
        const r = await post(server.url, body, endpoint).catch((error: unknown) => ({ status: 0, body: String(error) }));
        // A refusal is fine (the table may exist already after a lost answer); a 500 must be the connection error.
        const kind =
          r.status !== 500
            ? String(r.status)
            : JSON.stringify(r.body.errors ? r.body.errors[0].extensions.code : { path: r.body.path, error: r.body.error, code: r.body.code });
        answers.set(kind, (answers.get(kind) ?? 0) + 1);
      }
    }
  };
  const writers = [1, 2, 3].map(writer);
  let terminated = 0;
  for (let round = 0; round < 25; round++) {
    const { rows } = await killer.query<{ n: number }>(
      "select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name like 'engine-reference%'",
    );
    terminated += rows[0]!.n;
    await sleep(60);
  }
  writing = false;
  await Promise.all(writers);
  expect(terminated).toBeGreaterThan(20);
  expect(server.child.exitCode).toBeNull();
  for (const kind of answers.keys()) expect(['200', '400', JSON.stringify(CONNECTION_ERROR), '"postgres-error"']).toContain(kind);
  expect(answers.get('200')).toBeGreaterThan(0);

  // Serves again: a write, a read, the health check.
  await killer.query('create table after_loss (id int primary key); insert into after_loss values (7)');
  expect(await post(server.url, { type: 'track_table', args: { table: 'after_loss' } })).toEqual({ status: 200, body: { message: 'success' } });
  expect(await graphql(server.url, '{ after_loss { id } }')).toEqual({ status: 200, body: { data: { after_loss: [{ id: 7 }] } } });
  expect(await fetch(`${server.url}/healthz`).then((r) => r.text())).toBe('OK');

  // Listens again: a change made through another server reaches this one without a request of its own.
  await killer.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'engine-reference-listener'");
  await sleep(1500);
  const other = await startInProcess(
    loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1' }),
    databaseUrl,
    createLogger('silent'),
  );
  try {
    await killer.query('create table heard (id int primary key); insert into heard values (8)');
    expect(await post(other.url, { type: 'track_table', args: { table: 'heard' } })).toEqual({ status: 200, body: { message: 'success' } });
    let answer: unknown;
    for (let i = 0; i < 50; i++) {
      answer = (await graphql(server.url, '{ heard { id } }')).body;
      if (JSON.stringify(answer) === JSON.stringify({ data: { heard: [{ id: 8 }] } })) break;
      await sleep(100);
    }
    expect(answer).toEqual({ data: { heard: [{ id: 8 }] } });
  } finally {
    await other.close();
    await killer.end();
  }
  server.child.kill('SIGTERM');
  expect(await server.exit).toBe(0);
});

test('the embedded PostgreSQL killed with -9 is started again and the server goes on; one that cannot start ends the server with exit code 1 [dec.healthz]', async () => {
  const dataDir = join(parent, 'data');
  const server = await startServer(dataDir);
  expect(
    await post(server.url, { type: 'run_sql', args: { sql: 'create table kept (id int primary key); insert into kept values (1)' } }, '/v2/query'),
  ).toMatchObject({
    status: 200,
  });
  expect(await post(server.url, { type: 'track_table', args: { table: 'kept' } })).toEqual({ status: 200, body: { message: 'success' } });

  process.kill(server.postmasterPid, 'SIGKILL');
  await waitForExit(server.postmasterPid, 10_000);
  // Meanwhile: the connection error (a request may also land after the restart).
  const during = await post(server.url, { type: 'export_metadata', args: {} });
  if (during.status !== 200) expect(during).toEqual({ status: 500, body: expect.objectContaining(CONNECTION_ERROR) });
  let health = '';
  for (let i = 0; i < 100 && health !== 'OK'; i++) {
    await sleep(100);
    health = await fetch(`${server.url}/healthz`).then((r) => r.text());
  }
  expect(health).toBe('OK');
  expect(await graphql(server.url, '{ kept { id } }')).toEqual({ status: 200, body: { data: { kept: [{ id: 1 }] } } });
  const restarted = readPostmasterLock(join(dataDir, 'pgdata'))!.pid;
  expect(restarted).not.toBe(server.postmasterPid);
  expect(server.output()).toContain('starting it again (attempt 1 of 5)');

  // A data directory PostgreSQL refuses: the server gives up after its attempts, in one line.
  renameSync(join(dataDir, 'pgdata', 'PG_VERSION'), join(dataDir, 'PG_VERSION.away'));
  process.kill(restarted, 'SIGKILL');
  expect(await server.exit).toBe(1);
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.includes('could not be started again'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('the embedded PostgreSQL exited and could not be started again after 5 attempts');
});
