// The types of a table's streaming subscription field (decision dec.graphql.stream.schema):
// `<table>_stream(batch_size, cursor, where)`, its cursor `<table>_stream_cursor_input` of one
// column's initial value and an ordering, named and described as the engine generates them.
import { conventionOf, sourceTypeName, typeName } from './typeNames';
import { fieldOf } from './generatedFields';
import { GraphQLInt, type GraphQLEnumType, type GraphQLFieldConfigArgumentMap, type GraphQLInputObjectType } from 'graphql';
import { CURSOR_ORDERING, described, DESCRIBE, STREAM_ARGUMENT } from './descriptions';
import type { FilterTypes } from './filterTypes';
import type { TableModel } from './model';
import type { TypeContext } from './typeContext';
import { makeEnumType, makeInputObjectType } from './types';
import { listOfNullable, nonNull } from './wrappers';

/** One enum for every schema, as `order_by` is; under a source's type name customization, one of the source's. */
const cursorOrderings = new Map<string, GraphQLEnumType>();
const cursorOrderingEnum = (name = 'cursor_ordering'): GraphQLEnumType => {
  let made = cursorOrderings.get(name);
  if (!made) {
    made = makeEnumType({
      name,
      description: CURSOR_ORDERING.type,
      values: Object.fromEntries(Object.entries(CURSOR_ORDERING.values).map(([v, description]) => [v, { value: v, description }])),
    });
    cursorOrderings.set(name, made);
  }
  return made;
};

export interface StreamTypes {
  /** The arguments of the table's streaming field. */
  streamArgs: (t: TableModel) => GraphQLFieldConfigArgumentMap;
}

export function streamTypes(cx: TypeContext, filters: FilterTypes): StreamTypes {
  const { ownType, columnType } = cx;

  /** Every column the role may select, each with its own type, nullable (one of them is given). */
  const valueInput = (t: TableModel): GraphQLInputObjectType =>
    ownType(t, typeName(t, '_stream_cursor_value_input'), () =>
      makeInputObjectType({
        name: typeName(t, '_stream_cursor_value_input'),
        description: DESCRIBE.streamCursorValueInput,
        fields: () => Object.fromEntries(t.columns.map((c) => [c.field, { type: columnType(c), ...described(c.column.comment) }])),
      }),
    );

  const cursorInput = (t: TableModel): GraphQLInputObjectType =>
    ownType(t, typeName(t, '_stream_cursor_input'), () =>
      makeInputObjectType({
        name: typeName(t, '_stream_cursor_input'),
        description: DESCRIBE.streamCursorInput(t.name),
        fields: () => ({
          [fieldOf(t, 'initial_value')]: { type: nonNull(valueInput(t)), description: STREAM_ARGUMENT.initial_value },
          [fieldOf(t, 'ordering')]: {
            type: cursorOrderingEnum(sourceTypeName(t.typeNames, 'cursor_ordering', conventionOf(t))),
            description: STREAM_ARGUMENT.ordering,
          },
        }),
      }),
    );

  const streamArgs = (t: TableModel): GraphQLFieldConfigArgumentMap => ({
    [fieldOf(t, 'batch_size')]: { type: nonNull(GraphQLInt), description: STREAM_ARGUMENT.batch_size },
    [fieldOf(t, 'cursor')]: { type: listOfNullable(cursorInput(t)), description: STREAM_ARGUMENT.cursor },
    [fieldOf(t, 'where')]: { type: filters.boolExp(t), description: STREAM_ARGUMENT.where },
  });

  return { streamArgs };
}
