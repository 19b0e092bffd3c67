// The names of a table's generated types (decision dec.source.customization): the table's GraphQL
// name and what the type adds to it, between its source's type prefix and suffix.
import type { TableModel } from './modelTypes';

/** The type `<table><rest>` of `t`, under its source's type name customization. */
export const typeName = (t: Pick<TableModel, 'name' | 'typeNames'>, rest = '') => `${t.typeNames?.prefix ?? ''}${t.name}${rest}${t.typeNames?.suffix ?? ''}`;

/** A type shared by every table of a source (cursor_ordering), under the source's type name customization. */
export const sourceTypeName = (typeNames: TableModel['typeNames'], name: string) => `${typeNames?.prefix ?? ''}${name}${typeNames?.suffix ?? ''}`;
