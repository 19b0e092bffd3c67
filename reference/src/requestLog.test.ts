// What the log says of each request: one line per HTTP request with its id, role, operation,
// status and duration (on the GraphQL fast path too), and a socket's connect, subscribe,
// complete and close.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createDatabase, dropDatabase } from '../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../conformance/harness/environment';
import { loadConfig } from './config';
import { createLogger } from './log';
import { startServer, type RunningServer } from './server';

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
const lines: { level: string; type: string; detail: Record<string, unknown> }[] = [];
let database: { name: string; url: string };
let server: RunningServer;

beforeAll(async () => {
  database = await createDatabase(cluster());
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: 'log-secret' });
  server = await startServer(config, database.url, createLogger('info', { write: (line) => void lines.push(JSON.parse(line) as (typeof lines)[number]) }));
});
afterAll(async () => {
  await server.close();
  await dropDatabase(cluster(), database.name);
});

const requestLogs = () => lines.filter((l) => l.type === 'http-log').map((l) => l.detail);

test('each request: its id, role, operation, status and duration', async () => {
  const admin = { 'x-engine-admin-secret': 'log-secret', 'content-type': 'application/json' };
  lines.length = 0;
  await fetch(`${server.url}/v1/graphql`, {
    method: 'POST',
    headers: { ...admin, 'x-request-id': 'fast-1' },
    body: JSON.stringify({ query: 'query Named { __typename }', operationName: 'Named' }),
  });
  await fetch(`${server.url}/v1/graphql`, {
    method: 'POST',
    headers: { ...admin, 'x-engine-role': 'user', 'x-request-id': 'fast-2' },
    body: JSON.stringify({ query: 'mutation { __typename }' }),
  });
  await fetch(`${server.url}/v1/graphql`, {
    method: 'POST',
    headers: { ...admin, 'x-request-id': 'fast-3' },
    body: JSON.stringify({ query: 'fragment F on query_root { __typename } query Lonely { ...F }' }),
  });
  await fetch(`${server.url}/v1/graphql?query=${encodeURIComponent('query Got { nope }')}`, { headers: { ...admin, 'x-request-id': 'get-1' } });
  await fetch(`${server.url}/v1/metadata`, {
    method: 'POST',
    headers: { ...admin, 'x-request-id': 'meta-1' },
    body: JSON.stringify({ type: 'export_metadata', args: {} }),
  });
  await fetch(`${server.url}/v1/metadata`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'meta-2' },
    body: JSON.stringify({ type: 'export_metadata', args: {} }),
  });
  const logs = requestLogs();
  expect(logs.map((d) => ({ ...d, duration_ms: typeof d.duration_ms }))).toEqual([
    { request_id: 'fast-1', method: 'POST', url: '/v1/graphql', status: 200, duration_ms: 'number', role: 'admin', operation: 'graphql:Named' },
    {
      request_id: 'fast-2',
      method: 'POST',
      url: '/v1/graphql',
      status: 200,
      duration_ms: 'number',
      role: 'user',
      operation: 'graphql:mutation',
      errors: [{ message: 'the schema is not configured for mutation operations', code: 'validation-failed' }],
    },
    // A named operation is named by its own name when it is the document's only one.
    { request_id: 'fast-3', method: 'POST', url: '/v1/graphql', status: 200, duration_ms: 'number', role: 'admin', operation: 'graphql:Lonely' },
    {
      request_id: 'get-1',
      method: 'GET',
      url: `/v1/graphql?query=${encodeURIComponent('query Got { nope }')}`,
      status: 200,
      duration_ms: 'number',
      role: 'admin',
      operation: 'graphql:Got',
      errors: [{ message: 'Cannot query field "nope" on type "query_root".', code: 'validation-failed' }],
    },
    { request_id: 'meta-1', method: 'POST', url: '/v1/metadata', status: 200, duration_ms: 'number', role: 'admin', operation: 'export_metadata' },
    {
      request_id: 'meta-2',
      method: 'POST',
      url: '/v1/metadata',
      status: 401,
      duration_ms: 'number',
      error: { path: '$', error: 'x-engine-admin-secret required, but not found', code: 'access-denied' },
    },
  ]);
});

test('a socket: connect, subscribe, complete and close', async () => {
  lines.length = 0;
  const client = createClient({
    url: server.url.replace('http', 'ws') + '/v1/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { headers: { 'x-engine-admin-secret': 'log-secret' } },
    retryAttempts: 0,
  });
  await new Promise<void>((resolve, reject) => {
    client.subscribe({ query: 'query Ping { __typename }', operationName: 'Ping' }, { next: () => {}, error: reject, complete: resolve });
  });
  await client.dispose();
  const deadline = Date.now() + 5000;
  while (!lines.some((l) => l.detail.event === 'close') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const events = lines.filter((l) => l.type === 'websocket-log').map((l) => ({ ...l.detail, id: typeof l.detail.id }));
  expect(events).toEqual([
    { event: 'connect', protocol: 'graphql-transport-ws', role: 'admin', id: 'undefined' },
    { event: 'subscribe', id: 'string', role: 'admin', operation: 'graphql:Ping' },
    { event: 'complete', id: 'string', role: 'admin' },
    { event: 'close', protocol: 'graphql-transport-ws', code: 1000, reason: 'Normal Closure', role: 'admin', id: 'undefined' },
  ]);
});

test('at log level debug, the SQL a request sends is logged with its bound values', async () => {
  const debugLines: typeof lines = [];
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_LOG_LEVEL: 'debug' });
  const debug = await startServer(
    config,
    database.url,
    createLogger('debug', { write: (line) => void debugLines.push(JSON.parse(line) as (typeof lines)[number]) }),
  );
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${debug.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/v2/query', { type: 'run_sql', args: { sql: 'create table logged (id int primary key, name text)' } });
    await post('/v1/metadata', { type: 'track_table', args: { table: 'logged' } });
    const r = await post('/v1/graphql', { query: 'query ($n: String!) { logged(where: {name: {_eq: $n}}) { id } }', variables: { n: 'needle-7' } });
    expect(await r.json()).toEqual({ data: { logged: [] } });
    const sql = debugLines.filter((l) => l.type === 'sql').map((l) => l.detail as { text: string; values: unknown[] });
    expect(sql).toHaveLength(1);
    expect([/\blogged\b/.test(sql[0]!.text), sql[0]!.values.includes('needle-7')]).toEqual([true, true]);
    expect(lines.some((l) => l.type === 'sql')).toBe(false);
  } finally {
    await debug.close();
  }
});
