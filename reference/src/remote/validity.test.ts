// Whether a remote's schema can be served (decision dec.remote-schema.valid-schema): an object that
// does not implement its interfaces in the engine's words, anything else in graphql-js's.
import { buildSchema } from 'graphql';
import { remoteSchemaProblem } from './validity';

/** A schema whose Droid implements Character (and Node), with these fields. */
const schemaOf = (droid: string, character: string, node = 'id: ID!') =>
  buildSchema(`
    type Query { hero: Character droid: Droid node: Node }
    interface Node { ${node} }
    interface Character { ${character} }
    type Droid implements Node & Character { ${droid} }
  `);

describe('an object that implements its interfaces is valid', () => {
  test.each([
    ['the same fields', 'id: ID! name: String', 'id: ID! name: String'],
    ['a stricter type and a list of the object', 'id: ID! name: String! friends: [Droid]', 'id: ID! name: String friends: [Character]'],
    ['the arguments in another order, and an optional one more', 'id: ID! f(b: Int, a: String, c: Int): Int', 'id: ID! f(a: String, b: Int): Int'],
    ['a required argument the interface has too, among others', 'id: ID! f(b: Int, a: String!): Int', 'id: ID! f(b: Int, a: String!): Int'],
  ])('%s', (_, droid, character) => {
    expect(remoteSchemaProblem(schemaOf(droid, character))).toBeUndefined();
  });
});

describe("an object that does not: the engine's reason for the first field found wrong", () => {
  test.each([
    ['a field missing', 'id: ID!', 'id: ID! name: String', "Interface field 'Character'.\"name\" expected, but 'Droid' does not provide it"],
    [
      'a field of another type, after one that fits',
      'id: ID! name: Int',
      'id: ID! name: String',
      'The type of Object field \'Droid\'."name" (Int) is not the same type/sub type of Interface field \'Character\'."name" (String)',
    ],
    [
      "an argument of the interface's field missing",
      'id: ID! f(a: Int): Int',
      'id: ID! f(a: Int, b: Int): Int',
      'Interface field argument \'Character\'."f"("b":) required, but Object field \'Droid\'."f" does not provide it',
    ],
    [
      'an argument of another type, after one that fits',
      'id: ID! f(a: Int, b: String): Int',
      'id: ID! f(a: Int, b: Int): Int',
      'Interface field argument \'Character\'."f"("b":) expects type Int, but \'Droid\'."f"("b":) has type String',
    ],
    [
      'an argument nullable where the interface requires it',
      'id: ID! f(a: Int): Int',
      'id: ID! f(a: Int!): Int',
      'Interface field argument \'Character\'."f"("a":) expects type Int!, but \'Droid\'."f"("a":) has type Int',
    ],
    [
      'a required argument the interface does not have, after an optional one',
      'id: ID! f(a: Int, b: Int, c: String!): Int',
      'id: ID! f(a: Int): Int',
      'Object field argument \'Droid\'."f"("c":) is of required type String!, but is not provided by Interface field \'Character\'."f"',
    ],
    [
      'a wrong field of a field after one with arguments that fit',
      'id: ID! f(a: Int): Int g: Int',
      'id: ID! f(a: Int): Int g: String',
      'The type of Object field \'Droid\'."g" (Int) is not the same type/sub type of Interface field \'Character\'."g" (String)',
    ],
  ])('%s', (_, droid, character, reason) => {
    expect(remoteSchemaProblem(schemaOf(droid, character))).toBe(reason);
  });

  test('the second interface of an object, the first fitting', () => {
    expect(remoteSchemaProblem(schemaOf('id: ID!', 'id: ID! name: String'))).toBe(
      "Interface field 'Character'.\"name\" expected, but 'Droid' does not provide it",
    );
    expect(remoteSchemaProblem(schemaOf('id: ID! name: String', 'id: ID! name: String', 'id: ID! key: Int'))).toBe(
      "Interface field 'Node'.\"key\" expected, but 'Droid' does not provide it",
    );
  });

  test('an object after a valid one', () => {
    const schema = buildSchema(`
      type Query { a: A b: B }
      interface I { x: Int }
      type A implements I { x: Int }
      type B implements I { y: Int }
    `);
    expect(remoteSchemaProblem(schema)).toBe("Interface field 'I'.\"x\" expected, but 'B' does not provide it");
  });
});

test("what else graphql-js finds wrong is refused in graphql-js's words", () => {
  expect(remoteSchemaProblem(buildSchema('type Query { box: Box } union Box'))).toBe('Union type Box must define one or more member types.');
  // A type named as introspection's are is not looked at for its interfaces: graphql-js refuses its name.
  expect(remoteSchemaProblem(buildSchema('type Query { a: __Hidden } interface I { x: Int } type __Hidden implements I { b: Int }'))).toBe(
    'Name "__Hidden" must not begin with "__", which is reserved by GraphQL introspection.',
  );
});
