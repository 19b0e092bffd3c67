// The Express application: the request log, origin checks, the body limit, the routes of each API
// (metadataRoutes.ts, graphqlRoutes.ts, restRoutes.ts) and the last-resort error handler.
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { isAdmin } from '../auth/session';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine/engine';
import { engineError, EngineError } from '../errors';
import type { Logger } from '../log';
import { bodyLimit } from './bodyLimit';
import { configResponse } from './config';
import { consoleRouter } from './console';
import { apiKindOf, corsHeaders, crossSite, originPolicy, refusedContentType } from './crossOrigin';
import { mountGraphQLRoutes } from './graphqlRoutes';
import { mountMetadataRoutes } from './metadataRoutes';
import { drainRequest, notFound, requireApi, sendError, session } from './replies';
import { mountRestRoutes } from './restRoutes';

export interface AppDependencies {
  engine: Engine;
  config: EngineConfig;
  logger: Logger;
  version: string;
}

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
        ...(res.locals.graphqlErrors ? { errors: res.locals.graphqlErrors as unknown } : {}),
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

  mountMetadataRoutes(app, engine, config, rawBody);
  const graphql = mountGraphQLRoutes(app, engine, config, rawBody);
  mountRestRoutes(app, engine, config, rawBody, graphql, version);

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
