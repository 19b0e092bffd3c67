// One reference server process per jest worker in a managed run, each on a database of its own in
// the run's cluster (started by the global setup, serverPool.ts). A worker runs its test files one
// after another, so each file has its server to itself and starts from clear_metadata, as against an
// engine given with ENGINE_URL; the server's code stays loaded and warm from file to file instead of
// being loaded and started again in each. Files that ask for profiles (servers configured
// otherwise) still start their own, in their process.
import { readFileSync } from 'node:fs';
import { isAlive } from '../../reference/src/db/processes';

/** The servers of the run, as JSON in the environment the workers inherit. */
export const SHARED_SERVERS_VARIABLE = 'ENGINE_TEST_SHARED_SERVERS';
/** Set to 1 for a server started in each test file's own process (mutation testing needs the code in-process). */
export const SERVER_PER_FILE_VARIABLE = 'ENGINE_TEST_SERVER_PER_FILE';

export interface SharedServer {
  readonly url: string;
  readonly databaseUrl: string;
  readonly databaseName: string;
  readonly adminSecret: string;
  readonly pid: number;
  /** Where the server's warnings and errors go. */
  readonly log: string;
}

/** The server of this jest worker, once it answers; undefined when the run has none. */
export async function sharedServer(): Promise<SharedServer | undefined> {
  const all = process.env[SHARED_SERVERS_VARIABLE];
  if (!all || process.env[SERVER_PER_FILE_VARIABLE] === '1') return undefined;
  const servers = JSON.parse(all) as SharedServer[];
  const worker = Number(process.env.JEST_WORKER_ID ?? 1);
  // More workers than servers (never in a run that started them for its workers): a server of its own.
  const server = servers[worker - 1];
  if (!server) return undefined;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${server.url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    if (!isAlive(server.pid) || Date.now() > deadline) {
      throw new Error(`the run's server for worker ${worker} does not answer at ${server.url}; its log:\n${readLog(server.log)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-4000);
  } catch {
    return '(none)';
  }
}
