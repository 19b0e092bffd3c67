// The types of a table's mutations: inputs for insert, update and the primary key, `on_conflict`,
// and `<table>_mutation_response`.
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import type { FilterTypes } from './filterTypes';
import { INSERT_PLACEHOLDER, type ColumnModel, type TableModel } from './model';
import type { ObjectTypes } from './objectTypes';
import { isJsonbType, isNumericType } from './scalars';
import type { TypeContext } from './typeContext';
import { makeEnumType, makeInputObjectType, makeObjectType } from './types';
import { list, listOf, nonNull } from './wrappers';

export interface MutationTypes {
  inputOf: (t: TableModel, name: string, cols: ColumnModel[], type: (c: ColumnModel) => GraphQLInputType) => GraphQLInputObjectType;
  mutationResponse: (t: TableModel) => GraphQLObjectType;
  /** `<table>_on_conflict`, when the table has a constraint to name. */
  onConflict: (t: TableModel) => GraphQLInputObjectType | undefined;
  /** `_set`, `_inc` and the jsonb operators of an update. */
  updateArgs: (t: TableModel) => GraphQLFieldConfigArgumentMap;
  insertInput: (t: TableModel) => GraphQLInputObjectType;
}

export function mutationTypes(cx: TypeContext, filters: FilterTypes, objects: ObjectTypes): MutationTypes {
  const { ownType, columnType } = cx;
  const { boolExp } = filters;
  const { objectType } = objects;

  const inputOf = (t: TableModel, name: string, cols: ColumnModel[], type: (c: ColumnModel) => GraphQLInputType) =>
    ownType(t, name, () => makeInputObjectType({ name, fields: Object.fromEntries(cols.map((c) => [c.field, { type: type(c) }])) }));

  const mutationResponse = (t: TableModel) =>
    ownType(t, `${t.name}_mutation_response`, () =>
      makeObjectType({
        name: `${t.name}_mutation_response`,
        // A role that may not read the table learns how many rows, not which.
        fields: () => ({ affected_rows: { type: nonNull(GraphQLInt) }, ...(t.access.select ? { returning: { type: list(objectType(t)) } } : {}) }),
      }),
    );
  const columnEnum = (t: TableModel, name: string, cols: ColumnModel[]) =>
    ownType(t, name, () =>
      makeEnumType({
        name,
        values: cols.length ? Object.fromEntries(cols.map((c) => [c.field, { value: c.field }])) : { _PLACEHOLDER: { value: '_PLACEHOLDER' } },
      }),
    );
  const onConflict = (t: TableModel) =>
    t.constraints.length === 0
      ? undefined
      : ownType(t, `${t.name}_on_conflict`, () =>
          makeInputObjectType({
            name: `${t.name}_on_conflict`,
            fields: () => ({
              constraint: {
                type: nonNull(
                  ownType(t, `${t.name}_constraint`, () =>
                    makeEnumType({ name: `${t.name}_constraint`, values: Object.fromEntries(t.constraints.map((c) => [c.name, { value: c.name }])) }),
                  ),
                ),
              },
              update_columns: { type: list(columnEnum(t, `${t.name}_update_column`, t.access.updateColumns)), defaultValue: [] },
              where: { type: boolExp(t) },
            }),
          }),
        );

  const updateArgs = (t: TableModel): GraphQLFieldConfigArgumentMap => {
    const cols = t.access.updateColumns;
    // Presets may cover every column the role may update: then there is nothing to _set.
    const args: GraphQLFieldConfigArgumentMap = cols.length ? { _set: { type: inputOf(t, `${t.name}_set_input`, cols, columnType) } } : {};
    const numeric = cols.filter((c) => isNumericType(c.column));
    if (numeric.length) args._inc = { type: inputOf(t, `${t.name}_inc_input`, numeric, columnType) };
    const jsonb = cols.filter((c) => isJsonbType(c.column));
    if (jsonb.length) {
      args._append = { type: inputOf(t, `${t.name}_append_input`, jsonb, columnType) };
      args._prepend = { type: inputOf(t, `${t.name}_prepend_input`, jsonb, columnType) };
      args._delete_key = { type: inputOf(t, `${t.name}_delete_key_input`, jsonb, () => GraphQLString) };
      args._delete_elem = { type: inputOf(t, `${t.name}_delete_elem_input`, jsonb, () => GraphQLInt) };
      args._delete_at_path = { type: inputOf(t, `${t.name}_delete_at_path_input`, jsonb, () => listOf(GraphQLString)) };
    }
    return args;
  };

  // Decision dec.schema.always-valid: presets may cover every column the role may insert.
  const insertInput = (t: TableModel) =>
    t.access.insertColumns.length
      ? inputOf(t, `${t.name}_insert_input`, t.access.insertColumns, columnType)
      : ownType(t, `${t.name}_insert_input`, () =>
          makeInputObjectType({
            name: `${t.name}_insert_input`,
            fields: { [INSERT_PLACEHOLDER]: { type: GraphQLBoolean, description: "unused: the role's presets set every column" } },
          }),
        );

  return { inputOf, mutationResponse, onConflict, updateArgs, insertInput };
}
