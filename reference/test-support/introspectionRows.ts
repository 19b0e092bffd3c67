// Catalog rows as introspection reads them, for unit tests that build models without a database.
import type { DbColumn, DbConstraint, DbTable } from '../src/db/introspection';

/** A plain column of a pg_catalog type (int4 in the numeric category, any other in the string one). */
export const dbColumn = (name: string, type: string): DbColumn => ({
  name,
  position: 0,
  type,
  type_schema: 'pg_catalog',
  type_kind: 'b',
  type_category: type === 'int4' ? 'N' : 'S',
  element_type: null,
  nullable: false,
  has_default: false,
  generated: false,
  enum_values: null,
  comment: null,
});

/** A table of public, with its primary key on `key` when given, and the other constraints. */
export const dbTable = (name: string, oid: number, columns: DbColumn[], key: string[] | undefined, constraints: DbConstraint[] = []): DbTable => ({
  schema: 'public',
  name,
  kind: 'r',
  oid: String(oid),
  updatable: 28,
  comment: null,
  columns,
  constraints: [
    ...(key ? [{ name: `${name}_pkey`, type: 'p' as const, columns: key, ref_schema: null, ref_table: null, ref_columns: null }] : []),
    ...constraints,
  ],
  unique_indexes: [],
});
