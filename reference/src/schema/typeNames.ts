// The names of a table's generated types (decision dec.source.customization): the table's GraphQL
// name and what the type adds to it, between its source's type prefix and suffix, cased by its
// source's naming convention (decision 046).
import { customTableName } from '../metadata/naming';
import type { TableModel } from './modelTypes';
import { generated, recaseType, tableWords, typeName as typeOfWords, withPrefixSuffix, type NamingConvention } from '../metadata/namingCase';

/** The convention a table's names are made by: its source's, hasura-default when none is named. */
export const conventionOf = (t: { naming?: NamingConvention | undefined }): NamingConvention => t.naming ?? 'hasura-default';

export type TypeNamed = Pick<TableModel, 'name' | 'typeNames' | 'naming' | 'entry'>;

/** The type `<table><rest>` of `t`, under its source's type name customization and naming convention. */
export function typeName(t: TypeNamed, rest = ''): string {
  const convention = conventionOf(t);
  if (convention === 'hasura-default') return `${t.typeNames?.prefix ?? ''}${t.name}${rest}${t.typeNames?.suffix ?? ''}`;
  const words = [...tableWords(t.entry.table, customTableName(t.entry)), ...(rest === '' ? [] : generated(rest.replace(/^_/, '')))];
  return withPrefixSuffix(convention, 'type', typeOfWords(convention, words), t.typeNames?.prefix, t.typeNames?.suffix);
}

/** A type shared by every table of a source (cursor_ordering, a namespace's), under the source's type name customization and convention. */
export const sourceTypeName = (typeNames: TableModel['typeNames'], name: string, convention: NamingConvention = 'hasura-default') =>
  withPrefixSuffix(convention, 'type', recaseType(convention, name), typeNames?.prefix, typeNames?.suffix);
