// The schemas of remote servers as this server last introspected them: kept by name and definition,
// introspected again when forced or when the definition changes, a few definitions per name.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, getIntrospectionQuery, graphqlSync, printSchema } from 'graphql';
import type { MetadataDocument, RemoteSchema } from '../../../spec';
import { DEFINITIONS_PER_NAME, RemoteSchemaStore, type RemoteState } from './store';

let server: Server;
let base: string;
let asked: string[] = [];
/** The remote's schema by path: each path serves a schema with one field of the path's name. */
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url!.slice(1);
    asked.push(path);
    if (path === 'down') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":[{"message":"down"}]}');
    const schema = buildSchema(`type Query { ${path}: Int }`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(graphqlSync({ schema, source: getIntrospectionQuery() })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  asked = [];
});

const remote = (path: string, name = 'r'): RemoteSchema =>
  ({ name, definition: { url: `${base}/${path}`, forward_client_headers: false, timeout_seconds: 5 } }) as RemoteSchema;
const fieldOf = (state: RemoteState | undefined) => (state && 'schema' in state ? printSchema(state.schema) : state && state.problem);
const documentOf = (...remotes: RemoteSchema[]) => ({ version: 2, tables: [], remote_schemas: remotes }) as unknown as MetadataDocument;

test('introspected once per definition; again when forced, unless fresh enough', async () => {
  const store = new RemoteSchemaStore({});
  expect(store.state(remote('a'))).toBeUndefined();
  const first = await store.load(remote('a'));
  expect(fieldOf(first)).toBe('type Query {\n  a: Int\n}');
  expect(await store.load(remote('a'))).toBe(first);
  expect(store.state(remote('a'))).toBe(first);
  const forced = await store.load(remote('a'), true);
  expect(forced).not.toBe(first);
  expect(await store.load(remote('a'), true, { notBefore: forced.loadedAt })).toBe(forced);
  expect(await store.load(remote('a'), true, { notBefore: forced.loadedAt + 60_000 })).not.toBe(forced);
  expect(asked).toEqual(['a', 'a', 'a']);
  // Another definition of the name: introspected for itself, the first kept.
  expect(fieldOf(await store.load(remote('b')))).toBe('type Query {\n  b: Int\n}');
  expect(fieldOf(store.state(remote('a')))).toBe('type Query {\n  a: Int\n}');
});

test('a remote that fails is a state with its problem; a definition that cannot be used too; an address from a missing variable', async () => {
  const store = new RemoteSchemaStore({});
  expect(fieldOf(await store.load(remote('down')))).toBe('introspection failed: down');
  const fromEnv = { name: 'e', definition: { url_from_env: 'REMOTE', forward_client_headers: false, timeout_seconds: 5 } } as RemoteSchema;
  expect(fieldOf(await store.load(fromEnv))).toBe('the environment variable REMOTE (url_from_env) is not set');
  const withEnv = new RemoteSchemaStore({ REMOTE: `${base}/e` });
  expect(fieldOf(await withEnv.load(fromEnv))).toBe('type Query {\n  e: Int\n}');
});

test('a request gone away leaves no state behind', async () => {
  const store = new RemoteSchemaStore({});
  const cancelled = new AbortController();
  cancelled.abort();
  const state = await store.load(remote('a'), false, { cancelled: cancelled.signal });
  expect(fieldOf(state)).toBe('the request that asked for it went away');
  expect(store.state(remote('a'))).toBeUndefined();
});

test('a definition under an allow-list is another state than without', async () => {
  const store = new RemoteSchemaStore({});
  await store.load(remote('a'));
  expect(store.state(remote('a'), [{ host: '127.0.0.1' }])).toBeUndefined();
  await store.load(remote('a'), false, { allowlist: [{ host: '127.0.0.1' }] });
  expect(fieldOf(store.state(remote('a'), [{ host: '127.0.0.1' }]))).toBe('type Query {\n  a: Int\n}');
  expect(asked).toEqual(['a', 'a']);
  // Two definitions under one allow-list are two states.
  expect(store.state(remote('b'), [{ host: '127.0.0.1' }])).toBeUndefined();
});

test("a failure of the server's own, not the remote's, is thrown rather than kept as the remote's problem", async () => {
  const unreadable = new Proxy({} as NodeJS.ProcessEnv, {
    get: () => {
      throw new TypeError('the environment cannot be read');
    },
  });
  const fromEnv = { name: 'e', definition: { url_from_env: 'REMOTE', forward_client_headers: false, timeout_seconds: 5 } } as RemoteSchema;
  await expect(new RemoteSchemaStore(unreadable).load(fromEnv)).rejects.toThrow('the environment cannot be read');
});

test('a few definitions per name: the least recently used let go, never the one served', async () => {
  expect(DEFINITIONS_PER_NAME).toBe(4);
  const store = new RemoteSchemaStore({});
  await store.load(remote('p0'));
  store.serving(documentOf(remote('p0')));
  for (const path of ['p1', 'p2', 'p3']) await store.load(remote(path));
  // p1 used again: p2 is now the least recently used after the one served.
  expect(store.state(remote('p1'))).toBeDefined();
  await store.load(remote('p4'));
  expect(['p0', 'p1', 'p2', 'p3', 'p4'].map((p) => store.state(remote(p)) !== undefined)).toEqual([true, true, false, true, true]);
  // Introspected again when forced: still one state of that definition.
  await store.load(remote('p4'), true);
  expect(['p0', 'p1', 'p3', 'p4'].map((p) => store.state(remote(p)) !== undefined)).toEqual([true, true, true, true]);
  // Names apart.
  await store.load(remote('p0', 'other'));
  expect(store.state(remote('p0', 'other'))).toBeDefined();
  expect(store.state(remote('p1'))).toBeDefined();
});

test("loadAll: every remote of the document not yet introspected, all when forced, under the document's allow-list; missing says whether one is left", async () => {
  const store = new RemoteSchemaStore({});
  const document = documentOf(remote('a', 'one'), remote('b', 'two'));
  expect(store.missing(document)).toBe(true);
  await store.load(remote('a', 'one'));
  expect(store.missing(document)).toBe(true);
  await store.loadAll(document);
  expect([store.missing(document), asked.sort()]).toEqual([false, ['a', 'b']]);
  await store.loadAll(document, true);
  expect(asked.sort()).toEqual(['a', 'a', 'b', 'b']);
  const allowed = { ...document, network: { tls_allowlist: [{ host: '127.0.0.1' }] } } as MetadataDocument;
  expect(store.missing(allowed)).toBe(true);
  await store.loadAll(allowed);
  expect(store.missing(allowed)).toBe(false);
  expect(fieldOf(store.state(remote('b', 'two'), [{ host: '127.0.0.1' }]))).toBe('type Query {\n  b: Int\n}');
});
