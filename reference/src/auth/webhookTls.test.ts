// The auth webhook under the metadata's TLS allow-list: a hook served over HTTPS with a self-signed
// certificate cannot be reached until the served metadata lists its host; then it admits requests.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { PACKAGE_ROOT } from '../packageRoot';
import { startServer, type RunningServer } from '../server';

const key = (name: string) => readFileSync(join(PACKAGE_ROOT, 'fixtures', 'keys', name), 'utf8');
let hook: Server;
let database: { name: string; url: string };
let server: RunningServer;

beforeAll(async () => {
  hook = createServer({ key: key('tls-self-signed.key.pem'), cert: key('tls-self-signed.cert.pem') }, (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ 'x-engine-role': 'user' })),
  );
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  database = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
  const config = loadConfig({
    ENGINE_GRAPHQL_SERVER_PORT: '0',
    ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
    ENGINE_GRAPHQL_ADMIN_SECRET: 'secret',
    ENGINE_GRAPHQL_AUTH_HOOK: `https://127.0.0.1:${(hook.address() as AddressInfo).port}/auth`,
  });
  server = await startServer(config, database.url, createLogger('silent'));
});
afterAll(async () => {
  await server.close();
  await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, database.name);
  hook.closeAllConnections();
  await new Promise((resolve) => hook.close(resolve));
});

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body), headers });
  return { status: r.status, body: (await r.json()) as unknown };
};

test('the hook is reached through its self-signed certificate once the served metadata lists its host [dec.network.tls-allowlist]', async () => {
  const asked = () => post('/v1/graphql', { query: '{ __typename }' });
  const unreachable = { errors: [{ message: 'The authentication hook could not be reached', extensions: { path: '$', code: 'unexpected' } }] };
  expect(await asked()).toEqual({ status: 500, body: unreachable });
  const admin = { 'x-engine-admin-secret': 'secret' };
  expect(await post('/v1/metadata', { type: 'add_host_to_tls_allowlist', args: { host: '127.0.0.1' } }, admin)).toEqual({
    status: 200,
    body: { message: 'success' },
  });
  expect(await asked()).toEqual({ status: 200, body: { data: { __typename: 'query_root' } } });
  expect(await post('/v1/metadata', { type: 'drop_host_from_tls_allowlist', args: { host: '127.0.0.1' } }, admin)).toEqual({
    status: 200,
    body: { message: 'success' },
  });
  expect(await asked()).toEqual({ status: 500, body: unreachable });
});
