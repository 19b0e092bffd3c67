// The GraphQL side of custom types and actions: the types, and a root field per action (for an
// asynchronous one, a mutation that answers the action's id and a query that reads its result).
// Built as a small schema of its own, whose root fields and types join the engine's like a
// remote schema's (see metadata/remoteSchemas.ts contributionOf).
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  getNullableType,
  parseType,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type TypeNode,
} from 'graphql';
import type { Action, CustomTypes, QualifiedName } from '../../../spec';
import { actionAllowed } from '../metadata/actions';
import type { RemoteContribution } from '../metadata/remoteSchemas';
import { namedTypeOf } from '../metadata/customTypes';

const BUILT_IN: Record<string, GraphQLScalarType> = { Int: GraphQLInt, Float: GraphQLFloat, String: GraphQLString, Boolean: GraphQLBoolean, ID: GraphQLID };

/** Scalars the engine's own schema defines too (for the results of asynchronous actions): the same objects. */
export type SharedScalar = (name: string) => GraphQLScalarType;

/** The scalars of the engine's schema that action types use; they are not the actions' to claim. */
export const SHARED_SCALARS: ReadonlySet<string> = new Set(['uuid', 'timestamptz', 'json']);

export interface ActionTypes {
  /** Every action's root fields and the types they reach (for admin). */
  all: RemoteContribution;
  /** The same for a role: the actions its permissions allow (memoised by that set). */
  forRole(role: string): RemoteContribution | undefined;
}

/** The object type of a tracked table as a role sees it, or undefined when the role may not select from it. */
export type TableTypeLookup = (table: QualifiedName) => GraphQLObjectType | undefined;

/** Whether custom objects have relationships: then their types depend on the role's tables. */
export const hasRelationships = (types: CustomTypes | undefined) => (types?.objects ?? []).some((o) => (o.relationships?.length ?? 0) > 0);

/**
 * `tables` is asked when the types' fields are first read (when the engine's schema is made), so
 * that a relationship field takes the role's own type of its table.
 */
export function buildActionTypes(
  types: CustomTypes | undefined,
  actions: readonly Action[],
  sharedScalar: SharedScalar,
  tables: { lookup?: TableTypeLookup } = {},
): ActionTypes | undefined {
  if (actions.length === 0) return undefined;
  const sharedSeen = new Map<string, GraphQLScalarType>();
  const shared: SharedScalar = (name) => sharedSeen.get(name) ?? sharedSeen.set(name, sharedScalar(name)).get(name)!;
  const named = new Map<string, GraphQLNamedType>(Object.entries(BUILT_IN));
  const typeOf = (node: TypeNode): GraphQLOutputType & GraphQLInputType => {
    if (node.kind === Kind.NON_NULL_TYPE) return new GraphQLNonNull(typeOf(node.type)) as never;
    if (node.kind === Kind.LIST_TYPE) return new GraphQLList(typeOf(node.type)) as never;
    // A name the custom types do not define is a PostgreSQL type's scalar (checked when the types were set).
    return (named.get(node.name.value) ?? shared(node.name.value)) as never;
  };
  const typeRef = (text: string) => typeOf(parseType(text));
  const described = (d: string | undefined) => (d ? { description: d } : {});
  for (const s of types?.scalars ?? []) named.set(s.name, new GraphQLScalarType({ name: s.name, ...described(s.description) }));
  for (const e of types?.enums ?? []) {
    named.set(
      e.name,
      new GraphQLEnumType({
        name: e.name,
        ...described(e.description),
        values: Object.fromEntries(
          e.values.map((v) => [
            v.value,
            { value: v.value, ...described(v.description), ...(v.is_deprecated ? { deprecationReason: 'No longer supported' } : {}) },
          ]),
        ),
      }),
    );
  }
  for (const i of types?.input_objects ?? []) {
    named.set(
      i.name,
      new GraphQLInputObjectType({
        name: i.name,
        ...described(i.description),
        fields: () => Object.fromEntries(i.fields.map((f) => [f.name, { type: typeRef(f.type), ...described(f.description) }])),
      }),
    );
  }
  for (const o of types?.objects ?? []) {
    const fields = () => {
      const out: GraphQLFieldConfigMap<unknown, unknown> = Object.fromEntries(
        o.fields.map((f) => [f.name, { type: typeRef(f.type), ...described(f.description) }]),
      );
      for (const r of o.relationships ?? []) {
        const target = tables.lookup?.(r.remote_table);
        if (target) out[r.name] = { type: r.type === 'object' ? target : new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(target))) };
      }
      return out;
    };
    named.set(o.name, new GraphQLObjectType({ name: o.name, ...described(o.description), fields }));
  }
  const query: GraphQLFieldConfigMap<unknown, unknown> = {};
  const mutation: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const action of actions) {
    const d = action.definition;
    const args = Object.fromEntries((d.arguments ?? []).map((a) => [a.name, { type: typeRef(a.type), ...described(a.description) }]));
    const description = described(action.comment);
    if (d.kind === 'asynchronous') {
      mutation[action.name] = { type: new GraphQLNonNull(shared('uuid')), args, ...description };
      const result = new GraphQLObjectType({
        name: action.name,
        description: `the result of the asynchronous action ${action.name}`,
        fields: {
          id: { type: new GraphQLNonNull(shared('uuid')) },
          created_at: { type: new GraphQLNonNull(shared('timestamptz')) },
          errors: { type: shared('json') },
          // Null until the handler answers, and when it answers with errors.
          output: { type: getNullableType(typeRef(d.output_type) as GraphQLOutputType) as GraphQLOutputType },
        },
      });
      query[action.name] = { type: result, args: { id: { type: new GraphQLNonNull(shared('uuid')) } }, ...description };
    } else {
      (d.type === 'query' ? query : mutation)[action.name] = { type: typeRef(d.output_type), args, ...description };
    }
  }
  // The types an action reaches, by its definition (reading the GraphQL types' fields would fix
  // the relationship fields before the role's tables are known).
  const reached = (action: Action): string[] => {
    const out = new Set<string>(action.definition.kind === 'asynchronous' ? [action.name] : []);
    const visit = (typeText: string) => {
      const name = namedTypeOf(typeText);
      if (name === undefined || out.has(name) || BUILT_IN[name]) return;
      out.add(name);
      const fields = types?.objects?.find((o) => o.name === name)?.fields ?? types?.input_objects?.find((i) => i.name === name)?.fields ?? [];
      for (const f of fields) visit(f.type);
    };
    for (const a of action.definition.arguments ?? []) visit(a.type);
    visit(action.definition.output_type);
    return [...out];
  };
  const resultTypes = new Map<string, GraphQLNamedType>();
  for (const action of actions) {
    if (action.definition.kind === 'asynchronous') resultTypes.set(action.name, query[action.name]!.type as GraphQLObjectType);
  }
  const contribution = (allowed: readonly Action[]): RemoteContribution | undefined => {
    if (allowed.length === 0) return undefined;
    const names = new Set(allowed.map((a) => a.name));
    const typeNames = new Set(allowed.flatMap(reached));
    const fieldsOf = (fields: GraphQLFieldConfigMap<unknown, unknown>) =>
      new Map(
        Object.entries(fields)
          .filter(([name]) => names.has(name))
          .map(([name, f]) => [name, f as never]),
      );
    return {
      name: ACTIONS_OWNER,
      label: 'the actions and custom types',
      query: fieldsOf(query),
      mutation: fieldsOf(mutation),
      types: new Map([...typeNames].map((n): [string, GraphQLNamedType] => [n, resultTypes.get(n) ?? named.get(n)!])),
    };
  };
  const byRole = new Map<string, RemoteContribution | undefined>();
  return {
    all: contribution(actions)!,
    forRole(role) {
      const allowed = actions.filter((a) => actionAllowed(a, role));
      const key = allowed.map((a) => a.name).join('\u0000');
      if (!byRole.has(key)) byRole.set(key, contribution(allowed));
      return byRole.get(key);
    },
  };
}

/** The owner of the actions' root fields, beside the remote schemas' names. */
export const ACTIONS_OWNER = '\u0000actions';
