import {
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { makeSchema, schemaErrors } from './schemaValidation';

const object = (name: string, fields: GraphQLFieldConfigMap<unknown, unknown>) => new GraphQLObjectType({ name, fields });
/**
 * A schema whose query root has a field for each type. `before`: the schemas made before it, as for a
 * version that takes most types of the one before (none: validated whole).
 */
const schemaOf = (types: GraphQLObjectType[], before?: GraphQLSchema[], rootFields: GraphQLFieldConfigMap<unknown, unknown> = {}) =>
  makeSchema({ query: object('query_root', { ...Object.fromEntries(types.map((t) => [t.name, { type: t }])), ...rootFields }) }, before && (() => before));

describe('schemaErrors', () => {
  it('finds what graphql-js finds in a schema made whole', () => {
    const input = new GraphQLInputObjectType({ name: 'a_input', fields: { id: { type: GraphQLInt } } });
    // An input type as the type of an output field: graphql-js's constructor takes it, validation does not.
    const bad = object('a', { id: { type: input as unknown as GraphQLObjectType } });
    expect(schemaErrors(schemaOf([bad]))).toEqual(['The type of a.id must be Output Type but got: a_input.']);
  });

  it('finds the same in the new types of a schema that takes types of a version before', () => {
    const input = new GraphQLInputObjectType({ name: 'a_input', fields: { id: { type: GraphQLInt } } });
    const bad = object('a', { id: { type: input as unknown as GraphQLObjectType } });
    expect(schemaErrors(schemaOf([bad], []))).toEqual(['The type of a.id must be Output Type but got: a_input.']);
  });

  it('finds a cycle of required input fields among new types', () => {
    const left: GraphQLInputObjectType = new GraphQLInputObjectType({ name: 'left', fields: () => ({ right: { type: new GraphQLNonNull(right) } }) });
    const right: GraphQLInputObjectType = new GraphQLInputObjectType({ name: 'right', fields: () => ({ left: { type: new GraphQLNonNull(left) } }) });
    const schema = schemaOf([], [], { f: { type: GraphQLString, args: { where: { type: left } } } });
    expect(schemaErrors(schema)).toEqual(['Cannot reference Input Object "left" within itself through a series of non-null fields: "right.left".']);
  });

  it("checks the root types' own fields as graphql-js does", () => {
    const out = object('out', { id: { type: GraphQLInt } });
    const schema = schemaOf([out], [], {
      __hidden: { type: GraphQLString },
      f: { type: GraphQLString, args: { __a: { type: GraphQLInt }, b: { type: out as never } } },
      g: { type: GraphQLString, args: { c: { type: new GraphQLNonNull(GraphQLInt), deprecationReason: 'old' } } },
    });
    const expected = [
      'Name "__hidden" must not begin with "__", which is reserved by GraphQL introspection.',
      'Name "__a" must not begin with "__", which is reserved by GraphQL introspection.',
      'The type of query_root.f(b:) must be Input Type but got: out.',
      'Required argument query_root.g(c:) cannot be deprecated.',
    ];
    expect(schemaErrors(schema)).toEqual(expected);
    // graphql-js says the same of the same roots.
    expect(
      schemaErrors(
        schemaOf([out], undefined, {
          __hidden: { type: GraphQLString },
          f: { type: GraphQLString, args: { __a: { type: GraphQLInt }, b: { type: out as never } } },
          g: { type: GraphQLString, args: { c: { type: new GraphQLNonNull(GraphQLInt), deprecationReason: 'old' } } },
        }),
      ),
    ).toEqual(expected);
  });

  it('validates a type once: a type of a valid schema made before is not validated again', () => {
    const kept = object('kept', { id: { type: GraphQLInt } });
    const first = schemaOf([kept]);
    expect(schemaErrors(first)).toEqual([]);
    // Changed behind graphql-js's back after it was found valid: only validating it again would see it.
    const input = new GraphQLInputObjectType({ name: 'kept_input', fields: { id: { type: GraphQLInt } } });
    kept.getFields().id!.type = input as unknown as GraphQLObjectType;
    const added = object('added', { name: { type: GraphQLString } });
    expect(schemaErrors(schemaOf([kept, added], [first]))).toEqual([]);
    // Not vouched for by a schema made before: validated.
    const message = 'The type of kept.id must be Output Type but got: kept_input.';
    expect(schemaErrors(schemaOf([kept, added], []))).toEqual([message]);
    // A schema made whole is validated whole.
    expect(schemaErrors(schemaOf([kept, added]))).toEqual([message]);
  });

  it('takes no type from a schema before that was not valid, or not validated, or has another type of that name', () => {
    const input = new GraphQLInputObjectType({ name: 'b_input', fields: { id: { type: GraphQLInt } } });
    const good = object('good', { id: { type: GraphQLInt } });
    const bad = object('b', { id: { type: input as unknown as GraphQLObjectType } });
    const invalid = schemaOf([good, bad]);
    expect(schemaErrors(invalid)).toHaveLength(1);
    const unvalidated = schemaOf([good]);
    const namesake = schemaOf([object('good', { id: { type: GraphQLInt } })]);
    expect(schemaErrors(namesake)).toEqual([]);
    good.getFields().id!.type = input as unknown as GraphQLObjectType;
    expect(schemaErrors(schemaOf([good], [invalid, unvalidated, namesake]))).toEqual(['The type of good.id must be Output Type but got: b_input.']);
  });

  it('validates the roots of a schema whose types are all known, and keeps its answer', () => {
    const kept = object('known', { id: { type: GraphQLInt } });
    const first = schemaOf([kept]);
    expect(schemaErrors(first)).toEqual([]);
    const empty = makeSchema({ query: object('query_root', {}), types: [kept] }, () => [first]);
    expect(schemaErrors(empty)).toEqual(['Type query_root must define one or more fields.']);
    expect(schemaErrors(empty)).toBe(schemaErrors(empty));
  });

  it('checks the fields of a subscription root that are not the query root’s', () => {
    const query = object('query_root', { a: { type: GraphQLString } });
    const subscription = object('subscription_root', { __b: { type: GraphQLString } });
    expect(schemaErrors(makeSchema({ query, subscription }, () => []))).toEqual([
      'Name "__b" must not begin with "__", which is reserved by GraphQL introspection.',
    ]);
  });

  it('checks a root field of an input type, and a subscription root that has the query root’s fields once', () => {
    const input = new GraphQLInputObjectType({ name: 'f_input', fields: { id: { type: GraphQLInt } } });
    const query = object('query_root', { f: { type: input as never } });
    // As the engine's subscription root: the query root's fields, the same object.
    const subscription = object('subscription_root', {});
    subscription.getFields = () => query.getFields();
    expect(schemaErrors(makeSchema({ query, subscription }, () => []))).toEqual(['The type of query_root.f must be Output Type but got: f_input.']);
  });

  it('says a schema without a query root has none, and checks its other roots', () => {
    const mutation = object('mutation_root', { __m: { type: GraphQLString } });
    expect(schemaErrors(makeSchema({ mutation }, () => []))).toEqual([
      'Query root type must be provided.',
      'Name "__m" must not begin with "__", which is reserved by GraphQL introspection.',
    ]);
    // graphql-js says the same.
    expect(schemaErrors(makeSchema({ mutation: object('mutation_root', { __m: { type: GraphQLString } }) }))).toEqual([
      'Query root type must be provided.',
      'Name "__m" must not begin with "__", which is reserved by GraphQL introspection.',
    ]);
  });

  it('takes a new type named like its own probe', () => {
    const probe = object('schema_probe', { id: { type: GraphQLInt } });
    const list = object('lists', { all: { type: new GraphQLList(probe) } });
    expect(schemaErrors(schemaOf([probe, list], []))).toEqual([]);
    expect((schemaOf([probe], []).getTypeMap().schema_probe as GraphQLNamedType).name).toBe('schema_probe');
  });
});
