// The database as the metadata sees it: all relations by name, and the details (columns, keys)
// of the tables that the metadata names.
import type { QualifiedName } from '../../../spec';

export interface Relation extends QualifiedName {
  kind: string;
  oid: string;
}

export interface DbColumn {
  name: string;
  /** pg_attribute.attnum: a renamed column keeps it. */
  position: number;
  type: string;
  type_schema: string;
  /** pg_type.typtype: b base, e enum, d domain, c composite. */
  type_kind: string;
  /** pg_type.typcategory: A array, N numeric, S string, … */
  type_category: string;
  element_type: string | null;
  nullable: boolean;
  has_default: boolean;
  generated: boolean;
  enum_values: string[] | null;
  comment: string | null;
}

export interface DbConstraint {
  name: string;
  type: 'p' | 'u' | 'f';
  columns: string[];
  ref_schema: string | null;
  ref_table: string | null;
  ref_columns: string[] | null;
}

export interface DbTable extends Relation {
  /** pg_relation_is_updatable bits: 8 insert, 4 update, 16 delete. */
  updatable: number;
  comment: string | null;
  columns: DbColumn[];
  constraints: DbConstraint[];
  unique_indexes: { name: string; columns: string[] }[];
}

export interface DbFunctionArgument {
  /** Absent for unnamed arguments. */
  name: string | null;
  type: string;
  type_schema: string;
  /** pg_type.typtype: c for a row type (of a table, or a composite type). */
  type_kind: string;
  has_default: boolean;
}

/** One function (one overload) of the database. */
export interface DbFunction extends QualifiedName {
  oid: string;
  volatility: 'IMMUTABLE' | 'STABLE' | 'VOLATILE';
  returns_set: boolean;
  /** No OUT, INOUT, TABLE or VARIADIC arguments. */
  only_in_arguments: boolean;
  return_type: string;
  return_type_schema: string;
  /** pg_type.typtype of the return type: c composite, b base, p pseudo (void, record, trigger), … */
  return_type_kind: string;
  /** The table or view whose row type the function returns, if it returns one. */
  return_relation: QualifiedName | null;
  language: string;
  comment: string | null;
  /** Input arguments in order (OUT arguments are part of the return type). */
  arguments: DbFunctionArgument[];
}

export interface Introspection {
  relations: ReadonlyMap<string, Relation>;
  /** Details of the tables loaded so far (those the metadata names, at least). */
  tables: ReadonlyMap<string, DbTable>;
  /** Every overload of the functions the metadata names, by schema and name (none: absent). */
  functions: ReadonlyMap<string, readonly DbFunction[]>;
}

/** The key of a table of a source besides default among the models of all sources (decision dec.source.forms). */
export const sourceKey = (source: string | undefined, key: string): string => (source === undefined ? key : `${source}\u0001${key}`);

export const relationKey = (q: QualifiedName) => `${q.schema}\u0000${q.name}`;

export function introspectionOf(relations: readonly Relation[], tables: readonly DbTable[] = [], functions: readonly DbFunction[] = []): Introspection {
  return {
    relations: new Map(relations.map((r) => [relationKey(r), r])),
    tables: new Map(tables.map((t) => [relationKey(t), t])),
    functions: functionsByName(functions),
  };
}

export function functionsByName(functions: readonly DbFunction[]): Map<string, DbFunction[]> {
  const out = new Map<string, DbFunction[]>();
  for (const f of functions) {
    const key = relationKey(f);
    out.set(key, [...(out.get(key) ?? []), f]);
  }
  return out;
}

export const primaryKeyOf = (t: DbTable) => t.constraints.find((c) => c.type === 'p');
export const foreignKeysOf = (t: DbTable) => t.constraints.filter((c) => c.type === 'f');
/** Constraints an upsert can name: the primary key and unique constraints. */
export const uniqueConstraintsOf = (t: DbTable) => t.constraints.filter((c) => c.type === 'p' || c.type === 'u');
export const columnOf = (t: DbTable, name: string) => t.columns.find((c) => c.name === name);
