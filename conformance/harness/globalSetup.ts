// Starts the PostgreSQL cluster the run uses, unless the run targets a given engine or a
// database URL is configured. Workers inherit the cluster's URL through the environment.
import { provisionDatabase, type ProvisionedDatabase } from '../../reference/src/db/provision';
import { CLUSTER_URL_VARIABLE } from './environment';

declare global {
  var __engineTestCluster: ProvisionedDatabase | undefined;
  /** The cluster URL this process set; not one given from outside. */

  var __engineTestClusterUrl: string | undefined;
}

/**
 * A test cluster lives for one run: nothing it holds must outlast a crash of the machine, so
 * PostgreSQL need not wait for the disk (a server process killed in a test still loses nothing:
 * the operating system keeps what was written).
 */
const TEST_CLUSTER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '500' };

export default async function globalSetup(): Promise<void> {
  // Already given, or not needed: the CLI runs only the cases, against an engine it was given.
  // A URL this process set for a run that has ended (jest run again in one process, as by mutation
  // testing) names a stopped cluster: start another rather than reuse it.
  if (process.env[CLUSTER_URL_VARIABLE] === globalThis.__engineTestClusterUrl) delete process.env[CLUSTER_URL_VARIABLE];
  if (process.env[CLUSTER_URL_VARIABLE] || process.env.ENGINE_TEST_NO_CLUSTER === '1') return;
  const given = process.env.ENGINE_GRAPHQL_DATABASE_URL ?? process.env.DATABASE_URL;
  const cluster = await provisionDatabase({ databaseUrl: given, settings: TEST_CLUSTER_SETTINGS });
  globalThis.__engineTestCluster = cluster;
  globalThis.__engineTestClusterUrl = cluster.url;
  process.env[CLUSTER_URL_VARIABLE] = cluster.url;
}
