// The runtime REST endpoints (§4.6), answered as their saved queries, and their OpenAPI document.
import type { Express, Request, RequestHandler, Response } from 'express';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine/engine';
import { engineError } from '../errors';
import { nestsDeeperThan } from '../execute/operationLimits';
import { openApiDocument, resolveRestCall } from '../rest/router';
import type { AnswerGraphQL } from './graphqlRoutes';
import { requireApi, sendError } from './replies';

export function mountRestRoutes(app: Express, engine: Engine, config: EngineConfig, rawBody: RequestHandler, graphql: AnswerGraphQL, version: string): void {
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
}
