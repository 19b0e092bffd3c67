// The GraphQL schema of the tracked tables (SPEC.md §1.2, §4.3): per table a query, by-primary-key
// and aggregate root field, the mutations, and the input types they take. Execution does not use
// resolvers: the compiler in sql/graphql turns a validated operation into one SQL statement.
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLNamedType,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLNullableType,
  type GraphQLOutputType,
  type GraphQLScalarType,
} from 'graphql';
import type { QualifiedName, RootFieldKey } from '../../../spec';
import { relationKey } from '../db/introspection';
import { enumTypeName, INSERT_PLACEHOLDER, type ColumnModel, type ComputedFieldModel, type Models, type TableModel } from './model';
import type { FunctionModel } from './functions';
import { TypeShare } from './typeShare';
import { makeEnumType, makeInputObjectType, makeObjectType, NO_EXTENSIONS } from './types';
import { builtInScalar, customScalar, isJsonbType, isNumericType, isOrderedType, isStringType, scalarName } from './scalars';

export type RootFieldKind = RootFieldKey | 'function' | 'function_aggregate';

export interface RootField {
  kind: RootFieldKind;
  table: TableModel;
  /** The function of a `function` or `function_aggregate` field. */
  fn?: FunctionModel;
}

export interface BuiltSchema {
  schema: GraphQLSchema;
  queryFields: ReadonlyMap<string, RootField>;
  mutationFields: ReadonlyMap<string, RootField>;
  /** Root fields answered outside the database (remote schemas), by name: who answers them. */
  externalQueryFields: ReadonlyMap<string, string>;
  externalMutationFields: ReadonlyMap<string, string>;
}

/** Root fields and types from outside the database (remote schemas), the same for every role. */
export interface ExternalRoots {
  /** Tells one set of external roots from another in the shared schema cache. */
  key: string;
  query: GraphQLFieldConfigMap<unknown, unknown>;
  mutation: GraphQLFieldConfigMap<unknown, unknown>;
  types: readonly GraphQLNamedType[];
  queryOwners: ReadonlyMap<string, string>;
  mutationOwners: ReadonlyMap<string, string>;
  /** Where types of the external roots refer to tables (action relationships): told the role's table types. */
  tables?: { lookup?: (table: QualifiedName) => GraphQLObjectType | undefined };
}

const NO_EXTERNAL_ROOTS: ExternalRoots = { key: '', query: {}, mutation: {}, types: [], queryOwners: new Map(), mutationOwners: new Map() };

// Wrapped types are made once per named type: a schema uses `[T!]!` and `T!` of a type many times.
const nonNulls = new WeakMap<object, GraphQLNonNull<never>>();
const lists = new WeakMap<object, GraphQLNonNull<never>>();
const nullableLists = new WeakMap<object, GraphQLList<never>>();
const nonNull = <T extends GraphQLOutputType | GraphQLInputType>(t: T): GraphQLNonNull<T & GraphQLNullableType> => {
  let found = nonNulls.get(t);
  if (!found) nonNulls.set(t, (found = new GraphQLNonNull(t as never)));
  return found as GraphQLNonNull<T & GraphQLNullableType>;
};
/** `[T!]` */
const listOf = <T extends GraphQLOutputType | GraphQLInputType>(t: T): GraphQLList<GraphQLNonNull<T & GraphQLNullableType>> => {
  let found = nullableLists.get(t);
  if (!found) nullableLists.set(t, (found = new GraphQLList(nonNull(t)) as never));
  return found as GraphQLList<GraphQLNonNull<T & GraphQLNullableType>>;
};
/** `[T!]!` */
const list = <T extends GraphQLOutputType | GraphQLInputType>(t: T) => {
  let found = lists.get(t);
  if (!found) lists.set(t, (found = new GraphQLNonNull(listOf(t)) as never));
  return found as GraphQLNonNull<GraphQLList<GraphQLNonNull<T & GraphQLNullableType>>>;
};

/** subscription_root: the fields of query_root, the same field objects rather than a copy (less those answered elsewhere). */
class SubscriptionRoot extends GraphQLObjectType {
  private own: ReturnType<GraphQLObjectType['getFields']> | undefined;

  constructor(
    private readonly queryRoot: GraphQLObjectType,
    private readonly external: ReadonlyMap<string, string>,
  ) {
    super({ name: 'subscription_root', fields: {}, extensions: NO_EXTENSIONS });
  }

  override getFields() {
    if (this.external.size === 0) return this.queryRoot.getFields();
    return (this.own ??= Object.fromEntries(Object.entries(this.queryRoot.getFields()).filter(([name]) => !this.external.has(name))));
  }
}

const NUMERIC_AGGREGATES = ['sum', 'avg', 'stddev', 'stddev_pop', 'stddev_samp', 'var_pop', 'var_samp', 'variance'] as const;
export const AGGREGATE_OPERATIONS = [...NUMERIC_AGGREGATES, 'max', 'min'] as const;

const orderByEnum = makeEnumType({
  name: 'order_by',
  description: 'column ordering options',
  values: Object.fromEntries(['asc', 'asc_nulls_first', 'asc_nulls_last', 'desc', 'desc_nulls_first', 'desc_nulls_last'].map((v) => [v, { value: v }])),
});

/** The scalar of this name in the schemas that share `share`: one object per name. */
export function sharedScalar(share: TypeShare, name: string): GraphQLScalarType {
  let s = share.scalars.get(name) ?? builtInScalar(name);
  if (!s) {
    s = customScalar(name);
    share.scalars.set(name, s);
  }
  return s;
}

export function buildSchema(
  models: Models,
  share: TypeShare = new TypeShare(),
  functions: readonly FunctionModel[] = [],
  external: ExternalRoots = NO_EXTERNAL_ROOTS,
): BuiltSchema {
  const scalar = (name: string) => sharedScalar(share, name);
  /** The type of this name, made once; a table's types once per class of the table (see TypeShare). */
  const once = <T>(name: string, make: () => T, table?: TableModel): T => {
    const memo = table ? share.typesOfClass(classes.get(table.key)!) : share.types;
    let found = memo.get(name) as T | undefined;
    if (found === undefined) memo.set(name, (found = make()));
    return found;
  };
  const ownType = <T>(table: TableModel, name: string, make: () => T): T => once(name, make, table);

  const enumType = (table: TableModel) =>
    once(enumTypeName(table), () =>
      makeEnumType({
        name: enumTypeName(table),
        values: Object.fromEntries((table.enumValues ?? []).map((v) => [v.value, { value: v.value, ...(v.comment ? { description: v.comment } : {}) }])),
      }),
    );
  const enumTables = new Map([...models.values()].filter((m) => m.enumValues?.length).map((m) => [enumTypeName(m), m]));

  const columnType = (c: ColumnModel): GraphQLScalarType | GraphQLEnumType =>
    c.enumType && enumTables.has(c.enumType) ? enumType(enumTables.get(c.enumType)!) : scalar(c.scalar);
  const classes = share.classify(models, (c) => columnType(c).name);

  const comparisonExp = (c: ColumnModel) => {
    const base = columnType(c);
    const name = `${base.name}_comparison_exp`;
    return once(name, () => {
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
      if (isStringType(c.column)) {
        for (const op of ['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_nregex', '_iregex', '_niregex']) {
          fields[op] = { type: base };
        }
      }
      if (isJsonbType(c.column)) {
        Object.assign(fields, {
          _contains: { type: base },
          _contained_in: { type: base },
          _has_key: { type: GraphQLString },
          _has_keys_any: { type: listOf(GraphQLString) },
          _has_keys_all: { type: listOf(GraphQLString) },
        });
      }
      return makeInputObjectType({ name, fields });
    });
  };

  const target = (table: TableModel, key: string) => models.get(key)!;

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

  /** `args` of a computed field: its arguments other than the row and the session, typed `<table>_<field>_args`. */
  const computedArgs = (t: TableModel, c: ComputedFieldModel): GraphQLFieldConfigArgumentMap => {
    const given = c.arguments.filter((a) => !a.session && !a.row);
    if (given.length === 0) return {};
    const name = `${t.name}_${c.field}_args`;
    const type = ownType(t, name, () =>
      makeInputObjectType({
        name,
        fields: Object.fromEntries(given.map((a) => [a.field, { type: a.hasDefault ? scalar(scalarName(a.column)) : nonNull(scalar(scalarName(a.column))) }])),
      }),
    );
    return { args: { type: given.some((a) => !a.hasDefault) ? nonNull(type) : type } };
  };

  const selectArgs = (t: TableModel): GraphQLFieldConfigArgumentMap => ({
    distinct_on: { type: listOf(selectColumn(t)) },
    limit: { type: GraphQLInt },
    offset: { type: GraphQLInt },
    order_by: { type: listOf(orderBy(t)) },
    where: { type: boolExp(t) },
  });

  const aggregateFields = (t: TableModel) =>
    ownType(t, `${t.name}_aggregate_fields`, () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {
        count: { type: nonNull(GraphQLInt), args: { columns: { type: listOf(selectColumn(t)) }, distinct: { type: GraphQLBoolean } } },
      };
      for (const op of AGGREGATE_OPERATIONS) {
        const cols = aggregateColumns(t, op);
        if (cols.length === 0) continue;
        fields[op] = {
          type: ownType(t, `${t.name}_${op}_fields`, () =>
            makeObjectType({
              name: `${t.name}_${op}_fields`,
              fields: Object.fromEntries(cols.map((c) => [c.field, { type: op === 'max' || op === 'min' || op === 'sum' ? columnType(c) : GraphQLFloat }])),
            }),
          ),
        };
      }
      return makeObjectType({ name: `${t.name}_aggregate_fields`, fields });
    });

  const aggregate = (t: TableModel) =>
    ownType(t, `${t.name}_aggregate`, () =>
      makeObjectType({
        name: `${t.name}_aggregate`,
        fields: () => ({ aggregate: { type: aggregateFields(t) }, nodes: { type: list(objectType(t)) } }),
      }),
    );

  const objectType: (t: TableModel) => GraphQLObjectType = (t) =>
    ownType(t, t.name, () =>
      makeObjectType({
        name: t.name,
        ...(t.db.comment ? { description: t.db.comment } : {}),
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
          for (const c of t.columns) {
            const type = columnType(c);
            fields[c.field] = { type: c.column.nullable ? type : nonNull(type), ...(c.column.comment ? { description: c.column.comment } : {}) };
          }
          for (const c of t.computedFields) {
            const args = computedArgs(t, c);
            const description = c.comment ? { description: c.comment } : {};
            if (c.kind === 'scalar') fields[c.field] = { type: columnType(c.returns), args, ...description };
            else
              fields[c.field] = { type: list(objectType(target(t, c.targetKey!))), args: { ...args, ...selectArgs(target(t, c.targetKey!)) }, ...description };
          }
          for (const r of t.relationships) {
            const remote = target(t, r.targetKey);
            if (r.kind === 'object') {
              fields[r.name] = { type: objectType(remote) };
            } else {
              fields[r.name] = { type: list(objectType(remote)), args: selectArgs(remote) };
              if (remote.access.aggregate) fields[`${r.name}_aggregate`] = { type: nonNull(aggregate(remote)), args: selectArgs(remote) };
            }
          }
          return fields;
        },
      }),
    );

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

  const queryFields = new Map<string, RootField>();
  const mutationFields = new Map<string, RootField>();
  const query: GraphQLFieldConfigMap<unknown, unknown> = {};
  const mutation: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const t of models.values()) {
    const pk = t.primaryKey?.map((c) => t.byColumn.get(c)!);
    const add = (
      into: GraphQLFieldConfigMap<unknown, unknown>,
      registry: Map<string, RootField>,
      kind: RootFieldKey,
      config: GraphQLFieldConfigMap<unknown, unknown>[string],
    ) => {
      into[t.rootFields[kind]] = config;
      registry.set(t.rootFields[kind], { kind, table: t });
    };
    if (t.access.select) add(query, queryFields, 'select', { type: list(objectType(t)), args: selectArgs(t) });
    if (pk && t.access.select)
      add(query, queryFields, 'select_by_pk', { type: objectType(t), args: Object.fromEntries(pk.map((c) => [c.field, { type: nonNull(columnType(c)) }])) });
    if (t.access.aggregate) add(query, queryFields, 'select_aggregate', { type: nonNull(aggregate(t)), args: selectArgs(t) });
    // Upserts update columns: a role needs update permission for them.
    const conflict = t.access.update || !t.permissions ? onConflict(t) : undefined;
    // Decision dec.schema.always-valid: presets may cover every column the role may insert.
    const insertInput = () =>
      t.access.insertColumns.length
        ? inputOf(t, `${t.name}_insert_input`, t.access.insertColumns, columnType)
        : ownType(t, `${t.name}_insert_input`, () =>
            makeInputObjectType({
              name: `${t.name}_insert_input`,
              fields: { [INSERT_PLACEHOLDER]: { type: GraphQLBoolean, description: "unused: the role's presets set every column" } },
            }),
          );
    if (t.access.insert) {
      add(mutation, mutationFields, 'insert', {
        type: mutationResponse(t),
        args: { objects: { type: list(insertInput()) }, ...(conflict ? { on_conflict: { type: conflict } } : {}) },
      });
      if (t.access.select)
        add(mutation, mutationFields, 'insert_one', {
          type: objectType(t),
          args: { object: { type: nonNull(insertInput()) }, ...(conflict ? { on_conflict: { type: conflict } } : {}) },
        });
    }
    if (t.access.update) {
      add(mutation, mutationFields, 'update', { type: mutationResponse(t), args: { where: { type: nonNull(boolExp(t)) }, ...updateArgs(t) } });
      if (pk) {
        add(mutation, mutationFields, 'update_by_pk', {
          type: objectType(t),
          args: { pk_columns: { type: nonNull(inputOf(t, `${t.name}_pk_columns_input`, pk, (c) => nonNull(columnType(c)))) }, ...updateArgs(t) },
        });
      }
    }
    if (t.access.delete) {
      add(mutation, mutationFields, 'delete', { type: mutationResponse(t), args: { where: { type: nonNull(boolExp(t)) } } });
      if (pk)
        add(mutation, mutationFields, 'delete_by_pk', {
          type: objectType(t),
          args: Object.fromEntries(pk.map((c) => [c.field, { type: nonNull(columnType(c)) }])),
        });
    }
  }
  // Tracked functions (§4.3): rows of their table, with the table's arguments and their own.
  for (const f of functions) {
    const t = models.get(f.tableKey)!;
    const given = f.arguments.filter((a) => !a.session);
    const argsType = given.length
      ? once(`${f.field}_args`, () =>
          makeInputObjectType({
            name: `${f.field}_args`,
            fields: Object.fromEntries(
              given.map((a) => [a.field, { type: a.hasDefault ? scalar(scalarName(a.column)) : nonNull(scalar(scalarName(a.column))) }]),
            ),
          }),
        )
      : undefined;
    const args: GraphQLFieldConfigArgumentMap = {
      ...(argsType ? { args: { type: given.some((a) => !a.hasDefault) ? nonNull(argsType) : argsType } } : {}),
      ...selectArgs(t),
    };
    const description = f.db.comment ? { description: f.db.comment } : {};
    if (f.exposedAs === 'mutation') {
      mutation[f.field] = { type: list(objectType(t)), args, ...description };
      mutationFields.set(f.field, { kind: 'function', table: t, fn: f });
      continue;
    }
    query[f.field] = { type: list(objectType(t)), args, ...description };
    queryFields.set(f.field, { kind: 'function', table: t, fn: f });
    if (t.access.aggregate) {
      query[`${f.field}_aggregate`] = { type: nonNull(aggregate(t)), args };
      queryFields.set(`${f.field}_aggregate`, { kind: 'function_aggregate', table: t, fn: f });
    }
  }
  if (external.tables) {
    external.tables.lookup = (name) => {
      const t = models.get(relationKey(name));
      return t?.access.select ? objectType(t) : undefined;
    };
  }
  Object.assign(query, external.query);
  Object.assign(mutation, external.mutation);
  if (Object.keys(query).length === 0) {
    query.no_queries_available = { type: nonNull(GraphQLString) };
  }
  // Roots made of the same classes of tables make the same schema (the root fields' tables, with
  // their role's permissions, stay this role's own: queryFields and mutationFields).
  const rootKey = share.rootKey(models, classes, [
    ...functions.map((f) => [f.field, f.exposedAs, f.tableKey, classes.get(f.tableKey)].join(' ')),
    external.key,
  ]);
  let schema = share.schemas.get(rootKey);
  if (!schema) {
    const queryRoot = makeObjectType({ name: 'query_root', fields: query });
    schema = new GraphQLSchema({
      query: queryRoot,
      ...(Object.keys(mutation).length ? { mutation: makeObjectType({ name: 'mutation_root', fields: mutation }) } : {}),
      // Remote fields are not subscribed to: a root with only those has no subscription type.
      ...(Object.keys(query).some((name) => !external.queryOwners.has(name)) ? { subscription: new SubscriptionRoot(queryRoot, external.queryOwners) } : {}),
      types: [...[...enumTables.values()].map(enumType), ...external.types],
    });
    share.schemas.set(rootKey, schema);
  }
  return { schema, queryFields, mutationFields, externalQueryFields: external.queryOwners, externalMutationFields: external.mutationOwners };
}

/** Scalar computed fields that need no arguments: they can be compared and ordered by. */
export const comparableComputed = (t: TableModel) =>
  t.computedFields.filter((c) => c.kind === 'scalar' && c.arguments.every((a) => a.row || a.session || a.hasDefault));

/** The columns an aggregate function applies to. */
export function aggregateColumns(t: TableModel, op: (typeof AGGREGATE_OPERATIONS)[number]): ColumnModel[] {
  if (op === 'max' || op === 'min') return t.columns.filter((c) => isOrderedType(c.column) || isNumericType(c.column));
  return t.columns.filter((c) => isNumericType(c.column));
}
