// REST endpoints (SPEC.md §2.8, §4.3, §4.6) as pure functions: url templates, the operations over
// the document, and which endpoints a request path and method reach.
import { Kind } from 'graphql';
import type { MetadataDocument, RestEndpoint } from '../../../spec';
import { engineError } from '../errors';
import { endpointsOf, findSavedQuery, parseSavedQuery, withList, type SavedOperation } from './collections';

export type TemplateSegment = { literal: string } | { variable: string };

const LITERAL = /^[A-Za-z0-9\-_.~]+$/;
const VARIABLE = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A url template (§2.8): literal segments and `:variable` wildcards; refused with the reason. */
export function parseTemplate(url: string): TemplateSegment[] {
  const refuse = (problem: string) => engineError('validation-failed.rest-url', '$.args.url', [JSON.stringify(url), problem]);
  if (url === '') throw refuse('it is empty');
  if (url.startsWith('/') || url.endsWith('/')) throw refuse('it may not start or end with /');
  const seen = new Set<string>();
  return url.split('/').map((segment) => {
    if (segment === '') throw refuse('it has an empty segment');
    if (segment.startsWith(':')) {
      const variable = segment.slice(1);
      if (!VARIABLE.test(variable)) throw refuse(`${JSON.stringify(segment)} is not :<GraphQL name>`);
      if (seen.has(variable)) throw refuse(`the variable ${JSON.stringify(variable)} appears twice`);
      seen.add(variable);
      return { variable };
    }
    if (!LITERAL.test(segment)) throw refuse(`the segment ${JSON.stringify(segment)} has characters other than letters, digits, - _ . ~`);
    return { literal: segment };
  });
}

/** §4.6 rule 1: configured methods, or GET and POST for queries and POST for mutations. */
export const methodsOf = (endpoint: RestEndpoint, operation: string): string[] => endpoint.methods ?? (operation === 'mutation' ? ['POST'] : ['GET', 'POST']);

/** The saved operation an endpoint runs. */
export function endpointOperation(document: MetadataDocument, endpoint: RestEndpoint): SavedOperation {
  const { collection_name, query_name } = endpoint.definition.query;
  return parseSavedQuery(collection_name, findSavedQuery(document, collection_name, query_name));
}

/** The methods an endpoint serves with its saved operation; a mutation never over GET. */
function servedMethods(endpoint: RestEndpoint, saved: SavedOperation): string[] {
  const methods = methodsOf(endpoint, saved.operation.operation);
  if (saved.operation.operation === 'mutation' && methods.includes('GET'))
    throw engineError('validation-failed.rest-get-mutation', '$.args.methods', [JSON.stringify(endpoint.name)]);
  return methods;
}

/** The saved operation and the methods an endpoint serves. */
export function servedOperation(document: MetadataDocument, endpoint: RestEndpoint): { saved: SavedOperation; methods: string[] } {
  const saved = endpointOperation(document, endpoint);
  return { saved, methods: servedMethods(endpoint, saved) };
}

export function createRestEndpoint(document: MetadataDocument, args: RestEndpoint & { comment?: string | null }): MetadataDocument {
  if (endpointsOf(document).some((e) => e.name === args.name)) throw engineError('already-exists.rest-endpoint', '$.args', [JSON.stringify(args.name)]);
  const template = parseTemplate(args.url);
  const endpoint: RestEndpoint = {
    name: args.name,
    url: args.url,
    ...(args.methods ? { methods: [...new Set(args.methods)] } : {}),
    definition: { query: { query_name: args.definition.query.query_name, collection_name: args.definition.query.collection_name } },
    ...(typeof args.comment === 'string' ? { comment: args.comment } : {}),
  };
  const saved = endpointOperation(document, endpoint);
  const declared = new Set((saved.operation.variableDefinitions ?? []).map((v) => v.variable.name.value));
  for (const segment of template) {
    if ('variable' in segment && !declared.has(segment.variable)) {
      throw engineError('validation-failed.rest-variable', '$.args.url', [
        JSON.stringify(args.url),
        JSON.stringify(segment.variable),
        JSON.stringify(endpoint.definition.query.query_name),
      ]);
    }
  }
  const methods = servedMethods(endpoint, saved);
  // The same template with a method in common could never be told apart: refused (§7.2 query-template).
  for (const other of endpointsOf(document)) {
    if (other.url !== args.url) continue;
    const otherMethods = methodsOf(other, safeOperation(document, other) ?? 'query');
    if (otherMethods.some((m) => methods.includes(m))) throw engineError('already-exists.query-template', '$.args', [JSON.stringify(args.url)]);
  }
  return withList(document, 'rest_endpoints', [...endpointsOf(document), endpoint]);
}

const safeOperation = (document: MetadataDocument, endpoint: RestEndpoint) => {
  try {
    return endpointOperation(document, endpoint).operation.operation;
  } catch {
    return undefined;
  }
};

export function dropRestEndpoint(document: MetadataDocument, args: { url?: string; name?: string }): MetadataDocument {
  const [key, value] = args.name !== undefined ? ['name', args.name] : ['url', args.url!];
  const gone = endpointsOf(document).filter((e) => (key === 'name' ? e.name === value : e.url === value));
  if (gone.length === 0) throw engineError('not-exists.rest-endpoint', '$.args', [key, JSON.stringify(value)]);
  return withList(
    document,
    'rest_endpoints',
    endpointsOf(document).filter((e) => !gone.includes(e)),
  );
}

/** Variables that a template binds from a request path, when it matches. */
export function matchTemplate(template: readonly TemplateSegment[], path: readonly string[]): Record<string, string> | undefined {
  if (template.length !== path.length) return undefined;
  const bound: Record<string, string> = {};
  for (const [i, segment] of template.entries()) {
    if ('literal' in segment) {
      if (segment.literal !== path[i]) return undefined;
    } else {
      if (path[i] === '') return undefined;
      bound[segment.variable] = path[i]!;
    }
  }
  return bound;
}

/** Why an endpoint cannot be served: its collection or query is gone, no longer parses, or is a mutation over GET. */
export function endpointProblem(document: MetadataDocument, endpoint: RestEndpoint): string | undefined {
  try {
    servedOperation(document, endpoint);
    parseTemplate(endpoint.url);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The GraphQL type name under the list and non-null wrappers of a variable, and whether it is a list. */
export function variableType(node: import('graphql').TypeNode): { name: string; list: boolean } {
  if (node.kind === Kind.NON_NULL_TYPE) return variableType(node.type);
  if (node.kind === Kind.LIST_TYPE) return { name: variableType(node.type).name, list: true };
  return { name: node.name.value, list: false };
}
