// Starts and stops the run's server processes, one per jest worker (see sharedServer.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../reference/src/db/provision';
import { createDatabase, dropDatabase } from './database';
import type { SharedServer } from './sharedServer';
import { serverSettings } from './brand';

const BIN = join(__dirname, '..', '..', 'bin', 'engine-reference.js');
const children: ChildProcess[] = [];

/**
 * Starts `count` servers without waiting for them to answer: the ports are chosen here, so their
 * URLs are known at once and each test file waits only for its own (`sharedServer`).
 */
export async function startSharedServers(clusterUrl: string, count: number): Promise<SharedServer[]> {
  const adminSecret = randomBytes(12).toString('hex');
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const [{ name, url: databaseUrl }, port] = await Promise.all([createDatabase(clusterUrl), freePort()]);
      const log = join(tmpdir(), `engine-test-server-${process.pid}-${index + 1}.log`);
      const out = openSync(log, 'w');
      const child = spawn(process.execPath, [BIN], {
        env: {
          ...process.env,
          ...serverSettings({
            ENGINE_GRAPHQL_DATABASE_URL: databaseUrl,
            ENGINE_GRAPHQL_SERVER_PORT: String(port),
            ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
            ENGINE_GRAPHQL_ADMIN_SECRET: adminSecret,
            ENGINE_GRAPHQL_LOG_LEVEL: 'warn',
            // Many servers share the run's cluster: each needs few connections.
            ENGINE_GRAPHQL_PG_CONNECTIONS: '8',
          }),
          // Where this server reaches the suite's mock servers, for the cases that take a URL from its environment.
          ENGINE_CONFORMANCE_REMOTE_HOST: '127.0.0.1',
        },
        stdio: ['ignore', out, out],
      });
      closeSync(out);
      children.push(child);
      return { url: `http://127.0.0.1:${port}`, databaseUrl, databaseName: name, adminSecret, pid: child.pid!, log };
    }),
  );
}

export async function stopSharedServers(clusterUrl: string, servers: readonly SharedServer[]): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }),
    ),
  );
  await Promise.all(servers.map((s) => dropDatabase(clusterUrl, s.databaseName)));
}
