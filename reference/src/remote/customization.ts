// A remote schema under its customization (decision dec.remote-schema.customization): its types
// and fields renamed for the engine's schema, and the names to send back to the remote.
import { contributionOf, type RemoteContribution } from '../metadata/remoteSchemas';
import {
  buildASTSchema,
  GraphQLNonNull,
  isIntrospectionType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  Kind,
  parse,
  printSchema,
  validateSchema,
  visit,
  type GraphQLSchema,
} from 'graphql';
import type { NameCustomization, RemoteSchemaCustomization } from '../../../spec';
import { perSchema } from './perSchema';
import type { RemoteNaming } from '../schema/remoteRelationshipField';

/** A remote's schema as the engine shows it, and how its names go back to the remote's. */
export interface CustomizedRemote {
  schema: GraphQLSchema;
  /** The field of query_root and mutation_root that holds the remote's root fields, if any. */
  namespace?: string;
  /** Type names: the engine's → the remote's, and back. */
  typeToRemote: ReadonlyMap<string, string>;
  typeFromRemote: ReadonlyMap<string, string>;
  /** By the engine's name of a type: the engine's name of a field → the remote's. */
  fieldToRemote: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** The nodes whose name is a type's name. */
const TYPE_NAMING = new Set<Kind>([
  Kind.NAMED_TYPE,
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.UNION_TYPE_DEFINITION,
  Kind.ENUM_TYPE_DEFINITION,
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
  Kind.SCALAR_TYPE_DEFINITION,
]);

/** A name's own mapping (never one of Object.prototype's: a type may be named constructor). */
const mapped = (c: NameCustomization | undefined, name: string) => (c?.mapping && Object.hasOwn(c.mapping, name) ? c.mapping[name] : undefined);
const renamed = (name: string, c: NameCustomization | undefined) => mapped(c, name) ?? `${c?.prefix ?? ''}${name}${c?.suffix ?? ''}`;

const customizedOnce = perSchema((schema, key) => customize(schema, JSON.parse(key) as RemoteSchemaCustomization));

/** `schema` under `customization` (the same schema when there is none), or why it cannot be. Once per schema and customization. */
export function customizedRemote(schema: GraphQLSchema, customization: RemoteSchemaCustomization | undefined): CustomizedRemote | { problem: string } {
  if (!customization) return { schema, typeToRemote: new Map(), typeFromRemote: new Map(), fieldToRemote: new Map() };
  return customizedOnce(schema, JSON.stringify(customization));
}

function customize(schema: GraphQLSchema, c: RemoteSchemaCustomization): CustomizedRemote | { problem: string } {
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name, schema.getSubscriptionType()?.name].filter((n) => n !== undefined));
  const ns = c.root_fields_namespace;
  const typeName = new Map<string, string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isSpecifiedScalarType(type) || isIntrospectionType(type)) continue;
    const name = type.name;
    if (roots.has(name)) {
      // Root types keep their names unless the remote's fields move under a namespace.
      const to = mapped(c.type_names, name);
      if (ns) typeName.set(name, to ?? `${ns}${name}`);
      else if (to) typeName.set(name, to);
      continue;
    }
    typeName.set(name, renamed(name, c.type_names));
  }
  const fieldName = new Map<string, Map<string, string>>();
  for (const f of c.field_names ?? []) {
    const type = schema.getType(f.parent_type);
    if (!type || !(isObjectType(type) || isInterfaceType(type))) continue;
    fieldName.set(f.parent_type, new Map(Object.keys(type.getFields()).map((n) => [n, renamed(n, f)])));
  }
  const indistinct = mappingsProblem(schema, typeName, fieldName, c);
  if (indistinct) return { problem: indistinct };
  // The remote's SDL with every name changed, built again: graphql-js checks what it gives.
  let parent: string | undefined;
  // printSchema leaves out the schema definition of roots named Query and Mutation: renamed, they need it.
  const operations = (['query', 'mutation', 'subscription'] as const).flatMap((op) => {
    const root = op === 'query' ? schema.getQueryType() : op === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
    return root ? [`${op}: ${root.name}`] : [];
  });
  const printed = parse(printSchema(schema), { noLocation: true });
  const withRoots = printed.definitions.some((d) => d.kind === Kind.SCHEMA_DEFINITION)
    ? printed
    : { ...printed, definitions: [...printed.definitions, ...parse(`schema { ${operations.join(' ')} }`, { noLocation: true }).definitions] };
  const document = visit(withRoots, {
    ObjectTypeDefinition: { enter: (node) => void (parent = node.name.value), leave: () => void (parent = undefined) },
    InterfaceTypeDefinition: { enter: (node) => void (parent = node.name.value), leave: () => void (parent = undefined) },
    FieldDefinition: (node) => {
      const to = parent && fieldName.get(parent)?.get(node.name.value);
      return to && to !== node.name.value ? { ...node, name: { ...node.name, value: to } } : undefined;
    },
    Name: (node, _key, owner) => {
      // Type names where types are defined and where they are named.
      if (!owner || Array.isArray(owner)) return undefined;
      const isTypeName = TYPE_NAMING.has((owner as { kind: Kind }).kind);
      const to = isTypeName ? typeName.get(node.value) : undefined;
      return to && to !== node.value ? { ...node, value: to } : undefined;
    },
  });
  let customized: GraphQLSchema;
  try {
    customized = buildASTSchema(document, { assumeValidSDL: false });
  } catch (error) {
    // graphql-js lists every problem, a blank line between them.
    return { problem: `its customization does not give a valid schema: ${(error instanceof Error ? error.message : String(error)).split('\n\n').join('; ')}` };
  }
  const invalid = validateSchema(customized);
  if (invalid.length) return { problem: `its customization does not give a valid schema: ${invalid.map((e) => e.message).join('; ')}` };
  const typeToRemote = new Map([...typeName].map(([from, to]) => [to, from]));
  const fieldToRemote = new Map([...fieldName].map(([type, fields]) => [typeName.get(type) ?? type, new Map([...fields].map(([from, to]) => [to, from]))]));
  return { schema: customized, ...(ns ? { namespace: ns } : {}), typeToRemote, typeFromRemote: typeName, fieldToRemote };
}

/** The names that occur more than once, sorted, each in double quotes, as the engine lists them. */
function repeated(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  const twice = new Set(names.filter((n) => seen.has(n) || !seen.add(n)));
  return twice.size
    ? [...twice]
        .sort()
        .map((n) => JSON.stringify(n))
        .join(', ')
    : undefined;
}

/**
 * The engine's own checks of a customization, before anything is built, in its words: an
 * interface's fields named as in the objects implementing it; no two types, and no two fields of a
 * type, customized to one name (a built-in scalar takes its mapping too).
 */
function mappingsProblem(
  schema: GraphQLSchema,
  typeName: ReadonlyMap<string, string>,
  fieldName: ReadonlyMap<string, ReadonlyMap<string, string>>,
  c: RemoteSchemaCustomization,
): string | undefined {
  const types = Object.values(schema.getTypeMap()).filter((t) => !isIntrospectionType(t));
  // An interface's field and the same field of an object implementing it must take one name.
  const fieldOf = (type: string, field: string) => fieldName.get(type)?.get(field) ?? field;
  for (const iface of types) {
    if (!isInterfaceType(iface)) continue;
    for (const object of schema.getPossibleTypes(iface)) {
      for (const field of Object.keys(iface.getFields())) {
        const [mine, theirs] = [fieldOf(iface.name, field), fieldOf(object.name, field)];
        if (mine !== theirs)
          return `Remote schema customization inconsistency: field name mapping for field ${JSON.stringify(field)} of interface ${JSON.stringify(iface.name)} is inconsistent with mapping for type ${JSON.stringify(object.name)}. Interface field name maps to ${JSON.stringify(mine)}. Type field name maps to ${JSON.stringify(theirs)}.`;
      }
    }
  }
  const types2 = repeated(types.map((t) => typeName.get(t.name) ?? mapped(c.type_names, t.name) ?? t.name));
  if (types2) return `Type name mappings are not distinct; the following types appear more than once: ${types2}`;
  for (const [type, fields] of fieldName) {
    const fields2 = repeated([...fields.values()]);
    const kind = isInterfaceType(schema.getType(type)) ? 'interface' : 'object';
    if (fields2) return `Field name mappings for ${kind} type ${JSON.stringify(type)} are not distinct; the following fields appear more than once: ${fields2}`;
  }
  return undefined;
}

const contributions = new WeakMap<CustomizedRemote, RemoteContribution>();

/** What a customized remote adds to the engine's schema: its root fields, or its namespace field holding them. */
export function customizedContribution(name: string, remote: CustomizedRemote): RemoteContribution {
  const whole = contributionOf(name, remote.schema);
  if (!remote.namespace) return whole;
  let found = contributions.get(remote);
  if (!found) {
    const query = remote.schema.getQueryType()!;
    const mutation = remote.schema.getMutationType();
    const types = new Map(whole.types);
    types.set(query.name, query);
    if (mutation) types.set(mutation.name, mutation);
    found = {
      name,
      query: new Map([[remote.namespace, { type: new GraphQLNonNull(query) }]]),
      mutation: new Map(mutation && whole.mutation.size ? [[remote.namespace, { type: new GraphQLNonNull(mutation) }]] : []),
      types,
    };
    contributions.set(remote, found);
  }
  return found;
}

/** How the engine names a customized remote's fields, for following a path written in the remote's names. */
export function namingOf(remote: CustomizedRemote): RemoteNaming {
  return {
    ...(remote.namespace ? { namespace: remote.namespace } : {}),
    queryRoot: remote.schema.getQueryType()!.name,
    fieldToRemote: remote.fieldToRemote,
  };
}
