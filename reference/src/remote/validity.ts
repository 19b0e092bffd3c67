// Whether a remote's introspected schema is valid GraphQL (decision dec.remote-schema.valid-schema).
// buildClientSchema takes any introspection answer; a schema that graphql-js would refuse to serve
// must not reach the engine's schema, where it would make every request fail. An object type that
// does not implement its interfaces is refused in the engine's words, anything else in graphql-js's;
// what the engine finds before (introspectionProblem) in its words too.
import {
  isEqualType,
  isObjectType,
  isRequiredArgument,
  isTypeSubTypeOf,
  validateSchema,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

type RawType = { kind?: unknown; name?: unknown; fields?: unknown; interfaces?: unknown; possibleTypes?: unknown };
type RawRef = { name?: unknown } | null | undefined;
const refs = (list: unknown): RawRef[] => (Array.isArray(list) ? (list as RawRef[]) : []);

/**
 * Why the engine cannot build the introspected schema, in its words, before graphql-js reads it: a
 * member or interface that is no name (the answer cannot be read), an interface without fields, a
 * union without member types, and members and interfaces that are not there or of another kind.
 */
export function introspectionProblem(schema: { types?: unknown }): string | undefined {
  const types = refs(schema.types) as RawType[];
  for (const [i, type] of types.entries()) {
    for (const key of ['interfaces', 'possibleTypes'] as const) {
      const j = refs(type?.[key]).findIndex((ref) => typeof ref?.name !== 'string');
      if (j >= 0) return `Error in $.types[${i}].${key}[${j}].name: parsing Name failed, expected String, but encountered Null`;
    }
  }
  const kindOf = new Map(types.map((t) => [t?.name, t?.kind]));
  for (const type of types) {
    const name = String(type?.name);
    if (type?.kind === 'OBJECT') {
      const missing = refs(type.interfaces).find((ref) => kindOf.get(ref!.name) !== 'INTERFACE');
      if (missing) return `Could not find interface '${String(missing.name)}' implemented by Object type '${name}'`;
    } else if (type?.kind === 'INTERFACE') {
      if (refs(type.fields).length === 0) return `List of fields cannot be empty for interface '${name}'`;
    } else if (type?.kind === 'UNION') {
      const members = refs(type.possibleTypes);
      if (members.length === 0) return `List of member types cannot be empty for union type '${name}'`;
      for (const member of members) {
        const kind = kindOf.get(member!.name);
        if (kind === undefined) return `Could not find type '${String(member!.name)}', which is defined as a member type of Union '${name}'`;
        if (kind !== 'OBJECT') return `Union type '${name}' can only include object types. It cannot include '${String(member!.name)}'`;
      }
    }
  }
  return undefined;
}

/** Why the schema cannot be served, or undefined when it is valid. */
export function remoteSchemaProblem(schema: GraphQLSchema): string | undefined {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const iface of type.getInterfaces()) {
      const problem = implementationProblem(schema, type, iface);
      if (problem) return problem;
    }
  }
  return validateSchema(schema)[0]?.message;
}

const field = (owner: string, name: string) => `'${owner}'."${name}"`;
const argument = (owner: string, fieldName: string, name: string) => `${field(owner, fieldName)}("${name}":)`;

function implementationProblem(schema: GraphQLSchema, object: GraphQLObjectType, iface: GraphQLInterfaceType): string | undefined {
  const own = object.getFields();
  for (const wanted of Object.values(iface.getFields())) {
    const given = own[wanted.name];
    if (!given) return `Interface field ${field(iface.name, wanted.name)} expected, but '${object.name}' does not provide it`;
    if (!isTypeSubTypeOf(schema, given.type, wanted.type))
      return `The type of Object field ${field(object.name, given.name)} (${String(given.type)}) is not the same type/sub type of Interface field ${field(iface.name, wanted.name)} (${String(wanted.type)})`;
    const problem = argumentProblem(object, iface, given, wanted);
    if (problem) return problem;
  }
  return undefined;
}

/** The object's field takes every argument of the interface's, of the same type, and requires no other. */
function argumentProblem(
  object: GraphQLObjectType,
  iface: GraphQLInterfaceType,
  given: GraphQLField<unknown, unknown>,
  wanted: GraphQLField<unknown, unknown>,
): string | undefined {
  for (const arg of wanted.args) {
    const mine = given.args.find((a) => a.name === arg.name);
    if (!mine)
      return `Interface field argument ${argument(iface.name, wanted.name, arg.name)} required, but Object field ${field(object.name, given.name)} does not provide it`;
    if (!isEqualType(mine.type, arg.type))
      return `Interface field argument ${argument(iface.name, wanted.name, arg.name)} expects type ${String(arg.type)}, but ${argument(object.name, given.name, arg.name)} has type ${String(mine.type)}`;
  }
  for (const mine of given.args) {
    if (isRequiredArgument(mine) && !wanted.args.some((a) => a.name === mine.name))
      return `Object field argument ${argument(object.name, given.name, mine.name)} is of required type ${String(mine.type)}, but is not provided by Interface field ${field(iface.name, wanted.name)}`;
  }
  return undefined;
}
