// The fields and arguments generated for a table (decision 046): its columns' fields and the names
// the engine gives arguments, operators and aggregate fields, all cased by its source's naming
// convention (its root fields: metadata/naming.ts). The schema builder names them here and the
// compiler reads them back by the same functions.
import type { TableEntry } from '../../../spec';
import { custom, fieldName, generated, recaseField, type NamingConvention } from '../metadata/namingCase';
import { conventionOf } from './typeNames';

/** A column's field: its custom name as given, else its name in the convention's case. */
export const columnField = (entry: TableEntry, column: string, convention: NamingConvention): string =>
  entry.configuration?.custom_column_names?.[column] ?? recaseField(convention, column);

/** A generated field or argument of `t`'s types (`order_by`, `affected_rows`, `_is_null`), as its source names it. */
export const fieldOf = (t: { naming?: NamingConvention | undefined }, name: string): string => recaseField(conventionOf(t), name);

/** The value of the generated argument or input field `name` (`order_by`, `pk_columns`) in `args`, read by the name `t`'s convention gave it. */
export const argOf = (t: { naming?: NamingConvention | undefined }, args: Readonly<Record<string, unknown>>, name: string): unknown => args[fieldOf(t, name)];

/** A field a relationship of `t` leads to besides its own (`<relationship>_aggregate`): the relationship's name as given, then the convention's words. */
export const relationshipFieldOf = (t: { naming?: NamingConvention | undefined }, relationship: string, rest: string): string => {
  const convention = conventionOf(t);
  return convention === 'hasura-default' ? `${relationship}_${rest}` : fieldName(convention, [...custom(relationship), ...generated(rest)]);
};
