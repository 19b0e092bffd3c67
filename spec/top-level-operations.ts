// The operations of the top-level parts of a document beside tables and functions, in the engine's
// forms (decision dec.metadata.top-level): inherited roles, API limits, introspection options, the
// TLS allow-list, metrics and OpenTelemetry configuration.
import { emptyArgs } from './arguments';
import type { Schema } from './schema';
import * as T from './top-level';

const DECISION =
  'SPEC.md does not show these operations; they take the engine\'s documented forms and answer {message: success}: add_inherited_role {role_name, role_set} (a role of that name is replaced), drop_inherited_role {role_name}, set_api_limits {rate_limit?, depth_limit?, node_limit?, time_limit?, batch_limit?, disabled?} (replacing the limits), remove_api_limits {}, set_graphql_schema_introspection_options {disabled_for_roles} (replacing them), add_host_to_tls_allowlist {host, suffix?, permissions?} or the host alone, drop_host_from_tls_allowlist {host, suffix?}, set_metrics_config {analyze_query_variables, analyze_response_body}, remove_metrics_config {}, set_opentelemetry_config {status?, data_types?, exporter_otlp?, batch_span_processor?} (replacing it), set_opentelemetry_status "enabled" | "disabled" (keeping the rest); see dec.metadata.top-level.';

/** An operation in the shape of OperationSpec (operations.ts, which lists them). */
const op = (type: string, summary: string, args: Schema<unknown>) => ({
  type,
  section: '2.2',
  summary,
  versions: [{ version: 1, args }],
  endpoints: ['/v1/query', '/v1/metadata'] as const,
  level: 'compat' as const,
  decision: DECISION,
});

export const TOP_LEVEL_OPERATIONS = [
  op('add_inherited_role', 'add a role that inherits the permissions of a set of roles', T.inheritedRole),
  op('drop_inherited_role', 'drop an inherited role', T.dropInheritedRole),
  op('set_api_limits', 'set the depth, node, time, batch and rate limits of GraphQL requests', T.apiLimits),
  op('remove_api_limits', 'remove every API limit', emptyArgs),
  op('set_graphql_schema_introspection_options', 'set the roles that may not introspect the GraphQL schema', T.introspectionOptions),
  op('add_host_to_tls_allowlist', 'let outgoing requests to a host accept its self-signed certificate', T.tlsAllow),
  op('drop_host_from_tls_allowlist', 'drop a host from the TLS allow-list', T.dropHostFromTlsAllowlist),
  op('set_metrics_config', 'set the metrics configuration (stored, not applied)', T.metricsConfig),
  op('remove_metrics_config', 'remove the metrics configuration', emptyArgs),
  op('set_opentelemetry_config', 'set the OpenTelemetry configuration (stored, not applied)', T.openTelemetryConfig),
  op('set_opentelemetry_status', 'enable or disable the OpenTelemetry configuration (stored, not applied)', T.openTelemetryStatus),
];
