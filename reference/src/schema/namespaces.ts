// The namespace fields of customized sources (decision dec.source.customization): a source's root
// fields under one field of each root, of a type the engine names after the namespace.
import type { GraphQLFieldConfig, GraphQLFieldConfigMap } from 'graphql';
import { sourceTypeName } from './typeNames';
import { makeObjectType } from './types';
import { nonNull } from './wrappers';

/** A root field of a role's schema as it is made: where it goes and how. */
export interface SchemaRoot<F> {
  into: 'query' | 'mutation' | 'subscription';
  name: string;
  /** The namespace field it is under. */
  namespace?: string | undefined;
  /** Its source's type name prefix and suffix, which the namespace's types take too. */
  typeNames?: { prefix?: string; suffix?: string } | undefined;
  field: F;
  config: () => GraphQLFieldConfig<unknown, unknown>;
}

/** The key of a root field in BuiltSchema's maps: its name, after its namespace's (a dot is in no GraphQL name). */
export const namespacedKey = (namespace: string | undefined, name: string) => (namespace === undefined ? name : `${namespace}.${name}`);

/** The type of a source's namespace field in each root, as the engine names it. */
export const NAMESPACE_TYPE_SUFFIX = { query: '_query', mutation: '_mutation_frontend', subscription: '_subscription' } as const;

/**
 * The namespace fields of one root (decision dec.source.customization): each non-null, of an object
 * type holding the source's root fields; under subscription_root its query fields and its streams.
 */
export function namespaceFields(roots: readonly SchemaRoot<unknown>[], into: 'query' | 'mutation' | 'subscription'): GraphQLFieldConfigMap<unknown, unknown> {
  const grouped = new Map<string, { typeName: string; fields: GraphQLFieldConfigMap<unknown, unknown> }>();
  for (const root of roots) {
    if (root.namespace === undefined || !(root.into === into || (into === 'subscription' && root.into === 'query'))) continue;
    const group = grouped.get(root.namespace) ?? { typeName: sourceTypeName(root.typeNames, `${root.namespace}${NAMESPACE_TYPE_SUFFIX[into]}`), fields: {} };
    group.fields[root.name] = root.config();
    grouped.set(root.namespace, group);
  }
  return Object.fromEntries(
    [...grouped].map(([namespace, { typeName, fields }]) => [namespace, { type: nonNull(makeObjectType({ name: typeName, fields })) }]),
  );
}
