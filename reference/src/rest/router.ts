// Runtime REST endpoints (SPEC.md §4.6): a request under /api/rest/ runs the saved query of the one
// endpoint whose url template and methods match, with variables from the route, the query string
// and a JSON body, and answers exactly what GraphQL answers. Also the OpenAPI document of the
// endpoints (/api/swagger/json).
import { Kind, type VariableDefinitionNode } from 'graphql';
import type { MetadataDocument, RestEndpoint } from '../../../spec';
import { engineError, type EngineError } from '../errors';
import { endpointsOf } from '../metadata/collections';
import { matchTemplate, parseTemplate, servedOperation, variableType, type TemplateSegment } from '../metadata/restEndpoints';

export interface RestRequest {
  method: string;
  /** The path below /api/rest/, not decoded. */
  path: string;
  query: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, when there is one. */
  body: unknown;
}

export interface RestCall {
  endpoint: RestEndpoint;
  query: string;
  variables: Record<string, unknown>;
  method: 'GET' | 'POST';
}

interface Served {
  endpoint: RestEndpoint;
  template: TemplateSegment[];
  variables: readonly VariableDefinitionNode[];
  methods: string[];
  query: string;
}

/** The endpoints that can be served (an inconsistent one is left out), made once per document. */
const servedOf = new WeakMap<MetadataDocument, Served[]>();
function served(document: MetadataDocument): Served[] {
  let found = servedOf.get(document);
  if (!found) {
    found = [];
    for (const endpoint of endpointsOf(document)) {
      try {
        const { saved, methods } = servedOperation(document, endpoint);
        const { collection_name, query_name } = endpoint.definition.query;
        const query = document.query_collections!.find((c) => c.name === collection_name)!.definition.queries.find((q) => q.name === query_name)!.query;
        found.push({
          endpoint,
          template: parseTemplate(endpoint.url),
          variables: saved.operation.variableDefinitions ?? [],
          methods,
          query,
        });
      } catch {
        // inconsistent: reported by get_inconsistent_metadata
      }
    }
    servedOf.set(document, found);
  }
  return found;
}

const INT = /^-?\d+$/;

/** §4.6 rule 3: a route or query-string value as the variable's type says; refused when it does not parse. */
function coerce(name: string, type: string, text: string): unknown {
  const refuse = () => engineError('parse-failed.rest-variable', `$.variables.${name}`, [JSON.stringify(name), type, JSON.stringify(text)]);
  switch (type) {
    case 'Int': {
      const n = Number(text);
      if (!INT.test(text) || n > 2147483647 || n < -2147483648) throw refuse();
      return n;
    }
    case 'Float': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw refuse();
      return n;
    }
    case 'Boolean':
      if (text !== 'true' && text !== 'false') throw refuse();
      return text === 'true';
    default:
      // String, ID, enums and the database's scalars take the text; the query checks the rest.
      return text;
  }
}

/** A refusal to answer; a 405 says which methods the path takes (its Allow header). */
export interface RestRefusal {
  error: EngineError;
  allow?: string[];
}

/** The saved query to run for a request, or the refusal (404, 405, 500, 400) to answer. */
export function resolveRestCall(document: MetadataDocument, request: RestRequest): RestCall | RestRefusal {
  let path: string[];
  try {
    path = request.path.split('/').map(decodeURIComponent);
  } catch {
    return { error: engineError('not-found', '$') };
  }
  const matching = served(document).flatMap((s) => {
    const bound = matchTemplate(s.template, path);
    return bound ? [{ s, bound }] : [];
  });
  if (matching.length === 0) return { error: engineError('not-found', '$') };
  const allowed = matching.filter(({ s }) => s.methods.includes(request.method));
  if (allowed.length === 0) {
    const methods = [...new Set(matching.flatMap(({ s }) => s.methods))];
    return { error: engineError('method-not-allowed.rest', '$', [request.method, methods.join(', ')]), allow: methods };
  }
  if (allowed.length > 1) return { error: engineError('unexpected.rest-ambiguous', '$', [allowed.map(({ s }) => JSON.stringify(s.endpoint.name)).join(', ')]) };
  const { s, bound } = allowed[0]!;
  try {
    // Body keys as they are (rule 4), then query parameters and route segments, coerced (rule 3).
    const variables: Record<string, unknown> =
      typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? { ...(request.body as Record<string, unknown>) } : {};
    for (const definition of s.variables) {
      const name = definition.variable.name.value;
      const { name: type, list } = variableType(definition.type);
      const fromQuery = request.query[name];
      if (fromQuery !== undefined) {
        const texts = Array.isArray(fromQuery) ? fromQuery : [fromQuery];
        variables[name] = list ? texts.map((t) => coerce(name, type, t)) : coerce(name, type, texts[texts.length - 1]!);
      }
      if (bound[name] !== undefined) variables[name] = list ? [coerce(name, type, bound[name]!)] : coerce(name, type, bound[name]!);
      // A required variable without a default must have a value (decision dec.rest.missing-variable).
      if (definition.type.kind === Kind.NON_NULL_TYPE && !definition.defaultValue && (variables[name] === undefined || variables[name] === null)) {
        throw engineError('invalid-params.missing', `$.variables.${name}`, [name]);
      }
    }
    return { endpoint: s.endpoint, query: s.query, variables, method: request.method === 'GET' ? 'GET' : 'POST' };
  } catch (error) {
    return { error: error as EngineError };
  }
}

/** The JSON schema of a GraphQL input type, as far as the scalars say. */
function schemaOf(type: string, list: boolean): Record<string, unknown> {
  const base =
    type === 'Int'
      ? { type: 'integer', format: 'int32' }
      : type === 'Float'
        ? { type: 'number' }
        : type === 'Boolean'
          ? { type: 'boolean' }
          : type === 'String' || type === 'ID'
            ? { type: 'string' }
            : { description: `GraphQL type ${type}` };
  return list ? { type: 'array', items: base } : base;
}

/** An OpenAPI 3.0 document of the endpoints, so that REST users can generate clients. */
export function openApiDocument(document: MetadataDocument, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const s of served(document)) {
    const route = new Set(s.template.flatMap((t) => ('variable' in t ? [t.variable] : [])));
    const url = `/api/rest/${s.template.map((t) => ('variable' in t ? `{${t.variable}}` : t.literal)).join('/')}`;
    const operations = (paths[url] ??= {});
    for (const method of s.methods) {
      const parameters = s.variables.map((d) => {
        const name = d.variable.name.value;
        const { name: type, list } = variableType(d.type);
        const inPath = route.has(name);
        return { name, in: inPath ? 'path' : 'query', required: inPath, schema: schemaOf(type, list) };
      });
      const body = method !== 'GET' && s.variables.length > 0;
      operations[method.toLowerCase()] = {
        operationId: `${s.endpoint.name}_${method.toLowerCase()}`,
        summary: s.endpoint.comment ?? s.endpoint.name,
        description: `Runs the saved query ${JSON.stringify(s.endpoint.definition.query.query_name)} of collection ${JSON.stringify(s.endpoint.definition.query.collection_name)}:\n\n${s.query}`,
        parameters,
        ...(body
          ? {
              requestBody: {
                required: false,
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: Object.fromEntries(
                        s.variables.map((d) => [d.variable.name.value, schemaOf(variableType(d.type).name, variableType(d.type).list)]),
                      ),
                    },
                  },
                },
              },
            }
          : {}),
        responses: {
          '200': {
            description: 'The answer of the saved query, as over GraphQL: {"data": …} or {"errors": […]}',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      };
    }
  }
  return { openapi: '3.0.3', info: { title: 'REST endpoints', version }, paths };
}
