// A reference server of a test file's own, on a database of its own, for the cases of
// subscriptions: requests as admin, subscriptions each on a connection of its own, and waiting on
// what they were sent.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createDatabase, dropDatabase } from '../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../conformance/harness/environment';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { startServer, type RunningServer } from '../src/server';

export interface SubscriptionServer {
  /** Set in beforeAll. */
  server: () => RunningServer;
  /** POST as admin (to /v1/metadata unless told): it must answer 200. */
  post(body: unknown, endpoint?: string): Promise<void>;
  sql(text: string): Promise<void>;
  /** Subscribe on a connection of its own: everything it is sent, in order (errors as `{error}`). */
  subscribe(query: string, variables: Record<string, unknown>, headers?: Record<string, string>): { client: Client; results: unknown[] };
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
}

/** Registers the beforeAll that starts the server with `settings` (ENGINE_GRAPHQL_*) and the afterAll that stops it. */
export function useSubscriptionServer(settings: Record<string, string>): SubscriptionServer {
  const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ...settings });
  let database: { name: string; url: string } | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    database = await createDatabase(cluster());
    server = await startServer(config, database.url, createLogger('silent'));
  });
  afterAll(async () => {
    await server?.close();
    if (database) await dropDatabase(cluster(), database.name);
  });
  const post = async (body: unknown, endpoint = '/v1/metadata') => {
    const r = await fetch(server!.url + endpoint, { method: 'POST', body: JSON.stringify(body), headers: { 'x-engine-role': 'admin' } });
    expect(r.status).toBe(200);
  };
  return {
    server: () => server!,
    post,
    sql: (text) => post({ type: 'run_sql', args: { sql: text } }, '/v2/query'),
    subscribe(query, variables, headers = { 'x-engine-role': 'admin' }) {
      const client = createClient({
        url: `${server!.url.replace('http', 'ws')}/v1/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { headers },
      });
      const results: unknown[] = [];
      client.subscribe({ query, variables }, { next: (r) => results.push(r), error: (e) => results.push({ error: JSON.stringify(e) }), complete: () => {} });
      return { client, results };
    },
    async waitFor(condition, timeoutMs = 5000) {
      const started = Date.now();
      while (!condition()) {
        if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
