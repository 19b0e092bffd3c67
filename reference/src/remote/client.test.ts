// Talking to remote GraphQL servers: the endpoint a definition gives, the headers a request carries,
// and the answers of servers on loopback (introspection, failures, bounds on the answer).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../packageRoot';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphqlSync, getIntrospectionQuery, printSchema } from 'graphql';
import type { RemoteSchema } from '../../../spec';
import { RemoteAnswerBytes } from './answerBytes';
import {
  forwardedHeaders,
  introspectRemote,
  MAX_REMOTE_ANSWER_BYTES,
  postGraphQL,
  postJson,
  remoteEndpoint,
  remoteHeaders,
  RemoteFailure,
  UnframedRemoteFailure,
} from './client';

const definition = (parts: Partial<RemoteSchema['definition']>): RemoteSchema =>
  ({ name: 'r', definition: { url: 'http://remote.test/graphql', forward_client_headers: false, timeout_seconds: 2, ...parts } }) as RemoteSchema;

describe('remoteEndpoint', () => {
  test('the URL, headers and timeout of the definition, with the allow-list entries for its address', () => {
    const allow = { host: 'remote.test' };
    const endpoint = remoteEndpoint(
      definition({ url: 'https://remote.test/graphql', headers: [{ name: 'X-Key', value: 'k' }], forward_client_headers: true }),
      {},
      [allow, { host: 'other.test' }],
    );
    expect(endpoint).toEqual({
      name: 'r',
      url: 'https://remote.test/graphql',
      shown: 'https://remote.test/graphql',
      headers: { 'x-key': 'k' },
      forwardClientHeaders: true,
      timeoutMs: 2000,
      allowlist: [allow],
    });
    expect(remoteEndpoint(definition({}), {}).allowlist).toEqual([]);
  });

  test('from the environment', () => {
    const endpoint = remoteEndpoint(definition({ url: undefined, url_from_env: 'REMOTE_URL', headers: [{ name: 'k', value_from_env: 'KEY' }] }), {
      REMOTE_URL: 'http://from.env/graphql',
      KEY: 'secret',
    });
    expect([endpoint.url, endpoint.headers]).toEqual(['http://from.env/graphql', { k: 'secret' }]);
  });

  test('what cannot be used, as a RemoteFailure that says why', () => {
    const why = (remote: RemoteSchema, env: NodeJS.ProcessEnv = {}) => {
      try {
        remoteEndpoint(remote, env);
        return 'used';
      } catch (error) {
        return [error instanceof RemoteFailure, (error as Error).message];
      }
    };
    expect(why(definition({ url: undefined, url_from_env: 'NOPE' }))).toEqual([true, 'the environment variable NOPE (url_from_env) is not set']);
    expect(why(definition({ url: 'ftp://x' }))).toEqual([true, '"ftp://x" is not an http or https URL']);
    expect(why(definition({ headers: [{ name: 'k', value_from_env: 'NOPE' }] }))).toEqual([true, 'the environment variable NOPE (header k) is not set']);
  });
});

describe('the headers of a request', () => {
  const endpoint = { ...remoteEndpoint(definition({ headers: [{ name: 'X-Key', value: 'configured' }] }), {}), forwardClientHeaders: true };

  test("the client's forwarded, then the configured ones, then the session's, then JSON", () => {
    const client = { 'X-Key': 'client', 'x-other': ['a', 'b'], host: 'h', 'content-type': 'text/plain', 'X-Engine-Role': 'admin', gone: undefined };
    expect(Object.keys(remoteHeaders(endpoint, undefined, client))).toEqual(['x-key', 'x-other', 'content-type', 'accept']);
    expect(remoteHeaders(endpoint, { role: 'user', variables: { 'x-engine-user-id': '7' } }, client)).toEqual({
      'x-key': 'configured',
      'x-other': 'a, b',
      'x-engine-role': 'user',
      'x-engine-user-id': '7',
      'content-type': 'application/json',
      accept: 'application/json',
    });
  });

  test("not forwarded unless the definition says so; a compatible server's session in its own names", () => {
    const headers = remoteHeaders({ ...endpoint, forwardClientHeaders: false }, { role: 'user', variables: {}, compatHeaders: 'lower' } as never, {
      'x-other': 'a',
    });
    expect(headers).toEqual({ 'x-key': 'configured', 'x-hasura-role': 'user', 'content-type': 'application/json', accept: 'application/json' });
    expect(remoteHeaders(endpoint, undefined, {})).toEqual({ 'x-key': 'configured', 'content-type': 'application/json', accept: 'application/json' });
  });

  test("never the connection's own headers nor the credentials", () => {
    const own = ['host', 'content-length', 'content-type', 'content-encoding', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade'];
    const more = ['accept-encoding', 'proxy-authorization', 'proxy-connection', 'x-engine-admin-secret', 'X-Engine-Anything'];
    expect(forwardedHeaders(Object.fromEntries([...own, ...more, 'Authorization'].map((h) => [h, 'v'])))).toEqual({ authorization: 'v' });
  });
});

describe('answers of servers on loopback', () => {
  let server: Server;
  let url: string;
  let handle: (req: IncomingMessage, res: ServerResponse) => void;
  beforeAll(async () => {
    server = createServer((req, res) => handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const answering = (status: number, body: string, headers: Record<string, string> = {}) =>
    (handle = (_req, res) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body));
  const failureOf = async (work: Promise<unknown>) => {
    try {
      await work;
      return 'answered';
    } catch (error) {
      return error instanceof RemoteFailure ? error.message : `not a RemoteFailure: ${String(error)}`;
    }
  };
  const endpointAt = () => ({ name: 'r', url, shown: url, headers: { 'x-key': 'k' }, forwardClientHeaders: false, timeoutMs: 2000 });

  test('the schema introspected, asked with the configured headers', async () => {
    const schema = buildSchema('type Query { hello: String }');
    let sent: { headers: IncomingMessage['headers']; query: string } | undefined;
    handle = (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const query = (JSON.parse(body) as { query: string }).query;
        sent = { headers: req.headers, query };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(graphqlSync({ schema, source: query })));
      });
    };
    expect(printSchema(await introspectRemote(endpointAt()))).toBe(printSchema(schema));
    expect([sent!.query, sent!.headers['x-key'], sent!.headers['content-type'], sent!.headers.accept]).toEqual([
      getIntrospectionQuery(),
      'k',
      'application/json',
      'application/json',
    ]);
  });

  test('an introspection that fails, that is no schema, or a schema that cannot be served', async () => {
    answering(200, JSON.stringify({ errors: [{ message: 'no introspection here' }] }));
    expect(await failureOf(introspectRemote(endpointAt()))).toBe('introspection failed: no introspection here');
    answering(200, JSON.stringify({ errors: [{ code: 1 }] }));
    expect(await failureOf(introspectRemote(endpointAt()))).toBe('introspection failed: {"code":1}');
    for (const answer of [{ data: {} }, { errors: [] }, { data: null }]) {
      answering(200, JSON.stringify(answer));
      expect(await failureOf(introspectRemote(endpointAt()))).toMatch(
        /^its introspection answer is not a valid schema: Invalid or incomplete introspection result/,
      );
    }
    answering(200, JSON.stringify({ data: {} }));
    expect(await failureOf(introspectRemote(endpointAt()))).toMatch(
      /^its introspection answer is not a valid schema: Invalid or incomplete introspection result/,
    );
    const broken = graphqlSync({ schema: buildSchema('type Query { box: Box } union Box', { assumeValid: true }), source: getIntrospectionQuery() });
    answering(200, JSON.stringify(broken));
    expect(await failureOf(introspectRemote(endpointAt()))).toBe("List of member types cannot be empty for union type 'Box'");
    // Readable by the engine, but not servable: an object that lacks its interface's field.
    const unserved = graphqlSync({
      schema: buildSchema('type Query { a: A } interface Node { id: ID } type A implements Node { name: String }', { assumeValid: true }),
      source: getIntrospectionQuery(),
    });
    answering(200, JSON.stringify(unserved));
    expect(await failureOf(introspectRemote(endpointAt()))).toBe(`Interface field 'Node'."id" expected, but 'A' does not provide it`);
    // Both are reported in the engine's words alone, as the catalogue's invalid-schema entry frames them.
    const kind = (work: Promise<unknown>) =>
      work.then(
        () => 'answered',
        (error: unknown) => (error instanceof UnframedRemoteFailure ? error.kind : String(error)),
      );
    expect(await kind(introspectRemote(endpointAt()))).toBe('invalid-schema');
    answering(200, JSON.stringify(broken));
    expect(await kind(introspectRemote(endpointAt()))).toBe('invalid-schema');
    // An empty list of errors is no failure.
    answering(200, JSON.stringify({ data: graphqlSync({ schema: buildSchema('type Query { a: Int }'), source: getIntrospectionQuery() }).data, errors: [] }));
    expect(printSchema(await introspectRemote(endpointAt()))).toBe('type Query {\n  a: Int\n}');
  });

  test('an answer that is no GraphQL answer', async () => {
    for (const body of ['[]', 'null', '1', '{"other":1}']) {
      answering(502, body);
      expect(await failureOf(postGraphQL(endpointAt(), {}, {}))).toBe('it answered 502 without "data" or "errors"');
    }
    answering(200, '{"errors":[]}');
    expect(await postGraphQL(endpointAt(), {}, {})).toEqual({ errors: [] });
    answering(200, 'not json');
    expect(await failureOf(postJson(url, {}, {}, 2000))).toBe('it answered 200 with a body that is not JSON');
    answering(200, `${'['.repeat(1001)}${']'.repeat(1001)}`);
    expect(await failureOf(postJson(url, {}, {}, 2000))).toBe('it answered 200 with JSON nested deeper than 1000');
    answering(200, `${'['.repeat(1000)}${']'.repeat(1000)}`);
    expect(await postJson(url, {}, {}, 2000)).toMatchObject({ status: 200 });
  });

  test('a server that does not answer in time, one that is not there, and a client gone', async () => {
    handle = () => {};
    expect(await failureOf(postJson(url, {}, {}, 100))).toBe('it did not answer within 0.1 s');
    const cancelled = new AbortController();
    const asked = failureOf(postJson(url, {}, {}, 2000, cancelled.signal));
    cancelled.abort();
    expect(await asked).toBe('the request that asked for it went away');
    // fetch's own refusal has no code: its message.
    expect(await failureOf(postJson('http://127.0.0.1:9/graphql', {}, {}, 2000))).toBe('bad port');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await failureOf(postJson(`http://127.0.0.1:${port}/graphql`, {}, {}, 2000))).toBe('ECONNREFUSED');
    // A GraphQL request says it in the engine's words, naming the URL as the definition wrote it.
    const gone = { ...endpointAt(), url: `http://127.0.0.1:${port}/graphql`, shown: '{{REMOTE_URL}}/graphql' };
    const refused = await postGraphQL(gone, {}, {}).then(
      () => 'answered',
      (error: unknown) => (error instanceof UnframedRemoteFailure ? [error.kind, error.message] : String(error)),
    );
    expect(refused).toEqual(['http-exception', 'HTTP exception occurred while sending the request to "{{REMOTE_URL}}/graphql"']);
    // A late answer too; any other failure is not framed so.
    handle = () => {};
    expect(await postGraphQL({ ...gone, url, timeoutMs: 100 }, {}, {}).catch((error: unknown) => (error as Error).message)).toBe(
      'HTTP exception occurred while sending the request to "{{REMOTE_URL}}/graphql"',
    );
    answering(200, 'not json');
    expect(await postGraphQL(endpointAt(), {}, {}).catch((error: unknown) => [(error as Error).constructor.name, (error as Error).message])).toEqual([
      'RemoteFailure',
      'it answered 200 with a body that is not JSON',
    ]);
  });

  test('an answer larger than allowed, by its declared length or as it comes', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_REMOTE_ANSWER_BYTES + 1) });
      res.write('{');
    };
    expect(await failureOf(postJson(url, {}, {}, 2000))).toBe(`its answer is larger than ${MAX_REMOTE_ANSWER_BYTES} bytes`);
  });

  test("the request's bound on remote answers: a declared length counted before it is read, the rest as it comes", async () => {
    const bytes = new RemoteAnswerBytes(100, 1_000_000);
    const budget = bytes.forRequest('user');
    answering(200, JSON.stringify({ data: 'x'.repeat(40) }));
    await postJson(url, {}, {}, 2000, undefined, budget);
    // 51 bytes, held as four bytes each (answerBytes.ts).
    expect(bytes.heldBy('user')).toBe(204);
    await expect(postJson(url, {}, {}, 2000, undefined, budget)).rejects.toThrow('the remote answers of this request are larger than 100 bytes together');
    budget.release();
    expect(bytes.heldBy('user')).toBe(0);
    const chunked = bytes.forRequest('user');
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: 'y'.repeat(200) }));
    };
    expect(await failureOf(postJson(url, {}, {}, 2000, undefined, chunked))).toBe('the remote answers of this request are larger than 100 bytes together');
    chunked.release();
  });

  test('a request no HTTP client can send, and an answer without a body', async () => {
    expect(await failureOf(postJson(url, { 'x-key': 'a\nb' }, {}, 2000))).toBe('Headers.append: "a\nb" is an invalid header value.');
    handle = (_req, res) => res.writeHead(204).end();
    expect(await failureOf(postJson(url, {}, {}, 2000))).toBe('it answered 204 with a body that is not JSON');
  });

  test('an answer that declares exactly the largest length allowed is read', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_REMOTE_ANSWER_BYTES) });
      res.write('{', () => res.destroy());
    };
    // Not refused for its length: read until the server goes.
    expect(await failureOf(postJson(url, {}, {}, 2000))).toBe('UND_ERR_SOCKET');
  });

  test('an answer larger than allowed that does not say so', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 32);
      let sent = 0;
      const more = () => {
        while (sent <= MAX_REMOTE_ANSWER_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    expect(await failureOf(postJson(url, {}, {}, 10_000))).toBe(`its answer is larger than ${MAX_REMOTE_ANSWER_BYTES} bytes`);
  });

  test('the bytes of an answer read in parts are counted once each, declared or not', async () => {
    const parts = (declared: boolean) => (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': '21' } : {}) });
      res.write('{"data":"', () => setTimeout(() => res.end('0123456789"}'), 20));
    };
    for (const declared of [true, false]) {
      const bytes = new RemoteAnswerBytes(1000, 1000);
      const budget = bytes.forRequest('user');
      handle = parts(declared);
      expect(await postJson(url, {}, {}, 2000, undefined, budget)).toEqual({ status: 200, json: { data: '0123456789' } });
      // 21 bytes, held as four bytes each.
      expect(bytes.heldBy('user')).toBe(84);
    }
  });

  test('a declared length without a bound to count it in: read as it comes', async () => {
    handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '10' }).end('{"data":1}');
    expect(await postJson(url, {}, {}, 2000)).toEqual({ status: 200, json: { data: 1 } });
  });

  test('a declared length the bound cannot hold is refused at once, not after the part that fits', async () => {
    const bytes = new RemoteAnswerBytes(10, 1000);
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '21' });
      res.write('{"data":"');
    };
    expect(await failureOf(postJson(url, {}, {}, 500, undefined, bytes.forRequest('user')))).toBe(
      'the remote answers of this request are larger than 10 bytes together',
    );
  });

  test('a declared length the bound cannot hold is refused before anything is read', async () => {
    const bytes = new RemoteAnswerBytes(10, 1000);
    handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '20' }).end('{"data":"0123456789"}'.slice(0, 20));
    expect(await failureOf(postJson(url, {}, {}, 2000, undefined, bytes.forRequest('user')))).toBe(
      'the remote answers of this request are larger than 10 bytes together',
    );
    expect(bytes.heldBy('user')).toBe(0);
  });

  test('a certificate refused says so; taken when the allow-list has the address', async () => {
    const key = (name: string) => readFileSync(join(PACKAGE_ROOT, 'fixtures', 'keys', name), 'utf8');
    let stall = false;
    const tls = createHttpsServer({ key: key('tls-self-signed.key.pem'), cert: key('tls-self-signed.cert.pem') }, (_req, res) => {
      if (!stall) res.end('{"data":1}');
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const at = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`;
    try {
      expect(await failureOf(postJson(at, {}, {}, 2000))).toBe('its TLS certificate was refused (DEPTH_ZERO_SELF_SIGNED_CERT)');
      expect(await postJson(at, {}, {}, 2000, undefined, undefined, [{ host: '127.0.0.1' }])).toEqual({ status: 200, json: { data: 1 } });
      // Through the connections that take the certificate, a server that does not answer in time too.
      stall = true;
      expect(await failureOf(postJson(at, {}, {}, 100, undefined, undefined, [{ host: '127.0.0.1' }]))).toBe('it did not answer within 0.1 s');
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
