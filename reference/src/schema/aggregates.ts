// Which aggregate functions a table's schema offers, on which columns; and which computed fields
// can be compared and ordered by like columns.
import type { ColumnModel, TableModel } from './model';
import { isNumericType, isOrderedType } from './scalars';

const NUMERIC_AGGREGATES = ['sum', 'avg', 'stddev', 'stddev_pop', 'stddev_samp', 'var_pop', 'var_samp', 'variance'] as const;
export const AGGREGATE_OPERATIONS = [...NUMERIC_AGGREGATES, 'max', 'min'] as const;

/** Scalar computed fields that need no arguments: they can be compared and ordered by. */
export const comparableComputed = (t: TableModel) =>
  t.computedFields.filter((c) => c.kind === 'scalar' && c.arguments.every((a) => a.row || a.session || a.hasDefault));

/**
 * The columns an aggregate function applies to. A column typed as an enum table's enum
 * (`isEnum`) is compared only for equality, as the engine does: it has no min or max.
 */
export function aggregateColumns(t: TableModel, op: (typeof AGGREGATE_OPERATIONS)[number], isEnum: (c: ColumnModel) => boolean = () => false): ColumnModel[] {
  if (op === 'max' || op === 'min') return t.columns.filter((c) => (isOrderedType(c.column) || isNumericType(c.column)) && !isEnum(c));
  return t.columns.filter((c) => isNumericType(c.column));
}
