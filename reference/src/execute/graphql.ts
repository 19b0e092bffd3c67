// POST /v1/graphql: parse and validate (cached per document), coerce variables, compile the
// operation to SQL (cached per role, document, operation and variables), run it, and pass the
// JSON that PostgreSQL built through as text.
import { createHash } from 'node:crypto';
import { DatabaseError, type Pool } from 'pg';
import { isConnectionLoss } from '../db/connectionLoss';
import {
  execute as executeGraphQL,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import * as sql from 'pg-sql2';
import { formatMessage } from '../../../spec';
import { isAdmin, type Session } from '../auth/session';
import type { BuiltSchema } from '../schema/build';
import * as q from '../sql';
import { CompileError, jsonObject, type Fragment } from '../sql/graphql/context';
import { collectFields, type CollectedField } from '../sql/graphql/fields';
import { deleteStatement, insertStatement, primaryKeyCondition, updateStatement, whereCondition, type OnConflict } from '../sql/graphql/mutation';
import { aggregateJson, byPkJson, listJson, type SelectArgs, type SelectEnvironment } from '../sql/graphql/select';
import { functionCall } from '../sql/graphql/functions';
import { roleSchema, type CompiledPlan, type RoleSchema, type SchemaCache } from './schemaCache';
import { normaliseDocument } from '../metadata/collections';
import type { RequestLimits } from '../config';
import { documentProblem, nestsDeeperThan, operationProblem } from './operationLimits';
import { RemoteCallFailed, remoteParts, runRemoteParts } from './remote';
import { ActionFailed, actionParts, runActionParts } from './actions';
import { ACTIONS_OWNER } from '../schema/actions';

type ParsedDocument = { document: DocumentNode } | { errors: readonly GraphQLError[] };

export interface GraphQLRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** The answer: JSON text, passed through as it is. */
export interface GraphQLAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

const errorAnswer = (message: string, code: string, path = '$', status = 200): GraphQLAnswer => ({
  status,
  body: JSON.stringify({ errors: [{ message, extensions: { path, code } }] }),
});

export function schemaFor(cache: SchemaCache, session: Session): RoleSchema {
  return isAdmin(session) ? { models: cache.models, built: cache.admin } : roleSchema(cache, session.role, session.backendOnly === true);
}

/** Where plans run: admin's SQL as it is, other roles' on connections with the statement timeout. */
export interface PlanPools {
  admin: Pool;
  roles: Pool;
  statementTimeoutMs: number;
  /** At log level debug: each statement a plan sends, with its bound values. */
  logSql?: (statement: { text: string; values: unknown[] }) => void;
}

export interface RequestOptions {
  /** A saved query run by a REST endpoint: the allow-list does not apply. */
  trusted?: boolean;
  /** The client's headers, for remote schemas that forward them. */
  clientHeaders?: Readonly<Record<string, string | string[] | undefined>>;
}

export async function executeGraphQLRequest(
  pools: PlanPools,
  cache: SchemaCache,
  session: Session,
  request: GraphQLRequest,
  method: 'GET' | 'POST' = 'POST',
  options: RequestOptions = {},
): Promise<GraphQLAnswer> {
  const prepared = prepareGraphQLRequest(cache, session, request, options);
  // Decision dec.graphql.get-mutation: a link or an image must not change data.
  if (method === 'GET' && 'plan' in prepared && prepared.plan.kind === 'mutation') {
    return { ...errorAnswer('mutations cannot be sent with GET; use POST', 'method-not-allowed', '$', 405), headers: { allow: 'POST' } };
  }
  if ('answer' in prepared) return prepared.answer;
  try {
    return { status: 200, body: await runPlan(pools, prepared.plan, { session, headers: options.clientHeaders ?? {} }) };
  } catch (error) {
    return databaseErrorAnswer(error);
  }
}

/** Everything before the database: the compiled plan of a request, or the answer that refuses it. */
export function prepareGraphQLRequest(
  cache: SchemaCache,
  session: Session,
  request: GraphQLRequest,
  options: RequestOptions = {},
): { plan: CompiledPlan } | { answer: GraphQLAnswer } {
  const refuse = (answer: GraphQLAnswer) => ({ answer });
  if (typeof request.query !== 'string') return refuse(errorAnswer('key "query" not found', 'parse-failed'));
  if (request.variables !== undefined && request.variables !== null && (typeof request.variables !== 'object' || Array.isArray(request.variables))) {
    return refuse(errorAnswer('variables must be an object', 'parse-failed', '$.variables'));
  }
  if (request.operationName !== undefined && request.operationName !== null && typeof request.operationName !== 'string') {
    return refuse(errorAnswer('operationName must be a string', 'parse-failed', '$.operationName'));
  }
  const limits = cache.limits;
  if (nestsDeeperThan(request.variables, limits.maxJsonDepth))
    return refuse(errorAnswer(formatMessage('err.parse-failed.too-deep', String(limits.maxJsonDepth)), 'validation-failed'));
  const { models, built } = schemaFor(cache, session);
  const role = isAdmin(session) ? 'admin' : `${session.role}\u0000${session.backendOnly === true}`;
  const documentKey = `${role}\u0000${request.query}`;
  const operationName = (request.operationName as string | null | undefined) ?? undefined;
  // Fast path: the same document, operation and variables as before (and, for roles whose
  // permissions read session variables, the same session).
  // Admin's session variables matter too: a function's session argument receives them.
  const sessionKey = JSON.stringify(session.variables);
  // A plan made for a REST endpoint is not one an untrusted request may reuse past the allow-list.
  const planKey = `${options.trusted ? 'rest\u0000' : ''}${documentKey}\u0000${operationName ?? ''}\u0000${JSON.stringify(request.variables ?? {})}\u0000${sessionKey}`;
  const cached = cache.plans.get(planKey);
  if (cached) return { plan: cached };
  // The allow-list (dec.allowlist): roles other than admin send only the documents it holds.
  if (cache.allowList && !isAdmin(session) && !options.trusted) {
    const normalised = normaliseDocument(request.query);
    if (normalised === undefined || !cache.allowList.has(normalised))
      return refuse(errorAnswer(formatMessage('err.validation-failed.not-allowed'), 'validation-failed'));
  }
  let parsed = cache.documents.get(documentKey);
  if (!parsed) {
    parsed = parseWithinLimits(request.query, built, limits, !isAdmin(session));
    cache.documents.set(documentKey, parsed);
  }
  if ('errors' in parsed) {
    return refuse({
      status: 200,
      body: JSON.stringify({ errors: parsed.errors.map((e) => ({ message: e.message, extensions: { path: '$', code: 'validation-failed' } })) }),
    });
  }
  const document = parsed.document;
  const operation = getOperationAST(document, operationName);
  if (!operation) {
    return refuse(
      errorAnswer(
        operationName
          ? `unknown operation named ${JSON.stringify(operationName)}`
          : 'exactly one operation has to be present in the document when operationName is not specified',
        'validation-failed',
      ),
    );
  }
  const coerced = getVariableValues(built.schema, operation.variableDefinitions ?? [], (request.variables as Record<string, unknown>) ?? {});
  if (coerced.errors) {
    return refuse({
      status: 200,
      body: JSON.stringify({ errors: coerced.errors.map((e) => ({ message: e.message, extensions: { path: '$.variables', code: 'validation-failed' } })) }),
    });
  }
  const variables = coerced.coerced;
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const rootType =
    operation.operation === 'mutation'
      ? built.schema.getMutationType()
      : operation.operation === 'subscription'
        ? built.schema.getSubscriptionType()
        : built.schema.getQueryType();
  if (!rootType) return refuse(errorAnswer(`the schema is not configured for ${operation.operation} operations`, 'validation-failed'));
  const env: SelectEnvironment = {
    models,
    allModels: cache.models,
    sessionVariables: session.variables,
    schema: built.schema,
    fields: { fragments, variables },
  };
  const roots = collectFields(env.fields, rootType, operation.selectionSet);
  if (roots.some((f) => f.name === '__schema' || f.name === '__type')) {
    return refuse(introspect(built, document, operation, variables, roots));
  }
  try {
    const external = roots.filter((f) => externalOwner(built, operation, f.name) !== undefined);
    const plan = compile(
      env,
      built,
      operation,
      roots.filter((f) => !external.includes(f)),
      !isAdmin(session),
      cache.capturesEvents,
    );
    if (external.length > 0) {
      const rawVariables = (request.variables as Record<string, unknown> | undefined) ?? {};
      const actionFields = external.filter((f) => externalOwner(built, operation, f.name) === ACTIONS_OWNER);
      const remoteFields = external.filter((f) => !actionFields.includes(f));
      plan.order = roots.map((f) => f.alias);
      if (remoteFields.length)
        plan.remote = remoteParts(operation, remoteFields, (name) => externalOwner(built, operation, name), cache.remotes, fragments, rawVariables);
      if (actionFields.length) {
        plan.actions = actionParts(
          operation.operation === 'mutation' ? 'mutation' : 'query',
          operation.variableDefinitions ?? [],
          actionFields,
          cache.actions,
          built.schema,
          fragments,
          rawVariables,
          request.query,
          env,
          cache.customTypes,
        );
      }
    }
    cache.plans.set(planKey, plan);
    return { plan };
  } catch (error) {
    if (error instanceof CompileError) return refuse(errorAnswer(error.message, error.code));
    if (error instanceof GraphQLError) return refuse(errorAnswer(error.message, 'validation-failed'));
    if (isStackOverflow(error)) return refuse(errorAnswer(formatMessage('err.graphql.document-too-deep', String(limits.maxJsonDepth)), 'validation-failed'));
    throw error;
  }
}

/** V8's RangeError for a call stack that ran out. */
export const isStackOverflow = (error: unknown): boolean => error instanceof RangeError && /call stack/i.test(error.message);

/** The remote schema that answers a root field, if one does. */
function externalOwner(built: BuiltSchema, operation: OperationDefinitionNode, name: string): string | undefined {
  return (operation.operation === 'mutation' ? built.externalMutationFields : built.externalQueryFields).get(name);
}

/** Parse and validate a document, refusing first what would ask too much (decisions dec.limits.*). */
function parseWithinLimits(text: string, built: BuiltSchema, limits: RequestLimits, bounded: boolean): ParsedDocument {
  const tooMuch = (message: string): ParsedDocument => ({ errors: [new GraphQLError(message)] });
  const problem = documentProblem(text, limits);
  if (problem) return tooMuch(problem);
  try {
    // Locations are never reported; without them a tree takes a third of the memory.
    const document = parse(text, { noLocation: true });
    const excess = operationProblem(document, limits, bounded);
    if (excess) return tooMuch(excess);
    const errors = validate(built.schema, document);
    return errors.length ? { errors } : { document };
  } catch (error) {
    // The limits above keep recursion shallow; should it still run out of stack, the client hears the limit, never the overflow.
    if (isStackOverflow(error)) return tooMuch(formatMessage('err.graphql.document-too-deep', String(limits.maxJsonDepth)));
    if (error instanceof GraphQLError) return { errors: [error] };
    throw error;
  }
}

function compile(
  env: SelectEnvironment,
  built: BuiltSchema,
  operation: OperationDefinitionNode,
  roots: CollectedField[],
  bounded: boolean,
  capturesEvents: boolean,
): CompiledPlan {
  const literals = new Map<string, string>();
  const order = roots.map((f) => f.alias);
  const rootTypeName = operation.operation === 'mutation' ? 'mutation_root' : operation.operation === 'subscription' ? 'subscription_root' : 'query_root';
  const tableFields: CollectedField[] = [];
  for (const f of roots) {
    if (f.name === '__typename') literals.set(f.alias, JSON.stringify(rootTypeName));
    else tableFields.push(f);
  }
  if (operation.operation === 'mutation') {
    const statements = tableFields.map((f) => {
      const root = built.mutationFields.get(f.name)!;
      const t = root.table;
      const a = f.args as Record<string, unknown>;
      let statement;
      switch (root.kind) {
        case 'insert':
          statement = insertStatement(env, t, a.objects as Record<string, unknown>[], a.on_conflict as OnConflict | undefined, false, f.selectionSet);
          break;
        case 'insert_one':
          statement = insertStatement(env, t, [a.object as Record<string, unknown>], a.on_conflict as OnConflict | undefined, true, f.selectionSet);
          break;
        case 'update':
          statement = updateStatement(env, t, a, whereCondition(env, t, a.where as Record<string, unknown>), false, f.selectionSet);
          break;
        case 'update_by_pk':
          statement = updateStatement(env, t, a, primaryKeyCondition(t, a.pk_columns as Record<string, unknown>), true, f.selectionSet);
          break;
        case 'delete':
          statement = deleteStatement(env, t, whereCondition(env, t, a.where as Record<string, unknown>), false, f.selectionSet);
          break;
        case 'delete_by_pk':
          statement = deleteStatement(env, t, primaryKeyCondition(t, a), true, f.selectionSet);
          break;
        case 'function':
          // A function exposed as a mutation: its rows, as far as the role may read them.
          statement = sql.query`select ${listJson(env, t, a as SelectArgs, f.selectionSet, undefined, functionCall(env, root.fn!, a.args as Record<string, unknown>))}::text as data, true as ok`;
          break;
        default:
          throw new CompileError(`${f.name} is not a mutation`);
      }
      return compiled(f.alias, statement);
    });
    // Only where event triggers capture changes does the transaction say who made them.
    return {
      kind: 'mutation',
      bounded,
      operation: 'mutation',
      statements,
      literals,
      order,
      ...(capturesEvents ? { sessionVariables: env.sessionVariables } : {}),
    };
  }
  const pairs = tableFields.map((f): [string, Fragment] => {
    const root = built.queryFields.get(f.name);
    if (!root) return [f.alias, sql.query`null`];
    const args = f.args as SelectArgs;
    const call = root.fn ? functionCall(env, root.fn, f.args.args as Record<string, unknown> | undefined) : undefined;
    const value =
      root.kind === 'select' || root.kind === 'function'
        ? listJson(env, root.table, args, f.selectionSet, undefined, call)
        : root.kind === 'select_by_pk'
          ? byPkJson(env, root.table, f.args, f.selectionSet)
          : aggregateJson(env, root.table, args, f.selectionSet, undefined, call);
    return [f.alias, value];
  });
  const statements = pairs.length ? [compiled('', sql.query`select ${jsonObject(pairs)}::text as data`)] : [];
  return { kind: 'query', bounded, operation: operation.operation === 'subscription' ? 'subscription' : 'query', statements, literals, order };
}

/** A compiled statement, named so each connection prepares it once and then only binds values. */
function compiled(alias: string, statement: sql.SQLQuery | sql.SQLNode) {
  const { text, values } = sql.compile(statement);
  return { alias, name: `engine_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`, text, values: values ?? [] };
}

/** Assemble `{"data": {...}}` from JSON texts without parsing them (with the remotes' errors, if any). */
function assemble(plan: CompiledPlan, values: Map<string, string>, errors: readonly unknown[] = []): string {
  const data = `{"data":{${plan.order.map((alias) => `${JSON.stringify(alias)}:${values.get(alias) ?? 'null'}`).join(',')}}`;
  return errors.length ? `${data},"errors":${JSON.stringify(errors)}}` : `${data}}`;
}

/** Who asks, for the remote schemas a plan calls. */
export interface PlanCaller {
  session: Session;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Run a compiled plan: the JSON text of the answer. */
export async function runPlan(pools: PlanPools, plan: CompiledPlan, caller?: PlanCaller): Promise<string> {
  if (plan.remote || plan.actions) {
    const own = { ...plan, remote: undefined, actions: undefined };
    const local = async () =>
      (JSON.parse(plan.statements.length || plan.literals.size ? await runPlan(pools, own) : '{"data":{}}') as { data: Record<string, unknown> }).data;
    const session = caller?.session ?? { role: 'admin', variables: {} };
    const headers = caller?.headers ?? {};
    const remote = async () => (plan.remote ? runRemoteParts(plan.remote, session, headers) : { values: new Map<string, string>(), errors: [] });
    const actions = async () =>
      plan.actions
        ? runActionParts(plan.actions, { session, headers, pool: pools.admin, rowsPool: plan.bounded ? pools.roles : pools.admin })
        : new Map<string, string>();
    // Mutations run in order: the database's root fields, then the actions', then the remotes'.
    const [data, fromActions, fromRemotes] =
      plan.kind === 'mutation' ? [await local(), await actions(), await remote()] : await Promise.all([local(), actions(), remote()]);
    const values = new Map([...Object.entries(data).map(([alias, v]): [string, string] => [alias, JSON.stringify(v)]), ...fromActions, ...fromRemotes.values]);
    return assemble(plan, values, fromRemotes.errors);
  }
  try {
    if (pools.logSql) for (const statement of plan.statements) pools.logSql({ text: statement.text, values: statement.values });
    return await runPlanOn(plan.bounded ? pools.roles : pools.admin, plan);
  } catch (error) {
    if (plan.bounded && error instanceof DatabaseError && error.code === '57014') throw new StatementTimedOut(pools.statementTimeoutMs);
    if (lostConnection(error)) throw new ConnectionLost();
    throw error;
  }
}

/** A lost connection, or a socket error of ours (bugs are TypeErrors and the like, a failed check is CheckFailed). */
function lostConnection(error: unknown): boolean {
  if (error instanceof DatabaseError) return isConnectionLoss(error);
  // Not `instanceof Error`: Node's socket errors may come from another realm (a test sandbox).
  return (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof CheckFailed || error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError)
  );
}

async function runPlanOn(pool: Pool, plan: CompiledPlan): Promise<string> {
  const values = new Map(plan.literals);
  if (plan.kind === 'query') {
    if (plan.statements.length === 0) return assemble(plan, values);
    const statement = plan.statements[0]!;
    const result = await pool.query<{ data: string }>({ name: statement.name, text: statement.text, values: statement.values });
    // The statement's object holds the fields in order; splice the literals in by alias.
    if (values.size === 0) return `{"data":${result.rows[0]!.data}}`;
    const data = JSON.parse(result.rows[0]!.data) as Record<string, unknown>;
    for (const [alias, v] of Object.entries(data)) values.set(alias, JSON.stringify(v));
    return assemble(plan, values);
  }
  const client = await pool.connect();
  try {
    await q.run(client, q.begin);
    try {
      if (plan.sessionVariables) await q.run(client, q.setSessionVariables({ 'x-engine-role': 'admin', ...plan.sessionVariables }));
      for (const statement of plan.statements) {
        const result = await client.query<{ data: string; ok: boolean }>({ name: statement.name, text: statement.text, values: statement.values });
        if (result.rows[0]!.ok === false) throw new CheckFailed();
        values.set(statement.alias, result.rows[0]!.data);
      }
      await q.run(client, q.commit);
    } catch (error) {
      await q.run(client, q.rollback).catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
  return assemble(plan, values);
}

function introspect(
  built: BuiltSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  roots: CollectedField[],
): GraphQLAnswer {
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

/** A changed row fails the permission check: the mutation is undone. */
class CheckFailed extends Error {}

/** The database did not answer (decision err.postgres-error.connection). */
class ConnectionLost extends Error {}

/** The statement timeout of a role other than admin cancelled the plan's SQL. */
class StatementTimedOut extends Error {
  constructor(readonly ms: number) {
    super('statement timeout');
  }
}

/** PostgreSQL refusals as GraphQL errors: codes and messages from SQLSTATE, never from message text. */
export function databaseErrorAnswer(error: unknown): GraphQLAnswer {
  if (error instanceof CheckFailed) return errorAnswer(formatMessage('err.permission-error.check-failed'), 'permission-error');
  if (error instanceof StatementTimedOut) return errorAnswer(formatMessage('err.graphql.statement-timeout', String(error.ms)), 'timeout');
  if (error instanceof RemoteCallFailed) return errorAnswer(error.message, 'remote-schema-error');
  if (error instanceof ActionFailed) return { status: 200, body: JSON.stringify({ errors: [{ message: error.message, extensions: error.extensions }] }) };
  if (error instanceof ConnectionLost) return errorAnswer(formatMessage('err.postgres-error.connection'), 'postgres-error', '$', 500);
  if (!(error instanceof DatabaseError)) throw error;
  const code = error.code ?? '';
  if (code === '23502') {
    return errorAnswer(`Not-NULL violation. null value in column ${JSON.stringify(error.column ?? '')} violates not-null constraint`, 'postgres-error');
  }
  const violations: Record<string, string> = {
    '23505': 'Uniqueness violation',
    '23503': 'Foreign key violation',
    '23514': 'Check constraint violation',
    '23P01': 'Exclusion violation',
  };
  if (violations[code]) return errorAnswer(`${violations[code]}. ${error.message}`, 'constraint-violation');
  if (code.startsWith('22')) return errorAnswer(error.message, 'data-exception');
  if (code === '42501' || code === '25006') return errorAnswer(error.message, 'permission-error');
  return errorAnswer('database query error', 'postgres-error');
}
