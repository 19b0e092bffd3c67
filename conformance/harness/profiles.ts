import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../reference/src/packageRoot';

// Cases that need the engine configured in a particular way name a profile. A run that starts
// the reference starts one per profile; against a given engine, set ENGINE_URL_<PROFILE> to an
// engine started with the settings below (or those cases are reported as not run).

export interface Profile {
  /** The settings the engine runs with, as ENGINE_GRAPHQL_* environment variables. */
  settings: Record<string, string>;
  /** Whether requests to this profile carry the run's admin secret. */
  usesAdminSecret: boolean;
}

const key = (name: string) => readFileSync(join(PACKAGE_ROOT, 'fixtures', 'keys', name), 'utf8');
export const JWT_HS256_KEY = 'conformance-hs256-key-of-at-least-32-bytes!';
export const RS256_PRIVATE_KEY = key('rs256.private.pem');
export const RS256_PUBLIC_KEY = key('rs256.public.pem');

/** Placeholders the harness fills with the address of its own collaborators. */
export const AUTH_HOOK_URL = '{{AUTH_HOOK_URL}}';
export const JWKS_URL = '{{JWKS_URL}}';

export const PROFILES = {
  'no-admin-secret': { settings: {}, usesAdminSecret: false },
  'graphql-only': { settings: { ENGINE_GRAPHQL_ENABLED_APIS: 'graphql' }, usesAdminSecret: true },
  'graphql-metadata': { settings: { ENGINE_GRAPHQL_ENABLED_APIS: 'graphql,metadata' }, usesAdminSecret: true },
  'unauthorized-role': { settings: { ENGINE_GRAPHQL_UNAUTHORIZED_ROLE: 'anonymous' }, usesAdminSecret: true },
  'small-body-limit': { settings: { ENGINE_GRAPHQL_MAX_REQUEST_BODY_BYTES: '1024' }, usesAdminSecret: true },
  'tight-limits': {
    settings: {
      ENGINE_GRAPHQL_MAX_QUERY_DEPTH: '4',
      ENGINE_GRAPHQL_MAX_QUERY_FIELDS: '20',
      ENGINE_GRAPHQL_MAX_DOCUMENT_BYTES: '2048',
      ENGINE_GRAPHQL_MAX_JSON_DEPTH: '32',
      ENGINE_GRAPHQL_STATEMENT_TIMEOUT_MS: '300',
      ENGINE_GRAPHQL_MAX_ADMIN_QUERY_DEPTH: '8',
      ENGINE_GRAPHQL_MAX_ADMIN_QUERY_FIELDS: '40',
      ENGINE_GRAPHQL_MAX_BULK_OPERATIONS: '10',
      ENGINE_GRAPHQL_ADMIN_STATEMENT_TIMEOUT_MS: '1000',
      ENGINE_GRAPHQL_MAX_QUERY_COST: '10000',
    },
    usesAdminSecret: true,
  },
  'allow-list': { settings: { ENGINE_GRAPHQL_ENABLE_ALLOWLIST: 'true' }, usesAdminSecret: true },
  'no-function-inference': { settings: { ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS: 'false' }, usesAdminSecret: true },
  'graphql-default-naming': { settings: { ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION: 'graphql-default' }, usesAdminSecret: true },
  'remote-schema-permissions': { settings: { ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS: 'true' }, usesAdminSecret: true },
  'cors-domains': { settings: { ENGINE_GRAPHQL_CORS_DOMAIN: 'https://app.example.test, http://*.example.org:3000' }, usesAdminSecret: true },
  configured: {
    settings: {
      ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({
        type: 'HS256',
        key: 'k'.repeat(32),
        claims_namespace: 'https://example.test/claims',
        claims_format: 'stringified_json',
      }),
      ENGINE_GRAPHQL_ENABLE_ALLOWLIST: 'true',
      ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS: 'false',
      ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: '250',
      ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '1500',
    },
    usesAdminSecret: true,
  },
  'jwt-hs256': {
    settings: { ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: JWT_HS256_KEY, claims_namespace: 'https://engine.example/claims' }) },
    usesAdminSecret: true,
  },
  'jwt-unauthorized-role': {
    settings: {
      ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: JWT_HS256_KEY, claims_namespace: 'https://engine.example/claims' }),
      ENGINE_GRAPHQL_UNAUTHORIZED_ROLE: 'anonymous',
    },
    usesAdminSecret: true,
  },
  'jwt-rs256': {
    settings: {
      ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({
        type: 'RS256',
        key: RS256_PUBLIC_KEY,
        claims_namespace_path: '$.engine.claims',
        claims_format: 'stringified_json',
        audience: 'conformance',
        issuer: 'harness',
      }),
    },
    usesAdminSecret: true,
  },
  'jwt-cookie': {
    settings: {
      ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({
        type: 'HS256',
        key: JWT_HS256_KEY,
        claims_namespace: 'https://engine.example/claims',
        header: { type: 'Cookie', name: 'engine_token' },
      }),
    },
    usesAdminSecret: true,
  },
  'jwt-jwk': {
    settings: { ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({ jwk_url: JWKS_URL, claims_namespace: 'https://engine.example/claims' }) },
    usesAdminSecret: true,
  },
  // X-Hasura-* names taken as the X-Engine-* ones (decision dec.compat.headers); its JWT secret given
  // by the HASURA_GRAPHQL_* name, without a claims namespace, and remote schema permissions on
  // (decision dec.compat.settings).
  'compat-hasura': {
    settings: {
      ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura',
      HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: JWT_HS256_KEY }),
      HASURA_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS: 'true',
    },
    usesAdminSecret: true,
  },
  'auth-hook-get': { settings: { ENGINE_GRAPHQL_AUTH_HOOK: AUTH_HOOK_URL, ENGINE_GRAPHQL_AUTH_HOOK_MODE: 'GET' }, usesAdminSecret: true },
  'auth-hook-post': { settings: { ENGINE_GRAPHQL_AUTH_HOOK: AUTH_HOOK_URL, ENGINE_GRAPHQL_AUTH_HOOK_MODE: 'POST' }, usesAdminSecret: true },
  // Port 1 on loopback: nothing listens there.
  'auth-hook-down': { settings: { ENGINE_GRAPHQL_AUTH_HOOK: 'http://127.0.0.1:1/auth' }, usesAdminSecret: true },
} satisfies Record<string, Profile>;

export type ProfileName = keyof typeof PROFILES;
