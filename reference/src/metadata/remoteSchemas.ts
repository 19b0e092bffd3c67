// Remote schemas (SPEC.md §2.4, §4.3) as pure functions over the document, and what a remote's
// schema brings into the engine's own: its root fields and the types they reach.
import {
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLFieldConfig,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { MetadataDocument, RemoteSchema, RemoteSchemaPermission } from '../../../spec';
import { engineError } from '../errors';

export const remoteSchemasOf = (document: MetadataDocument): readonly RemoteSchema[] => document.remote_schemas ?? [];

export function withRemoteSchemas(document: MetadataDocument, remotes: readonly RemoteSchema[]): MetadataDocument {
  const { remote_schemas: _old, ...rest } = document;
  return remotes.length ? { ...rest, remote_schemas: [...remotes] } : rest;
}

export function findRemoteSchema(document: MetadataDocument, name: string): RemoteSchema {
  const found = remoteSchemasOf(document).find((r) => r.name === name);
  if (!found) throw engineError('not-exists.remote-schema', '$.args', [JSON.stringify(name)]);
  return found;
}

export function addRemoteSchema(document: MetadataDocument, remote: RemoteSchema): MetadataDocument {
  if (remoteSchemasOf(document).some((r) => r.name === remote.name)) throw engineError('already-exists.remote-schema', '$.args', [JSON.stringify(remote.name)]);
  return withRemoteSchemas(document, [...remoteSchemasOf(document), remote]);
}

export function removeRemoteSchema(document: MetadataDocument, name: string): MetadataDocument {
  if (!remoteSchemasOf(document).some((r) => r.name === name)) throw engineError('not-exists.remote-schema-removed', '$.args');
  return withRemoteSchemas(
    document,
    remoteSchemasOf(document).filter((r) => r.name !== name),
  );
}

/** The document with a remote schema's definition and comment replaced, its permissions kept. */
export function updateRemoteSchema(document: MetadataDocument, remote: RemoteSchema): MetadataDocument {
  const { permissions } = findRemoteSchema(document, remote.name);
  return withRemote(document, { ...remote, ...(permissions ? { permissions } : {}) });
}

/** The document with a role's permission on a remote schema added (decision dec.remote-schema.permissions). */
export function addRemoteSchemaPermission(document: MetadataDocument, remoteName: string, permission: RemoteSchemaPermission): MetadataDocument {
  const remote = findRemoteSchema(document, remoteName);
  if ((remote.permissions ?? []).some((p) => p.role === permission.role))
    throw engineError('already-exists.remote-schema-permission', '$.args', [JSON.stringify(permission.role), JSON.stringify(remoteName)]);
  return withRemote(document, { ...remote, permissions: [...(remote.permissions ?? []), permission] });
}

/** The document without a role's permission on a remote schema. */
export function dropRemoteSchemaPermission(document: MetadataDocument, remoteName: string, role: string): MetadataDocument {
  const remote = findRemoteSchema(document, remoteName);
  if (!(remote.permissions ?? []).some((p) => p.role === role))
    throw engineError('not-exists.remote-schema-permission', '$.args', [JSON.stringify(role), JSON.stringify(remoteName)]);
  const { permissions, ...rest } = remote;
  const left = permissions!.filter((p) => p.role !== role);
  return withRemote(document, left.length ? { ...rest, permissions: left } : rest);
}

function withRemote(document: MetadataDocument, remote: RemoteSchema): MetadataDocument {
  return withRemoteSchemas(
    document,
    remoteSchemasOf(document).map((r) => (r.name === remote.name ? remote : r)),
  );
}

/** What a remote schema adds: root fields by operation, and every named type they reach. */
export interface RemoteContribution {
  name: string;
  /** How messages name it; `remote schema "<name>"` unless said otherwise. */
  label?: string;
  query: ReadonlyMap<string, GraphQLFieldConfig<unknown, unknown>>;
  mutation: ReadonlyMap<string, GraphQLFieldConfig<unknown, unknown>>;
  types: ReadonlyMap<string, GraphQLNamedType>;
}

const contributions = new WeakMap<GraphQLSchema, Omit<RemoteContribution, 'name'>>();

export function contributionOf(name: string, schema: GraphQLSchema): RemoteContribution {
  let found = contributions.get(schema);
  if (!found) {
    const types = new Map<string, GraphQLNamedType>();
    const visit = (type: GraphQLNamedType) => {
      if (isSpecifiedScalarType(type) || isIntrospectionType(type) || types.has(type.name)) return;
      types.set(type.name, type);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) visitField(field);
        for (const i of type.getInterfaces()) visit(i);
        if (isInterfaceType(type)) for (const t of schema.getPossibleTypes(type)) visit(t);
      } else if (isUnionType(type)) {
        for (const t of type.getTypes()) visit(t);
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) visit(getNamedType((field as GraphQLInputField).type));
      }
    };
    const visitField = (field: GraphQLField<unknown, unknown>) => {
      visit(getNamedType(field.type));
      for (const arg of field.args) visit(getNamedType(arg.type));
    };
    const fieldsOf = (root: ReturnType<GraphQLSchema['getQueryType']>) => Object.entries(root?.getFields() ?? {});
    const query = fieldsOf(schema.getQueryType());
    const mutation = fieldsOf(schema.getMutationType());
    for (const [, field] of [...query, ...mutation]) visitField(field);
    found = { query: new Map(query.map(([n, f]) => [n, fieldConfig(f)])), mutation: new Map(mutation.map(([n, f]) => [n, fieldConfig(f)])), types };
    contributions.set(schema, found);
  }
  return { name, ...found };
}

/** A remote root field as a field of the engine's own root type: its type, arguments and description. */
function fieldConfig(field: GraphQLField<unknown, unknown>): GraphQLFieldConfig<unknown, unknown> {
  return {
    type: field.type,
    args: Object.fromEntries(
      field.args.map((a) => [a.name, { type: a.type, defaultValue: a.defaultValue, description: a.description, deprecationReason: a.deprecationReason }]),
    ),
    ...(field.description ? { description: field.description } : {}),
    ...(field.deprecationReason ? { deprecationReason: field.deprecationReason } : {}),
  };
}

/**
 * The first GraphQL name that two parts of the schema would both define: a remote's root field or
 * type against the engine's own schema (tables and functions) or against an earlier remote.
 * Answers the arguments of err.remote-schema-conflicts.graphql-name, or undefined.
 */
export function firstConflict(local: GraphQLSchema, remotes: readonly RemoteContribution[]): [string, string, string] | undefined {
  const owner = new Map<string, string>();
  const claim = (key: string, what: string, name: string): [string, string, string] | undefined => {
    const other = owner.get(key);
    if (other !== undefined) return [JSON.stringify(name), what, other];
    owner.set(key, what);
    return undefined;
  };
  for (const [name, type] of Object.entries(local.getTypeMap())) {
    if (!isSpecifiedScalarType(type) && !isIntrospectionType(type)) owner.set(`type ${name}`, 'the schema of the tracked tables and functions');
  }
  for (const name of Object.keys(local.getQueryType()?.getFields() ?? {})) owner.set(`query ${name}`, 'the schema of the tracked tables and functions');
  for (const name of Object.keys(local.getMutationType()?.getFields() ?? {})) owner.set(`mutation ${name}`, 'the schema of the tracked tables and functions');
  for (const remote of remotes) {
    const what = remote.label ?? `remote schema ${JSON.stringify(remote.name)}`;
    for (const name of remote.types.keys()) {
      const c = claim(`type ${name}`, what, name);
      if (c) return c;
    }
    for (const name of remote.query.keys()) {
      const c = claim(`query ${name}`, what, name);
      if (c) return c;
    }
    for (const name of remote.mutation.keys()) {
      const c = claim(`mutation ${name}`, what, name);
      if (c) return c;
    }
  }
  return undefined;
}
