// The values of settings: how each kind of ENGINE_GRAPHQL_* value is read and checked, with the
// error that names the setting when it cannot be.
import type { CompatHeaders } from './sessionNames';

export const API_NAMES = ['graphql', 'metadata', 'pgdump', 'config'] as const;
export type ApiName = (typeof API_NAMES)[number];

export interface JwtSettings {
  claims_namespace: string;
  claims_format: 'json' | 'stringified_json';
  raw: Record<string, unknown>;
}

export class ConfigError extends Error {}

export function bool(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|t|yes|y|1)$/i.test(value)) return true;
  if (/^(false|f|no|n|0)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

export function int(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** A TCP port: 0 (any free one) to 65535. `flag`: the command-line flag of the same setting. */
export function port(name: string, flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new ConfigError(`${name} (${flag}) must be a port from 0 to 65535, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function enabledApis(value: string | undefined): Set<ApiName> {
  if (value === undefined || value.trim() === '') return new Set(API_NAMES);
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!(API_NAMES as readonly string[]).includes(n)) {
      throw new ConfigError(`ENGINE_GRAPHQL_ENABLED_APIS: unknown API ${JSON.stringify(n)}; known: ${API_NAMES.join(', ')}`);
    }
  }
  return new Set(names as ApiName[]);
}

/** `https://app.example.com, http://*.example.org:3000` or `*`. */
export function corsDomains(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (entry === '*') continue;
    if (!/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d+)?$/.test(entry)) {
      throw new ConfigError(
        `ENGINE_GRAPHQL_CORS_DOMAIN: ${JSON.stringify(entry)} is not an origin such as https://app.example.com, http://*.example.org:3000 or *`,
      );
    }
  }
  return entries;
}

/** The claims namespace when none is configured: the compatibility brand's own with the compatibility setting. */
const DEFAULT_CLAIMS_NAMESPACE = { engine: 'https://engine.example/jwt/claims', hasura: 'https://hasura.io/jwt/claims' };

/** The key types of ENGINE_GRAPHQL_JWT_SECRET, as the engine names them. */
export const JWT_TYPES = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'Ed25519'] as const;

export function jwt(value: string | undefined, compat?: CompatHeaders): JwtSettings | undefined {
  if (value === undefined || value === '') return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    throw new ConfigError('ENGINE_GRAPHQL_JWT_SECRET must be a JSON object');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('ENGINE_GRAPHQL_JWT_SECRET must be a JSON object');
  const r = raw as Record<string, unknown>;
  // A type no key can be read as is refused now, not at the first token.
  if (r.type !== undefined && !(JWT_TYPES as readonly unknown[]).includes(r.type)) {
    throw new ConfigError(`ENGINE_GRAPHQL_JWT_SECRET: unknown type ${JSON.stringify(r.type)}; the types are ${JWT_TYPES.join(', ')}`);
  }
  const format = r.claims_format ?? 'json';
  if (format !== 'json' && format !== 'stringified_json') throw new ConfigError('claims_format must be "json" or "stringified_json"');
  const namespace = typeof r.claims_namespace === 'string' ? r.claims_namespace : DEFAULT_CLAIMS_NAMESPACE[compat ?? 'engine'];
  return { claims_namespace: namespace, claims_format: format, raw: r };
}

/** The names of this machine's loopback interface: what a server without an admin secret answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '*.localhost', '127.0.0.1', '::1'];

/** `api.example.com, *.internal, 10.0.0.5` or `*`; unset: any name with an admin secret, the loopback names without. */
export function allowedHosts(value: string | undefined, hasAdminSecret: boolean): string[] {
  if (value === undefined || value.trim() === '') return hasAdminSecret ? ['*'] : [...LOOPBACK_HOSTS];
  const entries = value
    .split(',')
    .map((s) =>
      s
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter(Boolean);
  for (const entry of entries) {
    if (entry !== '*' && !/^(\*\.)?[a-z0-9.-]+$/.test(entry) && !/^[0-9a-f:.]+$/.test(entry)) {
      throw new ConfigError(`ENGINE_GRAPHQL_ALLOWED_HOSTS: ${JSON.stringify(entry)} is not a host name such as api.example.com, *.example.org, 10.0.0.5 or *`);
    }
  }
  return entries;
}
