// The descriptions the engine gives its generated types, fields, arguments and enum values
// (decision dec.graphql.descriptions): generated client types carry them as documentation.
// Tables and functions are named as the engine names them: `"name"` in the public schema,
// `"schema.name"` elsewhere.
import type { QualifiedName } from '../../../spec';

const quoted = (q: QualifiedName) => JSON.stringify(q.schema === 'public' ? q.name : `${q.schema}.${q.name}`);

/** A text the database or the metadata gave, followed by the generated one, as the engine joins them. */
export const withComment = (comment: string | null | undefined, generated: string): string => (comment ? `${comment}\n\n\n${generated}\n` : generated);

export const DESCRIBE = {
  tableObject: (t: QualifiedName) => `columns and relationships of ${quoted(t)}`,
  aggregate: (t: QualifiedName) => `aggregated selection of ${quoted(t)}`,
  aggregateFields: (t: QualifiedName) => `aggregate fields of ${quoted(t)}`,
  aggregateOperationFields: (op: string) => `aggregate ${op} on columns`,
  aggregateOrderBy: (t: QualifiedName) => `order by aggregate values of table ${quoted(t)}`,
  aggregateOperationOrderBy: (t: QualifiedName, op: string) => `order by ${op}() on columns of table ${quoted(t)}`,
  boolExp: (t: QualifiedName) => `Boolean expression to filter rows from the table ${quoted(t)}. All fields are combined with a logical 'AND'.`,
  orderBy: (t: QualifiedName) => `Ordering options when selecting data from ${quoted(t)}.`,
  selectColumn: (t: QualifiedName) => `select columns of table ${quoted(t)}`,
  updateColumn: (t: QualifiedName) => `update columns of table ${quoted(t)}`,
  columnName: 'column name',
  comparisonExp: (typeName: string) => `Boolean expression to compare columns of type ${JSON.stringify(typeName)}. All fields are combined with logical 'AND'.`,
  objectRelationship: 'An object relationship',
  arrayRelationship: 'An array relationship',
  aggregateRelationship: 'An aggregate relationship',
  computedField: (fn: QualifiedName) => `A computed field, executes function ${quoted(fn)}`,
  /** The enum of the columns an aggregate predicate's function takes (`type`: that enum's own part of the name). */
  predicateColumns: (type: string, t: QualifiedName) => `select ${JSON.stringify(type)} columns of table ${quoted(t)}`,

  selectRoot: (t: QualifiedName) => `fetch data from the table: ${quoted(t)}`,
  selectByPkRoot: (t: QualifiedName) => `fetch data from the table: ${quoted(t)} using primary key columns`,
  aggregateRoot: (t: QualifiedName) => `fetch aggregated fields from the table: ${quoted(t)}`,
  selectStreamRoot: (t: QualifiedName) => `fetch data from the table in a streaming manner: ${quoted(t)}`,
  /** Named by the table's GraphQL name, as the engine names it here. */
  streamCursorInput: (tableName: string) => `Streaming cursor of the table ${JSON.stringify(tableName)}`,
  streamCursorValueInput: 'Initial value of the column from where the streaming should start',
  functionRoot: (fn: QualifiedName, t: QualifiedName) => `execute function ${quoted(fn)} which returns ${quoted(t)}`,
  functionAggregateRoot: (fn: QualifiedName, t: QualifiedName) => `execute function ${quoted(fn)} and query aggregates on result of table type ${quoted(t)}`,
  /** The `args` argument of a function's field: named by the field, as the engine does. */
  functionArgs: (field: string) => `input parameters for function ${JSON.stringify(field)}`,

  insertRoot: (t: QualifiedName) => `insert data into the table: ${quoted(t)}`,
  insertOneRoot: (t: QualifiedName) => `insert a single row into the table: ${quoted(t)}`,
  updateRoot: (t: QualifiedName) => `update data of the table: ${quoted(t)}`,
  updateByPkRoot: (t: QualifiedName) => `update single row of the table: ${quoted(t)}`,
  updateManyRoot: (t: QualifiedName) => `update multiples rows of table: ${quoted(t)}`,
  deleteRoot: (t: QualifiedName) => `delete data from the table: ${quoted(t)}`,
  deleteByPkRoot: (t: QualifiedName) => `delete single row from the table: ${quoted(t)}`,
  mutationRoot: 'mutation root',

  insertInput: (t: QualifiedName) => `input type for inserting data into table ${quoted(t)}`,
  setInput: (t: QualifiedName) => `input type for updating data in table ${quoted(t)}`,
  incInput: (t: QualifiedName) => `input type for incrementing numeric columns in table ${quoted(t)}`,
  pkColumnsInput: (t: QualifiedName) => `primary key columns input for table: ${t.schema === 'public' ? t.name : `${t.schema}.${t.name}`}`,
  mutationResponse: (t: QualifiedName) => `response of any mutation on the table ${quoted(t)}`,
  onConflict: (t: QualifiedName) => `on_conflict condition type for table ${quoted(t)}`,
  constraint: (t: QualifiedName) => `unique or primary key constraints on table ${quoted(t)}`,
  constraintValue: (columns: readonly string[]) => `unique or primary key constraint on columns ${columns.map((c) => JSON.stringify(c)).join(', ')}`,
  objRelInsertInput: (t: QualifiedName) => `input type for inserting object relation for remote table ${quoted(t)}`,
  arrRelInsertInput: (t: QualifiedName) => `input type for inserting array relation for remote table ${quoted(t)}`,
  affectedRows: 'number of rows affected by the mutation',
  returning: 'data from the rows affected by the mutation',
} as const;

/** The arguments every table's rows are read with. */
export const SELECT_ARGUMENT = {
  distinct_on: 'distinct select on columns',
  limit: 'limit the number of rows returned',
  offset: 'skip the first n rows. Use only with order_by',
  order_by: 'sort the rows by one or more columns',
  where: 'filter the rows returned',
} as const;

/** The arguments of a streaming subscription field, and the fields of its cursor. */
export const STREAM_ARGUMENT = {
  batch_size: 'maximum number of rows returned in a single batch',
  cursor: 'cursor to stream the results returned by the query',
  where: SELECT_ARGUMENT.where,
  initial_value: 'Stream column input with initial value',
  ordering: 'cursor ordering',
} as const;

export const CURSOR_ORDERING = {
  type: 'ordering argument of a cursor',
  values: { ASC: 'ascending ordering of the cursor', DESC: 'descending ordering of the cursor' },
} as const;

/** The arguments of the mutations. */
export const MUTATION_ARGUMENT = {
  objects: 'the rows to be inserted',
  object: 'the row to be inserted',
  on_conflict: 'upsert condition',
  updateWhere: 'filter the rows which have to be updated',
  deleteWhere: 'filter the rows which have to be deleted',
  updates: 'updates to execute, in order',
} as const;

/** The operators of an update, and the input types named after them: the same text for both. */
export const UPDATE_OPERATOR: Record<string, string> = {
  _set: 'sets the columns of the filtered rows to the given values',
  _inc: 'increments the numeric columns with given value of the filtered values',
  _append: 'append existing jsonb value of filtered columns with new jsonb value',
  _prepend: 'prepend existing jsonb value of filtered columns with new jsonb value',
  _delete_key: 'delete key/value pair or string element. key/value pairs are matched based on their key value',
  _delete_elem: 'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array',
  _delete_at_path: 'delete the field or element with specified path (for JSON arrays, negative integers count from the end)',
};

/** The comparison operators that the engine describes; the others (_eq, _gt, _in, …) have no description. */
export const COMPARISON_OPERATOR: Record<string, string> = {
  _like: 'does the column match the given pattern',
  _nlike: 'does the column NOT match the given pattern',
  _ilike: 'does the column match the given case-insensitive pattern',
  _nilike: 'does the column NOT match the given case-insensitive pattern',
  _similar: 'does the column match the given SQL regular expression',
  _nsimilar: 'does the column NOT match the given SQL regular expression',
  _regex: 'does the column match the given POSIX regular expression, case sensitive',
  _iregex: 'does the column match the given POSIX regular expression, case insensitive',
  _nregex: 'does the column NOT match the given POSIX regular expression, case sensitive',
  _niregex: 'does the column NOT match the given POSIX regular expression, case insensitive',
  _contains: 'does the column contain the given json value at the top level',
  _contained_in: 'is the column contained in the given json value',
  _has_key: 'does the string exist as a top-level key in the column',
  _has_keys_any: 'do any of these strings exist as top-level keys in the column',
  _has_keys_all: 'do all of these strings exist as top-level keys in the column',
};

/** The PostGIS operators of each type, as the engine describes them (decision dec.graphql.postgis). */
export const GEO_OPERATOR: Record<'geometry' | 'geography', Record<string, string>> = {
  geometry: {
    _st_contains: 'does the column contain the given geometry value',
    _st_crosses: 'does the column cross the given geometry value',
    _st_equals: 'is the column equal to given geometry value (directionality is ignored)',
    _st_overlaps: "does the column 'spatially overlap' (intersect but not completely contain) the given geometry value",
    _st_touches: 'does the column have atleast one point in common with the given geometry value',
    _st_within: 'is the column contained in the given geometry value',
    _st_intersects: 'does the column spatially intersect the given geometry value',
    _st_3d_intersects: 'does the column spatially intersect the given geometry value in 3D',
    _st_d_within: 'is the column within a given distance from the given geometry value',
    _st_3d_d_within: 'is the column within a given 3D distance from the given geometry value',
  },
  geography: {
    _st_intersects: 'does the column spatially intersect the given geography value',
    _st_d_within: 'is the column within a given distance from the given geography value',
  },
};

export const ORDER_BY = {
  type: 'column ordering options',
  values: {
    asc: 'in ascending order, nulls last',
    asc_nulls_first: 'in ascending order, nulls first',
    asc_nulls_last: 'in ascending order, nulls last',
    desc: 'in descending order, nulls first',
    desc_nulls_first: 'in descending order, nulls first',
    desc_nulls_last: 'in descending order, nulls last',
  },
} as const;

/** `{description}` when there is one, to spread into a config. */
export const described = (text: string | null | undefined): { description?: string } => (text ? { description: text } : {});
