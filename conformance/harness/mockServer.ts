// Remote servers on loopback for the cases: msw request handlers served over real HTTP by
// @mswjs/http-middleware, so that a case declares what a remote GraphQL server or action handler
// answers next to its assertions, and the engine under test reaches it like any other server.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import express from 'express';
import { createMiddleware } from '@mswjs/http-middleware';
import { buildSchema, graphql as runGraphQL, introspectionFromSchema, type IntrospectionSchema } from 'graphql';
import { http, HttpResponse, type RequestHandler } from 'msw';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface MockServer {
  /** http://127.0.0.1:<port> (https: with a certificate) */
  readonly url: string;
  /** Every request since the last reset, in order. */
  readonly requests: RecordedRequest[];
  /** Answer with these handlers (first match wins) until the next reset. */
  use(...handlers: RequestHandler[]): void;
  requestsTo(path: string): RecordedRequest[];
}

/** A mock server that runs until closed; `use` adds handlers in front of the given ones. */
export interface RunningMockServer extends MockServer {
  /** Forget the handlers added by `use` and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** A certificate and its key, for a mock server that speaks HTTPS. */
export interface MockTls {
  key: string;
  cert: string;
}

export async function startMockServer(base: RequestHandler[] = [], port = 0, tls?: MockTls): Promise<RunningMockServer> {
  let handlers: RequestHandler[] = [...base];
  let middleware = createMiddleware(...handlers);
  const requests: RecordedRequest[] = [];
  const app = express();
  app.use(express.json({ limit: '10mb' }));
  app.use((req, res, next) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    requests.push({ method: req.method, path: req.path, headers, body: req.body as unknown });
    void middleware(req, res, next);
  });
  app.use((_req, res) => {
    res.status(404).json({ error: 'no handler for this request' });
  });
  const server = await new Promise<Server>((resolve) => {
    const s: Server = tls ? createTlsServer(tls, app) : app.listen(port, '127.0.0.1', () => resolve(s));
    if (tls) s.listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    use(...more: RequestHandler[]) {
      handlers = [...more, ...handlers];
      middleware = createMiddleware(...handlers);
    },
    requestsTo: (path) => requests.filter((r) => r.path === path),
    reset() {
      handlers = [...base];
      middleware = createMiddleware(...handlers);
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** One mock server for a test file: started before the cases, emptied before each case. */
export function useMockServer(): MockServer {
  let running: RunningMockServer | undefined;
  beforeAll(async () => {
    running = await startMockServer();
  });
  beforeEach(() => running!.reset());
  afterAll(async () => {
    await running?.close();
  });
  return {
    get url() {
      return running!.url;
    },
    get requests() {
      return running!.requests;
    },
    use: (...more) => running!.use(...more),
    requestsTo: (path) => running!.requestsTo(path),
  };
}

/** Resolvers of a remote GraphQL server: root fields by name, given the arguments and the request's headers. */
export type RootResolvers = Record<string, (args: Record<string, unknown>, context: { headers: Headers }) => unknown>;

/**
 * A GraphQL server at `path`: the schema from SDL, root fields answered by `resolvers` (nested
 * fields from the objects they return), introspection included; `delayMs` holds every answer back.
 */
export function graphQLServer(path: string, sdl: string, resolvers: RootResolvers, options: { delayMs?: number } = {}): RequestHandler {
  const schema = buildSchema(sdl);
  return http.post(path, async ({ request }) => {
    const body = (await request.json()) as { query: string; variables?: Record<string, unknown>; operationName?: string };
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const result = await runGraphQL({
      schema,
      source: body.query,
      rootValue: resolvers,
      contextValue: { headers: request.headers },
      ...(body.variables ? { variableValues: body.variables } : {}),
      ...(body.operationName ? { operationName: body.operationName } : {}),
    });
    return HttpResponse.json(result);
  });
}

/**
 * A server that answers every request with the introspection of `sdl` as written, valid or not
 * (graphql-js would refuse to execute against a schema that is not valid): a remote whose schema
 * breaks the rules of GraphQL. `edit` changes the answer further, to what no SDL can say.
 */
export function introspectionServer(path: string, sdl: string, edit?: (schema: IntrospectionSchema) => unknown): RequestHandler {
  const data = introspectionFromSchema(buildSchema(sdl, { assumeValid: true, assumeValidSDL: true }));
  const answer = edit ? { __schema: edit(data.__schema) } : data;
  return http.post(path, () => HttpResponse.json({ data: answer }));
}
