// JWT authentication (SPEC.md §5.2-5.4): a Bearer token (or the configured cookie), verified with
// the configured key or JWK set, whose claims name the allowed roles, the default role and the
// session variables.
import type { JWTVerifyGetKey, KeyLike } from 'jose';
import type { JwtSettings } from '../config';
import { engineError, type EngineError } from '../errors';
import { engineNamed, type CompatHeaders } from '../sessionNames';

export interface JwtSession {
  role: string;
  variables: Record<string, string>;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

type Verifier = { key: KeyLike | Uint8Array } | { keys: JWTVerifyGetKey };

const verifiers = new WeakMap<JwtSettings, Promise<Verifier>>();

/** jose, loaded when a server first verifies a token: servers without JWT authentication never load it. */
const jose = (): typeof import('jose') => require('jose') as typeof import('jose');

async function makeVerifier(settings: JwtSettings): Promise<Verifier> {
  const raw = settings.raw;
  if (typeof raw.jwk_url === 'string') return { keys: jose().createRemoteJWKSet(new URL(raw.jwk_url), { cacheMaxAge: 10 * 60 * 1000 }) };
  const type = String(raw.type ?? 'HS256');
  const key = String(raw.key ?? '');
  if (type.startsWith('HS')) return { key: new TextEncoder().encode(key) };
  return { key: key.includes('BEGIN CERTIFICATE') ? await jose().importX509(key, type) : await jose().importSPKI(key, type) };
}

function tokenOf(headers: Headers, settings: JwtSettings): string | undefined {
  const header = settings.raw.header as { type?: string; name?: string } | undefined;
  if (header?.type === 'Cookie' && header.name) {
    const cookies = String(headers.cookie ?? '');
    for (const part of cookies.split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === header.name) return decodeURIComponent(value.join('='));
    }
    return undefined;
  }
  const authorization = headers.authorization;
  const value = Array.isArray(authorization) ? authorization[0] : authorization;
  const m = value ? /^Bearer\s+(.+)$/i.exec(value) : null;
  return m?.[1]?.trim();
}

export const hasToken = (headers: Headers, settings: JwtSettings) => tokenOf(headers, settings) !== undefined;

/** Claims at a path like `$.engine.claims` or `$["https://x"].claims`. */
function atPath(payload: unknown, path: string): unknown {
  const steps = [...path.replace(/^\$/, '').matchAll(/\.([A-Za-z0-9_-]+)|\["([^"]+)"\]/g)].map((m) => m[1] ?? m[2]!);
  return steps.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), payload);
}

const invalid = (reason: string) => engineError('jwt.invalid', '$', [reason]);

export async function authenticateJwt(headers: Headers, settings: JwtSettings, compat?: CompatHeaders): Promise<JwtSession | EngineError> {
  const token = tokenOf(headers, settings);
  if (!token) return engineError('jwt.missing', '$');
  let verifier = verifiers.get(settings);
  if (!verifier) {
    verifier = makeVerifier(settings);
    verifiers.set(settings, verifier);
  }
  const raw = settings.raw;
  const options = {
    ...(raw.audience !== undefined ? { audience: raw.audience as string | string[] } : {}),
    ...(typeof raw.issuer === 'string' ? { issuer: raw.issuer } : {}),
    clockTolerance: typeof raw.allowed_skew === 'number' ? raw.allowed_skew : 0,
  };
  let payload: Record<string, unknown>;
  try {
    const v = await verifier;
    payload = ('key' in v ? await jose().jwtVerify(token, v.key, options) : await jose().jwtVerify(token, v.keys, options)).payload as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return invalid(code === 'ERR_JWT_EXPIRED' ? 'JWTExpired' : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' ? (error as Error).message : (code ?? String(error)));
  }
  let claims: unknown = typeof raw.claims_namespace_path === 'string' ? atPath(payload, raw.claims_namespace_path) : payload[settings.claims_namespace];
  if (settings.claims_format === 'stringified_json' && typeof claims === 'string') {
    try {
      claims = JSON.parse(claims);
    } catch {
      return invalid('the claims are not valid JSON');
    }
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return invalid(`claims key: '${settings.claims_namespace}' not found`);
  // On a compatible server the claims may be named x-hasura-… (decision dec.compat.headers).
  const named = engineNamed(claims as Record<string, unknown>, compat, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  if (!('named' in named)) return engineError('invalid-headers.both-brands', '$', [...named.names]);
  const lower = Object.fromEntries(Object.entries(named.named).map(([k, v]) => [k.toLowerCase(), v]));
  const allowed = lower['x-engine-allowed-roles'];
  const defaultRole = lower['x-engine-default-role'];
  if (!Array.isArray(allowed) || !allowed.every((r) => typeof r === 'string')) return invalid('x-engine-allowed-roles claim is missing or not a list of roles');
  if (typeof defaultRole !== 'string') return invalid('x-engine-default-role claim is missing or not a string');
  const requested = headers['x-engine-role'];
  const role = (Array.isArray(requested) ? requested[0] : requested) ?? defaultRole;
  if (!allowed.includes(role)) return engineError('jwt.role-not-allowed', '$');
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(lower)) {
    if (!k.startsWith('x-engine-') || k === 'x-engine-allowed-roles' || k === 'x-engine-default-role') continue;
    variables[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  variables['x-engine-role'] = role;
  // Credentials that allow several roles take one share of the connections, whichever role they use.
  const share = allowed.length > 1 ? `\u0000allowed:${[...new Set(allowed)].sort().join('\u0000')}` : undefined;
  return { role, variables, ...(share ? { share } : {}) };
}
