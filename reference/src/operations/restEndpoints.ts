// Handlers of create_rest_endpoint and drop_rest_endpoint (SPEC.md §2.8, §4.3): the endpoint's
// saved query must also validate against the GraphQL schema of the metadata it joins.
import { validate } from 'graphql';
import { formatMessage, type MetadataDocument, type RestEndpoint } from '../../../spec';
import { endpointsOf } from '../metadata/collections';
import type { InconsistentObject } from '../metadata/inconsistency';
import { engineError } from '../errors';
import { createRestEndpoint as create, dropRestEndpoint as drop, endpointOperation } from '../metadata/restEndpoints';
import { SUCCESS, type OperationContext } from './context';

export async function createRestEndpoint(ctx: OperationContext, args: RestEndpoint & { comment?: string | null }): Promise<unknown> {
  const next = create(ctx.document, args);
  const schema = await ctx.adminSchema(next);
  const saved = endpointOperation(next, args);
  const errors = validate(schema, saved.document);
  if (errors.length > 0) {
    const { collection_name, query_name } = args.definition.query;
    throw engineError('validation-failed.rest-query', '$.args.definition', [JSON.stringify(query_name), JSON.stringify(collection_name), errors[0]!.message]);
  }
  ctx.document = next;
  return SUCCESS;
}

/**
 * Endpoints whose saved query no longer validates against the schema of `document` (a table or
 * column it reads went away): inconsistent objects of type rest_endpoint. Nothing to do, and no
 * schema built, when the document has no endpoints.
 */
export async function endpointSchemaProblems(ctx: OperationContext, document: MetadataDocument): Promise<InconsistentObject[]> {
  const endpoints = endpointsOf(document);
  if (endpoints.length === 0) return [];
  const schema = await ctx.adminSchema(document);
  const out: InconsistentObject[] = [];
  for (const endpoint of endpoints) {
    let saved;
    try {
      saved = endpointOperation(document, endpoint);
    } catch {
      continue; // reported by findInconsistencies
    }
    const errors = validate(schema, saved.document);
    if (errors.length > 0) {
      const { collection_name, query_name } = endpoint.definition.query;
      out.push({
        type: 'rest_endpoint',
        reason: formatMessage('err.validation-failed.rest-query', JSON.stringify(query_name), JSON.stringify(collection_name), errors[0]!.message),
        definition: endpoint,
      });
    }
  }
  return out;
}

export async function dropRestEndpoint(ctx: OperationContext, args: { url?: string; name?: string }): Promise<unknown> {
  ctx.document = drop(ctx.document, args);
  return SUCCESS;
}
