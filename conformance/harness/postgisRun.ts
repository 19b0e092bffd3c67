// One PostgreSQL with PostGIS for a whole managed run instead of one per test file: the global
// setup names a directory for it, the first file that needs it starts it there (the others wait for
// its address), each file works in a database of its own in it, and the global teardown stops it.
// Starting a cluster costs initdb and the extensions (seconds of CPU each time).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, waitForExit } from '../../reference/src/db/processes';
import { clusterScratchDirectory } from './scratchDirectory';

/** The directory of the run's PostGIS cluster, set by the global setup for the workers. */
export const POSTGIS_RUN_VARIABLE = 'ENGINE_TEST_POSTGIS_RUN_DIR';

const ADDRESS = 'address.json';
const FAILURE = 'failure.txt';

export interface RunCluster {
  readonly url: string;
  readonly pid: number;
}

/** Called by the global setup: a directory for the run's PostGIS cluster, started only if a file needs it. */
export function prepareRunDirectory(): void {
  const dir = mkdtempSync(join(clusterScratchDirectory(), 'engine-postgis-run-'));
  // As root, PostgreSQL runs as the user postgres, which must reach the cluster's directory in it.
  chmodSync(dir, 0o755);
  process.env[POSTGIS_RUN_VARIABLE] = dir;
}

/**
 * The run's cluster: started by `start` in the run's directory when this file is the first to ask,
 * else the one another file started (waited for up to `waitMs`).
 */
export async function runCluster(dir: string, start: (root: string) => Promise<RunCluster>, waitMs = 120_000): Promise<RunCluster> {
  let first = true;
  try {
    mkdirSync(join(dir, 'claimed'));
  } catch {
    first = false;
  }
  if (first) {
    try {
      const cluster = await start(join(dir, 'cluster'));
      writeFileSync(join(dir, `${ADDRESS}.tmp`), JSON.stringify(cluster));
      renameSync(join(dir, `${ADDRESS}.tmp`), join(dir, ADDRESS));
      return cluster;
    } catch (error) {
      writeFileSync(join(dir, FAILURE), String(error instanceof Error ? error.message : error));
      throw error;
    }
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    const address = readIfThere(join(dir, ADDRESS));
    if (address !== undefined) return JSON.parse(address) as RunCluster;
    const failure = readIfThere(join(dir, FAILURE));
    if (failure !== undefined) throw new Error(`the run's PostGIS cluster could not start: ${failure}`);
    if (Date.now() > deadline) throw new Error(`the run's PostGIS cluster did not start within ${waitMs / 1000} s (${dir})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Called by the global teardown: stops the run's cluster if a file started one, and removes its directory. */
export async function stopRunCluster(): Promise<void> {
  const dir = process.env[POSTGIS_RUN_VARIABLE];
  if (!dir) return;
  delete process.env[POSTGIS_RUN_VARIABLE];
  const address = readIfThere(join(dir, ADDRESS));
  if (address !== undefined) {
    const { pid } = JSON.parse(address) as RunCluster;
    if (isAlive(pid)) {
      // SIGINT: PostgreSQL's fast shutdown.
      process.kill(pid, 'SIGINT');
      if (!(await waitForExit(pid, 30_000))) process.kill(pid, 'SIGKILL');
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
