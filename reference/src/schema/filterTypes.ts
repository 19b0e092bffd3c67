// The input types that choose and order a table's rows: `<type>_comparison_exp`, `<table>_bool_exp`,
// `<table>_order_by` (with the aggregates of array relationships) and the select arguments.
import { conventionOf, typeName } from './typeNames';
import { fieldOf, relationshipFieldOf } from './generatedFields';
import { enumValue, recaseField, recaseType, type NamingConvention } from '../metadata/namingCase';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
} from 'graphql';
import { aggregateColumns, AGGREGATE_OPERATIONS, comparableComputed } from './aggregates';
import { aggregatePredicateField, predicateColumns, predicateFunctions, predicateRelationships, type AggregatePredicateFunction } from './aggregatePredicates';
import { COMPARISON_OPERATOR, described, DESCRIBE, GEO_OPERATOR, ORDER_BY, SELECT_ARGUMENT } from './descriptions';
import type { ColumnModel, TableModel } from './model';
import { isGeoType, isJsonbType, isRasterType, isStringType } from './scalars';
import type { TypeContext } from './typeContext';
import { makeEnumType, makeInputObjectType } from './types';
import { listOf, nonNull } from './wrappers';

/** `order_by` of each convention: its values named by the convention, valued as hasura-default names them. */
const orderByEnums = new Map<NamingConvention, GraphQLEnumType>();
const orderByEnumOf = (convention: NamingConvention): GraphQLEnumType => {
  let made = orderByEnums.get(convention);
  if (!made) {
    made = makeEnumType({
      name: recaseType(convention, 'order_by'),
      description: ORDER_BY.type,
      values: Object.fromEntries(Object.entries(ORDER_BY.values).map(([v, description]) => [enumValue(convention, v), { value: v, description }])),
    });
    orderByEnums.set(convention, made);
  }
  return made;
};

const TEXT_OPERATORS = ['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_nregex', '_iregex', '_niregex'];

/** The `<type>_comparison_exp` types made (of any version): their operands are compared with a column. */
const comparisonTypes = new WeakSet<GraphQLNamedType>();

/** Whether `type` is a `<type>_comparison_exp` of a table's `<table>_bool_exp` (not merely so named). */
export const isComparisonExp = (type: GraphQLNamedType | undefined): boolean => type !== undefined && comparisonTypes.has(type);

/** What the names of a table's filters are made from: its convention. */
type Named = Pick<TableModel, 'naming'>;

export interface FilterTypes {
  /** `<type>_comparison_exp` of a column (or what a function answers) of `t`, in `t`'s convention. */
  comparisonExp: (t: Named, c: ColumnModel) => GraphQLInputObjectType;
  selectColumn: (t: TableModel) => GraphQLEnumType;
  boolExp: (t: TableModel) => GraphQLInputObjectType;
  /** `distinct_on`, `limit`, `offset`, `order_by` and `where` of a table's rows. */
  selectArgs: (t: TableModel) => GraphQLFieldConfigArgumentMap;
}

export function filterTypes(cx: TypeContext): FilterTypes {
  const { once, ownType, columnType, columnTypeKey, target, scalar } = cx;
  const isEnumColumn = (c: ColumnModel) => columnType(c) instanceof GraphQLEnumType;

  const comparisonExp = (t: Named, c: ColumnModel) => {
    const convention = conventionOf(t);
    const base = columnType(c);
    const name = recaseType(convention, `${base.name}_comparison_exp`);
    const op = (name: string) => recaseField(convention, name);
    // An enum table's values are compared for equality only, as the engine does.
    const isEnum = base instanceof GraphQLEnumType;
    const text = !isEnum && isStringType(c.column);
    const json = !isEnum && isJsonbType(c.column);
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
        if (!isEnum && !isRasterType(c.column)) {
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
        for (const [op, field] of Object.entries(fields)) Object.assign(field, described(COMPARISON_OPERATOR[op]));
        if (!isEnum && isGeoType(c.column)) Object.assign(fields, geoFields(t, c));
        if (!isEnum && isRasterType(c.column)) Object.assign(fields, rasterFields(t, c));
        const named = Object.fromEntries(Object.entries(fields).map(([name, field]) => [op(name), field]));
        const made = makeInputObjectType({ name, description: DESCRIBE.comparisonExp(base.name), fields: named });
        comparisonTypes.add(made);
        return made;
      },
      JSON.stringify([columnTypeKey(c), text, json]),
    );
  };

  /** `_cast` to the other PostGIS type and the type's `_st_*` operators (decision dec.graphql.postgis). */
  const geoFields = (t: Named, c: ColumnModel): GraphQLInputFieldConfigMap => {
    const convention = conventionOf(t);
    const type = c.column.type as 'geometry' | 'geography';
    const other = type === 'geometry' ? 'geography' : 'geometry';
    const base = columnType(c);
    const asOther: ColumnModel = { ...c, scalar: other, enumType: undefined, column: { ...c.column, type: other } };
    const castName = recaseType(convention, `${type}_cast_exp`);
    const cast = once(castName, () => makeInputObjectType({ name: castName, fields: () => ({ [other]: { type: comparisonExp(t, asOther) } }) }));
    const withinName = recaseType(convention, type === 'geometry' ? 'st_d_within_input' : 'st_d_within_geography_input');
    const within = once(withinName, () =>
      makeInputObjectType({
        name: withinName,
        fields: {
          distance: { type: nonNull(GraphQLFloat) },
          from: { type: nonNull(base) },
          ...(type === 'geography' ? { [fieldOf(t, 'use_spheroid')]: { type: GraphQLBoolean, defaultValue: true } } : {}),
        },
      }),
    );
    const fields: GraphQLInputFieldConfigMap = { _cast: { type: cast } };
    for (const [op, description] of Object.entries(GEO_OPERATOR[type])) {
      fields[op] = { type: op.endsWith('d_within') ? within : base, description };
    }
    return fields;
  };

  /** The engine's raster operators: with another raster, or with a geometry and a band. */
  const rasterFields = (t: Named, c: ColumnModel): GraphQLInputFieldConfigMap => {
    const geometry = scalar('geometry');
    const nbandGeomName = recaseType(conventionOf(t), 'st_intersects_nband_geom_input');
    const nbandGeom = once(nbandGeomName, () =>
      makeInputObjectType({ name: nbandGeomName, fields: { nband: { type: nonNull(GraphQLInt) }, geommin: { type: nonNull(geometry) } } }),
    );
    const geomNbandName = recaseType(conventionOf(t), 'st_intersects_geom_nband_input');
    const geomNband = once(geomNbandName, () =>
      makeInputObjectType({ name: geomNbandName, fields: { geommin: { type: nonNull(geometry) }, nband: { type: GraphQLInt } } }),
    );
    return { _st_intersects_rast: { type: columnType(c) }, _st_intersects_nband_geom: { type: nbandGeom }, _st_intersects_geom_nband: { type: geomNband } };
  };

  const selectColumn = (t: TableModel) =>
    ownType(t, typeName(t, '_select_column'), () =>
      makeEnumType({
        name: typeName(t, '_select_column'),
        description: DESCRIBE.selectColumn(t.entry.table),
        values: Object.fromEntries(t.columns.map((c) => [c.field, { value: c.field, description: DESCRIBE.columnName }])),
      }),
    );

  const boolExp: (t: TableModel) => GraphQLInputObjectType = (t) =>
    ownType(t, typeName(t, '_bool_exp'), () =>
      makeInputObjectType({
        name: typeName(t, '_bool_exp'),
        description: DESCRIBE.boolExp(t.entry.table),
        fields: () => ({
          [fieldOf(t, '_and')]: { type: listOf(boolExp(t)) },
          [fieldOf(t, '_or')]: { type: listOf(boolExp(t)) },
          [fieldOf(t, '_not')]: { type: boolExp(t) },
          ...Object.fromEntries(t.columns.map((c) => [c.field, { type: comparisonExp(t, c) }])),
          ...Object.fromEntries(comparableComputed(t).map((c) => [c.field, { type: comparisonExp(t, c.returns) }])),
          ...Object.fromEntries(t.relationships.map((r) => [r.name, { type: boolExp(target(t, r.targetKey)) }])),
          ...Object.fromEntries(
            predicateRelationships(t, (key) => target(t, key)).map((r) => [aggregatePredicateField(t, r), { type: aggregateBoolExp(target(t, r.targetKey)) }]),
          ),
        }),
      }),
    );

  /** `<table>_aggregate_bool_exp`: one field per function the role can call over the table's rows. */
  const aggregateBoolExp = (t: TableModel): GraphQLInputObjectType =>
    ownType(t, typeName(t, '_aggregate_bool_exp'), () =>
      makeInputObjectType({
        name: typeName(t, '_aggregate_bool_exp'),
        fields: () => Object.fromEntries(predicateFunctions(t).map((fn) => [fieldOf(t, fn.name), { type: aggregatePredicate(t, fn) }])),
      }),
    );

  const aggregatePredicate = (t: TableModel, fn: AggregatePredicateFunction): GraphQLInputObjectType => {
    const name = typeName(t, `_aggregate_bool_exp_${fn.name}`);
    return ownType(t, name, () =>
      makeInputObjectType({
        name,
        fields: () => ({
          arguments: { type: fn.arguments === 'star' ? listOf(selectColumn(t)) : nonNull(argumentColumns(t, fn)) },
          distinct: { type: GraphQLBoolean },
          filter: { type: boolExp(t) },
          predicate: { type: nonNull(comparisonExp(t, fn.returns)) },
        }),
      }),
    );
  };

  /** The enum of the columns a one-column function takes, named as the engine names it. */
  const argumentColumns = (t: TableModel, fn: AggregatePredicateFunction) => {
    const inner = typeName(t, `_aggregate_bool_exp_${fn.name}_arguments_columns`);
    const name = typeName(t, `_select_column_${inner}`);
    return ownType(t, name, () =>
      makeEnumType({
        name,
        description: DESCRIBE.predicateColumns(inner, t.entry.table),
        values: Object.fromEntries(predicateColumns(t, fn).map((c) => [c.field, { value: c.field, description: DESCRIBE.columnName }])),
      }),
    );
  };

  const aggregateOrderBy: (t: TableModel) => GraphQLInputObjectType = (t) =>
    ownType(t, typeName(t, '_aggregate_order_by'), () =>
      makeInputObjectType({
        name: typeName(t, '_aggregate_order_by'),
        description: DESCRIBE.aggregateOrderBy(t.entry.table),
        fields: () => {
          const orderByEnum = orderByEnumOf(conventionOf(t));
          const fields: GraphQLInputFieldConfigMap = { count: { type: orderByEnum } };
          for (const op of AGGREGATE_OPERATIONS) {
            const cols = aggregateColumns(t, op, isEnumColumn);
            if (cols.length === 0) continue;
            fields[fieldOf(t, op)] = {
              type: ownType(t, typeName(t, `_${op}_order_by`), () =>
                makeInputObjectType({
                  name: typeName(t, `_${op}_order_by`),
                  description: DESCRIBE.aggregateOperationOrderBy(t.entry.table, op),
                  fields: Object.fromEntries(cols.map((c) => [c.field, { type: orderByEnum, ...described(c.column.comment) }])),
                }),
              ),
            };
          }
          return fields;
        },
      }),
    );

  const orderBy: (t: TableModel) => GraphQLInputObjectType = (t) =>
    ownType(t, typeName(t, '_order_by'), () =>
      makeInputObjectType({
        name: typeName(t, '_order_by'),
        description: DESCRIBE.orderBy(t.entry.table),
        fields: () => ({
          ...Object.fromEntries(t.columns.map((c) => [c.field, { type: orderByEnumOf(conventionOf(t)) }])),
          ...Object.fromEntries(comparableComputed(t).map((c) => [c.field, { type: orderByEnumOf(conventionOf(t)) }])),
          ...Object.fromEntries(
            t.relationships
              .filter((r) => r.kind === 'object' || target(t, r.targetKey).access.aggregate)
              .map((r) =>
                r.kind === 'object'
                  ? [r.name, { type: orderBy(target(t, r.targetKey)) }]
                  : [relationshipFieldOf(t, r.name, 'aggregate'), { type: aggregateOrderBy(target(t, r.targetKey)) }],
              ),
          ),
        }),
      }),
    );

  const selectArgs = (t: TableModel): GraphQLFieldConfigArgumentMap => ({
    [fieldOf(t, 'distinct_on')]: { type: listOf(selectColumn(t)), description: SELECT_ARGUMENT.distinct_on },
    [fieldOf(t, 'limit')]: { type: GraphQLInt, description: SELECT_ARGUMENT.limit },
    [fieldOf(t, 'offset')]: { type: GraphQLInt, description: SELECT_ARGUMENT.offset },
    [fieldOf(t, 'order_by')]: { type: listOf(orderBy(t)), description: SELECT_ARGUMENT.order_by },
    [fieldOf(t, 'where')]: { type: boolExp(t), description: SELECT_ARGUMENT.where },
  });

  return { comparisonExp, selectColumn, boolExp, selectArgs };
}
