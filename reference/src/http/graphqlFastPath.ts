// POST /v1/graphql without Express: the hot path of the engine, kept as short as the work allows
// (read the body, resolve the session, take the cached plan, one round trip, write the JSON text).
// Everything else, and every malformed request, goes through the Express app.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from '../auth/session';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine/engine';
import { EngineError } from '../errors';
import { executeGraphQLRequest, type GraphQLRequest } from '../execute/graphql';
import { GRAPHQL_PATHS, refusedContentType } from './crossOrigin';
import { nestsDeeperThan } from '../execute/operationLimits';
import type { ServerLogger } from '../log';
import { graphqlErrorsOf, graphqlOperationLabel, graphqlRequestDetail } from './graphqlLog';
import { bodyLimit } from './bodyLimit';
import { clientGone, whenWritten } from './clientGone';

export function createGraphQLFastPath(engine: Engine, config: EngineConfig, logger: ServerLogger) {
  const enabled = config.enabledApis.has('graphql');
  const logRequests = logger.enabled('info');
  return function handle(req: IncomingMessage, res: ServerResponse, fallback: (body: Buffer) => void): boolean {
    if (!enabled || req.method !== 'POST' || !GRAPHQL_PATHS.has((req.url ?? '').split('?')[0]!)) return false;
    // Pages of other origins and bodies that are not JSON get the app's checks.
    if (req.headers.origin !== undefined || refusedContentType(req.headers) !== undefined) return false;
    // A client asking for application/graphql-response+json: the app negotiates it.
    if ((req.headers.accept ?? '').includes('graphql-response+json')) return false;
    // Compressed, chunked or too large bodies too: the app's body reader inflates, and refuses a
    // body over the limit from its Content-Length or as soon as it grows past it.
    const length = Number(req.headers['content-length']);
    if (!(length <= bodyLimit(req.headers, config)) || (req.headers['content-encoding'] ?? 'identity') !== 'identity') return false;
    const started = logRequests ? process.hrtime.bigint() : 0n;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= length) chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let request: GraphQLRequest;
      try {
        request = JSON.parse(body.toString('utf8')) as GraphQLRequest;
        if (typeof request !== 'object' || request === null || Array.isArray(request)) throw new Error('not an object');
        if (nestsDeeperThan(request, config.limits.maxJsonDepth)) throw new Error('too deep');
      } catch {
        return fallback(body); // the app answers with the right error
      }
      let role: string | undefined;
      const send = (status: number, text: string, headers?: Record<string, string>) => {
        const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
        res.writeHead(status, {
          ...headers,
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
          'x-request-id': requestId,
        });
        res.end(text);
        if (logRequests) {
          const duration = Number(process.hrtime.bigint() - started) / 1e6;
          logger.logJson(
            'info',
            'http-log',
            graphqlRequestDetail(requestId, req.url ?? '', status, duration, role, graphqlOperationLabel(request), graphqlErrorsOf(text)),
          );
        }
      };
      authenticate(req.headers, config, request)
        .then(async (session) => {
          if (session instanceof EngineError) return send(session.status, graphqlErrorBody(session));
          role = session.role;
          const answer = await executeGraphQLRequest(engine.pools, engine.graphql(), session, request, 'POST', {
            clientHeaders: req.headers,
            gone: clientGone(res),
            whenWritten: whenWritten(res),
            ...clientAddress(req),
          });
          send(answer.status, answer.body, answer.headers);
        })
        .catch((error: unknown) => {
          logger.log('error', 'unexpected', { error: error instanceof Error ? error.stack : String(error) });
          send(500, JSON.stringify({ errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }] }));
        });
    });
    return true;
  };
}

/** The client's IP address, for rate limits counted per address (the connection's peer). */
export const clientAddress = (req: IncomingMessage): { clientAddress?: string } =>
  req.socket.remoteAddress === undefined ? {} : { clientAddress: req.socket.remoteAddress };

/** An authentication failure in the GraphQL error shape. */
export const graphqlErrorBody = (error: EngineError) =>
  JSON.stringify({ errors: [{ message: error.message, extensions: { path: error.path, code: error.code } }] });
