// Reference servers of a test file on its worker database (workerDatabase.ts), closed after each
// case, and what the cases ask them: admin's POSTs, and waiting for what another server reads.
import { httpRequest } from '../../conformance/harness/client';
import { createLogger } from '../src/log';
import { startServer, type RunningServer } from '../src/server';
import type { WorkerDatabase } from './workerDatabase';

export interface FixtureServers {
  /** A server on the fixture's database, closed after the case. */
  start: () => Promise<RunningServer>;
  /** Close one before the case ends (a restart). */
  stop: (server: RunningServer) => Promise<void>;
  /** POST as admin. */
  post: (server: RunningServer, path: string, body: unknown) => ReturnType<typeof httpRequest>;
}

export function useFixtureServers(fixture: WorkerDatabase): FixtureServers {
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return {
    start: async () => {
      const server = await startServer(fixture.config, fixture.db.url, createLogger('silent'));
      servers.push(server);
      return server;
    },
    stop: async (server) => {
      servers.splice(servers.indexOf(server), 1);
      await server.close();
    },
    post: async (server, path, body) => httpRequest(server.url, 'POST', path, { body, headers: { 'x-engine-admin-secret': fixture.secret } }),
  };
}

/** Wait until `condition` holds (a change another server has to read), or fail after `timeoutMs`. */
export async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
