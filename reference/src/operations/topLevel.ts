// Handlers of the operations of the top-level parts of a document (decision dec.metadata.top-level):
// pure changes of metadata/inheritedRoles.ts, apiLimits.ts, network.ts and topLevel.ts.
import type { ApiLimits, InheritedRole, MetricsConfig, OpenTelemetryConfig, TlsAllow } from '../../../spec';
import { removeApiLimits, setApiLimits } from '../metadata/apiLimits';
import { addInheritedRole, dropInheritedRole } from '../metadata/inheritedRoles';
import { addHostToTlsAllowlist, dropHostFromTlsAllowlist } from '../metadata/network';
import { removeMetricsConfig, setIntrospectionOptions, setMetricsConfig, setOpenTelemetryConfig, setOpenTelemetryStatus } from '../metadata/topLevel';
import { SUCCESS, type OperationContext, type OperationHandler } from './context';

const apply =
  <A>(change: (document: OperationContext['document'], args: A) => OperationContext['document']) =>
  async (ctx: OperationContext, args: A): Promise<unknown> => {
    ctx.document = change(ctx.document, args);
    return SUCCESS;
  };

export const TOP_LEVEL_HANDLERS: Readonly<Record<string, OperationHandler>> = {
  add_inherited_role: apply<InheritedRole>(addInheritedRole) as OperationHandler,
  drop_inherited_role: apply<{ role_name: string }>(dropInheritedRole) as OperationHandler,
  set_api_limits: apply<ApiLimits>(setApiLimits) as OperationHandler,
  remove_api_limits: apply(removeApiLimits) as OperationHandler,
  set_graphql_schema_introspection_options: apply<{ disabled_for_roles: string[] }>(setIntrospectionOptions) as OperationHandler,
  add_host_to_tls_allowlist: apply<TlsAllow>(addHostToTlsAllowlist) as OperationHandler,
  drop_host_from_tls_allowlist: apply<{ host: string; suffix?: string }>(dropHostFromTlsAllowlist) as OperationHandler,
  set_metrics_config: apply<MetricsConfig>(setMetricsConfig) as OperationHandler,
  remove_metrics_config: apply(removeMetricsConfig) as OperationHandler,
  set_opentelemetry_config: apply<OpenTelemetryConfig>(setOpenTelemetryConfig) as OperationHandler,
  set_opentelemetry_status: apply<'enabled' | 'disabled'>(setOpenTelemetryStatus) as OperationHandler,
};
