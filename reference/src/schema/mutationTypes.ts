// The types of a table's mutations: inputs for insert, update and the primary key, `on_conflict`,
// and `<table>_mutation_response`.
import { typeName } from './typeNames';
import { fieldOf } from './generatedFields';
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { described, DESCRIBE, MUTATION_ARGUMENT, UPDATE_OPERATOR } from './descriptions';
import type { FilterTypes } from './filterTypes';
import { INSERT_PLACEHOLDER, type ColumnModel, type TableModel } from './model';
import type { ObjectTypes } from './objectTypes';
import { isJsonbType, isNumericType } from './scalars';
import type { TypeContext } from './typeContext';
import { makeEnumType, makeInputObjectType, makeObjectType } from './types';
import { list, listOf, nonNull } from './wrappers';

export interface MutationTypes {
  inputOf: (t: TableModel, name: string, cols: ColumnModel[], type: (c: ColumnModel) => GraphQLInputType, description?: string) => GraphQLInputObjectType;
  mutationResponse: (t: TableModel) => GraphQLObjectType;
  /** `<table>_on_conflict`, when the table has a constraint to name and the role may upsert. */
  upsert: (t: TableModel) => GraphQLInputObjectType | undefined;
  /** `_set`, `_inc` and the jsonb operators of an update. */
  updateArgs: (t: TableModel) => GraphQLFieldConfigArgumentMap;
  insertInput: (t: TableModel) => GraphQLInputObjectType;
  /** `<table>_updates`: one update of update_<table>_many, its operators and `where`. */
  updates: (t: TableModel) => GraphQLInputObjectType;
}

export function mutationTypes(cx: TypeContext, filters: FilterTypes, objects: ObjectTypes): MutationTypes {
  const { ownType, columnType, target } = cx;
  const { boolExp } = filters;
  const { objectType } = objects;

  // Every input of columns describes each by its comment, as the engine does.
  const inputOf = (t: TableModel, name: string, cols: ColumnModel[], type: (c: ColumnModel) => GraphQLInputType, description?: string) =>
    ownType(t, name, () =>
      makeInputObjectType({
        name,
        ...described(description),
        fields: Object.fromEntries(cols.map((c) => [c.field, { type: type(c), ...described(c.column.comment) }])),
      }),
    );

  const mutationResponse = (t: TableModel) =>
    ownType(t, typeName(t, '_mutation_response'), () =>
      makeObjectType({
        name: typeName(t, '_mutation_response'),
        description: DESCRIBE.mutationResponse(t.entry.table),
        // A role that may not read the table learns how many rows, not which.
        fields: () => ({
          [fieldOf(t, 'affected_rows')]: { type: nonNull(GraphQLInt), description: DESCRIBE.affectedRows },
          ...(t.access.select ? { [fieldOf(t, 'returning')]: { type: list(objectType(t)), description: DESCRIBE.returning } } : {}),
        }),
      }),
    );
  const columnEnum = (t: TableModel, name: string, cols: ColumnModel[]) =>
    ownType(t, name, () =>
      makeEnumType({
        name,
        description: DESCRIBE.updateColumn(t.entry.table),
        values: cols.length
          ? Object.fromEntries(cols.map((c) => [c.field, { value: c.field, description: DESCRIBE.columnName }]))
          : { _PLACEHOLDER: { value: '_PLACEHOLDER', description: 'placeholder (do not use)' } },
      }),
    );
  const onConflict = (t: TableModel) =>
    t.constraints.length === 0
      ? undefined
      : ownType(t, typeName(t, '_on_conflict'), () =>
          makeInputObjectType({
            name: typeName(t, '_on_conflict'),
            description: DESCRIBE.onConflict(t.entry.table),
            fields: () => ({
              [fieldOf(t, 'constraint')]: {
                type: nonNull(
                  ownType(t, typeName(t, '_constraint'), () =>
                    makeEnumType({
                      name: typeName(t, '_constraint'),
                      description: DESCRIBE.constraint(t.entry.table),
                      values: Object.fromEntries(t.constraints.map((c) => [c.name, { value: c.name, description: DESCRIBE.constraintValue(c.columns) }])),
                    }),
                  ),
                ),
              },
              [fieldOf(t, 'update_columns')]: { type: list(columnEnum(t, typeName(t, '_update_column'), t.access.updateColumns)), defaultValue: [] },
              [fieldOf(t, 'where')]: { type: boolExp(t) },
            }),
          }),
        );

  const updateArgs = (t: TableModel): GraphQLFieldConfigArgumentMap => {
    const cols = t.access.updateColumns;
    const args: GraphQLFieldConfigArgumentMap = {};
    // An operator's argument and its input type share the engine's description of the operator.
    const add = (op: string, inputName: string, columns: ColumnModel[], type: (c: ColumnModel) => GraphQLInputType, description = UPDATE_OPERATOR[op]) => {
      args[fieldOf(t, op)] = { type: inputOf(t, typeName(t, `_${inputName}`), columns, type, description), description: UPDATE_OPERATOR[op] };
    };
    const table = t.entry.table;
    // Presets may cover every column the role may update: then there is nothing to _set.
    if (cols.length) add('_set', 'set_input', cols, columnType, DESCRIBE.setInput(table));
    const numeric = cols.filter((c) => isNumericType(c.column));
    if (numeric.length) add('_inc', 'inc_input', numeric, columnType, DESCRIBE.incInput(table));
    const jsonb = cols.filter((c) => isJsonbType(c.column));
    if (jsonb.length) {
      add('_append', 'append_input', jsonb, columnType);
      add('_prepend', 'prepend_input', jsonb, columnType);
      add('_delete_key', 'delete_key_input', jsonb, () => GraphQLString);
      add('_delete_elem', 'delete_elem_input', jsonb, () => GraphQLInt);
      add('_delete_at_path', 'delete_at_path_input', jsonb, () => listOf(GraphQLString));
    }
    return args;
  };

  /** `on_conflict` where the role may upsert: upserts update columns, so a role needs an update permission for them. */
  const upsert = (t: TableModel) => (t.access.update || !t.permissions ? onConflict(t) : undefined);

  // Decision dec.graphql.nested-inserts: the rows of a relationship's target, inserted with the row.
  const relationshipInput = (t: TableModel, kind: 'obj' | 'arr') =>
    ownType(t, typeName(t, `_${kind}_rel_insert_input`), () =>
      makeInputObjectType({
        name: typeName(t, `_${kind}_rel_insert_input`),
        description: kind === 'obj' ? DESCRIBE.objRelInsertInput(t.entry.table) : DESCRIBE.arrRelInsertInput(t.entry.table),
        fields: () => {
          const conflict = upsert(t);
          return {
            [fieldOf(t, 'data')]: { type: kind === 'obj' ? nonNull(insertInput(t)) : list(insertInput(t)) },
            ...(conflict ? { [fieldOf(t, 'on_conflict')]: { type: conflict, description: MUTATION_ARGUMENT.on_conflict } } : {}),
          };
        },
      }),
    );

  // Decision dec.schema.always-valid: presets may cover every column the role may insert.
  const insertInput = (t: TableModel): GraphQLInputObjectType =>
    ownType(t, typeName(t, '_insert_input'), () =>
      makeInputObjectType({
        name: typeName(t, '_insert_input'),
        description: DESCRIBE.insertInput(t.entry.table),
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = Object.fromEntries(
            t.access.insertColumns.map((c) => [c.field, { type: columnType(c), ...described(c.column.comment) }]),
          );
          for (const r of t.insertRelationships) fields[r.name] = { type: relationshipInput(target(t, r.targetKey), r.kind === 'object' ? 'obj' : 'arr') };
          if (Object.keys(fields).length === 0)
            fields[INSERT_PLACEHOLDER] = { type: GraphQLBoolean, description: "unused: the role's presets set every column" };
          return fields;
        },
      }),
    );

  const updates = (t: TableModel) =>
    ownType(t, typeName(t, '_updates'), () =>
      makeInputObjectType({
        name: typeName(t, '_updates'),
        fields: () => ({ ...updateArgs(t), [fieldOf(t, 'where')]: { type: nonNull(boolExp(t)), description: MUTATION_ARGUMENT.updateWhere } }),
      }),
    );

  return { inputOf, mutationResponse, upsert, updateArgs, insertInput, updates };
}
