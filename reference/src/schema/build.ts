// The GraphQL schema of the tracked tables (SPEC.md §1.2, §4.3): per table a query, by-primary-key
// and aggregate root field, the mutations, and the input types they take. Execution does not use
// resolvers: the compiler in sql/graphql turns a validated operation into one SQL statement.
import { fieldOf } from './generatedFields';
import { typeName } from './typeNames';
import type { RolePresets } from './remoteRolePresets';
import {
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { QualifiedName, RootFieldKey } from '../../../spec';
import { relationKey } from '../db/introspection';
import { DESCRIBE, MUTATION_ARGUMENT, withComment } from './descriptions';
import { filterTypes } from './filterTypes';
import type { FunctionModel } from './functions';
import type { Models, TableModel } from './model';
import { mutationTypes } from './mutationTypes';
import { objectTypes, type RemoteRelationshipFields } from './objectTypes';
import { scalarName } from './scalars';
import { makeSchema } from './schemaValidation';
import { namespacedKey, namespaceFields, type SchemaRoot } from './namespaces';
import { streamTypes } from './streamTypes';
import { typeContext } from './typeContext';
import { TypeShare } from './typeShare';
import { SubscriptionRoot } from './subscriptionRoot';
import { makeInputObjectType, makeObjectType } from './types';
import { list, looseList, nonNull } from './wrappers';

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
  /** The subscription root's own fields (streaming), beside those it shares with the query root. */
  streamFields: ReadonlyMap<string, RootField>;
  /** The namespace fields of sources (decision dec.source.customization); their fields are in the maps above under namespacedKey. */
  namespaces: ReadonlySet<string>;
  /** Root fields answered outside the database (remote schemas), by name: who answers them. */
  externalQueryFields: ReadonlyMap<string, string>;
  externalMutationFields: ReadonlyMap<string, string>;
  /** What the engine adds to a role's requests to each remote (remote schema permissions). */
  remotePresets?: ReadonlyMap<string, RolePresets>;
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
  /** The presets of the role's remote schema permissions, by remote. */
  remotePresets?: ReadonlyMap<string, RolePresets>;
  /** The fields of remote relationships, through the role's part of each remote (dec.remote-relationship.execution). */
  remoteRelationshipField?: RemoteRelationshipFields;
  /** Tells the remote types of one set of external roots from those of another (a remote relationship's field has one). */
  instance?: string;
  /** Where types of the external roots refer to tables (action relationships): told the role's table types. */
  tables?: { lookup?: (table: QualifiedName) => GraphQLObjectType | undefined };
}

const NO_EXTERNAL_ROOTS: ExternalRoots = { key: '', query: {}, mutation: {}, types: [], queryOwners: new Map(), mutationOwners: new Map() };

export function buildSchema(
  models: Models,
  share: TypeShare = new TypeShare(),
  functions: readonly FunctionModel[] = [],
  external: ExternalRoots = NO_EXTERNAL_ROOTS,
): BuiltSchema {
  const cx = typeContext(models, share, external.instance);
  const { once, scalar, columnType, enumTables, enumType, classes } = cx;
  const filters = filterTypes(cx);
  const { boolExp, selectArgs } = filters;
  const objects = objectTypes(cx, filters, external.remoteRelationshipField);
  const { objectType, aggregate } = objects;
  const { inputOf, mutationResponse, upsert, updateArgs, insertInput, updates } = mutationTypes(cx, filters, objects);
  const { streamArgs } = streamTypes(cx, filters);

  // The root fields, each with its configuration made only when a schema is made of them: a role
  // whose roots a schema of the version before has (or another role's) takes that schema.
  const roots: SchemaRoot<RootField>[] = [];
  for (const t of models.values()) {
    const pk = t.primaryKey?.map((c) => t.byColumn.get(c)!);
    const add = (into: 'query' | 'mutation' | 'subscription', kind: RootFieldKey, config: () => GraphQLFieldConfig<unknown, unknown>) =>
      roots.push({ into, name: t.rootFields[kind], namespace: t.namespace, typeNames: t.typeNames, field: { kind, table: t }, config });
    const pkArgs = () =>
      Object.fromEntries(pk!.map((c) => [c.field, { type: nonNull(columnType(c)), ...(c.column.comment ? { description: c.column.comment } : {}) }]));
    const table = t.entry.table;
    if (t.access.select) add('query', 'select', () => ({ type: list(objectType(t)), args: selectArgs(t), description: DESCRIBE.selectRoot(table) }));
    if (pk && t.access.select) add('query', 'select_by_pk', () => ({ type: objectType(t), args: pkArgs(), description: DESCRIBE.selectByPkRoot(table) }));
    if (t.access.aggregate) {
      add('query', 'select_aggregate', () => ({ type: nonNull(aggregate(t)), args: selectArgs(t), description: DESCRIBE.aggregateRoot(table) }));
    }
    // The subscription root's own (decision dec.graphql.stream.schema); a table without columns to stream has none.
    if (t.access.select && t.columns.length) {
      add('subscription', 'select_stream', () => ({ type: list(objectType(t)), args: streamArgs(t), description: DESCRIBE.selectStreamRoot(table) }));
    }
    const conflict = (): GraphQLFieldConfigArgumentMap => {
      const type = upsert(t);
      return type ? { [fieldOf(t, 'on_conflict')]: { type, description: MUTATION_ARGUMENT.on_conflict } } : {};
    };
    if (t.access.insert) {
      add('mutation', 'insert', () => ({
        type: mutationResponse(t),
        args: { [fieldOf(t, 'objects')]: { type: list(insertInput(t)), description: MUTATION_ARGUMENT.objects }, ...conflict() },
        description: DESCRIBE.insertRoot(table),
      }));
      if (t.access.select) {
        add('mutation', 'insert_one', () => ({
          type: objectType(t),
          args: { [fieldOf(t, 'object')]: { type: nonNull(insertInput(t)), description: MUTATION_ARGUMENT.object }, ...conflict() },
          description: DESCRIBE.insertOneRoot(table),
        }));
      }
    }
    if (t.access.update) {
      add('mutation', 'update', () => ({
        type: mutationResponse(t),
        args: { [fieldOf(t, 'where')]: { type: nonNull(boolExp(t)), description: MUTATION_ARGUMENT.updateWhere }, ...updateArgs(t) },
        description: DESCRIBE.updateRoot(table),
      }));
      if (pk) {
        add('mutation', 'update_by_pk', () => ({
          type: objectType(t),
          args: {
            [fieldOf(t, 'pk_columns')]: {
              type: nonNull(inputOf(t, typeName(t, '_pk_columns_input'), pk, (c) => nonNull(columnType(c)), DESCRIBE.pkColumnsInput(table))),
            },
            ...updateArgs(t),
          },
          description: DESCRIBE.updateByPkRoot(table),
        }));
      }
      // Decision dec.graphql.update-many: each element's answer may be null, as the engine types it.
      add('mutation', 'update_many', () => ({
        type: looseList(mutationResponse(t)),
        args: { [fieldOf(t, 'updates')]: { type: list(updates(t)), description: MUTATION_ARGUMENT.updates } },
        description: DESCRIBE.updateManyRoot(table),
      }));
    }
    if (t.access.delete) {
      add('mutation', 'delete', () => ({
        type: mutationResponse(t),
        args: { [fieldOf(t, 'where')]: { type: nonNull(boolExp(t)), description: MUTATION_ARGUMENT.deleteWhere } },
        description: DESCRIBE.deleteRoot(table),
      }));
      if (pk) add('mutation', 'delete_by_pk', () => ({ type: objectType(t), args: pkArgs(), description: DESCRIBE.deleteByPkRoot(table) }));
    }
  }
  // Tracked functions (§4.3): rows of their table, with the table's arguments and their own.
  for (const f of functions) {
    const t = models.get(f.tableKey)!;
    const args = (field: string): GraphQLFieldConfigArgumentMap => {
      const given = f.arguments.filter((a) => !a.session);
      const argsType = given.length
        ? once(f.argsType, () =>
            makeInputObjectType({
              name: f.argsType,
              fields: Object.fromEntries(
                // Every argument nullable, as the engine types them: PostgreSQL takes null for any of them (dec.functions.argument-types).
                given.map((a) => [a.field, { type: scalar(scalarName(a.column)) }]),
              ),
            }),
          )
        : undefined;
      const argsArgument: GraphQLFieldConfigArgumentMap = argsType
        ? { args: { type: given.some((a) => !a.hasDefault) ? nonNull(argsType) : argsType, description: DESCRIBE.functionArgs(field) } }
        : {};
      return { ...argsArgument, ...selectArgs(t) };
    };
    const fn = { schema: f.db.schema, name: f.db.name };
    roots.push({
      into: f.exposedAs,
      name: f.field,
      namespace: t.namespace,
      typeNames: t.typeNames,
      field: { kind: 'function', table: t, fn: f },
      config: () => ({
        type: list(objectType(t)),
        args: args(f.uncustomized?.field ?? f.field),
        // Decision dec.functions.comment: the metadata's comment is the whole description.
        description: f.entry.comment ?? withComment(f.db.comment, DESCRIBE.functionRoot(fn, t.entry.table)),
      }),
    });
    if (f.exposedAs === 'query' && t.access.aggregate) {
      roots.push({
        into: 'query',
        name: f.aggregateField,
        namespace: t.namespace,
        typeNames: t.typeNames,
        field: { kind: 'function_aggregate', table: t, fn: f },
        config: () => ({
          type: nonNull(aggregate(t)),
          args: args(f.uncustomized?.aggregateField ?? f.aggregateField),
          description: withComment(f.db.comment, DESCRIBE.functionAggregateRoot(fn, t.entry.table)),
        }),
      });
    }
  }
  const fieldsOf = { query: new Map<string, RootField>(), mutation: new Map<string, RootField>(), subscription: new Map<string, RootField>() };
  for (const root of roots) fieldsOf[root.into].set(namespacedKey(root.namespace, root.name), root.field);
  const namespaces = new Set(roots.flatMap((root) => (root.namespace === undefined ? [] : [root.namespace])));
  const { query: queryFields, mutation: mutationFields, subscription: streamFields } = fieldsOf;
  if (external.tables) {
    external.tables.lookup = (name) => {
      const t = models.get(relationKey(name));
      return t?.access.select ? objectType(t) : undefined;
    };
  }
  // Roots made of the same classes of tables make the same schema (the root fields' tables, with
  // their role's permissions, stay this role's own: queryFields and mutationFields).
  const rootKey = share.rootKey(models, classes, [
    ...functions.map((f) =>
      JSON.stringify([
        f.field,
        f.aggregateField,
        f.argsType,
        f.uncustomized ?? null,
        f.exposedAs,
        f.tableKey,
        classes.get(f.tableKey),
        f.db.comment,
        f.entry.comment,
        f.arguments.map((a) => [a.field, a.column, a.hasDefault, a.session]),
      ]),
    ),
    external.key,
    JSON.stringify([...models.values()].flatMap((t) => (t.namespace === undefined ? [] : [[t.key, t.namespace, t.typeNames ?? null]]))),
  ]);
  // Only roots of the database are known whole by their key: those of remote schemas and actions
  // are made again with each version, and so is a schema that has them.
  const ownRootsOnly = Object.keys(external.query).length + Object.keys(external.mutation).length + external.types.length === 0 && !external.tables;
  const schema = share.schema(rootKey, ownRootsOnly, () => {
    const query: GraphQLFieldConfigMap<unknown, unknown> = {};
    const mutation: GraphQLFieldConfigMap<unknown, unknown> = {};
    const plain = roots.filter((root) => root.namespace === undefined);
    const streams = () => ({
      ...Object.fromEntries(plain.filter((root) => root.into === 'subscription').map((root) => [root.name, root.config()])),
      ...namespaceFields(roots, 'subscription'),
    });
    for (const root of plain) if (root.into !== 'subscription') (root.into === 'query' ? query : mutation)[root.name] = root.config();
    Object.assign(query, namespaceFields(roots, 'query'));
    Object.assign(mutation, namespaceFields(roots, 'mutation'));
    Object.assign(query, external.query);
    Object.assign(mutation, external.mutation);
    if (Object.keys(query).length === 0) {
      query.no_queries_available = { type: nonNull(GraphQLString) };
    }
    const queryRoot = makeObjectType({ name: 'query_root', fields: query });
    return makeSchema(
      {
        query: queryRoot,
        ...(Object.keys(mutation).length ? { mutation: makeObjectType({ name: 'mutation_root', description: DESCRIBE.mutationRoot, fields: mutation }) } : {}),
        // Remote fields are not subscribed to: a root with only those has no subscription type.
        ...(Object.keys(query).some((name) => !external.queryOwners.has(name))
          ? { subscription: new SubscriptionRoot(queryRoot, external.queryOwners, streamFields.size + namespaces.size, streams) }
          : {}),
        types: [...[...enumTables.values()].map(enumType), ...external.types],
      },
      share.schemasBefore(),
    );
  });
  return {
    schema,
    queryFields,
    mutationFields,
    streamFields,
    namespaces,
    externalQueryFields: external.queryOwners,
    externalMutationFields: external.mutationOwners,
    ...(external.remotePresets ? { remotePresets: external.remotePresets } : {}),
  };
}
