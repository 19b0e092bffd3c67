// What every route answers with: the error envelope, the 404 of a disabled API, the session of a
// request, the media type and status of a GraphQL answer, and the drain of a refused body.
import type { NextFunction, Request, Response } from 'express';
import { authenticate, type Session } from '../auth/session';
import type { ApiName, EngineConfig } from '../config';
import { engineError, type EngineError } from '../errors';

/** The error envelope; what went on inside (`internal`) is shown to admin only (the log keeps it). */
export const sendError = (res: Response, error: EngineError, admin = true) => {
  res.locals.error = error;
  res.status(error.status).json(error.toBody(admin));
};

export const notFound = () => engineError('not-found', '$');

/** Routes of an API answer 404, like unknown paths, when the API is disabled (dec.apis.disabled-404). */
export const requireApi = (config: EngineConfig, api: ApiName) => (_req: Request, res: Response, next: NextFunction) =>
  config.enabledApis.has(api) ? next() : sendError(res, notFound());

export function session(req: Request, config: EngineConfig, request?: unknown): Promise<Session | EngineError> {
  return authenticate(req.headers, config, request);
}

export const JSON_MEDIA = 'application/json';
export const GRAPHQL_RESPONSE_MEDIA = 'application/graphql-response+json';

/**
 * GraphQL over HTTP (decision dec.graphql.response-media-type): a client that asks for
 * application/graphql-response+json gets it; every other client (no Accept, any type, application/json)
 * gets application/json as the engine this API comes from answers.
 */
export function responseMediaType(req: Request): string {
  if (!(req.headers.accept ?? '').includes(GRAPHQL_RESPONSE_MEDIA)) return JSON_MEDIA;
  return req.accepts([JSON_MEDIA, GRAPHQL_RESPONSE_MEDIA]) === GRAPHQL_RESPONSE_MEDIA ? GRAPHQL_RESPONSE_MEDIA : JSON_MEDIA;
}

/**
 * Under application/json a request that never ran (parse, validation and variable errors: an
 * answer of errors without data) answers 200; under application/graphql-response+json, 400.
 */
export function statusFor(answer: { status: number; body: string }, media: string): number {
  return media === GRAPHQL_RESPONSE_MEDIA && answer.status === 200 && answer.body.startsWith('{"errors"') ? 400 : answer.status;
}

/** Bytes and time a refused request's remaining body is read for before the answer goes out anyway. */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 5000;

/** Read what is left of a request's body (its bytes dropped), then `then`; at most DRAIN_BYTES or DRAIN_MS. */
export function drainRequest(req: Request, then: () => void): void {
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
