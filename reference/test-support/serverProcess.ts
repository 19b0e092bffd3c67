// A reference server run as `npm start` runs it: a process of its own on a data directory, for
// the cases that stop, kill and restart it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../src/db/provision';
import { readPostmasterLock } from '../src/db/postmaster';

const BIN = join(__dirname, '..', '..', 'bin', 'engine-reference.js');

/** Every process started: a case kills what it left running. */
export const children: ChildProcess[] = [];

export interface Started {
  child: ChildProcess;
  url: string;
  /** The embedded PostgreSQL's process (NaN when the server was given a database URL). */
  postmasterPid: number;
  exit: Promise<number | null>;
  output: () => string;
}

/** Starts a server on a database of its own, as with ENGINE_GRAPHQL_DATABASE_URL set. */
export function startServerOn(databaseUrl: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Omit<Started, 'postmasterPid'>> {
  return startServer('', { ...extraEnv, ENGINE_GRAPHQL_DATABASE_URL: databaseUrl });
}

/** Starts a server; a port taken by another process between choosing it and binding it is chosen again. */
export async function startServer(dataDir: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Started> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(dataDir, extraEnv);
    } catch (error) {
      if (attempt >= 5 || !/is already in use/.test(String(error))) throw error;
    }
  }
}

async function startOnce(dataDir: string, extraEnv: NodeJS.ProcessEnv): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ENGINE_GRAPHQL_DATA_DIR: dataDir,
    ENGINE_GRAPHQL_SERVER_PORT: String(port),
    ENGINE_GRAPHQL_LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  // The data directory's embedded PostgreSQL, unless the case names a database.
  if (extraEnv.ENGINE_GRAPHQL_DATABASE_URL === undefined) {
    delete env.ENGINE_GRAPHQL_DATABASE_URL;
    delete env.DATABASE_URL;
  }
  const child = spawn(process.execPath, [BIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer: ${output}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (extraEnv.ENGINE_GRAPHQL_DATABASE_URL !== undefined) return { child, url, postmasterPid: NaN, exit, output: () => output };
  const lock = readPostmasterLock(join(dataDir, 'pgdata'));
  if (!lock) throw new Error('no postmaster.pid');
  return { child, url, postmasterPid: lock.pid, exit, output: () => output };
}

export async function post(url: string, body: unknown, endpoint = '/v1/metadata'): Promise<{ status: number; body: any }> {
  const r = await fetch(url + endpoint, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, body: await r.json() };
}
