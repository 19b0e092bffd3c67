// The server as `npm start` runs it, as a process: stopped with SIGTERM while it works, killed
// with -9 during a burst of metadata writes, and started again on the same data directory.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { readPostmasterLock } from './db/postmaster';
import { commandLine, isAlive, waitForExit } from './db/processes';
import { children, post, startServer as startProcess } from '../test-support/serverProcess';

jest.setTimeout(120_000);

let dataDir: string;
const startServer = () => startProcess(dataDir);

const createAndTrack = (name: string) => ({
  type: 'bulk',
  args: [
    { type: 'run_sql', args: { sql: `create table public.${name} (id int primary key)` } },
    { type: 'track_table', args: { table: { schema: 'public', name } } },
  ],
});

/** Tables named like the burst's, in the database and in the metadata. */
async function burstTables(url: string): Promise<{ inDatabase: string[]; tracked: string[]; inconsistent: unknown }> {
  const rows = await post(
    url,
    { type: 'run_sql', args: { sql: "select table_name from information_schema.tables where table_schema = 'public' and table_name like 'w\\_%' order by 1" } },
    '/v2/query',
  );
  const exported = await post(url, { type: 'export_metadata', args: {} });
  const consistency = await post(url, { type: 'get_inconsistent_metadata', args: {} });
  if (!Array.isArray(exported.body.tables)) throw new Error(`export_metadata answered ${exported.status} ${JSON.stringify(exported.body)}`);
  const tables = exported.body.tables as { table: { name: string } }[];
  const tracked = tables
    .map((t) => t.table.name)
    .filter((name) => name.startsWith('w_'))
    .sort();
  return { inDatabase: (rows.body.result as string[][]).slice(1).map((r) => r[0]!), tracked, inconsistent: consistency.body };
}

let parent: string;
beforeEach(() => {
  // Reachable by the postgres user PostgreSQL runs as when the tests run as root.
  parent = mkdtempSync(join(tmpdir(), 'engine-lifecycle-'));
  chmodSync(parent, 0o755);
  dataDir = join(parent, 'data');
});
afterEach(async () => {
  // A failed case leaves its server running: kill it; its watchdog stops PostgreSQL.
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  const lock = readPostmasterLock(join(dataDir, 'pgdata'));
  if (lock) await waitForExit(lock.pid, 10_000);
  rmSync(parent, { recursive: true, force: true });
});

test('SIGTERM finishes the metadata transaction in flight, closes subscriptions with 1001, stops PostgreSQL and exits 0', async () => {
  const server = await startServer();
  const socket = new WebSocket(server.url.replace('http', 'ws') + '/v1/graphql', 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve) => {
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.once('message', () => resolve());
  });
  const slow = post(
    server.url,
    {
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'select pg_sleep(1.5); create table public.graceful (id int primary key)' } },
        { type: 'track_table', args: { table: { schema: 'public', name: 'graceful' } } },
      ],
    },
    '/v1/query',
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.child.kill('SIGTERM');
  // Soon no longer accepting (however loaded the machine is), while the request above is still being answered.
  let late: string | undefined;
  for (let i = 0; i < 40 && late !== 'ECONNREFUSED'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    late = await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } }).then(
      (r) => `answered ${r.status}`,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code,
    );
  }
  expect(late).toBe('ECONNREFUSED');
  expect(await slow).toEqual({ status: 200, body: [{ result_type: 'CommandOk', result: null }, { message: 'success' }] });
  expect(await closed).toBe(1001);
  expect(await server.exit).toBe(0);
  expect(isAlive(server.postmasterPid)).toBe(false);

  const again = await startServer();
  expect(await burstTables(again.url)).toEqual({ inDatabase: [], tracked: [], inconsistent: [] });
  const exported = await post(again.url, { type: 'export_metadata', args: {} });
  expect(exported.body.tables).toEqual([{ table: { schema: 'public', name: 'graceful' } }]);
  again.child.kill('SIGTERM');
  expect(await again.exit).toBe(0);
});

const CRASH_ROUNDS = Number(process.env.ENGINE_CRASH_ROUNDS ?? 3);

test(`kill -9 during a burst of metadata writes, ${CRASH_ROUNDS} times: every acknowledged write survives, nothing half-done, no PostgreSQL left`, async () => {
  const acknowledged: string[] = [];
  let server = await startServer();
  for (let round = 0; round < CRASH_ROUNDS; round++) {
    let writing = true;
    const writers = [0, 1, 2, 3].map(async (writer) => {
      for (let i = 0; writing; i++) {
        const name = `w_${round}_${writer}_${i}`;
        const answer = await post(server.url, createAndTrack(name), '/v1/query').catch(() => undefined);
        if (answer?.status === 200) acknowledged.push(name);
        else if (answer !== undefined) throw new Error(`write ${name} answered ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    });
    // Kill once the round has writes behind it, while others are in flight (however loaded the machine is).
    const before = acknowledged.length;
    for (let waited = 0; acknowledged.length - before < 5 && waited < 20_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 50 + (round % 5) * 60));
    server.child.kill('SIGKILL');
    writing = false;
    await server.exit;
    await Promise.all(writers);
    // The watchdog takes PostgreSQL down with the server.
    expect(await waitForExit(server.postmasterPid, 10_000)).toBe(true);

    server = await startServer();
    const state = await burstTables(server.url);
    expect(state.inconsistent).toEqual([]);
    // A write is in both places or in neither: the SQL and the tracking were one transaction.
    expect(state.tracked).toEqual(state.inDatabase);
    expect(acknowledged.filter((name) => !state.tracked.includes(name))).toEqual([]);
  }
  expect(acknowledged.length).toBeGreaterThan(4 * CRASH_ROUNDS);
  process.stdout.write(`kill -9: ${CRASH_ROUNDS} rounds, ${acknowledged.length} acknowledged writes, all present after restart\n`);
  server.child.kill('SIGTERM');
  expect(await server.exit).toBe(0);
  expect(isAlive(server.postmasterPid)).toBe(false);
});

test('a PostgreSQL left running by a server that died with its watchdog is stopped by the next start, which then serves the same data', async () => {
  const first = await startServer();
  expect((await post(first.url, createAndTrack('w_kept'), '/v1/query')).status).toBe(200);
  const watchdogs = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => (commandLine(pid) ?? []).join(' ').endsWith(`engine-postgres-watchdog ${first.postmasterPid}`));
  expect(watchdogs).toHaveLength(1);
  process.kill(watchdogs[0]!, 'SIGKILL');
  first.child.kill('SIGKILL');
  await first.exit;
  expect(isAlive(first.postmasterPid)).toBe(true);

  const second = await startServer();
  expect(isAlive(first.postmasterPid)).toBe(false);
  expect(second.postmasterPid).not.toBe(first.postmasterPid);
  expect((await burstTables(second.url)).tracked).toEqual(['w_kept']);
  second.child.kill('SIGTERM');
  expect(await second.exit).toBe(0);
});

test('a port already in use fails at once with one line, before any database work', async () => {
  const taken = createNetServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'engine-port-'));
  try {
    const child = spawn(process.execPath, [join(__dirname, '..', '..', 'bin', 'engine-reference.js')], {
      env: { ...process.env, ENGINE_GRAPHQL_DATA_DIR: join(dir, 'data'), ENGINE_GRAPHQL_SERVER_PORT: String(port), ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const errors = output
      .split('\n')
      .filter((line) => line.includes('"level":"error"'))
      .map((line) => (JSON.parse(line) as { detail: unknown }).detail);
    expect({ code, errors, data: readdirSync(dir) }).toEqual({
      code: 1,
      errors: [{ error: `port ${port} on 127.0.0.1 is already in use: stop what uses it, or set ENGINE_GRAPHQL_SERVER_PORT` }],
      data: [],
    });
  } finally {
    taken.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
