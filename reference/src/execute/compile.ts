// A validated operation compiled to SQL: one statement for a query (the whole JSON answer built
// in PostgreSQL), one per root field for a mutation, each named so a connection prepares it once.
import { createHash } from 'node:crypto';
import { getNamedType, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import * as sql from 'pg-sql2';
import type { BuiltSchema, RootField } from '../schema/build';
import { namespacedKey } from '../schema/namespaces';
import { CompileError, jsonObject, newCohort, type Fragment } from '../sql/graphql/context';
import { collectFields, type CollectedField } from '../sql/graphql/fields';
import { deleteStatement, insertStatement, onConflictOf, primaryKeyCondition, updateStatement, whereCondition } from '../sql/graphql/mutation';
import { argOf } from '../schema/generatedFields';
import { EarlierRows, insertsThroughRelationships, nestedInsertSteps, type InsertStep } from '../sql/graphql/nestedInsert';
import { aggregateJson, byPkJson, listJson, type SelectArgs, type SelectEnvironment } from '../sql/graphql/select';
import { functionCall } from '../sql/graphql/functions';
import { COHORT_ROWS, cohortRowOf, cohortStatement } from '../sql/graphql/cohort';
import { streamArguments, streamStatement } from '../sql/graphql/stream';
import type { CompiledPlan, PlanStatement } from './plan';
import { spokenVariables } from '../sessionNames';

/** Who makes a change, as event triggers record it: named as a compatible server names a session (decision dec.compat.headers). */
const changedBy = (env: Pick<SelectEnvironment, 'sessionVariables' | 'compatHeaders'>) =>
  spokenVariables({ 'x-engine-role': 'admin', ...env.sessionVariables }, env.compatHeaders);

export function compile(
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
    // Fields under a namespace field run as root fields, answered under the namespace's alias.
    const nested = new Map<string, string[]>();
    const fields = tableFields.filter((f) => !built.namespaces.has(f.name));
    for (const f of tableFields.filter((r) => built.namespaces.has(r.name))) {
      const { typeName, members } = namespaceMembers(env, built, operation, f);
      nested.set(
        f.alias,
        members.map((m) => m.alias),
      );
      for (const m of members) {
        const alias = `${f.alias}\u0000${m.alias}`;
        if (m.name === '__typename') literals.set(alias, JSON.stringify(typeName));
        else fields.push({ ...m, alias });
      }
    }
    const nesting = nested.size ? { nested } : {};
    // A mutation runs in one transaction: on one database (decision dec.source.forms).
    const sources = new Set(fields.map((f) => built.mutationFields.get(f.name)?.table.source));
    if (sources.size > 1) throw new CompileError('mutations on tables of more than one source in one request are not supported', 'not-supported');
    const [source] = sources;
    const statements: PlanStatement[] = [];
    for (const f of fields) statements.push(...mutationStatements(env, built, f, literals, statements.length));
    if (source !== undefined) {
      // Wholly on another source: its statements run there, the literals here.
      const part: CompiledPlan = {
        kind: 'mutation',
        bounded,
        operation: 'mutation',
        statements,
        literals: new Map(),
        order: fields.map((f) => f.alias),
        ...(capturesEvents ? { sessionVariables: changedBy(env) } : {}),
      };
      return { kind: 'mutation', bounded, operation: 'mutation', statements: [], literals, order, sourceParts: [{ source, plan: part }], ...nesting };
    }
    // Only where event triggers capture changes does the transaction say who made them.
    return {
      kind: 'mutation',
      bounded,
      operation: 'mutation',
      statements,
      literals,
      order,
      ...nesting,
      ...(capturesEvents ? { sessionVariables: changedBy(env) } : {}),
    };
  }
  // A streaming subscription has one root field (a subscription selects one), of its own kind.
  const stream = operation.operation === 'subscription' ? tableFields.find((f) => built.streamFields.has(f.name)) : undefined;
  if (stream) return compileStream(env, built.streamFields.get(stream.name)!, stream, bounded);
  const spaced = operation.operation === 'subscription' ? tableFields.find((f) => built.namespaces.has(f.name)) : undefined;
  if (spaced) {
    // A stream under a namespace (decision dec.source.customization): its batches under the namespace field's alias.
    const { typeName, members } = namespaceMembers(env, built, operation, spaced);
    const streams = members.filter((m) => built.streamFields.has(m.name));
    if (streams.length > 1 || (streams.length && members.some((m) => m.name !== '__typename' && !built.streamFields.has(m.name))))
      throw new CompileError('exactly one root field is allowed for streaming subscriptions', 'not-supported');
    const [inner] = streams;
    if (inner) {
      const data = (batch: Fragment) =>
        jsonObject([
          [spaced.alias, jsonObject(members.map((m): [string, Fragment] => [m.alias, m === inner ? batch : sql.query`${sql.value(typeName)}::text`]))],
        ]);
      return compileStream(env, built.streamFields.get(inner.name)!, inner, bounded, { alias: spaced.alias, data });
    }
  }
  // One statement per source (decision dec.source.forms): the server's own database, then the others.
  const bySource = new Map<string | undefined, [string, Fragment][]>();
  for (const f of tableFields) {
    if (built.namespaces.has(f.name)) {
      // A namespace field: one object of its fields, all of one source, built in the same statement.
      const { typeName, members } = namespaceMembers(env, built, operation, f);
      const source = members.map((m) => built.queryFields.get(m.name)?.table.source).find((s) => s !== undefined);
      const inner = members.map((m): [string, Fragment] =>
        m.name === '__typename' ? [m.alias, sql.query`${sql.value(typeName)}::text`] : rootPair(env, built, m),
      );
      const pairs = bySource.get(source) ?? [];
      pairs.push([f.alias, jsonObject(inner)]);
      bySource.set(source, pairs);
      continue;
    }
    const source = built.queryFields.get(f.name)?.table.source;
    const pairs = bySource.get(source) ?? [];
    pairs.push(rootPair(env, built, f));
    bySource.set(source, pairs);
  }
  const pairs = bySource.get(undefined) ?? [];
  const kind: CompiledPlan['operation'] = operation.operation === 'subscription' ? 'subscription' : 'query';
  const own = sql.query`select ${jsonObject(pairs)}::text as data`;
  // A subscription that reads session variables or GraphQL variables, compiled for a cohort: they come from its rows.
  const cohort = kind === 'subscription' && env.cohort && (env.cohort.readsSession || Object.keys(env.cohort.variables).length > 0) ? env.cohort : undefined;
  const statements = pairs.length ? [compiledStatement('', cohort ? cohortStatement(cohort, own) : own)] : [];
  const cohortValue = cohort && statements.length ? statements[0]!.values.indexOf(COHORT_ROWS) : -1;
  const cohortRow = cohort && { session: cohort.readsSession, variables: { ...cohort.variables } };
  // Bound as it is, the statement answers for the request it was compiled for.
  if (cohortValue >= 0) statements[0]!.values[cohortValue] = JSON.stringify([cohortRowOf(0, env.sessionVariables, cohortRow!)]);
  const sourceParts = [...bySource].flatMap(([source, own]) =>
    source === undefined
      ? []
      : [
          {
            source,
            plan: {
              kind: 'query' as const,
              bounded,
              operation: kind,
              statements: [compiledStatement('', sql.query`select ${jsonObject(own)}::text as data`)],
              literals: new Map<string, string>(),
              order: own.map(([alias]) => alias),
            },
          },
        ],
  );
  return {
    kind: 'query',
    bounded,
    operation: kind,
    statements,
    literals,
    order,
    ...(sourceParts.length ? { sourceParts } : {}),
    ...(cohortValue >= 0 ? { cohort: { value: cohortValue, ...cohortRow! } } : {}),
  };
}

/**
 * A streaming subscription (decision dec.graphql.stream.cursor): always one statement for a cohort,
 * whose rows carry each subscriber's cursor, bound as compiled with the row of the request compiled.
 * Compiled for a cohort (execute/cohorts.ts), it reads the session and compared variables from the
 * rows too.
 */
function compileStream(
  env: SelectEnvironment,
  root: RootField,
  f: CollectedField,
  bounded: boolean,
  answer = { alias: f.alias, data: (batch: Fragment) => jsonObject([[f.alias, batch]]) },
): CompiledPlan {
  const cohort = env.cohort ?? newCohort();
  const t = root.table;
  const stream = streamArguments(env, t, f);
  const statement = compiledStatement('', cohortStatement(cohort, streamStatement(env, t, answer.data, stream, cohort, f.selectionSet), true));
  const value = statement.values.indexOf(COHORT_ROWS);
  const row = { session: cohort.readsSession, variables: { ...cohort.variables }, cursor: stream.initial };
  statement.values[value] = JSON.stringify([cohortRowOf(0, env.sessionVariables, row)]);
  return {
    kind: 'query',
    bounded,
    operation: 'subscription',
    statements: [statement],
    literals: new Map(),
    order: [answer.alias],
    cohort: { value, ...row },
    stream: t.source === undefined ? {} : { source: t.source },
  };
}

/** The statements of a mutation root field; `base`: how many statements of the plan come before them. */
function mutationStatements(env: SelectEnvironment, built: BuiltSchema, f: CollectedField, literals: Map<string, string>, base: number): PlanStatement[] {
  const root = built.mutationFields.get(f.name)!;
  const t = root.table;
  const a = f.args as Record<string, unknown>;
  const where = (args: Record<string, unknown>) => whereCondition(env, t, argOf(t, args, 'where') as Record<string, unknown>);
  let statement;
  switch (root.kind) {
    case 'update_many': {
      // One statement per update, in order: each sees what the ones before it changed.
      const updates = argOf(t, a, 'updates') as Record<string, unknown>[];
      if (updates.length === 0) literals.set(f.alias, '[]');
      return updates.map((u) => ({
        ...compiledStatement(f.alias, updateStatement(env, t, u, where(u), false, f.selectionSet)),
        part: 'element' as const,
      }));
    }
    case 'insert':
    case 'insert_one': {
      const single = root.kind === 'insert_one';
      const objects = (single ? [argOf(t, a, 'object')] : argOf(t, a, 'objects')) as Record<string, unknown>[];
      const onConflict = onConflictOf(t, argOf(t, a, 'on_conflict')) ?? undefined;
      if (insertsThroughRelationships(t, objects)) return stepStatements(f.alias, nestedInsertSteps(env, t, objects, onConflict, single, f.selectionSet), base);
      statement = insertStatement(env, t, objects, onConflict, single, f.selectionSet);
      break;
    }
    case 'update':
      statement = updateStatement(env, t, a, where(a), false, f.selectionSet);
      break;
    case 'update_by_pk':
      statement = updateStatement(env, t, a, primaryKeyCondition(t, argOf(t, a, 'pk_columns') as Record<string, unknown>), true, f.selectionSet);
      break;
    case 'delete':
      statement = deleteStatement(env, t, where(a), false, f.selectionSet);
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
  return [compiledStatement(f.alias, statement)];
}

/**
 * The statements of a nested insert's steps: the values standing for earlier steps' rows become
 * reads of those statements (bound as null until the plan runs); the last step answers the field.
 */
function stepStatements(alias: string, steps: InsertStep[], base: number): PlanStatement[] {
  return steps.map((step, i) => {
    const compiled: PlanStatement = compiledStatement(alias, step.statement);
    const reads: NonNullable<PlanStatement['reads']> = [];
    compiled.values.forEach((value, index) => {
      if (!(value instanceof EarlierRows)) return;
      reads.push({ value: index, from: value.steps.map((k) => base + k) });
      compiled.values[index] = null;
    });
    return {
      ...compiled,
      ...(i < steps.length - 1 ? { part: 'step' as const } : {}),
      ...(reads.length ? { reads } : {}),
      ...(step.refusedWhenEmpty ? { refusedWhenEmpty: step.refusedWhenEmpty } : {}),
    };
  });
}

/** A query root field's alias and the SQL of its JSON value. */
function rootPair(env: SelectEnvironment, built: BuiltSchema, f: CollectedField): [string, Fragment] {
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
}

/** The fields under a namespace field, keyed as BuiltSchema's maps key them, and the namespace's type name. */
function namespaceMembers(env: SelectEnvironment, built: BuiltSchema, operation: OperationDefinitionNode, f: CollectedField) {
  const root =
    operation.operation === 'mutation'
      ? built.schema.getMutationType()
      : operation.operation === 'subscription'
        ? built.schema.getSubscriptionType()
        : built.schema.getQueryType();
  const type = getNamedType(root!.getFields()[f.name]!.type) as GraphQLObjectType;
  const members = collectFields(env.fields, type, f.selectionSet!).map((m) => (m.name === '__typename' ? m : { ...m, name: namespacedKey(f.name, m.name) }));
  return { typeName: type.name, members };
}

/** A compiled statement, named so each connection prepares it once and then only binds values. */
export function compiledStatement(alias: string, statement: sql.SQLQuery | sql.SQLNode) {
  const { text, values } = sql.compile(statement);
  return { alias, name: `engine_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`, text, values: values ?? [] };
}
