// A reference server in the test file's own process, on the file's database: for files whose
// profiles need servers configured otherwise, and for runs without the workers' servers
// (sharedServer.ts). Loaded only when needed: the server's modules are most of a file's loading.
import { loadConfig } from '../../reference/src/config';
import { startServer, type RunningServer } from '../../reference/src/server';
import { createLogger } from '../../reference/src/log';
import { serverSettings } from './brand';

export async function startOwnServer(databaseUrl: string, settings: Record<string, string>): Promise<RunningServer> {
  // The server reads the environment of this process: where it reaches the suite's mock servers (serverPool.ts).
  process.env.ENGINE_CONFORMANCE_REMOTE_HOST ??= '127.0.0.1';
  // Under the brand hasura, with the compatibility setting and the HASURA_GRAPHQL_* names (brand.ts).
  const named = serverSettings({
    ENGINE_GRAPHQL_SERVER_PORT: '0',
    ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
    ENGINE_GRAPHQL_LOG_LEVEL: 'silent',
    // Many servers share the run's cluster: each needs few connections.
    ENGINE_GRAPHQL_PG_CONNECTIONS: '8',
    ...settings,
  });
  // A `*_from_env` value is read from this process's environment, which holds the admin secret as a
  // target's own environment does (the cases of a variable that is no URL name it).
  for (const [name, value] of Object.entries(named)) if (name.endsWith('_ADMIN_SECRET')) process.env[name] ??= value;
  const config = loadConfig(named);
  return startServer(config, databaseUrl, createLogger('silent'));
}
