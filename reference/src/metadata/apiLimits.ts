// API limits (decision dec.api-limits): set and removed whole; what applies to a role.
import type { ApiLimits, Limit, MetadataDocument, RateLimit } from '../../../spec';
import { withPart } from './topLevel';

export const setApiLimits = (document: MetadataDocument, args: ApiLimits) => withPart(document, 'api_limits', args);
export const removeApiLimits = (document: MetadataDocument) => withPart(document, 'api_limits', undefined);

/** The limits a role's GraphQL requests are held to; none for admin, nor when the limits are disabled. */
export interface RoleLimits {
  depth?: number;
  nodes?: number;
  batch?: number;
  /** Seconds. */
  time?: number;
  rate?: RateLimit;
}

const forRole = <T>(limit: Limit<T> | undefined, role: string): T | undefined =>
  limit === undefined ? undefined : Object.prototype.hasOwnProperty.call(limit.per_role, role) ? limit.per_role[role] : limit.global;

export function limitsForRole(limits: ApiLimits | undefined, role: string): RoleLimits {
  if (!limits || limits.disabled || role === 'admin') return {};
  const out: RoleLimits = {};
  const depth = forRole(limits.depth_limit, role);
  const nodes = forRole(limits.node_limit, role);
  const batch = forRole(limits.batch_limit, role);
  const time = forRole(limits.time_limit, role);
  const rate = forRole(limits.rate_limit, role);
  if (depth !== undefined) out.depth = depth;
  if (nodes !== undefined) out.nodes = nodes;
  if (batch !== undefined) out.batch = batch;
  if (time !== undefined) out.time = time;
  if (rate !== undefined) out.rate = rate;
  return out;
}
