// The metadata and query endpoints: the envelope parsed and checked, then one transaction for
// admin (engine/metadataCommit.ts) or the legacy DML of another role under its permissions.
import type { Express, Request, RequestHandler, Response } from 'express';
import type { Endpoint } from '../../../spec';
import { isAdmin } from '../auth/session';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine/engine';
import { engineError, EngineError } from '../errors';
import { nestsDeeperThan } from '../execute/operationLimits';
import { operationCount, parseEnvelope } from '../operations/envelope';
import { isRoleDml } from '../operations/roleDml';
import { clientGone } from './clientGone';
import { requireApi, sendError, session } from './replies';

export function mountMetadataRoutes(app: Express, engine: Engine, config: EngineConfig, rawBody: RequestHandler): void {
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
        res.status(200).json(admin ? await engine.execute(parsed.operation, { gone: clientGone(res) }) : await engine.executeAsRole(parsed.operation, who));
      } catch (error) {
        if (error instanceof EngineError) return sendError(res, error, admin);
        throw error;
      }
    },
  ];
  app.post('/v1/query', ...metadataRoute('/v1/query'));
  app.post('/v1/metadata', ...metadataRoute('/v1/metadata'));
  app.post('/v2/query', ...metadataRoute('/v2/query'));
}
