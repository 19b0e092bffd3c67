// Requests from web pages (decisions dec.http.cross-origin and dec.http.content-type): which
// origins may use which API, the CORS headers of their answers, and the body types a request may
// have. A browser sends Origin on every cross-origin POST, and may send text/plain or form bodies
// to any address without a preflight; both are refused before anything runs.
import type { IncomingHttpHeaders } from 'node:http';
import type { EngineConfig } from '../config';

/** The APIs as the policy sees them: GraphQL (and REST), or the admin-only APIs. */
export type ApiKind = 'graphql' | 'admin';

const ADMIN_PATHS = new Set(['/v1/query', '/v1/metadata', '/v2/query', '/v1alpha1/config', '/v1alpha1/pg_dump']);
/** Decision dec.graphql.v1alpha1: the older path of GraphQL answers as the current one. */
export const GRAPHQL_PATHS: ReadonlySet<string> = new Set(['/v1/graphql', '/v1alpha1/graphql']);

export function apiKindOf(path: string): ApiKind | undefined {
  if (ADMIN_PATHS.has(path)) return 'admin';
  if (GRAPHQL_PATHS.has(path) || path.startsWith('/api/rest/')) return 'graphql';
  return undefined;
}

interface OriginPattern {
  scheme: string;
  /** The host, or the domain below which a `*.` pattern matches (not the domain itself). */
  host: string;
  wildcard: boolean;
  port: string;
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

function parseOrigin(text: string): OriginPattern | undefined {
  const m = /^(https?):\/\/(\*\.)?(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+)(?::(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const scheme = m[1]!.toLowerCase();
  return { scheme, wildcard: m[2] !== undefined, host: m[3]!.toLowerCase(), port: m[4] ?? DEFAULT_PORTS[scheme]! };
}

function matches(pattern: OriginPattern, origin: OriginPattern): boolean {
  if (pattern.scheme !== origin.scheme || pattern.port !== origin.port) return false;
  return pattern.wildcard ? origin.host.endsWith(`.${pattern.host}`) : origin.host === pattern.host;
}

export interface OriginPolicy {
  allows(origin: string, kind: ApiKind, host: string | undefined): boolean;
}

export function originPolicy(config: Pick<EngineConfig, 'corsDomains' | 'adminSecret'>): OriginPolicy {
  const listed = config.corsDomains ?? (config.adminSecret ? ['*'] : []);
  const any = listed.includes('*');
  // `*` and what is not an origin are no pattern; so only explicitly listed origins reach the admin APIs.
  const patterns = listed.map(parseOrigin).filter((p): p is OriginPattern => p !== undefined);
  return {
    allows(origin, kind, host) {
      const parsed = parseOrigin(origin);
      if (!parsed) return false;
      if (host !== undefined && `${parsed.host}:${parsed.port}` === withPort(host.toLowerCase(), parsed.scheme)) return true;
      if (kind === 'graphql') return any || patterns.some((p) => matches(p, parsed));
      return patterns.some((p) => matches(p, parsed));
    },
  };
}

const withPort = (host: string, scheme: string) => (/:\d+$/.test(host) ? host : `${host}:${DEFAULT_PORTS[scheme]}`);

/**
 * Whether a browser sent the request: browsers mark every request with Sec-Fetch-Site, and a
 * cross-origin POST with Origin (Node's fetch sends Sec-Fetch-Mode, but neither of these).
 */
const fromBrowser = (headers: IncomingHttpHeaders) => headers.origin !== undefined || headers['sec-fetch-site'] !== undefined;

/** Sec-Fetch-Site of a page of another origin (same-site: another port or subdomain). */
export const crossSite = (headers: IncomingHttpHeaders) => headers['sec-fetch-site'] === 'cross-site' || headers['sec-fetch-site'] === 'same-site';

/**
 * The media type of a body that must not be taken, or undefined. A browser must send JSON (a page
 * can send text/plain and form bodies anywhere without a preflight); other clients (curl -d,
 * fetch with a string body) may send any type whose body is JSON.
 */
export function refusedContentType(headers: IncomingHttpHeaders): string | undefined {
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '' || type === 'application/json' || type.endsWith('+json') || !fromBrowser(headers)) return undefined;
  return type;
}

/** CORS headers for an allowed origin; for a preflight, what it may do. */
export function corsHeaders(origin: string, preflight: IncomingHttpHeaders | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'x-request-id',
    vary: 'Origin',
  };
  if (preflight) {
    headers['access-control-allow-methods'] = 'GET, POST, OPTIONS';
    headers['access-control-allow-headers'] = (preflight['access-control-request-headers'] as string | undefined) ?? 'content-type, authorization';
    headers['access-control-max-age'] = '1728000';
  }
  return headers;
}
