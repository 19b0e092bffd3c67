// The session of a GraphQL socket, for both protocols: connection_init's payload headers over the
// upgrade request's.
import type { IncomingMessage } from 'node:http';
import { authenticate, type Session } from '../auth/session';
import type { EngineConfig } from '../config';
import type { EngineError } from '../errors';

export function socketSession(request: IncomingMessage, given: unknown, config: EngineConfig): Promise<Session | EngineError> {
  const headers: Record<string, string | string[] | undefined> = { ...request.headers };
  if (given && typeof given === 'object') {
    for (const [name, value] of Object.entries(given)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  return authenticate(headers, config);
}
