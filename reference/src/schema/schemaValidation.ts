// Whether a schema is valid, without validating again what a schema found valid before had
// (decision dec.schema.always-valid, decision 029). graphql-js validates a schema type by type: a
// type's errors depend only on the type and the types it refers to, so a type object that is part
// of a valid schema is valid in every schema that has it. A schema made mostly of the types of
// schemas before is made with `assumeValid` (graphql-js then never validates it whole); here its
// new types are validated by graphql-js in a schema of their own, and its root types, which refer
// to every table's types, are checked field by field as graphql-js checks an object type's fields.
// What only the whole schema can tell, two types of one name, graphql-js's constructor refuses.
import {
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  isInputType,
  isIntrospectionType,
  isObjectType,
  isOutputType,
  isRequiredArgument,
  validateSchema,
  type GraphQLNamedType,
  type GraphQLSchemaConfig,
} from 'graphql';

import { SCHEMA_DIRECTIVES } from './cachedDirective';

/** The messages of the schemas validated so far. */
const results = new WeakMap<GraphQLSchema, readonly string[]>();
/** Schemas made mostly of types of schemas made before: those schemas, whose valid ones vouch for the types they have. */
const madeAfter = new WeakMap<GraphQLSchema, () => Iterable<GraphQLSchema>>();

/**
 * A schema of these roots and types. With `before` (schemas made before, which have most of its
 * types), graphql-js is told not to validate it whole: `schemaErrors` validates the types that no
 * valid one of them has. Either way is right; the choice is what costs less.
 */
export function makeSchema(config: GraphQLSchemaConfig, before?: () => Iterable<GraphQLSchema>): GraphQLSchema {
  const schema = new GraphQLSchema({ directives: SCHEMA_DIRECTIVES, ...config, assumeValid: before !== undefined });
  if (before) madeAfter.set(schema, before);
  return schema;
}

/** The reasons a schema is not valid (none: it is valid). */
export function schemaErrors(schema: GraphQLSchema): readonly string[] {
  let errors = results.get(schema);
  if (errors) return errors;
  const before = madeAfter.get(schema);
  if (before) {
    const valid = [...before()].filter((s) => results.get(s)?.length === 0);
    errors = newTypeErrors(schema, newTypes(schema, valid));
    madeAfter.delete(schema);
  } else {
    // graphql-js validates it whole (and keeps the answer with it).
    errors = validateSchema(schema).map((e) => e.message);
  }
  results.set(schema, errors);
  return errors;
}

const rootsOf = (schema: GraphQLSchema) => [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()] as const;

/** The types of a schema that none of the valid schemas has (the same object by the same name), its roots aside. */
function newTypes(schema: GraphQLSchema, valid: readonly GraphQLSchema[]): GraphQLNamedType[] {
  const roots: readonly unknown[] = rootsOf(schema);
  const known = valid.map((s) => s.getTypeMap());
  const typeMap = schema.getTypeMap();
  const fresh: GraphQLNamedType[] = [];
  for (const name in typeMap) {
    const type = typeMap[name]!;
    if (!known.some((m) => m[name] === type) && !roots.includes(type) && !isIntrospectionType(type)) fresh.push(type);
  }
  return fresh;
}

function newTypeErrors(schema: GraphQLSchema, fresh: readonly GraphQLNamedType[]): string[] {
  const roots = rootsOf(schema);
  const typeMap = schema.getTypeMap();
  const errors: string[] = [];
  if (!isObjectType(roots[0])) errors.push('Query root type must be provided.');
  // subscription_root has query_root's fields, the same objects (less those answered elsewhere).
  for (const root of roots) if (root && (root === roots[0] || root.getFields() !== roots[0]?.getFields())) rootFieldErrors(root, errors);
  if (fresh.length > 0) {
    let name = 'schema_probe';
    while (typeMap[name]) name += '_';
    const probe = new GraphQLObjectType({ name, fields: { probe: { type: GraphQLString } } });
    const part = new GraphQLSchema({ query: probe, types: fresh, directives: schema.getDirectives() });
    errors.push(...validateSchema(part).map((e) => e.message));
  }
  return errors;
}

/** What graphql-js's validation says of an object type's fields (the types they refer to aside), into `errors`. */
function rootFieldErrors(type: GraphQLObjectType, errors: string[]): void {
  const fields = Object.values(type.getFields());
  if (fields.length === 0) errors.push(`Type ${type.name} must define one or more fields.`);
  const reserved = (name: string) => `Name "${name}" must not begin with "__", which is reserved by GraphQL introspection.`;
  for (const field of fields) {
    if (field.name.startsWith('__')) errors.push(reserved(field.name));
    if (!isOutputType(field.type)) errors.push(`The type of ${type.name}.${field.name} must be Output Type but got: ${String(field.type)}.`);
    for (const arg of field.args) {
      if (arg.name.startsWith('__')) errors.push(reserved(arg.name));
      if (!isInputType(arg.type)) errors.push(`The type of ${type.name}.${field.name}(${arg.name}:) must be Input Type but got: ${String(arg.type)}.`);
      if (isRequiredArgument(arg) && arg.deprecationReason != null)
        errors.push(`Required argument ${type.name}.${field.name}(${arg.name}:) cannot be deprecated.`);
    }
  }
}
