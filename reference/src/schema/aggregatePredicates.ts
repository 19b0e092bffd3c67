// Aggregate predicates in a boolean expression (decision dec.graphql.aggregate-predicates):
// `<array relationship>_aggregate: {count | bool_and | bool_or: {arguments, distinct, filter,
// predicate}}` holds for a row when the aggregate of its related rows (those the role reads, and
// `filter`) satisfies `predicate`. What each function takes and answers, for the schema and the SQL.
import type { ColumnModel, RelationshipModel, TableModel } from './model';
import { argumentColumn } from './functions';
import { relationshipFieldOf } from './generatedFields';
import { scalarName } from './scalars';

export interface AggregatePredicateFunction {
  name: 'count' | 'bool_and' | 'bool_or';
  /** count takes any columns (none: every row); bool_and and bool_or one boolean column. */
  arguments: 'star' | 'boolean';
  /** What the aggregate answers, as a column for comparisons. */
  returns: ColumnModel;
}

const resultColumn = (name: string, type: string): ColumnModel => {
  const column = argumentColumn(name, 0, type, 'pg_catalog');
  return { column, field: name, scalar: scalarName(column) };
};

export const AGGREGATE_PREDICATE_FUNCTIONS: readonly AggregatePredicateFunction[] = [
  { name: 'count', arguments: 'star', returns: resultColumn('count', 'int4') },
  { name: 'bool_and', arguments: 'boolean', returns: resultColumn('bool_and', 'bool') },
  { name: 'bool_or', arguments: 'boolean', returns: resultColumn('bool_or', 'bool') },
];

/** The columns of `t` a function can aggregate: every column for count, the boolean ones for bool_and and bool_or. */
export const predicateColumns = (t: TableModel, fn: AggregatePredicateFunction): ColumnModel[] =>
  fn.arguments === 'star' ? t.columns : t.columns.filter((c) => c.column.type === 'bool');

/** The functions a role can call over `t`'s rows: those with columns to take. */
export const predicateFunctions = (t: TableModel): AggregatePredicateFunction[] =>
  AGGREGATE_PREDICATE_FUNCTIONS.filter((fn) => predicateColumns(t, fn).length > 0);

/** The field of an array relationship's aggregate predicates, and the relationships that have one (the target allows aggregations). */
export const aggregatePredicateField = (t: Pick<TableModel, 'naming'>, r: RelationshipModel) => relationshipFieldOf(t, r.name, 'aggregate');

export function predicateRelationships(t: TableModel, target: (key: string) => TableModel | undefined): RelationshipModel[] {
  return t.relationships.filter((r) => r.kind === 'array' && target(r.targetKey)?.access.aggregate === true);
}
