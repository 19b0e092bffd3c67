// GraphQL names of tracked tables: the table's name (prefixed with its schema outside public),
// or its custom name, and the root fields and types derived from it (SPEC.md §2.3, §4.3).
import { DEFAULT_SCHEMA, type RootFieldKey, type TableEntry } from '../../../spec';
import { fieldName, generated, tableWords, typeName, type NamingConvention } from './namingCase';

export const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
export const isGraphQLName = (name: string) => GRAPHQL_NAME.test(name) && !name.startsWith('__');

/** The name the user gave the table (`custom_name`, or its older form `identifier`), if any. */
export const customTableName = (entry: TableEntry): string | undefined => (entry.configuration?.custom_name ?? entry.configuration?.identifier) || undefined;

/** The base name of a table's GraphQL types and fields. */
export function tableGraphQLName(entry: TableEntry): string {
  const custom = customTableName(entry);
  if (custom) return custom;
  return entry.table.schema === DEFAULT_SCHEMA ? entry.table.name : `${entry.table.schema}_${entry.table.name}`;
}

/**
 * Whether the table has a GraphQL name: one whose own name makes none (and that has no custom
 * name) is tracked but left out of the schema (decision dec.table.unserved-name).
 */
export const isServedTable = (entry: TableEntry): boolean => isGraphQLName(tableGraphQLName(entry));

const DEFAULT_ROOT_FIELDS: Record<RootFieldKey, (n: string) => string> = {
  select: (n) => n,
  select_by_pk: (n) => `${n}_by_pk`,
  select_aggregate: (n) => `${n}_aggregate`,
  insert: (n) => `insert_${n}`,
  insert_one: (n) => `insert_${n}_one`,
  update: (n) => `update_${n}`,
  update_by_pk: (n) => `update_${n}_by_pk`,
  update_many: (n) => `update_${n}_many`,
  delete: (n) => `delete_${n}`,
  delete_by_pk: (n) => `delete_${n}_by_pk`,
  select_stream: (n) => `${n}_stream`,
};

export function rootFieldName(entry: TableEntry, key: RootFieldKey): string {
  return entry.configuration?.custom_root_fields?.[key] ?? DEFAULT_ROOT_FIELDS[key](tableGraphQLName(entry));
}

export function columnGraphQLName(entry: TableEntry, column: string): string {
  return entry.configuration?.custom_column_names?.[column] ?? column;
}

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

/** The name of a table's object type under `convention`, before its source's type prefix and suffix: PascalCase words under graphql-default. */
export const tableTypeName = (entry: TableEntry, convention: NamingConvention): string =>
  convention === 'hasura-default' ? tableGraphQLName(entry) : typeName(convention, tableWords(entry.table, customTableName(entry)));
