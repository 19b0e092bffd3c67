// The fields and arguments generated for a table (decision 046): its root fields, its columns'
// fields and the names the engine gives arguments, operators and aggregate fields, all cased by
// its source's naming convention. The schema builder names them here and the compiler reads them
// back by the same functions.
import type { RootFieldKey, TableEntry } from '../../../spec';
import { customTableName, rootFieldName } from '../metadata/naming';
import { custom, fieldName, generated, recaseField, tableWords, type NamingConvention } from '../metadata/namingCase';
import { conventionOf } from './typeNames';

/** The generated words before and after the table's in each root field (`insert_<table>_one`). */
const ROOT_FIELD_WORDS: Record<RootFieldKey, [string[], string[]]> = {
  select: [[], []],
  select_by_pk: [[], ['by', 'pk']],
  select_aggregate: [[], ['aggregate']],
  select_stream: [[], ['stream']],
  insert: [['insert'], []],
  insert_one: [['insert'], ['one']],
  update: [['update'], []],
  update_by_pk: [['update'], ['by', 'pk']],
  update_many: [['update'], ['many']],
  delete: [['delete'], []],
  delete_by_pk: [['delete'], ['by', 'pk']],
};

/** A root field of the table: a custom root field as given, else the table's name with the field's words. */
export function tableRootField(entry: TableEntry, key: RootFieldKey, convention: NamingConvention): string {
  const given = entry.configuration?.custom_root_fields?.[key];
  if (convention === 'hasura-default' || given !== undefined) return rootFieldName(entry, key);
  const [before, after] = ROOT_FIELD_WORDS[key];
  return fieldName(convention, [...generated(...before), ...tableWords(entry.table, customTableName(entry)), ...generated(...after)]);
}

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
