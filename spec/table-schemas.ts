// Schemas shared by operation arguments and the metadata document: table configuration and
// relationship definitions.
import { tableName, type QualifiedName } from './names';
import { array, boolean, integer, json, jsonObject, literal, nullable, object, parseFailure, parsed, record, refine, string, union } from './schema';

export const customRootFields = object(
  {},
  {
    select: nullable(string),
    select_by_pk: nullable(string),
    select_aggregate: nullable(string),
    insert: nullable(string),
    insert_one: nullable(string),
    update: nullable(string),
    update_by_pk: nullable(string),
    update_many: nullable(string),
    delete: nullable(string),
    delete_by_pk: nullable(string),
    select_stream: nullable(string),
  },
);

export const tableConfig = object(
  {},
  {
    custom_name: nullable(string),
    identifier: nullable(string),
    custom_root_fields: customRootFields,
    custom_column_names: record(string),
    column_config: record(object({}, { custom_name: nullable(string), comment: nullable(string) })),
  },
);

// Relationships (SPEC.md §2.2 "Relationship entry"; operations not shown: Hasura's documented forms).
export const manualConfiguration = object({ remote_table: tableName, column_mapping: record(string) });
export const objectRelationshipUsing = refine(
  object(
    {},
    {
      foreign_key_constraint_on: union<[string, string[]]>([string, array(string, { minItems: 1 })], 'String or Array'),
      manual_configuration: manualConfiguration,
    },
  ),
  (v, path) =>
    (v.foreign_key_constraint_on === undefined) === (v.manual_configuration === undefined)
      ? parseFailure(path, 'exactly one of "foreign_key_constraint_on" and "manual_configuration" is expected')
      : parsed(v),
);
export const arrayForeignKey = union<[{ table: QualifiedName; column?: string; columns?: string[] }]>(
  [object({ table: tableName }, { column: string, columns: array(string, { minItems: 1 }) })],
  'Object',
);
export const arrayRelationshipUsing = refine(
  object({}, { foreign_key_constraint_on: arrayForeignKey, manual_configuration: manualConfiguration }),
  (v, path) =>
    (v.foreign_key_constraint_on === undefined) === (v.manual_configuration === undefined)
      ? parseFailure(path, 'exactly one of "foreign_key_constraint_on" and "manual_configuration" is expected')
      : v.foreign_key_constraint_on && (v.foreign_key_constraint_on.column === undefined) === (v.foreign_key_constraint_on.columns === undefined)
        ? parseFailure(`${path}.foreign_key_constraint_on`, 'exactly one of "column" and "columns" is expected')
        : parsed(v),
);

// Permissions (SPEC.md §2.3).
/** `'*'` or a list of column names. */
export const columns = union<['*', string[]]>([literal('*'), array(string)], "'*' or Array");
export const boolExp = jsonObject;
export const columnPresets = record(json);
export const insertPermission = object({ check: boolExp }, { set: columnPresets, columns, backend_only: boolean });
export const selectPermission = object({ columns, filter: boolExp }, { computed_fields: array(string), limit: integer, allow_aggregations: boolean });
export const updatePermission = object({ columns, filter: boolExp }, { check: boolExp, set: columnPresets });
/** SPEC.md §2.3: requiredness not shown; `filter` is required (decision dec.delete-permission.filter). */
export const deletePermission = object({ filter: boolExp });
