// How a request log line names a GraphQL operation: `graphql:<operationName>`, or the kind of
// operation the document starts with.
import type { GraphQLRequest } from '../execute/graphql';

export function graphqlOperationLabel(request: GraphQLRequest): string {
  if (typeof request.operationName === 'string' && request.operationName !== '') return `graphql:${request.operationName}`;
  const kind = typeof request.query === 'string' ? /^\s*(query|mutation|subscription)\b/.exec(request.query)?.[1] : undefined;
  return `graphql:${kind ?? 'query'}`;
}
