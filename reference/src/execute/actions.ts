// Root fields of actions: a synchronous action POSTs {action, input, session_variables,
// request_query} to its handler and completes the answer against the output type; an asynchronous
// one logs the request and answers its id at once, and its query field reads the result by id.
import { fieldOf } from '../schema/generatedFields';
import {
  execute,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';
import * as sql from 'pg-sql2';
import type { Pool } from 'pg';
import { formatMessage, type Action, type CustomObjectRelationship, type CustomTypes, type TlsAllow } from '../../../spec';
import { relationKey } from '../db/introspection';
import { listJson, type SelectEnvironment } from '../sql/graphql/select';
import type { Session } from '../auth/session';
import { resolveAddress, resolveHeaderValues } from '../metadata/environmentTemplate';
import { forwardedHeaders, postJson, RemoteFailure } from '../remote/client';
import * as q from '../sql';
import { sessionKey, spokenVariables } from '../sessionNames';
import type { CollectedField } from '../sql/graphql/fields';

/** One action root field of an operation, ready to run. */
export interface ActionPart {
  action: Action;
  alias: string;
  operation: 'query' | 'mutation';
  field: FieldNode;
  variableDefinitions: readonly VariableDefinitionNode[];
  args: Record<string, unknown>;
  fragments: FragmentDefinitionNode[];
  variables: Record<string, unknown>;
  schema: GraphQLSchema;
  requestQuery: string;
  /** For relationships from the output to tables: the role's tables, and the relationships by `Type.field`. */
  env: SelectEnvironment;
  relationships: ReadonlyMap<string, CustomObjectRelationship>;
  /** The metadata's TLS allow-list, for the handler. */
  allowlist: readonly TlsAllow[];
}

export function actionParts(
  operation: 'query' | 'mutation',
  variableDefinitions: readonly VariableDefinitionNode[],
  fields: readonly CollectedField[],
  actions: ReadonlyMap<string, Action>,
  schema: GraphQLSchema,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Record<string, unknown>,
  requestQuery: string,
  env: SelectEnvironment,
  types: CustomTypes | undefined,
  allowlist: readonly TlsAllow[] = [],
): ActionPart[] {
  const relationships = new Map(
    (types?.objects ?? []).flatMap((o) => (o.relationships ?? []).map((r): [string, CustomObjectRelationship] => [`${o.name}.${r.name}`, r])),
  );
  return fields.map((f) => ({
    env,
    relationships,
    action: actions.get(f.name)!,
    alias: f.alias,
    operation,
    field: { ...f.node, ...(f.selectionSet ? { selectionSet: f.selectionSet } : {}) },
    variableDefinitions,
    args: f.args,
    fragments: Object.values(fragments),
    variables,
    schema,
    requestQuery,
    allowlist,
  }));
}

/** An action's root field cannot be answered: the GraphQL error the request answers instead. */
export class ActionFailed extends Error {
  constructor(
    message: string,
    readonly extensions: Record<string, unknown> = { path: '$', code: 'unexpected' },
  ) {
    super(message);
  }
}

export interface ActionCaller {
  session: Session;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  pool: Pool;
  /** Where the rows of relationships are read: the role's pool (with its statement timeout). */
  rowsPool: Pool;
  env?: NodeJS.ProcessEnv;
}

/** The session as a handler reads it: x-hasura-… keys from a compatible server (decision dec.compat.headers). */
const sessionVariables = (session: Session) => spokenVariables({ 'x-engine-role': session.role, ...session.variables }, session.compatHeaders);

/** Run the action parts (in order for a mutation, together for a query): JSON text by alias. */
export async function runActionParts(parts: readonly ActionPart[], caller: ActionCaller): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  const one = async (part: ActionPart) => values.set(part.alias, await runAction(part, caller));
  if (parts[0]?.operation === 'mutation') for (const part of parts) await one(part);
  else await Promise.all(parts.map(one));
  return values;
}

async function runAction(part: ActionPart, caller: ActionCaller): Promise<string> {
  const d = part.action.definition;
  if (d.kind === 'asynchronous') {
    if (part.operation === 'mutation') {
      const [row] = await q.run<{ id: string }>(
        caller.pool,
        q.insertActionRequest({ name: part.action.name, input: part.args, sessionVariables: sessionVariables(caller.session), query: part.requestQuery }),
      );
      return JSON.stringify(row!.id);
    }
    const [row] = await q.run<{ id: string; created_at: string; output: unknown; errors: unknown; session_variables: Record<string, string> }>(
      caller.pool,
      q.actionRequestById(part.action.name, String(part.args.id)),
    );
    if (!row || !mayRead(caller.session, row.session_variables)) return 'null';
    return complete(part, { id: row.id, created_at: row.created_at, output: row.output, errors: row.errors }, caller.rowsPool);
  }
  const answer = await callHandler(
    part.action,
    { input: part.args, session: caller.session, headers: caller.headers, requestQuery: part.requestQuery },
    caller.env ?? process.env,
    part.allowlist,
  );
  if ('errors' in answer) throw new ActionFailed(answer.errors.message, answer.errors.extensions);
  return complete(part, answer.output, caller.rowsPool);
}

/**
 * Decision dec.actions.async-results: admin reads every result; another role the results of the
 * requests made with its role and, when they had one, the same X-Engine-User-Id.
 */
function mayRead(session: Session, by: Record<string, string>): boolean {
  if (session.role === 'admin') return true;
  // Stored as the handler was to read them (x-hasura-… on a compatible server): compared by their keys here.
  by = Object.fromEntries(Object.entries(by).map(([k, v]) => [sessionKey(k), v]));
  if (by['x-engine-role'] !== session.role) return false;
  const user = by['x-engine-user-id'];
  return user === undefined || user === session.variables['x-engine-user-id'];
}

/** What a handler answered: the output, or the error it reports (a 4xx with {message, extensions}). */
export type HandlerAnswer = { output: unknown } | { errors: { message: string; extensions: Record<string, unknown> } };

export async function callHandler(
  action: Action,
  request: {
    input: unknown;
    session: Session | Record<string, string>;
    headers: Readonly<Record<string, string | string[] | undefined>>;
    requestQuery: string;
  },
  env: NodeJS.ProcessEnv,
  /** The metadata's TLS allow-list. */
  allowlist: readonly TlsAllow[] = [],
): Promise<HandlerAnswer> {
  const d = action.definition;
  const fail = (reason: string) => new ActionFailed(formatMessage('err.graphql.action-failed', JSON.stringify(action.name), reason));
  const url = resolveAddress(d.handler, env);
  if (typeof url !== 'string') throw fail(url.problem);
  const configured = resolveHeaderValues(d.headers, env);
  if ('problem' in configured) throw fail(configured.problem as string);
  const headers: Record<string, string> = { ...(d.forward_client_headers ? forwardedHeaders(request.headers) : {}), ...configured };
  headers['content-type'] = 'application/json';
  // A live session, or an asynchronous request's as it was stored (already named so).
  const variables =
    'role' in request.session && typeof request.session.role === 'string'
      ? sessionVariables(request.session as Session)
      : (request.session as Record<string, string>);
  const body = { action: { name: action.name }, input: request.input, session_variables: variables, request_query: request.requestQuery };
  let status: number;
  let json: unknown;
  try {
    ({ status, json } = await postJson(url, headers, body, d.timeout * 1000, undefined, undefined, allowlist));
  } catch (error) {
    if (error instanceof RemoteFailure) throw fail(error.message);
    throw error;
  }
  if (status >= 200 && status < 300) return { output: json };
  if (status >= 400 && status < 500) {
    const e = typeof json === 'object' && json !== null ? (json as { message?: unknown; extensions?: unknown }) : {};
    const message = typeof e.message === 'string' ? e.message : `the handler answered ${status}`;
    const extensions =
      typeof e.extensions === 'object' && e.extensions !== null && !Array.isArray(e.extensions) ? (e.extensions as Record<string, unknown>) : {};
    return { errors: { message, extensions: { path: '$', code: 'unexpected', ...extensions } } };
  }
  throw fail(`it answered ${status}`);
}

/** Rows read for a relationship: their keys are the selection's response names. */
const FROM_DATABASE = new WeakSet<object>();

/**
 * The handler's output completed against the field's type and selection, as graphql-js does for
 * any resolver; a relationship of the output reads its rows of the table with one SQL statement,
 * under the role's permissions.
 */
async function complete(part: ActionPart, value: unknown, rowsPool: Pool): Promise<string> {
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: part.operation as never,
        variableDefinitions: part.variableDefinitions,
        selectionSet: { kind: Kind.SELECTION_SET, selections: [part.field] },
      },
      ...part.fragments,
    ],
  };
  const result = await execute({
    schema: part.schema,
    document,
    rootValue: { [part.alias]: value },
    variableValues: part.variables,
    fieldResolver: async (source, _args, _context, info) => {
      if (typeof source !== 'object' || source === null) return undefined;
      const record = source as Record<string | number, unknown>;
      if (FROM_DATABASE.has(source)) return marked(record[info.path.key]);
      if (info.path.prev === undefined) return record[info.path.key];
      const relationship = part.relationships.get(`${info.parentType.name}.${info.fieldName}`);
      if (!relationship) return record[info.fieldName];
      return marked(await relationshipRows(part, relationship, record, info.fieldNodes[0]!.selectionSet, rowsPool));
    },
  });
  if (result.errors?.length) {
    throw new ActionFailed(formatMessage('err.graphql.action-response', JSON.stringify(part.action.name), result.errors[0]!.message));
  }
  return JSON.stringify((result.data as Record<string, unknown>)[part.alias] ?? null);
}

function marked(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    FROM_DATABASE.add(value);
    if (Array.isArray(value)) for (const v of value) marked(v);
  }
  return value;
}

/** The rows of a relationship's table whose columns equal the output's mapped fields (the first for an object relationship). */
async function relationshipRows(
  part: ActionPart,
  r: CustomObjectRelationship,
  output: Record<string | number, unknown>,
  selectionSet: SelectionSetNode | undefined,
  pool: Pool,
): Promise<unknown> {
  const table = part.env.models.get(relationKey(r.remote_table));
  if (!table) return r.type === 'object' ? null : [];
  const where: Record<string, unknown>[] = [];
  for (const [field, column] of Object.entries(r.field_mapping)) {
    const value = output[field];
    if (value === null || value === undefined) return r.type === 'object' ? null : [];
    where.push({ [table.byColumn.get(column)!.field]: { [fieldOf(table, '_eq')]: value } });
  }
  const args = { [fieldOf(table, 'where')]: { [fieldOf(table, '_and')]: where }, ...(r.type === 'object' ? { [fieldOf(table, 'limit')]: 1 } : {}) };
  const statement = sql.query`select ${listJson(part.env, table, args, selectionSet)}::text as data`;
  const [row] = await q.run<{ data: string }>(pool, statement);
  const rows = JSON.parse(row!.data) as unknown[];
  return r.type === 'object' ? (rows[0] ?? null) : rows;
}
