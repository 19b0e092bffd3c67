// Who is asking: the session (role and X-ENGINE-* variables) of a request (SPEC.md §5).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { EngineConfig } from '../config';
import { engineError, type EngineError } from '../errors';
import { authenticateJwt, hasToken } from './jwt';
import { authenticateWebhook } from './webhook';

export interface Session {
  role: string;
  /** Session variables, keys lower-cased (`x-engine-user-id`). */
  variables: Readonly<Record<string, string>>;
  /** backend_only insert permissions apply (SPEC.md §2.3 InsertPermission.backend_only). */
  backendOnly?: boolean;
  /**
   * Whose fair share of the connections the session's statements take (execute/roleGate.ts): its
   * role's, unless its credentials allow several roles (a JWT's allowed roles): then one share for
   * all of them, so that switching roles gains no second share.
   */
  share?: string;
}

/** The share of the connections a session's statements take. */
export const shareOf = (session: Session): string => session.share ?? session.role;

export const ADMIN_ROLE = 'admin';
export const isAdmin = (session: Session) => session.role === ADMIN_ROLE;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const header = (headers: Headers, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Equal strings, compared in time that does not depend on where they differ. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function sessionVariables(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (key.startsWith('x-engine-') && key !== 'x-engine-admin-secret' && value !== undefined) {
      out[key] = Array.isArray(value) ? value[0]! : value;
    }
  }
  return out;
}

type AuthSettings = Pick<EngineConfig, 'adminSecret' | 'unauthorizedRole' | 'jwt' | 'authHook'>;

/**
 * The session of a request: the admin secret when sent; else a JWT (JWT mode) or the webhook's
 * answer (webhook mode); else the unauthorized role; else, without any auth configured, the role
 * the request names (admin by default).
 */
export async function authenticate(headers: Headers, config: AuthSettings, request?: unknown): Promise<Session | EngineError> {
  const variables = sessionVariables(headers);
  const requestedRole = header(headers, 'x-engine-role');
  // backend_only permissions: the header, and the admin secret when auth is configured (§2.3).
  const backendOnly = variables['x-engine-use-backend-only-permissions']?.toLowerCase() === 'true';
  const asRequested = (): Session => ({ role: requestedRole ?? ADMIN_ROLE, variables, ...(backendOnly ? { backendOnly } : {}) });
  const secret = header(headers, 'x-engine-admin-secret');
  if (config.adminSecret !== undefined && secret !== undefined) {
    return secretsEqual(secret, config.adminSecret) ? asRequested() : engineError('admin-secret.invalid', '$');
  }
  const unauthorized = (): Session | undefined =>
    config.unauthorizedRole !== undefined ? { role: config.unauthorizedRole, variables: { 'x-engine-role': config.unauthorizedRole } } : undefined;
  if (config.jwt) {
    if (hasToken(headers, config.jwt)) return authenticateJwt(headers, config.jwt);
    return unauthorized() ?? engineError('jwt.missing', '$');
  }
  if (config.authHook) return authenticateWebhook(headers, config.authHook, request);
  // Decision dec.auth.no-secret: without any auth configured every request may act as any role, admin by default.
  if (config.adminSecret === undefined) return asRequested();
  return unauthorized() ?? engineError('admin-secret.missing', '$');
}
