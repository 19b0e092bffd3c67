// What a role's schema is and how it answers: its introspection (built with graphql-js's
// buildClientSchema and checked with validateSchema), and a query of every root field of its
// query_root that can be asked (required arguments and a function's `args` filled in, two levels of
// fields selected). Used to check that every schema works after a change, and to compare two
// servers' answers (fuzz-schema-changes.test.ts).
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  validateSchema,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { httpRequest } from './client';
import type { Target } from './target';
import { openSocket } from './websocket';

export interface Answer {
  readonly query: string;
  readonly status: number;
  readonly body: unknown;
}

export interface RoleProbe {
  readonly role: string;
  readonly introspection: Answer;
  /** Why the schema could not be built or is not valid; empty when it is. */
  readonly problems: string[];
  readonly answers: Answer[];
}

export interface Server {
  readonly url: string;
  readonly adminSecret: string | undefined;
}

const INTROSPECTION = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });
/** Scalars of the database's own types (a composite, a table's row) take a record literal. */
const SCALAR_VALUES: Record<string, string> = { Int: '1', Float: '1', String: '"x"', Boolean: 'true', ID: '"1"' };
const RECORD = '"(1,2)"';
/** Literals by scalar name, beside and before those above: the text of a row the database's type takes. */
export type Literals = Readonly<Record<string, string>>;

export const roleHeaders = (server: Server, role: string): Record<string, string> => ({
  ...(server.adminSecret ? { 'x-engine-admin-secret': server.adminSecret } : {}),
  ...(role === 'admin' ? {} : { 'x-engine-role': role, 'x-engine-user-id': '1' }),
});

export async function ask(server: Server, role: string, query: string): Promise<Answer> {
  const r = await httpRequest(server.url, 'POST', '/v1/graphql', { body: { query }, headers: roleHeaders(server, role) });
  return { query, status: r.status, body: r.body };
}

function literal(type: GraphQLInputType, depth: number, given: Literals): string | undefined {
  if (isNonNullType(type)) return literal(type.ofType, depth, given);
  if (isListType(type)) {
    const item = literal(type.ofType as GraphQLInputType, depth, given);
    return item === undefined ? undefined : `[${item}]`;
  }
  if (isEnumType(type)) return type.getValues()[0]?.name;
  if (isInputObjectType(type)) {
    if (depth === 0) return undefined;
    const fields: string[] = [];
    // A stream's cursor takes one column (the engine refuses more).
    const one = type.name.endsWith('_stream_cursor_value_input');
    for (const field of Object.values(type.getFields())) {
      const value = literal(field.type, depth - 1, given);
      if (value !== undefined) fields.push(`${field.name}: ${value}`);
      else if (isNonNullType(field.type) && field.defaultValue === undefined) return undefined;
      if (one && fields.length === 1) break;
    }
    return `{${fields.join(', ')}}`;
  }
  return given[type.name] ?? SCALAR_VALUES[type.name] ?? RECORD;
}

/** The arguments of a field: the required ones, a function's `args` and an update's `_set`; undefined when one cannot be given. */
function argumentsOf(field: GraphQLField<unknown, unknown>, given: Literals): string | undefined {
  const parts: string[] = [];
  for (const arg of field.args) {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    if (!required && arg.name !== 'args' && arg.name !== '_set') continue;
    const value = literal(arg.type, 2, given);
    if (value === undefined) {
      if (required) return undefined;
      continue;
    }
    parts.push(`${arg.name}: ${value}`);
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

function selectionOf(type: GraphQLOutputType, depth: number): string | undefined {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (isAbstractType(named)) return ' { __typename }';
  if (!isObjectType(named)) return undefined;
  const parts = ['__typename'];
  for (const field of Object.values(named.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const inner = isLeafType(getNamedType(field.type)) ? '' : depth > 1 ? selectionOf(field.type, depth - 1) : undefined;
    if (inner !== undefined) parts.push(`${field.name}${inner}`);
  }
  return ` { ${parts.join(' ')} }`;
}

/** One operation per root field of query_root (or mutation_root, or subscription_root) that can be asked. */
export function rootFieldQueries(schema: GraphQLSchema, given: Literals = {}, kind: 'query' | 'mutation' | 'subscription' = 'query'): string[] {
  const root = kind === 'query' ? schema.getQueryType() : kind === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) return [];
  return Object.values(root.getFields()).flatMap((field) => {
    const args = argumentsOf(field, given);
    const selection = selectionOf(field.type, 2);
    return args === undefined || selection === undefined ? [] : [`${kind === 'query' ? '' : `${kind} `}{ ${field.name}${args}${selection} }`];
  });
}

/**
 * One mutation per root field of the role's mutation_root, with the arguments it requires (objects
 * with every field they take, nested inserts included): what a change left of the role's mutations,
 * asked. Their answers depend on the rows, so they are asked, not compared.
 */
export async function askMutations(server: Server, probe: RoleProbe, given: Literals = {}): Promise<Answer[]> {
  const data = (probe.introspection.body as { data?: IntrospectionQuery }).data;
  if (probe.problems.length || !data) return [];
  const mutations = rootFieldQueries(buildClientSchema(data), given, 'mutation');
  const answers: Answer[] = [];
  // One after another: they write, and the order of the writes is the order asked.
  for (const mutation of mutations) answers.push(await ask(server, probe.role, mutation));
  return answers;
}

/** The role's schema, built and validated, and the answers of the given queries (or those its schema has). */
export async function probeRole(server: Server, role: string, queries?: string[], given: Literals = {}): Promise<RoleProbe> {
  const introspection = await ask(server, role, INTROSPECTION);
  const problems: string[] = [];
  let schema: GraphQLSchema | undefined;
  const data = (introspection.body as { data?: IntrospectionQuery; errors?: unknown }).data;
  if (introspection.status !== 200 || !data)
    problems.push(`introspection answered ${introspection.status} ${JSON.stringify(introspection.body).slice(0, 300)}`);
  else {
    try {
      schema = buildClientSchema(data);
      problems.push(...validateSchema(schema).map((e) => e.message));
    } catch (e) {
      problems.push(`buildClientSchema: ${(e as Error).message}`);
    }
  }
  const asked = queries ?? (schema ? rootFieldQueries(schema, given) : []);
  const answers = await Promise.all(asked.map((query) => ask(server, role, query)));
  return { role, introspection, problems, answers };
}

/**
 * What an answer must never be: a 5xx, or an error of code `unexpected` (the server's own failure);
 * with `strict`, for databases whose functions never raise, neither a `postgres-error` (SQL that
 * PostgreSQL refuses for a query the schema admits).
 */
export function brokenAnswer(a: Answer, strict = false): boolean {
  const bad = (code: string | undefined) => code === 'unexpected' || (strict && code === 'postgres-error');
  const errors = (a.body as { errors?: { extensions?: { code?: string } }[] } | undefined)?.errors ?? [];
  return a.status >= 500 || errors.some((e) => bad(e.extensions?.code)) || bad((a.body as { code?: string } | undefined)?.code);
}

/**
 * One subscription per root field of the role's subscription_root (live queries and streams, with
 * the arguments they require), over graphql-transport-ws: each one's first event. A stream with no
 * row past its cursor sends nothing: after `waitMs` it counts as answered with nothing (status 204).
 * An error event is answered with its errors; a closed connection is a 5xx.
 */
export async function askSubscriptions(server: Server, probe: RoleProbe, given: Literals = {}, waitMs = 500): Promise<Answer[]> {
  const data = (probe.introspection.body as { data?: IntrospectionQuery }).data;
  if (probe.problems.length || !data) return [];
  const subscriptions = rootFieldQueries(buildClientSchema(data), given, 'subscription');
  if (subscriptions.length === 0) return [];
  const socket = openSocket({ url: server.url } as Target, roleHeaders(server, probe.role));
  try {
    return await Promise.all(
      subscriptions.map(async (query): Promise<Answer> => {
        const operation = socket.start(query);
        const event = await operation.take(waitMs).catch(() => undefined);
        operation.stop();
        if (!event) return { query, status: 204, body: null };
        if (event.type === 'next') return { query, status: 200, body: event.payload };
        if (event.type === 'error') return { query, status: 200, body: { errors: event.errors } };
        return { query, status: 599, body: event };
      }),
    );
  } finally {
    await socket.close();
  }
}
