// A GraphQL `<table>_bool_exp` value as an SQL condition (SPEC.md §2.1 BoolExp, `where`).
import { conventionOf, typeName } from '../../schema/typeNames';
import type { TableModel } from '../../schema/model';
import { fieldOf } from '../../schema/generatedFields';
import type { ColumnModel } from '../../schema/model';
import { readColumn, readComputed, selectFilter } from './permissions';
import {
  and,
  alias as newAlias,
  CompileError,
  condition,
  exists,
  joinCondition,
  not,
  or,
  rowValue,
  sql,
  table,
  TRUE,
  typedArray,
  typedValue,
  VariableRead,
  type CompileContext,
  type Condition,
  type Fragment,
} from './context';
import { functionCall } from './functions';
import { castColumn, GEO_OPERATORS, geoCondition } from './geo';
import { aggregatePredicateField } from '../../schema/aggregatePredicates';
import type { RelationshipModel } from '../../schema/model';
import { aggregateOfRelated, predicateParts } from './aggregatePredicate';

type Value = Record<string, unknown>;

const COMPARISONS: Record<string, string> = {
  _eq: '=',
  _neq: '<>',
  _gt: '>',
  _lt: '<',
  _gte: '>=',
  _lte: '<=',
  _like: 'like',
  _nlike: 'not like',
  _ilike: 'ilike',
  _nilike: 'not ilike',
  _similar: 'similar to',
  _nsimilar: 'not similar to',
  _regex: '~',
  _nregex: '!~',
  _iregex: '~*',
  _niregex: '!~*',
  _contains: '@>',
  _contained_in: '<@',
};

/**
 * The operators whose operand is one value compared with the column, cast to its type
 * (`typedValue`), or a list of such values (`typedArray`).
 */
export const COMPARISON_OPERATORS: ReadonlySet<string> = new Set([...Object.keys(COMPARISONS), '_in', '_nin']);

/** Every operator of a comparison, by its hasura-default name. */
const OPERATORS = [
  ...Object.keys(COMPARISONS),
  ...['_in', '_nin', '_is_null', '_has_key', '_has_keys_any', '_has_keys_all', '_cast'],
  ...[...GEO_OPERATORS.keys()].map((op) => `_${op}`),
];

/** The operator a field of `t`'s comparison types names, by its hasura-default name; the name as given when it names none. */
const operatorOf = (t: Named, name: string) => (conventionOf(t) === 'hasura-default' ? name : (OPERATORS.find((op) => fieldOf(t, op) === name) ?? name));

/** What the names of an expression over a table are read by: its convention. */
type Named = Pick<TableModel, 'naming'>;

function comparison(t: Named, c: ColumnModel, col: Fragment, name: string, value: unknown): Condition {
  const op = operatorOf(t, name);
  if (op.startsWith('_st_') && GEO_OPERATORS.has(op.slice(1)))
    return value === null ? TRUE : condition(geoCondition(c.column, col, op.slice(1), geoOperand(t, value)));
  if (op === '_cast') return castComparison(t, c, col, value as Value | null);
  const operator = COMPARISONS[op];
  if (operator) return condition(sql.query`${col} ${sql.raw(operator)} ${typedValue(c.column, value)}`);
  switch (op) {
    case '_in':
      return condition(sql.query`${col} = any(${typedArray(c.column, value as unknown[] | null | VariableRead)})`);
    case '_nin':
      return not(condition(sql.query`${col} = any(${typedArray(c.column, value as unknown[] | null | VariableRead)})`));
    case '_is_null':
      return value === null ? TRUE : condition(value ? sql.query`${col} is null` : sql.query`${col} is not null`);
    case '_has_key':
      return condition(sql.query`${col} ? ${sql.value(value)}::text`);
    case '_has_keys_any':
      return condition(sql.query`${col} ?| ${sql.value(value)}::text[]`);
    case '_has_keys_all':
      return condition(sql.query`${col} ?& ${sql.value(value)}::text[]`);
    default:
      throw new CompileError(`Unknown operator : ${op}`);
  }
}

/** A distance operand's fields by the names geoCondition reads (`use_spheroid`), from those of `t`'s convention. */
function geoOperand(t: Named, value: unknown): unknown {
  const name = fieldOf(t, 'use_spheroid');
  if (name === 'use_spheroid' || typeof value !== 'object' || value === null || !(name in value)) return value;
  const { [name]: useSpheroid, ...rest } = value as Value;
  return { ...rest, use_spheroid: useSpheroid };
}

/** `_cast: {geography: {…}}` (or `geometry`): the column compared as the other PostGIS type. */
function castComparison(t: Named, c: ColumnModel, col: Fragment, value: Value | null): Condition {
  const parts: Condition[] = [];
  for (const [target, operators] of Object.entries(value ?? {})) {
    const cast = castColumn(c.column, col, target);
    for (const [op, operand] of Object.entries((operators as Value | null) ?? {}))
      parts.push(comparison(t, { ...c, column: cast.column }, cast.value, op, operand));
  }
  return and(parts);
}

/** The condition on rows of `t` (aliased `alias`) that `value` expresses. */
export function compileBoolExp(ctx: CompileContext, t: TableModel, alias: sql.SQLNode, value: Value | null | undefined): Condition {
  if (value === null || value === undefined) return TRUE;
  const parts: Condition[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === fieldOf(t, '_and')) parts.push(and(((v as Value[] | null) ?? []).map((x) => compileBoolExp(ctx, t, alias, x))));
    else if (key === fieldOf(t, '_or')) parts.push(or(((v as Value[] | null) ?? []).map((x) => compileBoolExp(ctx, t, alias, x))));
    else if (key === fieldOf(t, '_not')) parts.push(v === null ? TRUE : not(compileBoolExp(ctx, t, alias, v as Value)));
    else {
      const c = t.byField.get(key);
      if (c) {
        if (v === null) continue;
        const col = readColumn(ctx, t, alias, c.column.name);
        for (const [op, operand] of Object.entries(v as Value)) parts.push(comparison(t, c, col, op, operand));
        continue;
      }
      const computed = t.computedFields.find((x) => x.kind === 'scalar' && x.field === key);
      if (computed) {
        if (v === null) continue;
        const value = readComputed(ctx, t, alias, key, functionCall(ctx, computed, undefined, rowValue(t, alias)));
        for (const [op, operand] of Object.entries(v as Value)) parts.push(comparison(t, computed.returns, value, op, operand));
        continue;
      }
      const aggregated = t.relationships.find((r) => r.kind === 'array' && aggregatePredicateField(t, r) === key);
      if (aggregated && ctx.models.get(aggregated.targetKey)?.access.aggregate) {
        if (v !== null) parts.push(aggregatePredicate(ctx, aggregated, alias, v));
        continue;
      }
      const rel = t.relationships.find((r) => r.name === key);
      if (!rel) throw new CompileError(`field ${JSON.stringify(key)} not found in type: '${typeName(t, '_bool_exp')}'`);
      const remote = ctx.models.get(rel.targetKey)!;
      const r = newAlias(remote.name);
      parts.push(
        exists(
          sql.query`${table(remote)} as ${r}`,
          and([joinCondition(rel.mapping, alias, r), selectFilter(ctx, remote, r), compileBoolExp(ctx, remote, r, v as Value)]),
        ),
      );
    }
  }
  return and(parts);
}

/** An aggregate predicate over the rows the role reads through an array relationship (dec.graphql.aggregate-predicates). */
function aggregatePredicate(ctx: CompileContext, rel: RelationshipModel, alias: sql.SQLNode, value: unknown): Condition {
  const remote = ctx.models.get(rel.targetKey)!;
  const parts = predicateParts(
    value,
    remote,
    remote,
    (field) => remote.byField.get(field)!.column.name,
    (message) => new CompileError(message),
  );
  const aggregate = aggregateOfRelated(parts, rel, remote, alias, (r) => [
    selectFilter(ctx, remote, r),
    compileBoolExp(ctx, remote, r, parts.filter as Value | null | undefined),
  ]);
  return and(Object.entries(parts.predicate).map(([op, operand]) => comparison(remote, parts.fn.returns, aggregate, op, operand)));
}
