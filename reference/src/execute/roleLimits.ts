// What the metadata's API limits refuse of a role's GraphQL requests (decision dec.api-limits):
// too many requests in a minute, an operation too deep or with too many nodes. Admin is never bound.
import { Kind, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { formatMessage } from '../../../spec';
import { isAdmin, type Session } from '../auth/session';
import { limitsForRole } from '../metadata/apiLimits';
import { errorAnswer, type GraphQLAnswer } from './answers';
import { rateKey } from './rateCounter';
import type { SchemaCache } from './schemaCache';

/**
 * The request counted against the role's rate limit; its refusal when the minute's count is reached.
 * Every operation counts, over HTTP or started over WebSocket; admin's are not counted.
 */
export function rateLimitAnswer(cache: SchemaCache, session: Session, address: string | undefined): GraphQLAnswer | undefined {
  if (isAdmin(session)) return undefined;
  const { rate } = limitsForRole(cache.apiLimits, session.role);
  if (!rate || cache.rates.admit(rateKey(rate, session, address), rate.max_reqs_per_min)) return undefined;
  return errorAnswer(formatMessage('err.graphql.rate-limit', String(rate.max_reqs_per_min)), 'rate-limit-exceeded');
}

/**
 * How deep an operation selects and how many nodes (fields with a selection set) it has, each
 * fragment counted where it is spread; introspection fields (__schema, __type, __typename) count for neither.
 */
export function measureOperation(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): { depth: number; nodes: number } {
  const visiting = new Set<string>();
  const measure = (set: SelectionSetNode): { depth: number; nodes: number } => {
    let depth = 0;
    let nodes = 0;
    for (const s of set.selections) {
      let inner = { depth: 0, nodes: 0 };
      if (s.kind === Kind.FIELD) {
        if (s.name.value.startsWith('__')) continue;
        if (s.selectionSet) {
          const below = measure(s.selectionSet);
          inner = { depth: below.depth + 1, nodes: below.nodes + 1 };
        } else inner = { depth: 1, nodes: 0 };
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        inner = measure(s.selectionSet);
      } else {
        const fragment = fragments.get(s.name.value);
        // A cycle is refused by validation before this runs; here it counts as nothing.
        if (!fragment || visiting.has(s.name.value)) continue;
        visiting.add(s.name.value);
        inner = measure(fragment.selectionSet);
        visiting.delete(s.name.value);
      }
      depth = Math.max(depth, inner.depth);
      nodes += inner.nodes;
    }
    return { depth, nodes };
  };
  return measure(operation.selectionSet);
}

/** The refusal of an operation deeper or with more nodes than the role's limits allow. */
export function operationLimitAnswer(
  cache: SchemaCache,
  session: Session,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): GraphQLAnswer | undefined {
  const limits = limitsForRole(cache.apiLimits, session.role);
  if (limits.depth === undefined && limits.nodes === undefined) return undefined;
  const { depth, nodes } = measureOperation(operation, fragments);
  if (limits.depth !== undefined && depth > limits.depth)
    return errorAnswer(formatMessage('err.graphql.depth-limit', String(limits.depth)), 'validation-failed');
  if (limits.nodes !== undefined && nodes > limits.nodes)
    return errorAnswer(formatMessage('err.graphql.node-limit', String(limits.nodes)), 'validation-failed');
  return undefined;
}

/** The refusal of a batch of more operations than the role's batch limit. */
export function batchLimitAnswer(cache: SchemaCache, session: Session, operations: number): GraphQLAnswer | undefined {
  const { batch } = limitsForRole(cache.apiLimits, session.role);
  return batch !== undefined && operations > batch ? errorAnswer(formatMessage('err.graphql.batch-limit', String(batch)), 'validation-failed') : undefined;
}

/** The role's time limit in milliseconds, when it has one. */
export const timeLimitMs = (cache: SchemaCache, session: Session): number | undefined => {
  const { time } = limitsForRole(cache.apiLimits, session.role);
  return time === undefined ? undefined : time * 1000;
};
