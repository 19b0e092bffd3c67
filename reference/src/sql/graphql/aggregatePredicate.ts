// The SQL of an aggregate predicate (decision dec.graphql.aggregate-predicates): the aggregate of
// the related rows, one scalar subquery, which the predicate's operators then compare.
import type { AggregatePredicateFunction } from '../../schema/aggregatePredicates';
import { AGGREGATE_PREDICATE_FUNCTIONS } from '../../schema/aggregatePredicates';
import type { RelationshipModel, TableModel } from '../../schema/model';
import { argOf, fieldOf } from '../../schema/generatedFields';
import { alias as newAlias, and, column, CompileError, joinCondition, sql, table, type Condition, type Fragment } from './context';

export interface PredicateParts {
  fn: AggregatePredicateFunction;
  /** The columns aggregated (their SQL names); none: every row (count). */
  columns: string[];
  distinct: boolean;
  /** The predicate: operator → operand. */
  predicate: Record<string, unknown>;
  /** The filter's own value, compiled by the caller's kind of boolean expression. */
  filter: unknown;
}

/**
 * Reads `{<function>: {arguments, distinct, filter, predicate}}`: exactly one function, its fields
 * named by `convention`'s. `column` turns a name the expression uses into a column of the
 * target, or throws.
 */
export function predicateParts(
  value: unknown,
  remote: TableModel,
  convention: Pick<TableModel, 'naming'>,
  columnOf: (name: string) => string,
  fail: (message: string) => Error,
): PredicateParts {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('expected an object of one aggregate predicate');
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined);
  if (entries.length !== 1) throw fail('exactly one predicate should be specified');
  const [name, body] = entries[0]!;
  const fn = AGGREGATE_PREDICATE_FUNCTIONS.find((f) => fieldOf(convention, f.name) === name);
  if (!fn) throw fail(`unknown aggregate predicate ${JSON.stringify(name)} on ${JSON.stringify(remote.name)}`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail(`expected an object for ${name}`);
  const fields = body as Record<string, unknown>;
  const [args, distinct, filter, predicate] = ['arguments', 'distinct', 'filter', 'predicate'].map((f) => argOf(convention, fields, f));
  const names = args === undefined || args === null ? [] : Array.isArray(args) ? args : [args];
  if (fn.arguments === 'boolean' && names.length !== 1) throw fail(`${name} takes exactly one column in "arguments"`);
  if (typeof predicate !== 'object' || predicate === null || Array.isArray(predicate)) throw fail(`"predicate" of ${name} is required`);
  return {
    fn,
    columns: names.map((n) => {
      if (typeof n !== 'string') throw fail(`expected column names in "arguments" of ${name}`);
      return columnOf(n);
    }),
    distinct: distinct === true,
    predicate: predicate as Record<string, unknown>,
    filter,
  };
}

/** `(select <fn>(…) from <target> where <join> and <conditions>)`: the aggregate over a row's related rows. */
export function aggregateOfRelated(
  parts: PredicateParts,
  rel: RelationshipModel,
  remote: TableModel,
  fromAlias: sql.SQLNode,
  conditions: (r: sql.SQLNode) => (Condition | undefined)[],
): Fragment {
  const r = newAlias(remote.name);
  const cols = parts.columns.map((c) => column(r, c));
  const distinct = parts.distinct ? sql.query`distinct ` : sql.blank;
  const argument = cols.length === 0 ? sql.query`*` : cols.length === 1 ? sql.query`${distinct}${cols[0]!}` : sql.query`${distinct}(${sql.join(cols, ', ')})`;
  if (cols.length === 0 && parts.distinct) throw new CompileError('"distinct" needs the columns to count in "arguments"');
  const aggregate = sql.query`${sql.identifier(parts.fn.name)}(${argument})`;
  return sql.query`(select ${aggregate} from ${table(remote)} as ${r} where ${and([joinCondition(rel.mapping, fromAlias, r), ...conditions(r)])})`;
}
