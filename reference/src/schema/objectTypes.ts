// The output types of a table: its object type (columns, computed fields, relationships) and
// `<table>_aggregate` with its aggregate fields.
import { typeName } from './typeNames';
import { fieldOf, relationshipFieldOf } from './generatedFields';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLObjectType,
} from 'graphql';
import { aggregateColumns, AGGREGATE_OPERATIONS } from './aggregates';
import { described, DESCRIBE, withComment } from './descriptions';
import type { FilterTypes } from './filterTypes';
import type { ColumnModel, ComputedFieldModel, RemoteRelationshipModel, TableModel } from './model';
import { scalarName } from './scalars';
import type { TypeContext } from './typeContext';
import { makeInputObjectType, makeObjectType } from './types';
import { list, listOf, nonNull } from './wrappers';

export interface ObjectTypes {
  objectType: (t: TableModel) => GraphQLObjectType;
  aggregate: (t: TableModel) => GraphQLObjectType;
}

/** The field of a remote relationship in the role's schema, or undefined where the role does not see its remote side. */
export type RemoteRelationshipFields = (rel: RemoteRelationshipModel) => GraphQLFieldConfig<unknown, unknown> | undefined;

export function objectTypes(cx: TypeContext, filters: FilterTypes, remoteField: RemoteRelationshipFields = () => undefined): ObjectTypes {
  const { scalar, ownType, columnType, target } = cx;
  const { selectColumn, selectArgs } = filters;
  const isEnumColumn = (c: ColumnModel) => columnType(c) instanceof GraphQLEnumType;

  /** `args` of a computed field: its arguments other than the row and the session, typed `<table>_<field>_args`. */
  const computedArgs = (t: TableModel, c: ComputedFieldModel): GraphQLFieldConfigArgumentMap => {
    const given = c.arguments.filter((a) => !a.session && !a.row);
    if (given.length === 0) return {};
    const name = typeName(t, `_${c.field}_args`);
    const type = ownType(t, name, () =>
      makeInputObjectType({
        name,
        fields: Object.fromEntries(given.map((a) => [a.field, { type: a.hasDefault ? scalar(scalarName(a.column)) : nonNull(scalar(scalarName(a.column))) }])),
      }),
    );
    return { args: { type: given.some((a) => !a.hasDefault) ? nonNull(type) : type } };
  };

  const aggregateFields = (t: TableModel) =>
    ownType(t, typeName(t, '_aggregate_fields'), () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {
        [fieldOf(t, 'count')]: {
          type: nonNull(GraphQLInt),
          args: { [fieldOf(t, 'columns')]: { type: listOf(selectColumn(t)) }, [fieldOf(t, 'distinct')]: { type: GraphQLBoolean } },
        },
      };
      for (const op of AGGREGATE_OPERATIONS) {
        const cols = aggregateColumns(t, op, isEnumColumn);
        if (cols.length === 0) continue;
        fields[fieldOf(t, op)] = {
          type: ownType(t, typeName(t, `_${op}_fields`), () =>
            makeObjectType({
              name: typeName(t, `_${op}_fields`),
              description: DESCRIBE.aggregateOperationFields(op),
              fields: Object.fromEntries(
                cols.map((c) => [
                  c.field,
                  { type: op === 'max' || op === 'min' || op === 'sum' ? columnType(c) : GraphQLFloat, ...described(c.column.comment) },
                ]),
              ),
            }),
          ),
        };
      }
      return makeObjectType({ name: typeName(t, '_aggregate_fields'), description: DESCRIBE.aggregateFields(t.entry.table), fields });
    });

  const aggregate = (t: TableModel) =>
    ownType(t, typeName(t, '_aggregate'), () =>
      makeObjectType({
        name: typeName(t, '_aggregate'),
        description: DESCRIBE.aggregate(t.entry.table),
        fields: () => ({ [fieldOf(t, 'aggregate')]: { type: aggregateFields(t) }, [fieldOf(t, 'nodes')]: { type: list(objectType(t)) } }),
      }),
    );

  const objectType: (t: TableModel) => GraphQLObjectType = (t) =>
    ownType(t, typeName(t), () =>
      makeObjectType({
        name: typeName(t),
        description: t.db.comment ?? DESCRIBE.tableObject(t.entry.table),
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
          for (const c of t.columns) {
            const type = columnType(c);
            fields[c.field] = { type: c.column.nullable ? type : nonNull(type), ...(c.column.comment ? { description: c.column.comment } : {}) };
          }
          for (const c of t.computedFields) {
            const args = computedArgs(t, c);
            const description = { description: c.comment ?? withComment(c.db.comment, DESCRIBE.computedField({ schema: c.db.schema, name: c.db.name })) };
            if (c.kind === 'scalar') fields[c.field] = { type: columnType(c.returns), args, ...description };
            else
              fields[c.field] = { type: list(objectType(target(t, c.targetKey!))), args: { ...args, ...selectArgs(target(t, c.targetKey!)) }, ...description };
          }
          // Decision dec.remote-relationship.to-source: one to a table of a source has a relationship's fields.
          for (const r of [...t.relationships, ...t.sourceRelationships]) {
            const remote = target(t, r.targetKey);
            if (r.kind === 'object') {
              fields[r.name] = {
                type: 'nullable' in r && !r.nullable ? nonNull(objectType(remote)) : objectType(remote),
                description: DESCRIBE.objectRelationship,
              };
            } else {
              fields[r.name] = { type: list(objectType(remote)), args: selectArgs(remote), description: DESCRIBE.arrayRelationship };
              if (remote.access.aggregate) {
                fields[relationshipFieldOf(t, r.name, 'aggregate')] = {
                  type: nonNull(aggregate(remote)),
                  args: selectArgs(remote),
                  description: DESCRIBE.aggregateRelationship,
                };
              }
            }
          }
          for (const r of t.remoteRelationships) {
            const field = remoteField(r);
            if (field) fields[r.name] = field;
          }
          // Decision dec.graphql.introspection-order: sorted by name, as the engine lists them.
          return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
        },
      }),
    );

  return { objectType, aggregate };
}
