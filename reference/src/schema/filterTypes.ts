// The input types that choose and order a table's rows: `<type>_comparison_exp`, `<table>_bool_exp`,
// `<table>_order_by` (with the aggregates of array relationships) and the select arguments.
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInt,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
} from 'graphql';
import { aggregateColumns, AGGREGATE_OPERATIONS, comparableComputed } from './aggregates';
import type { ColumnModel, TableModel } from './model';
import { isJsonbType, isStringType } from './scalars';
import type { TypeContext } from './typeContext';
import { makeEnumType, makeInputObjectType } from './types';
import { listOf } from './wrappers';

const orderByEnum = makeEnumType({
  name: 'order_by',
  description: 'column ordering options',
  values: Object.fromEntries(['asc', 'asc_nulls_first', 'asc_nulls_last', 'desc', 'desc_nulls_first', 'desc_nulls_last'].map((v) => [v, { value: v }])),
});

const TEXT_OPERATORS = ['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_nregex', '_iregex', '_niregex'];

/** The `<type>_comparison_exp` types made (of any version): their operands are compared with a column. */
const comparisonTypes = new WeakSet<GraphQLNamedType>();

/** Whether `type` is a `<type>_comparison_exp` of a table's `<table>_bool_exp` (not merely so named). */
export const isComparisonExp = (type: GraphQLNamedType | undefined): boolean => type !== undefined && comparisonTypes.has(type);

export interface FilterTypes {
  comparisonExp: (c: ColumnModel) => GraphQLInputObjectType;
  selectColumn: (t: TableModel) => GraphQLEnumType;
  boolExp: (t: TableModel) => GraphQLInputObjectType;
  /** `distinct_on`, `limit`, `offset`, `order_by` and `where` of a table's rows. */
  selectArgs: (t: TableModel) => GraphQLFieldConfigArgumentMap;
}

export function filterTypes(cx: TypeContext): FilterTypes {
  const { once, ownType, columnType, columnTypeKey, target } = cx;

  const comparisonExp = (c: ColumnModel) => {
    const base = columnType(c);
    const name = `${base.name}_comparison_exp`;
    const text = isStringType(c.column);
    const json = isJsonbType(c.column);
    return once(
      name,
      () => {
        const fields: GraphQLInputFieldConfigMap = {
          _eq: { type: base },
          _neq: { type: base },
          _in: { type: listOf(base) },
          _nin: { type: listOf(base) },
          _is_null: { type: GraphQLBoolean },
        };
        if (!(base instanceof GraphQLEnumType)) {
          Object.assign(fields, { _gt: { type: base }, _lt: { type: base }, _gte: { type: base }, _lte: { type: base } });
        }
        if (text) {
          for (const op of TEXT_OPERATORS) fields[op] = { type: base };
        }
        if (json) {
          Object.assign(fields, {
            _contains: { type: base },
            _contained_in: { type: base },
            _has_key: { type: GraphQLString },
            _has_keys_any: { type: listOf(GraphQLString) },
            _has_keys_all: { type: listOf(GraphQLString) },
          });
        }
        const made = makeInputObjectType({ name, fields });
        comparisonTypes.add(made);
        return made;
      },
      JSON.stringify([columnTypeKey(c), text, json]),
    );
  };

  const selectColumn = (t: TableModel) =>
    ownType(t, `${t.name}_select_column`, () =>
      makeEnumType({ name: `${t.name}_select_column`, values: Object.fromEntries(t.columns.map((c) => [c.field, { value: c.field }])) }),
    );

  const boolExp: (t: TableModel) => GraphQLInputObjectType = (t) =>
    ownType(t, `${t.name}_bool_exp`, () =>
      makeInputObjectType({
        name: `${t.name}_bool_exp`,
        fields: () => ({
          _and: { type: listOf(boolExp(t)) },
          _or: { type: listOf(boolExp(t)) },
          _not: { type: boolExp(t) },
          ...Object.fromEntries(t.columns.map((c) => [c.field, { type: comparisonExp(c) }])),
          ...Object.fromEntries(comparableComputed(t).map((c) => [c.field, { type: comparisonExp(c.returns) }])),
          ...Object.fromEntries(t.relationships.map((r) => [r.name, { type: boolExp(target(t, r.targetKey)) }])),
        }),
      }),
    );

  const aggregateOrderBy: (t: TableModel) => GraphQLInputObjectType = (t) =>
    ownType(t, `${t.name}_aggregate_order_by`, () =>
      makeInputObjectType({
        name: `${t.name}_aggregate_order_by`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = { count: { type: orderByEnum } };
          for (const op of AGGREGATE_OPERATIONS) {
            const cols = aggregateColumns(t, op);
            if (cols.length === 0) continue;
            fields[op] = {
              type: ownType(t, `${t.name}_${op}_order_by`, () =>
                makeInputObjectType({ name: `${t.name}_${op}_order_by`, fields: Object.fromEntries(cols.map((c) => [c.field, { type: orderByEnum }])) }),
              ),
            };
          }
          return fields;
        },
      }),
    );

  const orderBy: (t: TableModel) => GraphQLInputObjectType = (t) =>
    ownType(t, `${t.name}_order_by`, () =>
      makeInputObjectType({
        name: `${t.name}_order_by`,
        fields: () => ({
          ...Object.fromEntries(t.columns.map((c) => [c.field, { type: orderByEnum }])),
          ...Object.fromEntries(comparableComputed(t).map((c) => [c.field, { type: orderByEnum }])),
          ...Object.fromEntries(
            t.relationships
              .filter((r) => r.kind === 'object' || target(t, r.targetKey).access.aggregate)
              .map((r) =>
                r.kind === 'object'
                  ? [r.name, { type: orderBy(target(t, r.targetKey)) }]
                  : [`${r.name}_aggregate`, { type: aggregateOrderBy(target(t, r.targetKey)) }],
              ),
          ),
        }),
      }),
    );

  const selectArgs = (t: TableModel): GraphQLFieldConfigArgumentMap => ({
    distinct_on: { type: listOf(selectColumn(t)) },
    limit: { type: GraphQLInt },
    offset: { type: GraphQLInt },
    order_by: { type: listOf(orderBy(t)) },
    where: { type: boolExp(t) },
  });

  return { comparisonExp, selectColumn, boolExp, selectArgs };
}
