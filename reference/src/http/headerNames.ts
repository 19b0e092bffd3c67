// On a server with the compatibility setting (decision dec.compat.headers), a request's
// X-Hasura-* headers become the X-Engine-* ones before anything reads them: its body limit, its
// session, the headers forwarded to remote schemas and actions. One given under both names with
// different values is refused here (decision err.invalid-headers.both-brands).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { engineHeaders } from '../auth/session';
import { EngineError } from '../errors';
import type { Logger } from '../log';
import type { CompatHeaders } from '../sessionNames';
import { GRAPHQL_PATHS } from './crossOrigin';
import { graphqlErrorBody } from './graphqlFastPath';

/** Rename the request's headers; false when it was refused (and answered). */
export function adoptHeaderNames(req: IncomingMessage, res: ServerResponse, compat: CompatHeaders, logger: Logger): boolean {
  const named = engineHeaders(req.headers, compat);
  if (!(named instanceof EngineError)) {
    req.headers = named as IncomingHttpHeaders;
    return true;
  }
  // GraphQL clients get the GraphQL error shape, every other API the error envelope.
  const graphql = GRAPHQL_PATHS.has((req.url ?? '').split('?')[0]!);
  logger.log('warn', 'http-log', { method: req.method, url: req.url, status: named.status, error: named.toBody() });
  res.writeHead(named.status, { 'content-type': 'application/json; charset=utf-8' }).end(graphql ? graphqlErrorBody(named) : JSON.stringify(named.toBody()));
  return false;
}
