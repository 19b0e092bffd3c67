// A PostgreSQL with PostGIS for the cases that need one: the embedded PostgreSQL has no PostGIS, so
// a managed run starts Debian's PostgreSQL 15 (package postgresql-15-postgis-3) in a temporary
// directory on a free port, once for the run (postgisRun.ts), each file in a database of its own; against another engine, the database given as
// ENGINE_POSTGIS_DATABASE_URL, with the extensions postgis and postgis_raster (the suite drops what
// it creates there).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { postgresUser } from '../../reference/src/db/postmaster';
import { expectResponse } from './client';
import { createDatabase, dropDatabase } from './database';
import { POSTGIS_RUN_VARIABLE, runCluster, type RunCluster } from './postgisRun';
import { isManaged, type Requirement, type Target } from './target';
import { clusterScratchDirectory } from './scratchDirectory';

const BIN = process.env.ENGINE_POSTGIS_BIN ?? '/usr/lib/postgresql/15/bin';
const CONTROL = '/usr/share/postgresql/15/extension/postgis.control';
const GIVEN_URL = process.env.ENGINE_POSTGIS_DATABASE_URL;

export const REQUIRES_POSTGIS: Requirement = {
  met: GIVEN_URL !== undefined || (isManaged && existsSync(join(BIN, 'initdb')) && existsSync(CONTROL)),
  needs: 'PostgreSQL with PostGIS: apt-get install postgresql-15-postgis-3 (or a database with PostGIS given as ENGINE_POSTGIS_DATABASE_URL)',
};

export interface PostgisDatabase {
  readonly url: string;
  sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function connected(url: string, deadline: number): Promise<Client> {
  for (;;) {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Starts a cluster in `root` (made here), PostGIS and its rasters in template1 so that every
 * database made in it has them; `stop` ends its postmaster and removes `root`. A cluster the whole
 * run shares is detached from the file's process, which may end before the run does.
 */
async function startCluster(root: string, detached: boolean): Promise<RunCluster & { stop: () => Promise<void> }> {
  mkdirSync(root, { recursive: true });
  // As root, PostgreSQL runs as the user postgres, which must reach its directory.
  chmodSync(root, 0o777);
  const user = postgresUser();
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const data = join(root, 'data');
  const init = spawnSync(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...as, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  // Other sources need prepared transactions (the engine commits over several databases with them).
  const settings = [
    'listen_addresses=127.0.0.1',
    `port=${port}`,
    `unix_socket_directories=${root}`,
    'max_prepared_transactions=20',
    'fsync=off',
    'max_connections=200',
  ];
  const postmaster: ChildProcess = spawn(join(BIN, 'postgres'), ['-D', data, ...settings.flatMap((s) => ['-c', s])], { ...as, stdio: 'ignore', detached });
  if (detached) postmaster.unref();
  const exited = new Promise<void>((resolve) => postmaster.once('exit', () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const client = await connected(url.replace(/\/postgres$/, '/template1'), Date.now() + 30_000);
  try {
    await client.query('create extension postgis; create extension postgis_raster');
  } finally {
    await client.end();
  }
  return {
    url,
    pid: postmaster.pid!,
    async stop() {
      postmaster.kill('SIGINT');
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A database with PostGIS for the file's cases, made before them and dropped after them: in the
 * run's cluster (postgisRun.ts) when the global setup named one, else in a cluster of the file's own.
 */
export function usePostgisDatabase(): PostgisDatabase {
  let url = GIVEN_URL ?? '';
  let own: { stop: () => Promise<void> } | undefined;
  let made: { clusterUrl: string; name: string } | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    if (!REQUIRES_POSTGIS.met) return;
    if (GIVEN_URL === undefined) {
      const runDir = process.env[POSTGIS_RUN_VARIABLE];
      const cluster = runDir
        ? await runCluster(runDir, (root) => startCluster(root, true))
        : (own = await startCluster(mkdtempSync(join(clusterScratchDirectory(), 'engine-postgis-')), false));
      const database = await createDatabase(cluster.url);
      made = { clusterUrl: cluster.url, name: database.name };
      url = database.url;
    }
    client = new Client({ connectionString: url });
    await client.connect();
  }, 150_000);
  afterAll(async () => {
    await client?.end();
    if (made && !own) await dropDatabase(made.clusterUrl, made.name);
    await own?.stop();
  });
  return {
    get url() {
      return url;
    },
    async sql(text, values) {
      return (await client!.query(text, values)).rows;
    },
  };
}

/** Adds the PostGIS database to the target as the source `gis`, with `table` of its schema public tracked. */
export async function trackOnGisSource(target: Target, url: string, table: string): Promise<void> {
  const ok = { message: 'success' };
  expectResponse(await target.metadata({ type: 'pg_add_source', args: { name: 'gis', configuration: { connection_info: { database_url: url } } } }), 200, ok);
  expectResponse(await target.metadata({ type: 'pg_track_table', args: { source: 'gis', table } }), 200, ok);
}

/** Before each case, `setup` on the PostGIS database and the target given it as source `gis` with `table` tracked; after it, the target reset. */
export function useGisTable(target: Target, gis: PostgisDatabase, setup: string, table: string): void {
  beforeEach(async () => {
    if (!REQUIRES_POSTGIS.met) return;
    await gis.sql(setup);
    await trackOnGisSource(target, gis.url, table);
  });
  afterEach(async () => {
    await target.reset();
  });
}
