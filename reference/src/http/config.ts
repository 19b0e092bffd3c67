// GET /v1alpha1/config (SPEC.md §2.10, §4.5): the server configuration, read from the real settings.
import type { EngineConfig } from '../config';

export function configResponse(config: EngineConfig, version: string) {
  return {
    version,
    is_function_permissions_inferred: config.inferFunctionPermissions,
    is_admin_secret_set: config.adminSecret !== undefined,
    is_auth_hook_set: config.authHook !== undefined,
    is_jwt_set: config.jwt !== undefined,
    // Decision dec.config.jwt: present only when JWT is configured.
    ...(config.jwt ? { jwt: { claims_namespace: config.jwt.claims_namespace, claims_format: config.jwt.claims_format } } : {}),
    is_allow_list_enabled: config.enableAllowList,
    live_queries: { batch_size: config.liveQueries.batchSize, refetch_delay: config.liveQueries.refetchDelaySeconds },
  };
}
