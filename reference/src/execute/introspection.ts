// An operation that asks for __schema or __type: answered by graphql-js from the role's schema,
// unless the metadata disables introspection for the role (decision dec.graphql.introspection-disabled).
import { execute as executeGraphQL, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { formatMessage } from '../../../spec';
import { isAdmin, type Session } from '../auth/session';
import type { BuiltSchema } from '../schema/build';
import type { CollectedField } from '../sql/graphql/fields';
import { errorAnswer, type GraphQLAnswer } from './answers';
import type { SchemaCache } from './schemaCache';

export function introspect(
  cache: SchemaCache,
  session: Session,
  built: BuiltSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  roots: CollectedField[],
): GraphQLAnswer {
  if (!isAdmin(session) && cache.introspectionDisabled.has(session.role))
    return errorAnswer(formatMessage('err.graphql.introspection-disabled', session.role), 'not-supported');
  if (roots.some((f) => !f.name.startsWith('__'))) {
    return errorAnswer('introspection fields cannot be mixed with other root fields in one operation', 'validation-failed');
  }
  const result = executeGraphQL({
    schema: built.schema,
    document,
    ...(operation.name ? { operationName: operation.name.value } : {}),
    variableValues: variables,
  });
  return { status: 200, body: JSON.stringify(result) };
}
