// The top-level parts of a metadata document beside tables and functions that projects of the
// engine's CLI carry (decision dec.metadata.top-level): inherited roles, API limits, introspection
// options, the network's TLS allow-list, metrics and OpenTelemetry configuration and the backends'
// configuration, in the engine's shapes. Each is stored and exported as it is parsed here.
import { nonEmptyName, roleName } from './names';
import {
  array,
  boolean,
  integer,
  isPlainObject,
  jsonObject,
  literal,
  nullable,
  number,
  object,
  parseFailure,
  parsed,
  record,
  refine,
  string,
  union,
  type ParseResult,
  type Schema,
} from './schema';

/** A role whose permissions are those of its parents combined (inherited_roles.yaml). */
export interface InheritedRole {
  role_name: string;
  role_set: string[];
}

export const inheritedRole: Schema<InheritedRole> = refine(object({ role_name: roleName, role_set: array(roleName, { minItems: 1 }) }), (v, path) => {
  if (v.role_name === 'admin') return parseFailure(`${path}.role_name`, 'the role "admin" cannot be an inherited role', 'invalid-params');
  // The role set is a set: a role named twice is named once.
  return parsed({ role_name: v.role_name, role_set: [...new Set(v.role_set)] });
});

export const inheritedRoles: Schema<InheritedRole[]> = refine(array(inheritedRole), (v, path) => {
  const names = v.map((r) => r.role_name);
  const twice = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  return twice.length
    ? parseFailure(path, `multiple declarations exist for the following inherited roles : ${twice.map((n) => JSON.stringify(n)).join(', ')}`, 'already-exists')
    : parsed(v);
});

export const dropInheritedRole = object({ role_name: roleName });

/** A limit for every role, and other ones for some roles. */
export interface Limit<T> {
  global: T;
  per_role: Record<string, T>;
}

export interface RateLimit {
  max_reqs_per_min: number;
  /** What tells clients of one role apart: their IP address, or the values of these session variables. */
  unique_params?: 'IP' | string[];
}

/** api_limits.yaml: every limit is optional; `disabled` turns them all off. */
export interface ApiLimits {
  rate_limit?: Limit<RateLimit>;
  depth_limit?: Limit<number>;
  node_limit?: Limit<number>;
  time_limit?: Limit<number>;
  batch_limit?: Limit<number>;
  disabled: boolean;
}

const nonNegative = (inner: Schema<number>) =>
  refine(inner, (v, path): ParseResult<number> => (v < 0 ? parseFailure(path, 'expected a number not below 0') : parsed(v)));

const limit = <T>(value: Schema<T>): Schema<Limit<T>> =>
  refine(object({ global: value }, { per_role: record(value) }), (v) => parsed({ global: v.global, per_role: v.per_role ?? {} }));

const UNIQUE_PARAMS_PROBLEM = "Not a valid value. Should be either: 'IP' or a list of session variables (x-engine-*) other than x-engine-role";

const uniqueParams: Schema<'IP' | string[]> = {
  description: { type: 'union', of: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  parse(v, p) {
    if (typeof v === 'string' && v.toLowerCase() === 'ip') return parsed('IP' as const);
    // The compatibility brand's names too (dec.compat.headers): they name the same session variables.
    const variable = (s: unknown) => typeof s === 'string' && /^x-(?:engine|hasura)-/i.test(s) && !/^x-(?:engine|hasura)-role$/i.test(s);
    if (Array.isArray(v) && v.every(variable)) return parsed(v as string[]);
    return parseFailure(p, UNIQUE_PARAMS_PROBLEM);
  },
};

const rateLimit: Schema<RateLimit> = refine(object({ max_reqs_per_min: nonNegative(integer) }, { unique_params: uniqueParams }), (v) =>
  parsed(v.unique_params === undefined ? { max_reqs_per_min: v.max_reqs_per_min } : { max_reqs_per_min: v.max_reqs_per_min, unique_params: v.unique_params }),
);

/** The engine's form, in its order; set_api_limits takes the same object. */
export const apiLimits: Schema<ApiLimits> = refine(
  object(
    {},
    {
      rate_limit: limit(rateLimit),
      depth_limit: limit(nonNegative(integer)),
      node_limit: limit(nonNegative(integer)),
      time_limit: limit(nonNegative(number)),
      batch_limit: limit(nonNegative(integer)),
      disabled: boolean,
    },
  ),
  (v) =>
    parsed({
      ...(v.rate_limit ? { rate_limit: v.rate_limit } : {}),
      ...(v.depth_limit ? { depth_limit: v.depth_limit } : {}),
      ...(v.node_limit ? { node_limit: v.node_limit } : {}),
      ...(v.time_limit ? { time_limit: v.time_limit } : {}),
      ...(v.batch_limit ? { batch_limit: v.batch_limit } : {}),
      disabled: v.disabled ?? false,
    }),
);

/** No limit and not disabled: what the export leaves out. */
export const noApiLimits = (v: ApiLimits) => Object.keys(v).length === 1 && !v.disabled;

/** graphql_schema_introspection.yaml: the roles that may not introspect the schema. */
export interface IntrospectionOptions {
  disabled_for_roles: string[];
}

export const introspectionOptions: Schema<IntrospectionOptions> = refine(object({ disabled_for_roles: array(roleName) }), (v) =>
  parsed({ disabled_for_roles: [...new Set(v.disabled_for_roles)] }),
);

/** A host whose certificate is not checked the usual way (network.yaml). */
export interface TlsAllow {
  host: string;
  suffix?: string;
  permissions?: 'self-signed'[];
}

export interface Network {
  tls_allowlist?: TlsAllow[];
}

/** An entry of the allow-list: the host alone, or {host, suffix, permissions}; empty parts left out. */
export const tlsAllow: Schema<TlsAllow> = refine(
  union<[string, { host: string; suffix?: string | null; permissions?: 'self-signed'[] | null }]>(
    [string, object({ host: string }, { suffix: nullable(string), permissions: nullable(array(literal('self-signed'))) })],
    'String or Object',
  ),
  (v, path) => {
    const entry = typeof v === 'string' ? { host: v } : v;
    if (entry.host === '') return parseFailure(path, 'key "host" cannot be empty', 'bad-request');
    return parsed({
      host: entry.host,
      ...(typeof entry.suffix === 'string' ? { suffix: entry.suffix } : {}),
      ...(Array.isArray(entry.permissions) ? { permissions: [...entry.permissions] } : {}),
    });
  },
);

export const network: Schema<Network> = refine(object({}, { tls_allowlist: array(tlsAllow) }), (v, path) => {
  // An entry is a host and a suffix (or none): the same one twice is refused, as add_host_to_tls_allowlist refuses it.
  const entries = (v.tls_allowlist ?? []).map((t) => JSON.stringify([t.host, t.suffix ?? null]));
  const twice = entries.findIndex((e, i) => entries.indexOf(e) !== i);
  if (twice >= 0) {
    const { host, suffix } = v.tls_allowlist![twice]!;
    const name = suffix === undefined ? JSON.stringify(host) : `${JSON.stringify(host)} with suffix ${JSON.stringify(suffix)}`;
    return parseFailure(`${path}.tls_allowlist[${twice}]`, `the host ${name} already exists in the allowlist`, 'already-exists');
  }
  return parsed(v.tls_allowlist?.length ? { tls_allowlist: v.tls_allowlist } : {});
});

export const dropHostFromTlsAllowlist = object({ host: string }, { suffix: string });

/** metrics_config.yaml. */
export interface MetricsConfig {
  analyze_query_variables: boolean;
  analyze_response_body: boolean;
}

/** Both false unless given, as the engine reads them (the CLI writes {} for none). */
export const metricsConfig: Schema<MetricsConfig> = refine(object({}, { analyze_query_variables: boolean, analyze_response_body: boolean }), (v) =>
  parsed({ analyze_query_variables: v.analyze_query_variables ?? false, analyze_response_body: v.analyze_response_body ?? false }),
);

export const noMetricsConfig = (v: MetricsConfig) => !v.analyze_query_variables && !v.analyze_response_body;

/** opentelemetry.yaml, kept as it is given (its parts checked against the engine's form). */
export type OpenTelemetryConfig = Record<string, unknown>;

const otelStatus = literal('enabled', 'disabled');
const headerConf = union<[{ name: string; value: string }, { name: string; value_from_env: string }]>(
  [object({ name: nonEmptyName, value: string }), object({ name: nonEmptyName, value_from_env: nonEmptyName })],
  'header {name, value} or {name, value_from_env}',
);

export const openTelemetryConfig: Schema<OpenTelemetryConfig> = refine(
  object(
    {},
    {
      status: otelStatus,
      data_types: array(literal('traces', 'metrics', 'logs')),
      exporter_otlp: object(
        {},
        {
          otlp_traces_endpoint: string,
          otlp_metrics_endpoint: string,
          otlp_logs_endpoint: string,
          protocol: literal('http/protobuf'),
          headers: array(headerConf),
          resource_attributes: array(object({ name: string, value: string })),
          traces_propagators: array(literal('b3', 'tracecontext')),
        },
      ),
      batch_span_processor: object(
        {},
        { max_export_batch_size: refine(integer, (v, p) => (v < 1 ? parseFailure(p, 'expected a number above 0') : parsed(v))) },
      ),
    },
  ),
  (v) => parsed(v as OpenTelemetryConfig),
);

export const openTelemetryStatus = otelStatus;

/** backend_configs.yaml: by kind of backend (dataconnector: agents by name), kept as it is given. */
export type BackendConfigs = Record<string, Record<string, unknown>>;

export const backendConfigs: Schema<BackendConfigs> = refine(record(jsonObject), (v) => parsed(v));

export const isEmptyObject = (v: unknown) => isPlainObject(v) && Object.keys(v).length === 0;
