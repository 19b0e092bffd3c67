// Queries: a selection over a table as one SQL expression that builds its JSON inside PostgreSQL
// (rows, by primary key, aggregates), with relationships as correlated subqueries.
import { columnOutput } from './enumOutput';
import type { GraphQLObjectType, GraphQLSchema, SelectionSetNode } from 'graphql';
import { aggregateColumns, AGGREGATE_OPERATIONS } from '../../schema/aggregates';
import { typeName, type RelationshipModel, type TableModel } from '../../schema/model';
import { argOf, fieldOf, relationshipFieldOf } from '../../schema/generatedFields';
import { compileBoolExp } from './boolExp';
import {
  alias as newAlias,
  and,
  column,
  CompileError,
  condition,
  joinCondition,
  jsonObject,
  rowValue,
  sql,
  table,
  typedValue,
  type CompileContext,
  type Condition,
  type Fragment,
} from './context';
import { functionCall } from './functions';
import { joinedLater } from './laterJoins';
import { collectFields, type FieldEnvironment } from './fields';
import { effectiveLimit, readColumn, readComputed, selectFilter } from './permissions';

export interface SelectEnvironment extends CompileContext {
  schema: GraphQLSchema;
  fields: FieldEnvironment;
}

/** The coerced arguments of a selection of a table's rows (`where`, `order_by` …), keyed by the names its convention gave them (read with `argOf`). */
export type SelectArgs = Readonly<Record<string, unknown>>;
type OrderBy = Record<string, unknown>[] | Record<string, unknown> | null | undefined;

/** Rows of `t` joined to a parent row: the relationship's mapping from the parent alias. */
export interface Join {
  mapping: readonly [string, string][];
  parent: sql.SQLNode;
}

const objectType = (env: SelectEnvironment, name: string) => env.schema.getType(name) as GraphQLObjectType;

/** The directions of `order_by`, by the values its enum gives them under every convention. */
const DIRECTIONS: Record<string, string> = {
  asc: 'asc nulls last',
  asc_nulls_first: 'asc nulls first',
  asc_nulls_last: 'asc nulls last',
  desc: 'desc nulls first',
  desc_nulls_first: 'desc nulls first',
  desc_nulls_last: 'desc nulls last',
};

interface OrderTerm {
  expr: Fragment;
  direction: string;
}

function orderTerms(env: SelectEnvironment, t: TableModel, alias: sql.SQLNode, orderBy: OrderBy): OrderTerm[] {
  const items = orderBy === null || orderBy === undefined ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  const terms: OrderTerm[] = [];
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      if (value === null || value === undefined) continue;
      const c = t.byField.get(key);
      if (c) {
        terms.push({ expr: readColumn(env, t, alias, c.column.name), direction: DIRECTIONS[value as string]! });
        continue;
      }
      const computed = t.computedFields.find((x) => x.kind === 'scalar' && x.field === key);
      if (computed) {
        const call = functionCall(env, computed, undefined, rowValue(t, alias));
        terms.push({ expr: readComputed(env, t, alias, key, call), direction: DIRECTIONS[value as string]! });
        continue;
      }
      const objectRel = t.relationships.find((r) => r.kind === 'object' && r.name === key);
      if (objectRel) {
        // Each term of the remote table becomes a scalar subquery over the joined row.
        const remote = env.models.get(objectRel.targetKey)!;
        const r = newAlias(remote.name);
        const joined = and([joinCondition(objectRel.mapping, alias, r), selectFilter(env, remote, r)]);
        for (const term of orderTerms(env, remote, r, value as Record<string, unknown>)) {
          terms.push({
            expr: sql.query`(select ${term.expr} from ${table(remote)} as ${r} where ${joined} limit 1)`,
            direction: term.direction,
          });
        }
        continue;
      }
      const arrayRel = t.relationships.find((r) => r.kind === 'array' && relationshipFieldOf(t, r.name, 'aggregate') === key);
      if (!arrayRel) throw new CompileError(`field ${JSON.stringify(key)} not found in type: '${typeName(t, '_order_by')}'`);
      const remote = env.models.get(arrayRel.targetKey)!;
      const r = newAlias(remote.name);
      const from = sql.query`from ${table(remote)} as ${r} where ${and([joinCondition(arrayRel.mapping, alias, r), selectFilter(env, remote, r)])}`;
      for (const [name, spec] of Object.entries(value as Record<string, unknown>)) {
        if (spec === null) continue;
        if (name === fieldOf(remote, 'count')) {
          terms.push({ expr: sql.query`(select count(*) ${from})`, direction: DIRECTIONS[spec as string]! });
          continue;
        }
        const op = AGGREGATE_OPERATIONS.find((o) => fieldOf(remote, o) === name)!;
        for (const [field, direction] of Object.entries(spec as Record<string, string>)) {
          const c = remote.byField.get(field)!;
          terms.push({ expr: sql.query`(select ${sql.raw(op)}(${readColumn(env, remote, r, c.column.name)}) ${from})`, direction: DIRECTIONS[direction]! });
        }
      }
    }
  }
  return terms;
}

/**
 * FROM … WHERE … ORDER BY … LIMIT … OFFSET … over `t`. The order expressions are also selected
 * (as __o1, __o2 …) so that the enclosing json_agg can sort by them: the order of a subquery is
 * not something an aggregate may rely on.
 */
function rowSource(env: SelectEnvironment, t: TableModel, alias: sql.SQLNode, args: SelectArgs, join: Join | undefined, extraWhere?: Condition) {
  const offsetArg = argOf(t, args, 'offset') as number | null | undefined;
  const conditions = [
    compileBoolExp(env, t, alias, (argOf(t, args, 'where') as Record<string, unknown> | null | undefined) ?? undefined),
    selectFilter(env, t, alias),
    join ? joinCondition(join.mapping, join.parent, alias) : undefined,
    extraWhere,
  ];
  const cappedLimit = effectiveLimit(t, argOf(t, args, 'limit') as number | null | undefined);
  const distinct = ((argOf(t, args, 'distinct_on') as string[] | null | undefined) ?? []).map((f) => t.byField.get(f)!);
  const first = distinct.map((c) => ({ expr: readColumn(env, t, alias, c.column.name), direction: 'asc nulls last' }));
  const ordered = [...first, ...orderTerms(env, t, alias, argOf(t, args, 'order_by') as OrderBy)];
  const terms = ordered.map((term) => sql.query`${term.expr} ${sql.raw(term.direction)}`);
  const orderClause = terms.length ? sql.query`order by ${sql.join(terms, ', ')}` : sql.blank;
  const distinctClause = distinct.length
    ? sql.query`distinct on (${sql.join(
        distinct.map((c) => readColumn(env, t, alias, c.column.name)),
        ', ',
      )})`
    : sql.blank;
  const orderColumns = sql.join(
    ordered.map((term, i) => sql.query`, ${term.expr} as ${sql.identifier(`__o${i}`)}`),
    '',
  );
  const aggregateOrder = (rows: sql.SQLNode) =>
    ordered.length
      ? sql.query` order by ${sql.join(
          ordered.map((term, i) => sql.query`${rows}.${sql.identifier(`__o${i}`)} ${sql.raw(term.direction)}`),
          ', ',
        )}`
      : sql.blank;
  const limited = cappedLimit !== undefined || (offsetArg !== null && offsetArg !== undefined);
  const limit = cappedLimit !== undefined ? sql.query`limit ${sql.value(cappedLimit)}` : sql.blank;
  const offset = offsetArg !== null && offsetArg !== undefined ? sql.query`offset ${sql.value(offsetArg)}` : sql.blank;
  // Rows are sorted where they are aggregated; sorting them before is needed only to cut or dedupe them.
  const innerOrder = limited || distinct.length ? orderClause : sql.blank;
  return { conditions: and(conditions), orderClause: innerOrder, distinctClause, orderColumns, aggregateOrder, limit, offset };
}

/** The JSON object of one row of `t` (aliased `alias`) with the selected fields. */
export function rowJson(env: SelectEnvironment, t: TableModel, alias: sql.SQLNode, selectionSet: SelectionSetNode | undefined): Fragment {
  if (!selectionSet) return sql.query`null`;
  const pairs: [string, Fragment][] = [];
  for (const f of collectFields(env.fields, objectType(env, typeName(t)), selectionSet)) {
    if (f.name === '__typename') {
      pairs.push([f.alias, sql.literal(typeName(t))]);
      continue;
    }
    const c = t.byField.get(f.name);
    if (c) {
      pairs.push([f.alias, columnOutput(env.schema, t, c, readColumn(env, t, alias, c.column.name))]);
      continue;
    }
    const computed = t.computedFields.find((x) => x.field === f.name);
    if (computed) {
      const call = functionCall(env, computed, f.args.args as Record<string, unknown> | undefined, rowValue(t, alias));
      pairs.push([
        f.alias,
        computed.kind === 'scalar'
          ? columnOutput(env.schema, t, computed.returns, readComputed(env, t, alias, f.name, call))
          : listJson(env, env.models.get(computed.targetKey!)!, f.args as SelectArgs, f.selectionSet, undefined, call),
      ]);
      continue;
    }
    const lhs = joinedLater(t, f.name);
    if (lhs) {
      // The row's values to join on, where the remote's or the source's answer goes (execute/remoteJoins.ts).
      pairs.push([f.alias, jsonObject(lhs.map((c): [string, Fragment] => [c, column(alias, c)]))]);
      continue;
    }
    const rel = t.relationships.find((r) => r.name === f.name || (r.kind === 'array' && relationshipFieldOf(t, r.name, 'aggregate') === f.name));
    if (!rel) throw new CompileError(`field ${JSON.stringify(f.name)} not found in type: '${typeName(t)}'`);
    const remote = env.models.get(rel.targetKey)!;
    pairs.push([f.alias, relationshipJson(env, rel, remote, alias, f.name !== rel.name, f.args as SelectArgs, f.selectionSet)]);
  }
  return jsonObject(pairs);
}

export function relationshipJson(
  env: SelectEnvironment,
  rel: Pick<RelationshipModel, 'kind' | 'mapping'>,
  remote: TableModel,
  parent: sql.SQLNode,
  aggregate: boolean,
  args: SelectArgs,
  selectionSet: SelectionSetNode | undefined,
): Fragment {
  const join = { mapping: rel.mapping, parent };
  if (rel.kind === 'array') return aggregate ? aggregateJson(env, remote, args, selectionSet, join) : listJson(env, remote, args, selectionSet, join);
  const r = newAlias(remote.name);
  const conditions = and([joinCondition(rel.mapping, parent, r), selectFilter(env, remote, r)]);
  return sql.query`(select ${rowJson(env, remote, r, selectionSet)} from ${table(remote)} as ${r} where ${conditions} limit 1)`;
}

/**
 * A JSON array of the selected rows. `source`: rows to select from other than the table's (a
 * function call returning its rows).
 */
export function listJson(
  env: SelectEnvironment,
  t: TableModel,
  args: SelectArgs,
  selectionSet: SelectionSetNode | undefined,
  join?: Join,
  source?: Fragment,
): Fragment {
  const a = newAlias(t.name);
  const s = rowSource(env, t, a, args, join);
  const rows = newAlias('rows');
  return sql.query`(select coalesce(json_agg(${rows}.j${s.aggregateOrder(rows)}), '[]'::json) from (
    select ${s.distinctClause} ${rowJson(env, t, a, selectionSet)} as j${s.orderColumns}
      from ${source ?? table(t)} as ${a}
     where ${s.conditions}
     ${s.orderClause} ${s.limit} ${s.offset}) as ${rows})`;
}

/** The JSON object of the row with the given primary key, or null. */
export function byPkJson(env: SelectEnvironment, t: TableModel, args: Record<string, unknown>, selectionSet: SelectionSetNode | undefined): Fragment {
  const a = newAlias(t.name);
  const conditions = (t.primaryKey ?? []).map((name) => {
    const c = t.byColumn.get(name)!;
    return condition(sql.query`${column(a, name)} = ${typedValue(c.column, args[c.field])}`);
  });
  return sql.query`(select ${rowJson(env, t, a, selectionSet)} from ${table(t)} as ${a} where ${and([...conditions, selectFilter(env, t, a)])})`;
}

/** `<table>_aggregate`: {aggregate {count, sum…}, nodes […]} over the selected rows, grouped as one (one row when only __typename is asked). */
export function aggregateJson(
  env: SelectEnvironment,
  t: TableModel,
  args: SelectArgs,
  selectionSet: SelectionSetNode | undefined,
  join?: Join,
  source?: Fragment,
): Fragment {
  const inner = newAlias(t.name);
  const rows = newAlias(t.name);
  const s = rowSource(env, t, inner, args, join);
  const pairs: [string, Fragment][] = [];
  for (const f of selectionSet ? collectFields(env.fields, objectType(env, typeName(t, '_aggregate')), selectionSet) : []) {
    if (f.name === '__typename') pairs.push([f.alias, sql.literal(typeName(t, '_aggregate'))]);
    else if (f.name === fieldOf(t, 'nodes'))
      pairs.push([f.alias, sql.query`coalesce(json_agg(${rowJson(env, t, rows, f.selectionSet)}${s.aggregateOrder(rows)}), '[]'::json)`]);
    else pairs.push([f.alias, aggregateFields(env, t, rows, f.selectionSet)]);
  }
  return sql.query`(select ${jsonObject(pairs)} from (
    select ${s.distinctClause} ${inner}.*${s.orderColumns}
      from ${source ?? table(t)} as ${inner}
     where ${s.conditions}
     ${s.orderClause} ${s.limit} ${s.offset}) as ${rows} group by ())`;
}

function aggregateFields(env: SelectEnvironment, t: TableModel, rows: sql.SQLNode, selectionSet: SelectionSetNode | undefined): Fragment {
  const pairs: [string, Fragment][] = [];
  for (const f of selectionSet ? collectFields(env.fields, objectType(env, typeName(t, '_aggregate_fields')), selectionSet) : []) {
    if (f.name === '__typename') {
      pairs.push([f.alias, sql.literal(typeName(t, '_aggregate_fields'))]);
    } else if (f.name === fieldOf(t, 'count')) {
      const cols = ((argOf(t, f.args, 'columns') as string[] | undefined) ?? []).map((field) => readColumn(env, t, rows, t.byField.get(field)!.column.name));
      const distinct = argOf(t, f.args, 'distinct') ? sql.query`distinct ` : sql.blank;
      pairs.push([
        f.alias,
        cols.length === 0
          ? sql.query`count(*)`
          : cols.length === 1
            ? sql.query`count(${distinct}${cols[0]!})`
            : sql.query`count(${distinct}(${sql.join(cols, ', ')}))`,
      ]);
    } else {
      const op = AGGREGATE_OPERATIONS.find((o) => fieldOf(t, o) === f.name)!;
      const allowed = new Set(aggregateColumns(t, op).map((c) => c.field));
      const inner: [string, Fragment][] = [];
      for (const g of f.selectionSet ? collectFields(env.fields, objectType(env, typeName(t, `_${op}_fields`)), f.selectionSet) : []) {
        if (g.name === '__typename') inner.push([g.alias, sql.literal(typeName(t, `_${op}_fields`))]);
        else if (allowed.has(g.name)) inner.push([g.alias, sql.query`${sql.raw(op)}(${readColumn(env, t, rows, t.byField.get(g.name)!.column.name)})`]);
      }
      pairs.push([f.alias, jsonObject(inner)]);
    }
  }
  return jsonObject(pairs);
}
