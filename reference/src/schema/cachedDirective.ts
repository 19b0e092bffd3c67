// `@cached` (decision dec.graphql.cached): a query that carries it is answered from the response
// cache (execute/responseCache.ts). Every schema has the directive, as the engine's do.
import {
  DirectiveLocation,
  getDirectiveValues,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLInt,
  GraphQLNonNull,
  specifiedDirectives,
  type OperationDefinitionNode,
} from 'graphql';
import { NO_EXTENSIONS } from './types';

export const CACHED_DIRECTIVE = new GraphQLDirective({
  name: 'cached',
  description: 'whether this query should be cached',
  locations: [DirectiveLocation.QUERY],
  args: {
    ttl: { type: new GraphQLNonNull(GraphQLInt), defaultValue: 60, description: 'measured in seconds', extensions: NO_EXTENSIONS },
    refresh: { type: new GraphQLNonNull(GraphQLBoolean), defaultValue: false, description: 'refresh the cache entry', extensions: NO_EXTENSIONS },
  },
  extensions: NO_EXTENSIONS,
});

/** The directives of every schema the server serves. */
export const SCHEMA_DIRECTIVES: readonly GraphQLDirective[] = [...specifiedDirectives, CACHED_DIRECTIVE];

/** How long a query's answer is kept, and whether to make it anew: undefined when the operation has no @cached. */
export function cachedOf(operation: OperationDefinitionNode, variables: Record<string, unknown>): { ttlSeconds: number; refresh: boolean } | undefined {
  if (operation.operation !== 'query') return undefined;
  const values = getDirectiveValues(CACHED_DIRECTIVE, operation, variables);
  return values ? { ttlSeconds: values.ttl as number, refresh: values.refresh as boolean } : undefined;
}
