// What every maker of a role's table types shares: the scalars, the memo that makes each type once
// (a table's types once per class of equal tables, see TypeShare), enum tables and column types.
import { GraphQLEnumType, type GraphQLScalarType } from 'graphql';
import { enumTypeName, type ColumnModel, type Models, type TableModel } from './model';
import { builtInScalar, customScalar } from './scalars';
import type { TypeShare } from './typeShare';
import { makeEnumType } from './types';
import { enumValue } from '../metadata/namingCase';
import { conventionOf } from './typeNames';

/** The scalar of this name in the schemas that share `share`: one object per name. */
export function sharedScalar(share: TypeShare, name: string): GraphQLScalarType {
  let s = share.scalars.get(name) ?? builtInScalar(name);
  if (!s) {
    s = customScalar(name);
    share.scalars.set(name, s);
  }
  return s;
}

export interface TypeContext {
  models: Models;
  share: TypeShare;
  scalar: (name: string) => GraphQLScalarType;
  /** The type of this name, made once for the schemas that share the memo; with `content` (all it is made from), taken from the version before when that is the same. */
  once: <T>(name: string, make: () => T, content?: string) => T;
  /** A table's type of this name, made once per class of the table. */
  ownType: <T>(table: TableModel, name: string, make: () => T) => T;
  /** The enum tables of the role, by their enum type's name. */
  enumTables: ReadonlyMap<string, TableModel>;
  enumType: (table: TableModel) => GraphQLEnumType;
  columnType: (c: ColumnModel) => GraphQLScalarType | GraphQLEnumType;
  /** Everything a column's type is made from: its name, and an enum's values. */
  columnTypeKey: (c: ColumnModel) => string;
  /** The class of equal tables each table belongs to. */
  classes: ReturnType<TypeShare['classify']>;
  /** The table a relationship or computed field of `table` leads to. */
  target: (table: TableModel, key: string) => TableModel;
}

export function typeContext(models: Models, share: TypeShare, remoteTypes = ''): TypeContext {
  const scalar = (name: string) => sharedScalar(share, name);
  const ownType = <T>(table: TableModel, name: string, make: () => T): T => {
    const found = share.typesOfClass(classes.get(table.key)!);
    let type = found.get(name) as T | undefined;
    if (type === undefined) found.set(name, (type = make()));
    return type;
  };
  /** What an enum table's enum is made from: its values and their comments. */
  const enumContent = (table: TableModel) => JSON.stringify((table.enumValues ?? []).map((v) => [v.value, v.comment ?? null]));
  const enumType = (table: TableModel) =>
    share.named(
      enumTypeName(table),
      () =>
        makeEnumType({
          name: enumTypeName(table),
          // Decision dec.graphql.introspection-order: sorted by name. Named by the table's convention, valued by the row's text.
          values: Object.fromEntries(
            (table.enumValues ?? [])
              .map((v) => [enumValue(conventionOf(table), v.value), { value: v.value, ...(v.comment ? { description: v.comment } : {}) }] as const)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          ),
        }),
      enumContent(table),
    );
  const enumTables = new Map([...models.values()].filter((m) => m.enumValues?.length).map((m) => [enumTypeName(m), m]));
  const columnType = (c: ColumnModel): GraphQLScalarType | GraphQLEnumType =>
    c.enumType && enumTables.has(c.enumType) ? enumType(enumTables.get(c.enumType)!) : scalar(c.scalar);
  const columnTypeKey = (c: ColumnModel) => {
    const enumTable = c.enumType ? enumTables.get(c.enumType) : undefined;
    return enumTable ? `${c.enumType} ${enumContent(enumTable)}` : scalar(c.scalar).name;
  };
  const classes = share.classify(models, columnTypeKey, remoteTypes);
  return {
    models,
    share,
    scalar,
    once: (name, make, content) => share.named(name, make, content),
    ownType,
    enumTables,
    enumType,
    columnType,
    columnTypeKey,
    classes,
    target: (_table, key) => models.get(key)!,
  };
}
