// Query collections and the allow-list (SPEC.md §2.2; operations in the engine's documented forms)
// as pure functions over the document.
import { parse, print, visit, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { AllowlistEntry, MetadataDocument, QueryCollection, RestEndpoint } from '../../../spec';
import { engineError } from '../errors';

export const collectionsOf = (document: MetadataDocument): readonly QueryCollection[] => document.query_collections ?? [];
export const allowlistOf = (document: MetadataDocument): readonly AllowlistEntry[] => document.allowlist ?? [];
export const endpointsOf = (document: MetadataDocument): readonly RestEndpoint[] => document.rest_endpoints ?? [];

const name = JSON.stringify;

/** A document with one list replaced; an empty list is left out, as the export form does. */
export function withList<K extends 'query_collections' | 'allowlist' | 'rest_endpoints'>(
  document: MetadataDocument,
  key: K,
  list: NonNullable<MetadataDocument[K]>,
): MetadataDocument {
  const { [key]: _old, ...rest } = document;
  return (list.length ? { ...rest, [key]: list } : rest) as MetadataDocument;
}

export interface SavedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/** A saved query parsed: one operation, or the refusal naming it. */
export function parseSavedQuery(collection: string, query: { name: string; query: string }): SavedOperation {
  let document: DocumentNode;
  try {
    document = parse(query.query, { noLocation: true });
  } catch (error) {
    throw engineError('validation-failed.saved-query', '$.args', [name(query.name), name(collection), (error as Error).message]);
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (operations.length !== 1)
    throw engineError('validation-failed.saved-query', '$.args', [name(query.name), name(collection), `${operations.length} operations`]);
  return { document, operation: operations[0]! };
}

/**
 * How the allow-list compares documents (decision dec.allowlist): without layout, comments and
 * `__typename` fields (which clients add on their own), as the engine compares them; undefined
 * when the text does not parse.
 */
export function normaliseDocument(text: string): string | undefined {
  try {
    return print(visit(parse(text, { noLocation: true }), { Field: (field) => (field.name.value === '__typename' ? null : undefined) }));
  } catch {
    return undefined;
  }
}

export function findCollection(document: MetadataDocument, collection: string): QueryCollection {
  const found = collectionsOf(document).find((c) => c.name === collection);
  if (!found) throw engineError('not-exists.query-collection', '$.args', [name(collection)]);
  return found;
}

export function findSavedQuery(document: MetadataDocument, collection: string, query: string): { name: string; query: string } {
  const found = findCollection(document, collection).definition.queries.find((q) => q.name === query);
  if (!found) throw engineError('not-exists.saved-query', '$.args', [name(query), name(collection)]);
  return found;
}

export function createQueryCollection(document: MetadataDocument, args: QueryCollection & { comment?: string | null }): MetadataDocument {
  if (collectionsOf(document).some((c) => c.name === args.name)) throw engineError('already-exists.query-collection', '$.args', [name(args.name)]);
  const seen = new Set<string>();
  for (const q of args.definition.queries) {
    if (seen.has(q.name)) throw engineError('already-exists.saved-query', '$.args', [name(q.name), name(args.name)]);
    seen.add(q.name);
    parseSavedQuery(args.name, q);
  }
  const collection: QueryCollection = {
    name: args.name,
    definition: { queries: args.definition.queries.map((q) => ({ name: q.name, query: q.query })) },
    ...(typeof args.comment === 'string' ? { comment: args.comment } : {}),
  };
  return withList(document, 'query_collections', [...collectionsOf(document), collection]);
}

/** What uses a collection (or one query of it): its allow-list entry and the REST endpoints. */
function dependentsOf(document: MetadataDocument, collection: string, query?: string): string[] {
  const out: string[] = [];
  if (query === undefined && allowlistOf(document).some((a) => a.collection === collection)) out.push(`allowlist entry of ${name(collection)}`);
  for (const e of endpointsOf(document)) {
    const q = e.definition.query;
    if (q.collection_name === collection && (query === undefined || q.query_name === query)) out.push(`rest endpoint ${name(e.name)}`);
  }
  return out;
}

export function dropQueryCollection(document: MetadataDocument, args: { collection: string; cascade?: boolean }): MetadataDocument {
  findCollection(document, args.collection);
  const dependents = dependentsOf(document, args.collection);
  if (dependents.length > 0 && !args.cascade) throw engineError('dependency-error.drop', '$.args', [dependents.join(', ')]);
  let next = withList(
    document,
    'query_collections',
    collectionsOf(document).filter((c) => c.name !== args.collection),
  );
  next = withList(
    next,
    'allowlist',
    allowlistOf(next).filter((a) => a.collection !== args.collection),
  );
  return withList(
    next,
    'rest_endpoints',
    endpointsOf(next).filter((e) => e.definition.query.collection_name !== args.collection),
  );
}

function replaceCollection(document: MetadataDocument, collection: QueryCollection): MetadataDocument {
  return withList(
    document,
    'query_collections',
    collectionsOf(document).map((c) => (c.name === collection.name ? collection : c)),
  );
}

export function addQueryToCollection(document: MetadataDocument, args: { collection_name: string; query_name: string; query: string }): MetadataDocument {
  const collection = findCollection(document, args.collection_name);
  if (collection.definition.queries.some((q) => q.name === args.query_name))
    throw engineError('already-exists.saved-query', '$.args', [name(args.query_name), name(args.collection_name)]);
  const query = { name: args.query_name, query: args.query };
  parseSavedQuery(args.collection_name, query);
  return replaceCollection(document, { ...collection, definition: { queries: [...collection.definition.queries, query] } });
}

export function dropQueryFromCollection(document: MetadataDocument, args: { collection_name: string; query_name: string }): MetadataDocument {
  const collection = findCollection(document, args.collection_name);
  findSavedQuery(document, args.collection_name, args.query_name);
  const dependents = dependentsOf(document, args.collection_name, args.query_name);
  if (dependents.length > 0) throw engineError('dependency-error.drop', '$.args', [dependents.join(', ')]);
  return replaceCollection(document, { ...collection, definition: { queries: collection.definition.queries.filter((q) => q.name !== args.query_name) } });
}

export function addCollectionToAllowlist(document: MetadataDocument, args: { collection: string }): MetadataDocument {
  findCollection(document, args.collection);
  if (allowlistOf(document).some((a) => a.collection === args.collection)) throw engineError('already-exists.allowlist', '$.args', [name(args.collection)]);
  return withList(document, 'allowlist', [...allowlistOf(document), { collection: args.collection }]);
}

export function dropCollectionFromAllowlist(document: MetadataDocument, args: { collection: string }): MetadataDocument {
  if (!allowlistOf(document).some((a) => a.collection === args.collection)) throw engineError('not-exists.allowlist', '$.args', [name(args.collection)]);
  return withList(
    document,
    'allowlist',
    allowlistOf(document).filter((a) => a.collection !== args.collection),
  );
}

/** The normalised documents of the allow-listed collections' queries. */
export function allowedDocuments(document: MetadataDocument): Set<string> {
  const allowed = new Set<string>();
  for (const entry of allowlistOf(document)) {
    const collection = collectionsOf(document).find((c) => c.name === entry.collection);
    for (const q of collection?.definition.queries ?? []) {
      const normalised = normaliseDocument(q.query);
      if (normalised !== undefined) allowed.add(normalised);
    }
  }
  return allowed;
}
