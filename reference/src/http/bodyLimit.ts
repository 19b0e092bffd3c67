// How large a request body may be, decided from the headers before any of it is read (decision
// err.request-too-large): a request with the admin secret, or any request of a server with no
// auth at all (every request is admin there), may send up to ENGINE_GRAPHQL_MAX_REQUEST_BODY_BYTES;
// every other one, ENGINE_GRAPHQL_MAX_ROLE_REQUEST_BODY_BYTES. The limit counts the body as
// decompressed, while it streams, so a small compressed body cannot grow past it in memory.
import type { IncomingHttpHeaders } from 'node:http';
import { secretsEqual } from '../auth/session';
import type { EngineConfig } from '../config';

type LimitSettings = Pick<EngineConfig, 'adminSecret' | 'jwt' | 'authHook' | 'maxRequestBodyBytes' | 'maxRoleRequestBodyBytes'>;

export function bodyLimit(headers: IncomingHttpHeaders, config: LimitSettings): number {
  const untrusted = Math.min(config.maxRequestBodyBytes, config.maxRoleRequestBodyBytes);
  if (config.adminSecret === undefined) return config.jwt || config.authHook ? untrusted : config.maxRequestBodyBytes;
  const secret = headers['x-engine-admin-secret'];
  return typeof secret === 'string' && secretsEqual(secret, config.adminSecret) ? config.maxRequestBodyBytes : untrusted;
}
