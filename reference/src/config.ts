// Every ENGINE_GRAPHQL_* setting in one typed object, parsed once from the environment and
// the command line (a flag wins over its environment variable).
import { allowedHosts, bool, ConfigError, corsDomains, enabledApis, int, jwt, port, type ApiName, type JwtSettings } from './configValues';
import { parseFlags, UsageError } from './flags';
import { COMPAT_HEADERS, type CompatHeaders } from './sessionNames';
import { NAMING_CONVENTIONS, type NamingConvention, type TlsAllow } from '../../spec';

export { API_NAMES, ConfigError, LOOPBACK_HOSTS, type ApiName, type JwtSettings } from './configValues';

export interface EngineConfig {
  databaseUrl?: string;
  port: number;
  host: string;
  adminSecret?: string;
  jwt?: JwtSettings;
  /** `allowlist`: the served metadata's TLS allow-list, which the hook's requests follow (set by the server). */
  authHook?: { url: string; mode: 'GET' | 'POST'; allowlist?: () => readonly TlsAllow[] };
  unauthorizedRole?: string;
  enabledApis: ReadonlySet<ApiName>;
  enableAllowList: boolean;
  /** The GraphiQL console at /console: on by default only when there is no admin secret. */
  enableConsole: boolean;
  /** The naming convention of every source whose customization names none (decision 048). */
  defaultNamingConvention: NamingConvention;
  inferFunctionPermissions: boolean;
  /** Roles other than admin see a remote schema only through their remote schema permission. */
  enableRemoteSchemaPermissions: boolean;
  liveQueries: { batchSize: number; refetchDelaySeconds: number };
  /** Streaming subscriptions (decision dec.graphql.stream.multiplexed): rows per statement, seconds between polls. */
  streamingQueries: { batchSize: number; refetchDelaySeconds: number };
  maxRequestBodyBytes: number;
  /** Connections of each of the server's pools (metadata, admin GraphQL, roles). */
  pgConnections: number;
  /** Seconds a pooled connection may sit idle before it is closed; 0 keeps it open. */
  pgTimeoutSeconds: number;
  /** Whether the server's own GraphQL statements are prepared while the default source has no configuration. */
  usePreparedStatements: boolean;
  /** Statements one role (all its users together) runs at once; its further requests wait their turn. */
  maxConnectionsPerRole: number;
  /** The body limit of a request without the admin secret (decompressed), where an admin secret or other auth is set. */
  maxRoleRequestBodyBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Where `npm start` keeps its embedded database between runs. */
  dataDir: string;
  /** What one request may ask of the server (decisions dec.limits.*). */
  limits: RequestLimits;
  /** ENGINE_GRAPHQL_CORS_DOMAIN as given: absent when not set (decision dec.http.cross-origin). */
  corsDomains?: readonly string[];
  /**
   * The names a request's Host header may carry (decision dec.http.allowed-hosts), lower-case, `*.x`
   * for the names below x; `*` for any. Without an admin secret it defaults to the loopback names.
   */
  allowedHosts: readonly string[];
  /** How long a SIGTERM/SIGINT waits for in-flight requests before closing them. */
  gracefulShutdownTimeoutSeconds: number;
  /** The delivery of event trigger events. */
  events: EventSettings;
  /** X-Hasura-* headers, session variables and JWT claims taken as the X-Engine-* ones (decision dec.compat.headers). */
  compatHeaders?: CompatHeaders;
  /** With compatHeaders: the HASURA_GRAPHQL_* variables read, and those not read because the ENGINE_GRAPHQL_* one (or its flag) is set. */
  hasuraVariables?: { read: string[]; overridden: string[] };
}

export interface EventSettings {
  /** How often the worker looks for due events, when it found none the last time. */
  fetchIntervalMs: number;
  /** Deliveries in flight at once (and events taken per look). */
  httpPoolSize: number;
  /** Added to a trigger's timeout_sec: how long an event stays held by an instance that took it. */
  lockMarginSeconds: number;
  /** Delivered events older than this are deleted; 0 keeps them. */
  retentionSeconds: number;
  /** Between retries: interval_sec every time, or doubling from it (capped at an hour). */
  backoff: 'fixed' | 'exponential';
}

export interface RequestLimits {
  /** Nesting of any JSON body, and of the brackets of a GraphQL document. */
  maxJsonDepth: number;
  /** Size of a GraphQL document, for every role. */
  maxDocumentBytes: number;
  /** Selection depth and field count of an operation of a role other than admin. */
  maxQueryDepth: number;
  maxQueryFields: number;
  /** The same for admin: larger, but bounded, so that no document can freeze the server. */
  maxAdminQueryDepth: number;
  maxAdminQueryFields: number;
  /** The planner's estimate a role's plan may reach; 0: no limit. */
  maxQueryCost: number;
  /** Operations of one bulk, nested bulks' members counted. */
  maxBulkOperations: number;
  /** statement_timeout of admin's GraphQL (not of metadata operations or run_sql); 0: none. */
  adminStatementTimeoutMs: number;
  /** statement_timeout of the SQL of roles other than admin; 0: none. */
  statementTimeoutMs: number;
  /** Memory the parsed-document and compiled-plan caches may hold together. */
  cacheMaxBytes: number;
  /** Memory the answers of @cached queries may hold (decision dec.graphql.cached). */
  responseCacheMaxBytes: number;
  /** Bytes of remote answers one request, and one role's requests in flight, may hold (decision dec.limits.remote-answers). */
  remoteAnswerMaxBytes: number;
  remoteAnswerRoleMaxBytes: number;
}

type Source = Record<string, string | undefined>;

/** `--enabled-apis=graphql,metadata` and `--enabled-apis graphql` both work; `--help` and `--version` are the binary's. */
export function parseArgv(argv: readonly string[]): Source {
  const options = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }]));
  try {
    const { values } = parseFlags(argv, { ...options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } });
    const { help: _help, version: _version, ...flags } = values;
    return flags as Source;
  } catch (error) {
    throw error instanceof UsageError ? new ConfigError(error.message) : error;
  }
}

export const FLAGS: Record<string, string> = {
  'database-url': 'ENGINE_GRAPHQL_DATABASE_URL',
  'server-port': 'ENGINE_GRAPHQL_SERVER_PORT',
  'server-host': 'ENGINE_GRAPHQL_SERVER_HOST',
  'admin-secret': 'ENGINE_GRAPHQL_ADMIN_SECRET',
  'jwt-secret': 'ENGINE_GRAPHQL_JWT_SECRET',
  'auth-hook': 'ENGINE_GRAPHQL_AUTH_HOOK',
  'auth-hook-mode': 'ENGINE_GRAPHQL_AUTH_HOOK_MODE',
  'unauthorized-role': 'ENGINE_GRAPHQL_UNAUTHORIZED_ROLE',
  'enabled-apis': 'ENGINE_GRAPHQL_ENABLED_APIS',
  'enable-allowlist': 'ENGINE_GRAPHQL_ENABLE_ALLOWLIST',
  'enable-console': 'ENGINE_GRAPHQL_ENABLE_CONSOLE',
  'events-fetch-interval': 'ENGINE_GRAPHQL_EVENTS_FETCH_INTERVAL',
  'events-http-pool-size': 'ENGINE_GRAPHQL_EVENTS_HTTP_POOL_SIZE',
  'events-lock-margin-seconds': 'ENGINE_GRAPHQL_EVENTS_LOCK_MARGIN_SECONDS',
  'events-retention-seconds': 'ENGINE_GRAPHQL_EVENTS_RETENTION_SECONDS',
  'events-retry-backoff': 'ENGINE_GRAPHQL_EVENTS_RETRY_BACKOFF',
  'infer-function-permissions': 'ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS',
  'enable-remote-schema-permissions': 'ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS',
  'live-queries-multiplexed-batch-size': 'ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE',
  'live-queries-multiplexed-refetch-interval': 'ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL',
  'streaming-queries-multiplexed-batch-size': 'ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE',
  'streaming-queries-multiplexed-refetch-interval': 'ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL',
  'max-request-body-bytes': 'ENGINE_GRAPHQL_MAX_REQUEST_BODY_BYTES',
  'max-role-request-body-bytes': 'ENGINE_GRAPHQL_MAX_ROLE_REQUEST_BODY_BYTES',
  'log-level': 'ENGINE_GRAPHQL_LOG_LEVEL',
  'data-dir': 'ENGINE_GRAPHQL_DATA_DIR',
  'cors-domain': 'ENGINE_GRAPHQL_CORS_DOMAIN',
  'allowed-hosts': 'ENGINE_GRAPHQL_ALLOWED_HOSTS',
  'max-json-depth': 'ENGINE_GRAPHQL_MAX_JSON_DEPTH',
  'max-document-bytes': 'ENGINE_GRAPHQL_MAX_DOCUMENT_BYTES',
  'max-query-depth': 'ENGINE_GRAPHQL_MAX_QUERY_DEPTH',
  'max-query-fields': 'ENGINE_GRAPHQL_MAX_QUERY_FIELDS',
  'max-admin-query-depth': 'ENGINE_GRAPHQL_MAX_ADMIN_QUERY_DEPTH',
  'max-admin-query-fields': 'ENGINE_GRAPHQL_MAX_ADMIN_QUERY_FIELDS',
  'max-bulk-operations': 'ENGINE_GRAPHQL_MAX_BULK_OPERATIONS',
  'max-query-cost': 'ENGINE_GRAPHQL_MAX_QUERY_COST',
  'statement-timeout-ms': 'ENGINE_GRAPHQL_STATEMENT_TIMEOUT_MS',
  'admin-statement-timeout-ms': 'ENGINE_GRAPHQL_ADMIN_STATEMENT_TIMEOUT_MS',
  'pg-connections': 'ENGINE_GRAPHQL_PG_CONNECTIONS',
  'pg-timeout': 'ENGINE_GRAPHQL_PG_TIMEOUT',
  'use-prepared-statements': 'ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS',
  'max-connections-per-role': 'ENGINE_GRAPHQL_MAX_CONNECTIONS_PER_ROLE',
  'cache-max-bytes': 'ENGINE_GRAPHQL_CACHE_MAX_BYTES',
  'response-cache-max-bytes': 'ENGINE_GRAPHQL_RESPONSE_CACHE_MAX_BYTES',
  'remote-answer-max-bytes': 'ENGINE_GRAPHQL_REMOTE_ANSWER_MAX_BYTES',
  'remote-answer-role-max-bytes': 'ENGINE_GRAPHQL_REMOTE_ANSWER_ROLE_MAX_BYTES',
  'graceful-shutdown-timeout': 'ENGINE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT',
  'compat-headers': 'ENGINE_GRAPHQL_COMPAT_HEADERS',
  'default-naming-convention': 'ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION',
};

/** The name a setting has in the engine this API comes from: ENGINE_GRAPHQL_X → HASURA_GRAPHQL_X. */
export const hasuraVariable = (name: string) => name.replace(/^ENGINE_/, 'HASURA_');

function compatHeaders(value: string | undefined): CompatHeaders | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(COMPAT_HEADERS as readonly string[]).includes(value)) {
    throw new ConfigError(`ENGINE_GRAPHQL_COMPAT_HEADERS must be ${COMPAT_HEADERS.join(' or ')} (or empty: off), got ${JSON.stringify(value)}`);
  }
  return value as CompatHeaders;
}

/** The naming convention of sources whose customization names none (decision 048): hasura-default unless told. */
function defaultNamingConvention(value: string | undefined): NamingConvention {
  if (value === undefined) return 'hasura-default';
  if ((NAMING_CONVENTIONS as readonly string[]).includes(value)) return value as NamingConvention;
  throw new ConfigError(`ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION must be hasura-default or graphql-default, got ${JSON.stringify(value)}`);
}

/** Build the configuration from environment variables and command-line flags. */
export function loadConfig(env: Source, argv: readonly string[] = []): EngineConfig {
  const flags = parseArgv(argv);
  const flagOf = (envName: string) => Object.entries(FLAGS).find(([, v]) => v === envName)?.[0];
  const compat = compatHeaders(flags['compat-headers'] ?? env.ENGINE_GRAPHQL_COMPAT_HEADERS);
  // With the compatibility setting every setting may be given by its HASURA_GRAPHQL_* name too; the ENGINE_ one wins.
  const hasuraVariables = { read: [] as string[], overridden: [] as string[] };
  const get = (envName: string) => {
    const flag = flagOf(envName);
    const own = (flag && flags[flag]) ?? env[envName];
    const other = compat && envName !== 'ENGINE_GRAPHQL_COMPAT_HEADERS' ? env[hasuraVariable(envName)] : undefined;
    if (other !== undefined) {
      const list = own === undefined ? hasuraVariables.read : hasuraVariables.overridden;
      if (!list.includes(hasuraVariable(envName))) list.push(hasuraVariable(envName));
    }
    return own ?? other;
  };
  const hookUrl = get('ENGINE_GRAPHQL_AUTH_HOOK');
  const hookMode = (get('ENGINE_GRAPHQL_AUTH_HOOK_MODE') ?? 'GET').toUpperCase();
  if (hookMode !== 'GET' && hookMode !== 'POST') throw new ConfigError('ENGINE_GRAPHQL_AUTH_HOOK_MODE must be GET or POST');
  const logLevel = (get('ENGINE_GRAPHQL_LOG_LEVEL') ?? 'info').toLowerCase();
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    throw new ConfigError('ENGINE_GRAPHQL_LOG_LEVEL must be one of debug, info, warn, error, silent');
  }
  const namingConvention = defaultNamingConvention(get('ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION'));
  const adminSecret = get('ENGINE_GRAPHQL_ADMIN_SECRET');
  const unauthorizedRole = get('ENGINE_GRAPHQL_UNAUTHORIZED_ROLE');
  const databaseUrl = get('ENGINE_GRAPHQL_DATABASE_URL') ?? env.DATABASE_URL;
  return {
    ...(databaseUrl ? { databaseUrl } : {}),
    port: port('ENGINE_GRAPHQL_SERVER_PORT', '--server-port', get('ENGINE_GRAPHQL_SERVER_PORT'), 8080),
    // Without an admin secret every request is admin: only this machine may reach it unless asked.
    host: get('ENGINE_GRAPHQL_SERVER_HOST') ?? (adminSecret ? '0.0.0.0' : '127.0.0.1'),
    ...(adminSecret ? { adminSecret } : {}),
    ...(hookUrl ? { authHook: { url: hookUrl, mode: hookMode } } : {}),
    ...(unauthorizedRole ? { unauthorizedRole } : {}),
    ...(() => {
      const j = jwt(get('ENGINE_GRAPHQL_JWT_SECRET'), compat);
      return j ? { jwt: j } : {};
    })(),
    enabledApis: enabledApis(get('ENGINE_GRAPHQL_ENABLED_APIS')),
    enableAllowList: bool('ENGINE_GRAPHQL_ENABLE_ALLOWLIST', get('ENGINE_GRAPHQL_ENABLE_ALLOWLIST'), false),
    enableConsole: bool('ENGINE_GRAPHQL_ENABLE_CONSOLE', get('ENGINE_GRAPHQL_ENABLE_CONSOLE'), adminSecret === undefined),
    defaultNamingConvention: namingConvention,
    inferFunctionPermissions: bool('ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS', get('ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS'), true),
    enableRemoteSchemaPermissions: bool('ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS', get('ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS'), false),
    liveQueries: {
      batchSize: int('ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE', get('ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE'), 100, 1),
      // The setting is in milliseconds; the config API reports seconds.
      refetchDelaySeconds:
        int('ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL', get('ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL'), 1000, 1) / 1000,
    },
    streamingQueries: {
      batchSize: int('ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE', get('ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE'), 100, 1),
      refetchDelaySeconds:
        int('ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL', get('ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL'), 1000, 1) /
        1000,
    },
    maxRequestBodyBytes: int('ENGINE_GRAPHQL_MAX_REQUEST_BODY_BYTES', get('ENGINE_GRAPHQL_MAX_REQUEST_BODY_BYTES'), 100 * 1024 * 1024, 1),
    ...(() => {
      const pgConnections = int('ENGINE_GRAPHQL_PG_CONNECTIONS', get('ENGINE_GRAPHQL_PG_CONNECTIONS'), 10, 1);
      const perRole = int('ENGINE_GRAPHQL_MAX_CONNECTIONS_PER_ROLE', get('ENGINE_GRAPHQL_MAX_CONNECTIONS_PER_ROLE'), Math.ceil(pgConnections / 2), 1);
      return { pgConnections, maxConnectionsPerRole: Math.min(perRole, pgConnections) };
    })(),
    pgTimeoutSeconds: int('ENGINE_GRAPHQL_PG_TIMEOUT', get('ENGINE_GRAPHQL_PG_TIMEOUT'), 180, 0),
    usePreparedStatements: bool('ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS', get('ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS'), true),
    maxRoleRequestBodyBytes: int('ENGINE_GRAPHQL_MAX_ROLE_REQUEST_BODY_BYTES', get('ENGINE_GRAPHQL_MAX_ROLE_REQUEST_BODY_BYTES'), 1024 * 1024, 1),
    logLevel: logLevel as EngineConfig['logLevel'],
    dataDir: get('ENGINE_GRAPHQL_DATA_DIR') ?? '.engine',
    limits: {
      maxJsonDepth: int('ENGINE_GRAPHQL_MAX_JSON_DEPTH', get('ENGINE_GRAPHQL_MAX_JSON_DEPTH'), 128, 8),
      maxDocumentBytes: int('ENGINE_GRAPHQL_MAX_DOCUMENT_BYTES', get('ENGINE_GRAPHQL_MAX_DOCUMENT_BYTES'), 256 * 1024, 64),
      maxQueryDepth: int('ENGINE_GRAPHQL_MAX_QUERY_DEPTH', get('ENGINE_GRAPHQL_MAX_QUERY_DEPTH'), 25, 1),
      maxQueryFields: int('ENGINE_GRAPHQL_MAX_QUERY_FIELDS', get('ENGINE_GRAPHQL_MAX_QUERY_FIELDS'), 2000, 1),
      maxAdminQueryDepth: int('ENGINE_GRAPHQL_MAX_ADMIN_QUERY_DEPTH', get('ENGINE_GRAPHQL_MAX_ADMIN_QUERY_DEPTH'), 100, 1),
      maxAdminQueryFields: int('ENGINE_GRAPHQL_MAX_ADMIN_QUERY_FIELDS', get('ENGINE_GRAPHQL_MAX_ADMIN_QUERY_FIELDS'), 20_000, 1),
      maxQueryCost: int('ENGINE_GRAPHQL_MAX_QUERY_COST', get('ENGINE_GRAPHQL_MAX_QUERY_COST'), 10_000_000, 0),
      maxBulkOperations: int('ENGINE_GRAPHQL_MAX_BULK_OPERATIONS', get('ENGINE_GRAPHQL_MAX_BULK_OPERATIONS'), 1000, 1),
      adminStatementTimeoutMs: int('ENGINE_GRAPHQL_ADMIN_STATEMENT_TIMEOUT_MS', get('ENGINE_GRAPHQL_ADMIN_STATEMENT_TIMEOUT_MS'), 60_000, 0),
      statementTimeoutMs: int('ENGINE_GRAPHQL_STATEMENT_TIMEOUT_MS', get('ENGINE_GRAPHQL_STATEMENT_TIMEOUT_MS'), 10_000, 0),
      cacheMaxBytes: int('ENGINE_GRAPHQL_CACHE_MAX_BYTES', get('ENGINE_GRAPHQL_CACHE_MAX_BYTES'), 64 * 1024 * 1024, 1024 * 1024),
      responseCacheMaxBytes: int('ENGINE_GRAPHQL_RESPONSE_CACHE_MAX_BYTES', get('ENGINE_GRAPHQL_RESPONSE_CACHE_MAX_BYTES'), 32 * 1024 * 1024, 0),
      remoteAnswerMaxBytes: int('ENGINE_GRAPHQL_REMOTE_ANSWER_MAX_BYTES', get('ENGINE_GRAPHQL_REMOTE_ANSWER_MAX_BYTES'), 64 * 1024 * 1024, 1024),
      remoteAnswerRoleMaxBytes: int('ENGINE_GRAPHQL_REMOTE_ANSWER_ROLE_MAX_BYTES', get('ENGINE_GRAPHQL_REMOTE_ANSWER_ROLE_MAX_BYTES'), 256 * 1024 * 1024, 1024),
    },
    gracefulShutdownTimeoutSeconds: int('ENGINE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT', get('ENGINE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT'), 60, 0),
    events: {
      fetchIntervalMs: int('ENGINE_GRAPHQL_EVENTS_FETCH_INTERVAL', get('ENGINE_GRAPHQL_EVENTS_FETCH_INTERVAL'), 1000, 10),
      httpPoolSize: int('ENGINE_GRAPHQL_EVENTS_HTTP_POOL_SIZE', get('ENGINE_GRAPHQL_EVENTS_HTTP_POOL_SIZE'), 100, 1),
      lockMarginSeconds: int('ENGINE_GRAPHQL_EVENTS_LOCK_MARGIN_SECONDS', get('ENGINE_GRAPHQL_EVENTS_LOCK_MARGIN_SECONDS'), 30, 1),
      retentionSeconds: int('ENGINE_GRAPHQL_EVENTS_RETENTION_SECONDS', get('ENGINE_GRAPHQL_EVENTS_RETENTION_SECONDS'), 7 * 24 * 3600, 0),
      backoff: (() => {
        const v = get('ENGINE_GRAPHQL_EVENTS_RETRY_BACKOFF') ?? 'fixed';
        if (v !== 'fixed' && v !== 'exponential')
          throw new ConfigError(`ENGINE_GRAPHQL_EVENTS_RETRY_BACKOFF must be fixed or exponential, not ${JSON.stringify(v)}`);
        return v;
      })(),
    },
    ...(() => {
      const domains = corsDomains(get('ENGINE_GRAPHQL_CORS_DOMAIN'));
      return domains ? { corsDomains: domains } : {};
    })(),
    allowedHosts: allowedHosts(get('ENGINE_GRAPHQL_ALLOWED_HOSTS'), adminSecret !== undefined),
    ...(compat ? { compatHeaders: compat, hasuraVariables } : {}),
  };
}
