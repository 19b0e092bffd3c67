// Starts the PostgreSQL cluster the run uses, unless the run targets a given engine or a
// database URL is configured, and a reference server per worker on it (serverPool.ts). Workers
// inherit the cluster's URL and the servers through the environment.
import { provisionDatabase, type ProvisionedDatabase } from '../../reference/src/db/provision';
import { CLUSTER_URL_VARIABLE, OWN_CLUSTER_VARIABLE } from './environment';
import { prepareRunDirectory } from './postgisRun';
import { clusterScratchDirectory } from './scratchDirectory';
import { startSharedServers } from './serverPool';
import { SERVER_PER_FILE_VARIABLE, SHARED_SERVERS_VARIABLE, type SharedServer } from './sharedServer';

declare global {
  var __engineTestCluster: ProvisionedDatabase | undefined;
  /** The cluster URL this process set; not one given from outside. */

  var __engineTestClusterUrl: string | undefined;
  /** The servers this process started for the workers. */

  var __engineTestServers: { cluster: string; servers: SharedServer[] } | undefined;
}

/**
 * A test cluster lives for one run: nothing it holds must outlast a crash of the machine, so
 * PostgreSQL need not wait for the disk (a server process killed in a test still loses nothing:
 * the operating system keeps what was written).
 */
const TEST_CLUSTER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '500' };
/**
 * A run opens about two thousand connections, each checking the password against its stored
 * SCRAM verifier, which costs PostgreSQL its iterations of hashing (4096 by default, a third of a
 * connection's CPU): the run's own cluster, on loopback with a random password, stores it with one.
 */
const TEST_CLUSTER_INITDB_SETTINGS = { scram_iterations: '1' };

export default async function globalSetup(globalConfig?: { maxWorkers: number }): Promise<void> {
  // Already given, or not needed: the CLI runs only the cases, against an engine it was given.
  // A URL this process set for a run that has ended (jest run again in one process, as by mutation
  // testing) names a stopped cluster: start another rather than reuse it.
  if (process.env[CLUSTER_URL_VARIABLE] === globalThis.__engineTestClusterUrl) delete process.env[CLUSTER_URL_VARIABLE];
  delete process.env[SHARED_SERVERS_VARIABLE];
  if (process.env.ENGINE_TEST_NO_CLUSTER === '1') return;
  if (!process.env[CLUSTER_URL_VARIABLE]) {
    const given = process.env.ENGINE_GRAPHQL_DATABASE_URL ?? process.env.DATABASE_URL;
    const cluster = await provisionDatabase({
      databaseUrl: given,
      settings: TEST_CLUSTER_SETTINGS,
      initdbSettings: TEST_CLUSTER_INITDB_SETTINGS,
      scratchDir: clusterScratchDirectory(),
    });
    globalThis.__engineTestCluster = cluster;
    globalThis.__engineTestClusterUrl = cluster.url;
    process.env[CLUSTER_URL_VARIABLE] = cluster.url;
    if (given === undefined) process.env[OWN_CLUSTER_VARIABLE] = '1';
    else delete process.env[OWN_CLUSTER_VARIABLE];
  }
  // Cases against a given engine need no server of their own.
  if (process.env[SERVER_PER_FILE_VARIABLE] === '1' || process.env.ENGINE_URL) return;
  prepareRunDirectory();
  const cluster = process.env[CLUSTER_URL_VARIABLE]!;
  const servers = await startSharedServers(cluster, Math.max(1, globalConfig?.maxWorkers ?? 1));
  globalThis.__engineTestServers = { cluster, servers };
  process.env[SHARED_SERVERS_VARIABLE] = JSON.stringify(servers);
}
