// The Express application: routes, API switches, the body limit and the error envelope.
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { formatMessage, type Endpoint } from '../../../spec';
import { nestsDeeperThan } from '../execute/operationLimits';
import { authenticate, isAdmin, type Session } from '../auth/session';
import { isRoleDml } from '../operations/roleDml';
import { openApiDocument, resolveRestCall } from '../rest/router';
import type { ApiName, EngineConfig } from '../config';
import type { Engine } from '../engine';
import { engineError, EngineError } from '../errors';
import type { Logger } from '../log';
import { operationCount, parseEnvelope } from '../operations/envelope';
import { executeGraphQLRequest, type GraphQLRequest } from '../execute/graphql';
import { configResponse } from './config';
import { bodyLimit } from './bodyLimit';
import { clientGone } from './clientGone';
import { consoleRouter } from './console';
import { graphqlOperationLabel } from './operationLabel';
import { graphqlErrorBody } from './graphqlFastPath';
import { apiKindOf, corsHeaders, crossSite, GRAPHQL_PATHS, originPolicy, refusedContentType } from './crossOrigin';

export interface AppDependencies {
  engine: Engine;
  config: EngineConfig;
  logger: Logger;
  version: string;
}

/** The error envelope; what went on inside (`internal`) is shown to admin only (the log keeps it). */
const sendError = (res: Response, error: EngineError, admin = true) => {
  res.locals.error = error;
  res.status(error.status).json(error.toBody(admin));
};

const notFound = () => engineError('not-found', '$');

/** Routes of an API answer 404, like unknown paths, when the API is disabled (dec.apis.disabled-404). */
const requireApi = (config: EngineConfig, api: ApiName) => (_req: Request, res: Response, next: NextFunction) =>
  config.enabledApis.has(api) ? next() : sendError(res, notFound());

function session(req: Request, config: EngineConfig, request?: unknown): Promise<Session | EngineError> {
  return authenticate(req.headers, config, request);
}

const JSON_MEDIA = 'application/json';
const GRAPHQL_RESPONSE_MEDIA = 'application/graphql-response+json';

/**
 * GraphQL over HTTP (decision dec.graphql.response-media-type): a client that asks for
 * application/graphql-response+json gets it; every other client (no Accept, any type, application/json)
 * gets application/json as the engine this API comes from answers.
 */
function responseMediaType(req: Request): string {
  if (!(req.headers.accept ?? '').includes(GRAPHQL_RESPONSE_MEDIA)) return JSON_MEDIA;
  return req.accepts([JSON_MEDIA, GRAPHQL_RESPONSE_MEDIA]) === GRAPHQL_RESPONSE_MEDIA ? GRAPHQL_RESPONSE_MEDIA : JSON_MEDIA;
}

/**
 * Under application/json a request that never ran (parse, validation and variable errors: an
 * answer of errors without data) answers 200; under application/graphql-response+json, 400.
 */
function statusFor(answer: { status: number; body: string }, media: string): number {
  return media === GRAPHQL_RESPONSE_MEDIA && answer.status === 200 && answer.body.startsWith('{"errors"') ? 400 : answer.status;
}

/** Bytes and time a refused request's remaining body is read for before the answer goes out anyway. */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 5000;

/** Read what is left of a request's body (its bytes dropped), then `then`; at most DRAIN_BYTES or DRAIN_MS. */
function drainRequest(req: Request, then: () => void): void {
  if (req.complete) return then();
  let done = false;
  let read = 0;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(finish, DRAIN_MS);
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > DRAIN_BYTES) finish();
  });
  req.once('end', finish);
  req.once('error', finish);
  req.resume();
}

/** The most operations one batched GraphQL request may carry. */
export const MAX_BATCH = 100;

export function createApp({ engine, config, logger, version }: AppDependencies): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    res.setHeader('x-request-id', requestId);
    res.on('finish', () => {
      const error = res.locals.error as EngineError | undefined;
      logger.log(res.statusCode >= 500 ? 'error' : 'info', 'http-log', {
        request_id: requestId,
        method: req.method,
        url: req.originalUrl,
        status: res.statusCode,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        ...(res.locals.role ? { role: res.locals.role } : {}),
        ...(res.locals.operation ? { operation: res.locals.operation } : {}),
        ...(error ? { error: error.toBody() } : {}),
      });
    });
    next();
  });

  // Pages of other origins: refused before anything runs, or answered with CORS headers.
  const origins = originPolicy(config);
  app.use((req, res, next) => {
    const kind = apiKindOf(req.path);
    if (!kind) return next();
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS';
    if (origin !== undefined) {
      if (!origins.allows(origin, kind, req.headers.host)) {
        if (preflight) return res.status(204).end();
        return sendError(res, engineError('access-denied.origin', '$', [origin]));
      }
      res.set(corsHeaders(origin, preflight ? req.headers : undefined));
    } else if (kind === 'admin' && crossSite(req.headers)) {
      // A browser marks a request of another site's page even where it sends no Origin.
      return sendError(res, engineError('access-denied.origin', '$', ['null']));
    }
    if (preflight) return res.status(204).set('allow', 'GET, POST, OPTIONS').end();
    const refused = req.method === 'POST' ? refusedContentType(req.headers) : undefined;
    if (refused !== undefined) return sendError(res, engineError('unsupported-media-type', '$', [refused]));
    next();
  });

  // Decision dec.version: which server answers, without credentials, as the engine's CLI asks.
  app.get('/v1/version', (_req, res) => {
    res.json({ version });
  });

  if (config.enableConsole) app.use(consoleRouter(config));

  app.get('/healthz', async (_req, res) => {
    // Decision dec.healthz: "OK", or "ERROR: " and the part that is unwell.
    const problem = await engine.healthProblem();
    res
      .status(problem ? 500 : 200)
      .type('text/plain')
      .send(problem ? `ERROR: ${problem}` : 'OK');
  });

  // The body limit of each request comes from its headers, before the body is read.
  const readers = new Map<number, express.RequestHandler>();
  const rawBody: express.RequestHandler = (req, res, next) => {
    const limit = bodyLimit(req.headers, config);
    res.locals.bodyLimit = limit;
    let reader = readers.get(limit);
    if (!reader) readers.set(limit, (reader = express.raw({ type: () => true, limit })));
    reader(req, res, next);
  };

  const metadataRoute = (endpoint: Endpoint) => [
    requireApi(config, 'metadata'),
    rawBody,
    async (req: Request, res: Response) => {
      const who = await session(req, config);
      if (who instanceof EngineError) return sendError(res, who);
      const admin = isAdmin(who);
      // Roles other than admin may send only the legacy DML of the query endpoints (dec.dml.roles).
      const denied = engineError('access-denied.admin-only', '$.args');
      if (!admin && endpoint === '/v1/metadata') return sendError(res, denied);
      let body: unknown;
      try {
        body = JSON.parse(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '');
      } catch {
        return sendError(res, admin ? engineError('invalid-json', '$') : denied);
      }
      if (nestsDeeperThan(body, config.limits.maxJsonDepth))
        return sendError(res, engineError('parse-failed.too-deep', '$', [String(config.limits.maxJsonDepth)]));
      const parsed = parseEnvelope(body, endpoint);
      if (!parsed.ok) return sendError(res, admin ? parsed.error : denied);
      if (!admin && !isRoleDml(parsed.operation)) return sendError(res, denied);
      const count = operationCount(parsed.operation);
      if (count > config.limits.maxBulkOperations)
        return sendError(res, engineError('parse-failed.bulk-size', '$.args', [String(config.limits.maxBulkOperations), String(count)]));
      res.locals.operation = parsed.operation.type;
      res.locals.role = who.role;
      try {
        res.status(200).json(admin ? await engine.execute(parsed.operation) : await engine.executeAsRole(parsed.operation, who));
      } catch (error) {
        if (error instanceof EngineError) return sendError(res, error, admin);
        throw error;
      }
    },
  ];
  app.post('/v1/query', ...metadataRoute('/v1/query'));
  app.post('/v1/metadata', ...metadataRoute('/v1/metadata'));
  app.post('/v2/query', ...metadataRoute('/v2/query'));

  const graphql = async (req: Request, res: Response, request: GraphQLRequest, rest?: { trusted: boolean; method: 'GET' | 'POST' }) => {
    const who = await session(req, config, request);
    if (who instanceof EngineError) {
      res.locals.error = who;
      return res.status(who.status).type('application/json').send(graphqlErrorBody(who));
    }
    res.locals.role = who.role;
    // The log names the operation: its name, or its kind.
    res.locals.operation ??= graphqlOperationLabel(request);
    const method = rest?.method ?? (req.method === 'GET' ? 'GET' : 'POST');
    const answer = await executeGraphQLRequest(engine.pools, engine.graphql(), who, request, method, {
      trusted: rest?.trusted === true,
      clientHeaders: req.headers,
      signal: clientGone(res),
    });
    if (answer.headers) res.set(answer.headers);
    const media = rest ? JSON_MEDIA : responseMediaType(req);
    res.status(statusFor(answer, media)).type(media).send(answer.body);
  };
  app.post([...GRAPHQL_PATHS], requireApi(config, 'graphql'), rawBody, async (req, res) => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '');
    } catch {
      return sendError(res, engineError('invalid-json', '$'));
    }
    const notAnObject = { errors: [{ message: 'expected an object with "query"', extensions: { path: '$', code: 'parse-failed' } }] };
    const media = responseMediaType(req);
    const refuse = (errors: unknown) =>
      res
        .status(media === GRAPHQL_RESPONSE_MEDIA ? 400 : 200)
        .type(media)
        .send(JSON.stringify(errors));
    if (typeof body !== 'object' || body === null) return refuse(notAnObject);
    if (nestsDeeperThan(body, config.limits.maxJsonDepth)) {
      return refuse({
        errors: [
          { message: formatMessage('err.parse-failed.too-deep', String(config.limits.maxJsonDepth)), extensions: { path: '$', code: 'validation-failed' } },
        ],
      });
    }
    if (Array.isArray(body)) {
      // A batch (decision dec.graphql.batch): each operation answered in order, as one JSON array.
      if (body.length === 0 || body.length > MAX_BATCH) {
        return res
          .status(200)
          .json({ errors: [{ message: formatMessage('err.graphql.batch-size', String(MAX_BATCH)), extensions: { path: '$', code: 'validation-failed' } }] });
      }
      const who = await session(req, config);
      if (who instanceof EngineError) {
        res.locals.error = who;
        return res.status(who.status).type('application/json').send(graphqlErrorBody(who));
      }
      const answers: string[] = [];
      for (const item of body as unknown[]) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          answers.push(JSON.stringify(notAnObject));
          continue;
        }
        answers.push((await executeGraphQLRequest(engine.pools, engine.graphql(), who, item as GraphQLRequest, 'POST', { clientHeaders: req.headers })).body);
      }
      return res
        .status(200)
        .type('application/json')
        .send(`[${answers.join(',')}]`);
    }
    await graphql(req, res, body as GraphQLRequest);
  });
  app.get([...GRAPHQL_PATHS], requireApi(config, 'graphql'), async (req, res) => {
    const { query, variables, operationName } = req.query as Record<string, string | undefined>;
    let parsedVariables: unknown;
    try {
      parsedVariables = variables ? JSON.parse(variables) : undefined;
    } catch {
      return sendError(res, engineError('invalid-json', '$.variables'));
    }
    await graphql(req, res, { query, variables: parsedVariables, operationName });
  });

  // Runtime REST endpoints (§4.6) and their OpenAPI document.
  app.use('/api/rest', requireApi(config, 'graphql'), rawBody, async (req: Request, res: Response) => {
    let body: unknown;
    const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    if (req.method !== 'GET' && text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return sendError(res, engineError('invalid-json', '$'));
      }
      if (nestsDeeperThan(body, config.limits.maxJsonDepth))
        return sendError(res, engineError('parse-failed.too-deep', '$', [String(config.limits.maxJsonDepth)]));
    }
    const call = resolveRestCall(engine.current().document, {
      method: req.method,
      path: req.path.replace(/^\//, ''),
      query: req.query as Record<string, string | string[]>,
      body,
    });
    if ('error' in call) {
      if (call.allow) res.set('allow', call.allow.join(', '));
      return sendError(res, call.error);
    }
    res.locals.operation = `rest:${call.endpoint.name}`;
    await graphql(req, res, { query: call.query, variables: call.variables }, { trusted: true, method: call.method });
  });
  app.get('/api/swagger/json', requireApi(config, 'graphql'), (_req: Request, res: Response) => {
    res.status(200).json(openApiDocument(engine.current().document, version));
  });

  app.get('/v1alpha1/config', requireApi(config, 'config'), async (req, res) => {
    const who = await session(req, config);
    if (who instanceof EngineError) return sendError(res, who);
    if (!isAdmin(who)) return sendError(res, engineError('access-denied.admin-endpoint', '$'));
    res.status(200).json(configResponse(config, version));
  });

  app.use((_req: Request, res: Response) => sendError(res, notFound()));

  // Body-parser failures and bugs: never an HTML page, never a stack trace in the answer.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const e = error as { type?: string; status?: number };
    if (e?.type === 'entity.too.large') {
      // The client may still be sending: read (and drop) what is left, a bounded amount, so that
      // it gets the answer instead of a reset connection.
      res.set('connection', 'close');
      return drainRequest(req, () => sendError(res, engineError('request-too-large', '$', [String(res.locals.bodyLimit ?? config.maxRequestBodyBytes)])));
    }
    if (e?.type === 'encoding.unsupported') {
      return sendError(res, engineError('unsupported-media-type.encoding', '$', [String(req.headers['content-encoding'])]));
    }
    if (e?.status === 400) return sendError(res, engineError('invalid-json', '$'));
    logger.log('error', 'unexpected', { error: error instanceof Error ? error.stack : String(error) });
    res.locals.error = undefined;
    res.status(500).json({ path: '$', error: 'internal error', code: 'unexpected' });
  });

  return app;
}
