// Remote servers on loopback for the cases: msw request handlers served over real HTTP by
// @mswjs/http-middleware, so that a case declares what a remote GraphQL server or action handler
// answers next to its assertions, and the engine under test reaches it like any other server.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createMiddleware } from '@mswjs/http-middleware';
import { buildSchema, graphql as runGraphQL } from 'graphql';
import { http, HttpResponse, type RequestHandler } from 'msw';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface MockServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Every request since the last reset, in order. */
  readonly requests: RecordedRequest[];
  /** Answer with these handlers (first match wins) until the next reset. */
  use(...handlers: RequestHandler[]): void;
  requestsTo(path: string): RecordedRequest[];
}

/** One mock server for a test file: started before the cases, emptied before each case. */
export function useMockServer(): MockServer {
  let handlers: RequestHandler[] = [];
  let middleware = createMiddleware();
  const requests: RecordedRequest[] = [];
  let server: Server | undefined;
  let url = '';
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
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve());
    });
    url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    handlers = [];
    middleware = createMiddleware();
    requests.length = 0;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    get url() {
      return url;
    },
    requests,
    use(...more: RequestHandler[]) {
      handlers = [...more, ...handlers];
      middleware = createMiddleware(...handlers);
    },
    requestsTo: (path) => requests.filter((r) => r.path === path),
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
