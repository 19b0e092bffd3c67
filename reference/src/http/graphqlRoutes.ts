// GraphQL over HTTP: POST (one operation or a batch) and GET on the GraphQL paths, and the
// helper the REST endpoints answer through.
import type { Express, Request, RequestHandler, Response } from 'express';
import { formatMessage } from '../../../spec';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine/engine';
import { engineError, EngineError } from '../errors';
import { isAdmin } from '../auth/session';
import { executeGraphQLRequest, type GraphQLRequest } from '../execute/graphql';
import { batchLimitAnswer } from '../execute/roleLimits';
import { nestsDeeperThan } from '../execute/operationLimits';
import { clientGone, whenWritten } from './clientGone';
import { GRAPHQL_PATHS } from './crossOrigin';
import { clientAddress, graphqlErrorBody } from './graphqlFastPath';
import { graphqlErrorsOf, graphqlOperationLabel } from './graphqlLog';
import { GRAPHQL_RESPONSE_MEDIA, JSON_MEDIA, requireApi, responseMediaType, sendError, session, statusFor } from './replies';

/** The most operations one batched GraphQL request may carry. */
export const MAX_BATCH = 100;

/** Answer one GraphQL request; REST endpoints pass their method and are trusted past the allow-list. */
export type AnswerGraphQL = (req: Request, res: Response, request: GraphQLRequest, rest?: { trusted: boolean; method: 'GET' | 'POST' }) => Promise<unknown>;

export function mountGraphQLRoutes(app: Express, engine: Engine, config: EngineConfig, rawBody: RequestHandler): AnswerGraphQL {
  const graphql: AnswerGraphQL = async (req, res, request, rest) => {
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
      gone: clientGone(res),
      whenWritten: whenWritten(res),
      ...clientAddress(req),
    });
    if (answer.headers) res.set(answer.headers);
    res.locals.graphqlErrors = graphqlErrorsOf(answer.body);
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
      // The role's batch limit refuses the whole batch before any of it runs (decision dec.api-limits).
      const tooMany = isAdmin(who) ? undefined : batchLimitAnswer(engine.graphql(), who, body.length);
      if (tooMany) return res.status(tooMany.status).type('application/json').send(tooMany.body);
      const answers: string[] = [];
      for (const item of body as unknown[]) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          answers.push(JSON.stringify(notAnObject));
          continue;
        }
        const options = { clientHeaders: req.headers, whenWritten: whenWritten(res), ...clientAddress(req) };
        answers.push((await executeGraphQLRequest(engine.pools, engine.graphql(), who, item as GraphQLRequest, 'POST', options)).body);
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
  return graphql;
}
