// Requests from web pages of other origins: decisions dec.http.content-type, dec.http.cross-origin
// and dec.graphql.get-mutation. Without them any page a user visits could POST run_sql as text/plain
// to an engine that has no admin secret (every request is admin there) without a preflight.
import { branded } from '../harness/brand';
import { caseNeeding, caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_ADMIN_SECRET, useTarget } from '../harness/target';
import { socketUrl } from '../harness/websocket';
import WebSocket from 'ws';

const target = useTarget({ profiles: ['no-admin-secret', 'cors-domains'] });
const exportEnvelope = { type: 'export_metadata', args: {} };
const OTHER = 'https://app.example.test';
const refusedOrigin = (origin: string) => ({ path: '$', error: `the origin ${origin} is not allowed by the CORS policy`, code: 'access-denied' });
const ownOrigin = (url: string) => new URL(url).origin;

beforeAll(async () => {
  await target.sql('drop table if exists public.csrf_probe; create table public.csrf_probe (id int primary key)');
});
beforeEach(async () => {
  await target.sql('delete from public.csrf_probe');
  await target.reset();
});
const probeRows = async () => (await target.sql('select count(*)::int as n from public.csrf_probe'))[0]!.n;

/** What a browser adds to a request of a page of the server's own origin. */
const browser = () => ({ 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'same-origin' });

test(
  covers(
    ['dec.http.content-type', 'err.unsupported-media-type'],
    'a text/plain body from a browser is refused with 415 on every API that takes one, and nothing runs',
  ),
  async () => {
    const insert = { type: 'run_sql', args: { sql: 'insert into public.csrf_probe values (1)' } };
    for (const [endpoint, body] of [
      ['/v2/query', insert],
      ['/v1/query', insert],
      ['/v1/metadata', { type: 'track_table', args: { table: 'csrf_probe' } }],
    ] as const) {
      const r = await target.request('POST', endpoint, {
        body: JSON.stringify(body),
        raw: true,
        headers: { ...target.adminHeaders(), ...browser(), 'content-type': 'text/plain' },
      });
      expectResponse(r, 415, { path: '$', error: 'expected Content-Type: application/json, got text/plain', code: 'unsupported-media-type' });
    }
    expect(await probeRows()).toBe(0);
    expect((await target.metadata(exportEnvelope)).body).toEqual({ version: 2, tables: [] });
  },
);

test(covers(['dec.http.content-type'], 'GraphQL takes no text/plain or form bodies from a browser'), async () => {
  await target.metadata({ type: 'track_table', args: { table: 'csrf_probe' } });
  const body = JSON.stringify({ query: 'mutation { insert_csrf_probe_one(object: {id: 2}) { id } }' });
  const plain = await target.request('POST', '/v1/graphql', {
    body,
    raw: true,
    headers: { ...target.adminHeaders(), ...browser(), 'content-type': 'text/plain;charset=UTF-8' },
  });
  expectResponse(plain, 415, { path: '$', error: 'expected Content-Type: application/json, got text/plain', code: 'unsupported-media-type' });
  const form = await target.request('POST', '/v1/graphql', {
    body,
    raw: true,
    headers: { ...target.adminHeaders(), 'content-type': 'application/x-www-form-urlencoded', origin: ownOrigin(target.url) },
  });
  expectResponse(form, 415, {
    path: '$',
    error: 'expected Content-Type: application/json, got application/x-www-form-urlencoded',
    code: 'unsupported-media-type',
  });
  expect(await probeRows()).toBe(0);
});

test(covers(['dec.http.content-type'], 'a JSON body of another type from a client that is not a browser (curl -d, fetch) is taken'), async () => {
  for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
    const r = await target.request('POST', '/v1/metadata', {
      body: JSON.stringify(exportEnvelope),
      raw: true,
      headers: { ...target.adminHeaders(), 'content-type': type },
    });
    expectResponse(r, 200, { version: 2, tables: [] });
  }
  const json = await target.request('POST', '/v1/metadata', {
    body: JSON.stringify(exportEnvelope),
    raw: true,
    headers: { ...target.adminHeaders(), 'content-type': 'application/json; charset=utf-8' },
  });
  expectResponse(json, 200, { version: 2, tables: [] });
});

test(
  covers(['dec.http.cross-origin', 'err.access-denied.origin'], 'the admin APIs refuse other origins, even with the admin secret, and take their own'),
  async () => {
    for (const endpoint of ['/v1/metadata', '/v1/query', '/v2/query']) {
      const r = await target.request('POST', endpoint, {
        body: { type: 'run_sql', args: { sql: 'insert into public.csrf_probe values (3)' } },
        headers: { ...target.adminHeaders(), origin: OTHER },
      });
      expectResponse(r, 403, refusedOrigin(OTHER));
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
    expectResponse(await target.request('GET', '/v1alpha1/config', { headers: { ...target.adminHeaders(), origin: OTHER } }), 403, refusedOrigin(OTHER));
    expect(await probeRows()).toBe(0);
    const own = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { ...target.adminHeaders(), origin: ownOrigin(target.url) } });
    expectResponse(own, 200, { version: 2, tables: [] });
  },
);

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['dec.http.cross-origin'],
  'with an admin secret, GraphQL takes any origin and answers with CORS headers; its preflight names what it allows',
  async () => {
    const r = await target.request('POST', '/v1/graphql', { body: { query: '{ __typename }' }, headers: { ...target.adminHeaders(), origin: OTHER } });
    expectResponse(r, 200, { data: { __typename: 'query_root' } });
    expect({
      origin: r.headers.get('access-control-allow-origin'),
      credentials: r.headers.get('access-control-allow-credentials'),
      vary: r.headers.get('vary'),
    }).toEqual({
      origin: OTHER,
      credentials: 'true',
      vary: 'Origin',
    });
    const preflight = await target.request('OPTIONS', '/v1/graphql', {
      headers: { origin: OTHER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-engine-admin-secret' },
    });
    expect({
      status: preflight.status,
      origin: preflight.headers.get('access-control-allow-origin'),
      methods: preflight.headers.get('access-control-allow-methods'),
      headers: preflight.headers.get('access-control-allow-headers'),
    }).toEqual(branded({ status: 204, origin: OTHER, methods: 'GET, POST, OPTIONS', headers: 'content-type,x-engine-admin-secret' }));
    const adminPreflight = await target.request('OPTIONS', '/v1/metadata', { headers: { origin: OTHER, 'access-control-request-method': 'POST' } });
    expect({ status: adminPreflight.status, origin: adminPreflight.headers.get('access-control-allow-origin') }).toEqual({ status: 204, origin: null });
  },
);

caseWithProfile(
  'no-admin-secret',
  ['dec.http.cross-origin', 'dec.http.content-type'],
  'without an admin secret, a page of another origin can neither run SQL nor GraphQL',
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    await t.metadata({ type: 'track_table', args: { table: 'csrf_probe' } });
    const attack = await t.request('POST', '/v2/query', {
      body: JSON.stringify({ type: 'run_sql', args: { sql: 'insert into public.csrf_probe values (4)' } }),
      raw: true,
      headers: { origin: OTHER, 'content-type': 'text/plain' },
    });
    expectResponse(attack, 403, refusedOrigin(OTHER));
    const graphql = await t.request('POST', '/v1/graphql', {
      body: { query: 'mutation { insert_csrf_probe_one(object: {id: 5}) { id } }' },
      headers: { origin: OTHER },
    });
    expectResponse(graphql, 403, refusedOrigin(OTHER));
    expect(await probeRows()).toBe(0);
    const own = await t.request('POST', '/v1/graphql', { body: { query: '{ csrf_probe { id } }' }, headers: { origin: ownOrigin(t.url) } });
    expectResponse(own, 200, { data: { csrf_probe: [] } });
  },
);

caseWithProfile('cors-domains', ['dec.http.cross-origin'], 'ENGINE_GRAPHQL_CORS_DOMAIN lists the origins allowed, with subdomain wildcards', async () => {
  const t = target.profileTarget('cors-domains')!;
  const ask = (origin: string, endpoint = '/v1/graphql') =>
    t.request('POST', endpoint, { body: endpoint === '/v1/graphql' ? { query: '{ __typename }' } : exportEnvelope, headers: { ...t.adminHeaders(), origin } });
  for (const origin of ['https://app.example.test', 'http://a.example.org:3000', 'http://b.a.example.org:3000']) {
    const r = await ask(origin);
    expect({ status: r.status, origin: r.headers.get('access-control-allow-origin') }).toEqual({ status: 200, origin });
  }
  expectResponse(await ask('https://app.example.test', '/v1/metadata'), 200, { version: 2, tables: [] });
  for (const origin of ['http://app.example.test', 'http://example.org:3000', 'http://a.example.org:3001', 'https://evil.test', 'null']) {
    expectResponse(await ask(origin), 403, refusedOrigin(origin));
  }
});

test(covers(['dec.graphql.get-mutation'], 'GET runs queries, and refuses mutations with 405'), async () => {
  await target.metadata({ type: 'track_table', args: { table: 'csrf_probe' } });
  const query = await target.request('GET', `/v1/graphql?query=${encodeURIComponent('{ csrf_probe { id } }')}`, { headers: target.adminHeaders() });
  expectResponse(query, 200, { data: { csrf_probe: [] } });
  const mutation = await target.request('GET', `/v1/graphql?query=${encodeURIComponent('mutation { insert_csrf_probe_one(object: {id: 6}) { id } }')}`, {
    headers: target.adminHeaders(),
  });
  expectResponse(mutation, 405, {
    errors: [{ message: 'mutations cannot be sent with GET; use POST', extensions: { path: '$', code: 'method-not-allowed' } }],
  });
  expect(mutation.headers.get('allow')).toBe('POST');
  expect(await probeRows()).toBe(0);
});

test(
  covers(['dec.graphql.get-mutation'], 'over GET, operationName picks the operation: the query of a document runs, its mutation is refused and runs nothing'),
  async () => {
    await target.metadata({ type: 'track_table', args: { table: 'csrf_probe' } });
    await target.sql('insert into public.csrf_probe values (3)');
    const document = 'query Read { csrf_probe { id } } mutation Write { delete_csrf_probe(where: {}) { affected_rows } }';
    const get = (operationName: string) =>
      target.request('GET', `/v1/graphql?query=${encodeURIComponent(document)}&operationName=${operationName}`, { headers: target.adminHeaders() });
    expectResponse(await get('Read'), 200, { data: { csrf_probe: [{ id: 3 }] } });
    const refused = await get('Write');
    expectResponse(refused, 405, {
      errors: [{ message: 'mutations cannot be sent with GET; use POST', extensions: { path: '$', code: 'method-not-allowed' } }],
    });
    expect(refused.headers.get('allow')).toBe('POST');
    expect(await probeRows()).toBe(1);
  },
);

/** The HTTP status of a WebSocket upgrade from `origin` (101 when it opens). */
const upgradeStatus = (url: string, origin: string, host?: string) =>
  new Promise<number>((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', { origin, ...(host ? { headers: { host } } : {}) });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('error', () => resolve(0));
  });

caseWithProfile(
  'no-admin-secret',
  ['dec.http.cross-origin'],
  "a page of another origin cannot open a GraphQL socket; the server's own origin can",
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    expect(await upgradeStatus(socketUrl(t), OTHER)).toBe(403);
    expect(await upgradeStatus(socketUrl(t), ownOrigin(t.url))).toBe(101);
  },
);

test(
  covers(
    ['dec.http.cross-origin', 'err.access-denied.origin'],
    'a request a browser marks as coming from another site is refused by the admin APIs even without an Origin header',
  ),
  async () => {
    const insert = { type: 'run_sql', args: { sql: 'insert into public.csrf_probe values (4)' } };
    for (const site of ['cross-site', 'same-site']) {
      const r = await target.request('POST', '/v2/query', {
        body: JSON.stringify(insert),
        raw: true,
        headers: { ...target.adminHeaders(), 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors' },
      });
      expectResponse(r, 403, refusedOrigin('null'));
    }
    const same = await target.request('POST', '/v2/query', { body: insert, headers: { ...target.adminHeaders(), ...browser() } });
    expectResponse(same, 200, { result_type: 'CommandOk', result: null });
    expect(await probeRows()).toBe(1);
  },
);

/** What a page of evil.example sends once its name is made to resolve to the server's address. */
const rebound = (port: string) => ({ host: `evil.example:${port}`, origin: `http://evil.example:${port}`, ...browser() });
const refusedHost = (host: string) => ({
  path: '$',
  error: `the host "${host}" is not one this server answers to; list it in ENGINE_GRAPHQL_ALLOWED_HOSTS`,
  code: 'access-denied',
});

caseWithProfile(
  'no-admin-secret',
  ['dec.http.allowed-hosts', 'err.access-denied.host'],
  'without an admin secret, a request to another host name (DNS rebinding) is refused on every API, and nothing runs',
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    const port = new URL(t.url).port;
    const insert = { type: 'run_sql', args: { sql: 'insert into public.csrf_probe values (7)' } };
    for (const [method, path, body] of [
      ['POST', '/v2/query', insert],
      ['POST', '/v1/metadata', { type: 'export_metadata', args: {} }],
      ['POST', '/v1/graphql', { query: '{ __typename }' }],
      ['GET', '/v1/graphql?query=%7B__typename%7D', undefined],
      ['GET', '/v1alpha1/config', undefined],
      ['GET', '/console', undefined],
    ] as const) {
      const r = await t.request(method, path, { ...(body ? { body } : {}), headers: rebound(port) });
      expectResponse(r, 403, refusedHost(`evil.example:${port}`));
    }
    expect(await probeRows()).toBe(0);
    expect(await upgradeStatus(socketUrl(t), `http://evil.example:${port}`, `evil.example:${port}`)).toBe(403);
  },
);

caseWithProfile('no-admin-secret', ['dec.http.allowed-hosts'], 'without an admin secret, the loopback names in any spelling are served', async () => {
  const t = target.profileTarget('no-admin-secret')!;
  const port = new URL(t.url).port;
  for (const host of [`localhost:${port}`, `LocalHost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`, 'localhost']) {
    const r = await t.request('POST', '/v2/query', { body: { type: 'run_sql', args: { sql: 'select 1 as one' } }, headers: { host } });
    expectResponse(r, 200, { result_type: 'TuplesOk', result: [['one'], ['1']] });
  }
  expect(await upgradeStatus(socketUrl(t), `http://localhost:${port}`, `localhost:${port}`)).toBe(101);
});

caseWithProfile(
  'no-admin-secret',
  ['dec.http.allowed-hosts', 'err.access-denied.host'],
  'without an admin secret, a name that only begins or ends like a loopback name is refused, and nothing runs',
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    const port = new URL(t.url).port;
    const insert = { type: 'run_sql', args: { sql: 'insert into public.csrf_probe values (8)' } };
    for (const host of [
      `localhost.evil.example:${port}`,
      `localhostx:${port}`,
      `localhost-evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `127.0.0.10:${port}`,
      `[::1:2]:${port}`,
      `evil-localhost:${port}`,
      `localhost.evil.example`,
    ]) {
      const r = await t.request('POST', '/v2/query', { body: insert, headers: { host } });
      expectResponse(r, 403, refusedHost(host));
    }
    expect(await probeRows()).toBe(0);
    const evil = `localhost.evil.example:${port}`;
    expect(await upgradeStatus(socketUrl(t), `http://${evil}`, evil)).toBe(403);
  },
);

caseNeeding(REQUIRES_ADMIN_SECRET, ['dec.http.allowed-hosts'], 'with an admin secret, any host name is served', async () => {
  const r = await target.request('POST', '/v1/metadata', {
    body: { type: 'export_metadata', args: {} },
    headers: { ...target.adminHeaders(), host: 'api.example.test' },
  });
  expect(r.status).toBe(200);
});
