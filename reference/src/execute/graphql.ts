// POST /v1/graphql: parse and validate (cached per document), coerce variables, compile the
// operation to SQL (cached per role, document, operation and variables), run it, and pass the
// JSON that PostgreSQL built through as text.
import {
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
import { formatMessage } from '../../../spec';
import { isAdmin, type Session } from '../auth/session';
import type { BuiltSchema } from '../schema/build';
import { CompileError, newCohort } from '../sql/graphql/context';
import { collectFields } from '../sql/graphql/fields';
import type { SelectEnvironment } from '../sql/graphql/select';
import { roleSchema, type CompiledPlan, type RoleSchema, type SchemaCache } from './schemaCache';
import { databaseErrorAnswer, errorAnswer, type GraphQLAnswer } from './answers';
import type { Abandonment } from './abandonment';
import { cohortVariables } from './cohortVariables';
import { compile } from './compile';
import { runPlan, type PlanPools } from './runPlan';
import { normaliseDocument } from '../metadata/collections';
import type { RequestLimits } from '../config';
import { documentProblem, nestsDeeperThan, operationProblem } from './operationLimits';
import { remoteParts } from './remote';
import { remoteJoinsOf } from './remoteJoinPlan';
import { actionParts } from './actions';
import { ACTIONS_OWNER } from '../schema/actions';
import { cachedOf } from '../schema/cachedDirective';
import { operationLimitAnswer, rateLimitAnswer, timeLimitMs } from './roleLimits';
import { introspect } from './introspection';

type ParsedDocument = { document: DocumentNode } | { errors: readonly GraphQLError[] };

export interface GraphQLRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export function schemaFor(cache: SchemaCache, session: Session): RoleSchema {
  return isAdmin(session) ? { models: cache.models, built: cache.admin } : roleSchema(cache, session.role, session.backendOnly === true);
}

export interface RequestOptions {
  /** A saved query run by a REST endpoint: the allow-list does not apply. */
  trusted?: boolean;
  /** The client's headers, for remote schemas that forward them. */
  clientHeaders?: Readonly<Record<string, string | string[] | undefined>>;
  /** Abandoned when the client goes away before its answer: the statement is cancelled. */
  gone?: Abandonment;
  /** A subscription compiled for a cohort of sessions (execute/cohorts.ts), where it can be. */
  cohort?: boolean;
  /** The client's IP address, for rate limits counted per address. */
  clientAddress?: string;
  /** Takes what to do once the answer has been written (runPlan.ts's PlanCaller). */
  whenWritten?: (done: () => void) => void;
}

export async function executeGraphQLRequest(
  pools: PlanPools,
  cache: SchemaCache,
  session: Session,
  request: GraphQLRequest,
  method: 'GET' | 'POST' = 'POST',
  options: RequestOptions = {},
): Promise<GraphQLAnswer> {
  // Every request of a role counts against its rate limit, answered or refused (decision dec.api-limits).
  const limited = rateLimitAnswer(cache, session, options.clientAddress);
  if (limited) return limited;
  const prepared = prepareGraphQLRequest(cache, session, request, options);
  // Decision dec.graphql.get-mutation: a link or an image must not change data.
  if (method === 'GET' && 'plan' in prepared && prepared.plan.kind === 'mutation') {
    return { ...errorAnswer('mutations cannot be sent with GET; use POST', 'method-not-allowed', '$', 405), headers: { allow: 'POST' } };
  }
  if ('answer' in prepared) return prepared.answer;
  const { plan } = prepared;
  if (plan.cached && !plan.cached.refresh) {
    const kept = cache.responses.get(plan.cached.key);
    if (kept) return { status: 200, body: kept.body, headers: { 'cache-control': `max-age=${kept.secondsLeft}` } };
  }
  try {
    const caller = {
      session,
      headers: options.clientHeaders ?? {},
      ...(options.gone ? { gone: options.gone } : {}),
      ...(options.whenWritten ? { whenWritten: options.whenWritten } : {}),
    };
    const body = await runPlan(pools, plan, caller);
    // Only an answer without errors is kept: a failure is asked again.
    if (plan.cached && (JSON.parse(body) as { errors?: unknown }).errors === undefined) {
      cache.responses.set(plan.cached.key, body, plan.cached.ttlSeconds);
      return { status: 200, body, headers: { 'cache-control': `max-age=${Math.max(0, plan.cached.ttlSeconds)}` } };
    }
    return { status: 200, body };
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
  const planKey = `${options.trusted ? 'rest\u0000' : ''}${options.cohort ? 'cohort\u0000' : ''}${documentKey}\u0000${operationName ?? ''}\u0000${JSON.stringify(request.variables ?? {})}\u0000${sessionKey}`;
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
  const fragmentList = document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION);
  if (!isAdmin(session)) {
    const tooMuch = operationLimitAnswer(cache, session, operation, new Map(fragmentList.map((d) => [d.name.value, d])));
    if (tooMuch) return refuse(tooMuch);
  }
  const coerced = getVariableValues(built.schema, operation.variableDefinitions ?? [], (request.variables as Record<string, unknown>) ?? {});
  if (coerced.errors) {
    return refuse({
      status: 200,
      body: JSON.stringify({ errors: coerced.errors.map((e) => ({ message: e.message, extensions: { path: '$.variables', code: 'validation-failed' } })) }),
    });
  }
  const variables = coerced.coerced;
  const fragments = Object.fromEntries(fragmentList.map((d) => [d.name.value, d]));
  const rootType =
    operation.operation === 'mutation'
      ? built.schema.getMutationType()
      : operation.operation === 'subscription'
        ? built.schema.getSubscriptionType()
        : built.schema.getQueryType();
  if (!rootType) return refuse(errorAnswer(`the schema is not configured for ${operation.operation} operations`, 'validation-failed'));
  const cohort = options.cohort ? newCohort() : undefined;
  const env: SelectEnvironment = {
    models,
    allModels: cache.models,
    sessionVariables: session.variables,
    ...(session.compatHeaders ? { compatHeaders: session.compatHeaders } : {}),
    schema: built.schema,
    // For a cohort, the variables compared with columns are read from its rows (cohortVariables.ts).
    fields: {
      fragments,
      variables:
        cohort && operation.operation === 'subscription'
          ? cohortVariables(built.schema, document, variables, cohort, (name) => built.queryFields.get(name)?.kind === 'select_by_pk')
          : variables,
    },
    ...(cohort ? { cohort } : {}),
  };
  const roots = collectFields(env.fields, rootType, operation.selectionSet);
  if (roots.some((f) => f.name === '__schema' || f.name === '__type')) {
    return refuse(introspect(cache, session, built, document, operation, variables, roots));
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
    const joins = remoteJoinsOf(
      env,
      operation,
      rootType,
      roots.filter((f) => !external.includes(f)),
      (request.variables as Record<string, unknown> | undefined) ?? {},
      cache.remoteNames,
      !isAdmin(session),
    );
    if (joins.length) plan.remoteJoins = { joins, endpoints: cache.remotes, ...(built.remotePresets ? { presets: built.remotePresets } : {}) };
    if (external.length > 0) {
      const rawVariables = (request.variables as Record<string, unknown> | undefined) ?? {};
      const actionFields = external.filter((f) => externalOwner(built, operation, f.name) === ACTIONS_OWNER);
      const remoteFields = external.filter((f) => !actionFields.includes(f));
      plan.order = roots.map((f) => f.alias);
      if (remoteFields.length)
        plan.remote = remoteParts(
          operation,
          remoteFields,
          (name) => externalOwner(built, operation, name),
          cache.remotes,
          fragments,
          rawVariables,
          cache.remoteNames,
          built.remotePresets ? { presets: built.remotePresets, session: session.variables } : undefined,
        );
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
          cache.tlsAllowlist,
        );
      }
    }
    const cached = cachedOf(operation, variables);
    if (cached) plan.cached = { ...cached, key: planKey };
    const timeLimit = isAdmin(session) ? undefined : timeLimitMs(cache, session);
    if (timeLimit !== undefined) plan.timeLimitMs = timeLimit;
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
