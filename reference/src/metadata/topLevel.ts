// The top-level parts of a document that are set whole (decision dec.metadata.top-level):
// introspection options, metrics and OpenTelemetry configuration. Pure functions over the document.
import { topLevelParts, type MetadataDocument, type MetricsConfig, type OpenTelemetryConfig } from '../../../spec';

type Part = 'api_limits' | 'metrics_config' | 'inherited_roles' | 'graphql_schema_introspection' | 'network' | 'backend_configs' | 'opentelemetry';

/** The document with one top-level part replaced; a part that says nothing is left out, as the export does. */
export function withPart<K extends Part>(document: MetadataDocument, key: K, value: MetadataDocument[K] | undefined): MetadataDocument {
  const { [key]: _old, ...rest } = document;
  return { ...rest, ...topLevelParts({ [key]: value }) } as MetadataDocument;
}

/** set_graphql_schema_introspection_options: the roles that may not introspect, replaced. */
export const setIntrospectionOptions = (document: MetadataDocument, args: { disabled_for_roles: string[] }) =>
  withPart(document, 'graphql_schema_introspection', { disabled_for_roles: args.disabled_for_roles });

/** Whether a role may not introspect the schema. */
export const introspectionDisabledFor = (document: MetadataDocument, role: string) =>
  document.graphql_schema_introspection?.disabled_for_roles.includes(role) === true;

export const setMetricsConfig = (document: MetadataDocument, args: MetricsConfig) => withPart(document, 'metrics_config', args);
export const removeMetricsConfig = (document: MetadataDocument) => withPart(document, 'metrics_config', undefined);

/** set_opentelemetry_config: the whole configuration, replaced. */
export const setOpenTelemetryConfig = (document: MetadataDocument, args: OpenTelemetryConfig) => withPart(document, 'opentelemetry', args);

/** set_opentelemetry_status: the status alone; the rest of the configuration stays. */
export const setOpenTelemetryStatus = (document: MetadataDocument, status: 'enabled' | 'disabled') =>
  withPart(document, 'opentelemetry', { ...(document.opentelemetry ?? {}), status });

/**
 * The parts of a document this server keeps and exports but does not act on (decision
 * dec.metadata.top-level): no metrics, traces or data connectors here, and the server's own database is the one it was started with (only the
 * isolation level and the size of the GraphQL pools of its configuration are followed).
 */
export function keptNotServed(document: MetadataDocument): string[] {
  return [
    ...(document.metrics_config ? ['metrics_config'] : []),
    ...(document.opentelemetry ? ['opentelemetry'] : []),
    ...(document.backend_configs ? ['backend_configs'] : []),
    ...(document.default_source?.configuration ? ['the configuration of the default source (but its isolation_level and max_connections)'] : []),
  ];
}
