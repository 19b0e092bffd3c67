// A role's SDL against the remote's schema: every reason it is not a subset, word for word, and
// the role's schema and presets when it is.
import { buildSchema, printSchema } from 'graphql';
import { reasonsText, roleRemote, sdlSyntaxProblem, type RoleRemote } from './rolePermission';

const upstream = buildSchema(`
  directive @cached(ttl: Int) on FIELD_DEFINITION
  type Query { thing(id: ID!, kind: Kind = BIG): Thing, things(where: Where, ids: [ID!]): [Thing!]!, any: Any, old: Int @deprecated(reason: "gone") }
  type Mutation { touch(id: ID!): Thing }
  interface Node { id: ID! }
  type Thing implements Node { id: ID!, name: String, other: Other }
  type Other { name: String }
  union Any = Thing | Other
  enum Kind { BIG SMALL }
  input Where { name: String, kind: Kind!, tag: String! = "x" }
  scalar Stamp
`);
const reasons = (sdl: string) => (roleRemote(upstream, sdl) as { reasons: string[] }).reasons;
const THING = 'type Thing { id: ID! }';

test('the document: SDL only, one schema definition, each type once, the remote’s roots', () => {
  expect(reasons('type Query { thing(id: ID!): Thing')).toEqual(['the schema is not GraphQL SDL: Syntax Error: Expected Name, found <EOF>.']);
  expect(reasons(`schema { query: Query } schema { query: Query } type Query { any: Any } union Any = Thing ${THING}`)).toEqual([
    'multiple schema definitions found',
  ]);
  expect(reasons(`type Query { old: Int } query { old } directive @x on FIELD`)).toEqual([
    'only type definitions and a schema definition are expected, found a OperationDefinition',
    'only type definitions and a schema definition are expected, found a DirectiveDefinition',
  ]);
  expect(reasons('type Query { old: Int } type Query { old: Int }')).toEqual(['the type "Query" is defined twice']);
  expect(reasons('schema { query: Other } type Other { name: String }')).toEqual([`the query root "Other" is not the remote schema's query root "Query"`]);
  expect(reasons('schema { query: Query, mutation: Other } type Query { old: Int } type Other { name: String }')).toEqual([
    `the mutation root "Other" is not the remote schema's mutation root "Mutation"`,
  ]);
  expect(roleRemote(buildSchema('type Query { a: Int }'), 'type Query { a: Int } type Mutation { a: Int }')).toEqual({
    reasons: [
      `the mutation root "Mutation" is not the remote schema's mutation root: it has none`,
      'object "Mutation" does not exist in the upstream remote schema',
    ],
  });
  expect(reasons('type Query { old: Int } type Subscription { old: Int }')).toEqual([
    "a remote schema's subscriptions are not served",
    'object "Subscription" does not exist in the upstream remote schema',
  ]);
});

test('types: each exists upstream with its kind', () => {
  expect(reasons('type Query { old: Int } input Thing { id: ID! }')).toEqual(['"Thing" is an object in the upstream remote schema, not an input object']);
  expect(reasons('type Query { old: Int } type Where { id: ID! }')).toEqual(['"Where" is an input object in the upstream remote schema, not an object']);
  expect(reasons('type Query { old: Int } interface Any { id: ID! }')).toEqual(['"Any" is a union in the upstream remote schema, not an interface']);
  expect(reasons('type Query { old: Int } scalar Kind')).toEqual(['"Kind" is an enum in the upstream remote schema, not a scalar']);
  expect(reasons('type Query { old: Int } union Node = Thing')).toEqual(['"Node" is an interface in the upstream remote schema, not a union']);
  expect(reasons('type Query { old: Int } enum Stamp { A }')).toEqual(['"Stamp" is a scalar in the upstream remote schema, not an enum']);
  expect(reasons('type Query { old: Int } scalar Missing')).toEqual(['scalar "Missing" does not exist in the upstream remote schema']);
});

test('fields and arguments: present upstream, of the same type, the required ones given', () => {
  expect(reasons(`type Query { thing(id: ID!, size: Int): Thing, things: [Thing] } ${THING}`)).toEqual([
    'argument "size" of field "thing" of object "Query" does not exist in the upstream remote schema',
    'expected the type of field "things" of object "Query" to be [Thing!]! but received [Thing]',
  ]);
  expect(reasons(`type Query { thing(id: ID): Thing } ${THING}`)).toEqual([
    'expected the type of argument "id" of field "thing" of object "Query" to be ID! but received ID',
  ]);
  // An argument with a default may be left out; one without may not.
  expect(reasons(`type Query { thing: Thing } ${THING}`)).toEqual([
    'field "thing" of object "Query" expects the following non-nullable arguments to be present: "id"',
  ]);
  expect(
    reasons(`type Query { thing(id: ID!): Thing } type Thing implements Node { id: ID! } interface Node { id: ID! } type Other implements Node { id: ID! }`),
  ).toEqual([
    'object "Other" implements "Node", which it does not implement in the upstream remote schema',
    'field "id" of object "Other" does not exist in the upstream remote schema',
  ]);
});

test('input objects, enums and unions: subsets of theirs', () => {
  const withWhere = (where: string) => `type Query { things(where: Where): [Thing!]! } ${THING} ${where}`;
  expect(reasons(withWhere('input Where { kind: Kind!, size: Int } enum Kind { BIG }'))).toEqual([
    'field "size" of input object "Where" does not exist in the upstream remote schema',
  ]);
  expect(reasons(withWhere('input Where { kind: Kind } enum Kind { BIG }'))).toEqual([
    'expected the type of field "kind" of input object "Where" to be Kind! but received Kind',
  ]);
  expect(reasons(withWhere('input Where { name: String } enum Kind { BIG }'))).toEqual([
    'input object "Where" expects the following non-nullable fields to be present: "kind"',
  ]);
  expect(reasons(withWhere('input Where { kind: Kind! @preset(value: BIG) }'))).toEqual([
    'every field of input object "Where" is preset: the role must be left at least one',
  ]);
  expect(reasons(`type Query { any: Any } union Any = Thing | Other | Query ${THING} type Other { name: String }`)).toEqual([
    'union "Any" has members that the upstream remote union does not have: "Query"',
  ]);
});

test('directives: @deprecated and the remote’s own anywhere, @preset only on arguments and input fields, once, with a value of their type', () => {
  expect(reasons(`type Query @preset(value: 1) { thing(id: ID!): Thing @preset(value: 1) @cached(ttl: 1) @unknown } ${THING}`)).toEqual([
    '@preset is allowed only on arguments and input fields, not on the object "Query"',
    '@preset is allowed only on arguments and input fields, not on the field "thing" of object "Query"',
    'the directive @unknown of the field "thing" of object "Query" does not exist in the upstream remote schema',
  ]);
  const onId = (directives: string, type = 'ID!') => reasons(`type Query { thing(id: ${type} ${directives}): Thing } ${THING}`);
  expect(onId('@preset(value: "1") @preset(value: "2")')).toEqual(['the argument "id" of field "thing" of object "Query" has more than one @preset']);
  expect(onId('@preset(val: "1")')).toEqual([
    'the @preset of the argument "id" of field "thing" of object "Query" takes "value" and, optionally, "static", not "val"',
  ]);
  expect(onId('@preset')).toEqual(['the @preset of the argument "id" of field "thing" of object "Query" takes "value" and, optionally, "static"']);
  expect(onId('@preset(value: "1", static: "yes")')).toEqual([
    '"static" of the @preset of the argument "id" of field "thing" of object "Query" must be true or false',
  ]);
  expect(onId('@preset(value: null)')).toEqual(['the preset null of the argument "id" of field "thing" of object "Query" is not a value of type ID!']);
  expect(reasons(`type Query { things(ids: [ID!] @preset(value: "x-engine-ids")): [Thing!]! } ${THING}`)).toEqual([
    'a session variable preset needs a scalar or enum type, and the argument "ids" of field "things" of object "Query" is [ID!]',
  ]);
  // static: true makes a session variable's name a plain string; a list takes a list.
  expect('schema' in roleRemote(upstream, `type Query { things(ids: [ID!] @preset(value: ["x-engine-ids"], static: true)): [Thing!]! } ${THING}`)).toBe(true);
});

test('what graphql-js finds when it builds the role’s schema', () => {
  expect(reasons('type Query { thing(id: ID!): Thing }')).toEqual(['Unknown type "Thing". Did you mean "String" or "Int"?']);
  expect(reasons('type Query { thing(id: ID!): Thing } interface Node { id: ID! } type Thing implements Node { name: String }')).toEqual([
    'Interface field Node.id expected but Thing does not provide it.',
  ]);
});

test('a subset: the role’s schema without the preset arguments and fields nor other directives than @deprecated, and its presets', () => {
  const role = roleRemote(
    upstream,
    `type Query {
       thing(id: ID! @preset(value: "X-Engine-User-Id"), kind: Kind @preset(value: SMALL)): Thing @cached(ttl: 5)
       things(where: Where): [Thing!]!
       old: Int @deprecated(reason: "gone")
     }
     type Thing { id: ID!, name: String }
     enum Kind { BIG SMALL }
     input Where { kind: Kind!, tag: String! @preset(value: "t", static: true) }`,
  ) as RoleRemote;
  expect(printSchema(role.schema)).toBe(
    'type Query {\n  thing: Thing\n  things(where: Where): [Thing!]!\n  old: Int @deprecated(reason: "gone")\n}\n\ntype Thing {\n  id: ID!\n  name: String\n}\n\nenum Kind {\n  BIG\n  SMALL\n}\n\ninput Where {\n  kind: Kind!\n}',
  );
  expect([...role.presets.args.get('Query.thing')!].map(([n, p]) => [n, p.kind, p.kind === 'session' ? [p.variable, p.type.name] : p.value.kind])).toEqual([
    ['id', 'session', ['x-engine-user-id', 'ID']],
    ['kind', 'static', 'EnumValue'],
  ]);
  expect([...role.presets.inputFields.get('Where')!].map(([n, p]) => [n, p.kind])).toEqual([['tag', 'static']]);
  expect(role.presets.schema).toBe(role.schema);
  // Once per schema and text.
  expect(roleRemote(upstream, 'type Query { old: Int }')).toBe(roleRemote(upstream, 'type Query { old: Int }'));
});

test('names listed in a reason are quoted and separated; brackets may nest 128 deep, not 129', () => {
  expect(reasons('type Query { old: Int } enum Kind { BIG FOGGY HAZY }')).toEqual([
    'enum "Kind" has values that the upstream remote enum does not have: "FOGGY", "HAZY"',
  ]);
  const nested = (depth: number) => `type Query { old: ${'['.repeat(depth - 1)}Int${']'.repeat(depth - 1)} }`;
  expect(reasons(nested(128))).toEqual([expect.stringMatching(/^expected the type of field "old" of object "Query" to be Int but received \[/)]);
  expect(reasons(nested(129))).toEqual(['the schema nests brackets deeper than 128']);
});

test('presets: only a string that begins with x-engine- is a session variable; @preset beside other directives; "static" before "value"', () => {
  const presetsOf = (sdl: string) => {
    const role = roleRemote(upstream, `${sdl} type Thing { id: ID! } enum Kind { BIG @cached(ttl: 1) SMALL }`) as RoleRemote;
    return [...role.presets.args.get('Query.thing')!].map(([n, p]) => [n, p.kind === 'session' ? p.variable : p.value.kind]);
  };
  expect(presetsOf('type Query { thing(id: ID! @preset(value: "id-x-engine-1")): Thing }')).toEqual([['id', 'StringValue']]);
  expect(presetsOf('type Query { thing(id: ID!, kind: Kind @deprecated(reason: "old") @preset(value: BIG)): Thing }')).toEqual([['kind', 'EnumValue']]);
  expect(presetsOf('type Query { thing(id: ID! @preset(static: false, value: "x-engine-user-id")): Thing }')).toEqual([['id', 'x-engine-user-id']]);
});

test('reasons read as one sentence, or one line each', () => {
  expect(reasonsText(['a'])).toBe('because a');
  expect(reasonsText(['a', 'b'])).toBe('for the following reasons:\n • a\n • b');
});

test('the syntax of a role’s SDL: the parser’s message, nothing when it parses, and text nested past 128 left to the check', () => {
  expect(sdlSyntaxProblem('type Query { old: Int }')).toBeUndefined();
  expect(sdlSyntaxProblem('type Query { old: Int')).toBe('Syntax Error: Expected Name, found <EOF>.');
  expect(sdlSyntaxProblem(`type Query { old: ${'['.repeat(128)}Int }`)).toBeUndefined();
  expect(sdlSyntaxProblem(`type Query { old: ${'['.repeat(127)}Int }`)).toBe('Syntax Error: Expected "]", found "}".');
});

test('a required argument or input field with a default may be left out; an input object left without fields is not all preset', () => {
  const withDefaults = buildSchema('type Query { page(size: Int! = 10, after: ID!): Int, find(w: W): Int } input W { a: Int, b: Int! = 1 }');
  expect(roleRemote(withDefaults, 'type Query { page: Int }')).toEqual({
    reasons: ['field "page" of object "Query" expects the following non-nullable arguments to be present: "after"'],
  });
  expect(printSchema((roleRemote(withDefaults, 'type Query { page(after: ID!): Int, find(w: W): Int } input W { a: Int }') as RoleRemote).schema)).toBe(
    'type Query {\n  page(after: ID!): Int\n  find(w: W): Int\n}\n\ninput W {\n  a: Int\n}',
  );
  expect(roleRemote(withDefaults, 'type Query { find(w: W): Int } input W')).toEqual({ reasons: ['Input Object type W must define one or more fields.'] });
  // Two preset fields of one input object: both kept.
  const two = roleRemote(
    upstream,
    `type Query { things(where: Where): [Thing!]! } ${THING} enum Kind { BIG } input Where { name: String @preset(value: "n"), kind: Kind!, tag: String! @preset(value: "t") }`,
  );
  expect([...(two as RoleRemote).presets.inputFields.get('Where')!.keys()]).toEqual(['name', 'tag']);
});

test('the role’s schema keeps an argument whose only directive is @deprecated, and drops the remote’s directives on unions and scalars', () => {
  const role = roleRemote(
    upstream,
    `type Query { thing(id: ID!, kind: Kind @deprecated(reason: "old")): Thing, any: Any } ${THING} type Other { name: String } enum Kind { BIG }
     union Any @cached(ttl: 1) = Thing | Other
     scalar Stamp @cached(ttl: 2)`,
  ) as RoleRemote;
  expect(printSchema(role.schema)).toBe(
    'type Query {\n  thing(id: ID!, kind: Kind @deprecated(reason: "old")): Thing\n  any: Any\n}\n\ntype Thing {\n  id: ID!\n}\n\ntype Other {\n  name: String\n}\n\nenum Kind {\n  BIG\n}\n\nunion Any = Thing | Other\n\nscalar Stamp',
  );
  expect(reasons(`type Query { thing(id: ID! @preset(val: "1", other: 2)): Thing } ${THING}`)).toEqual([
    'the @preset of the argument "id" of field "thing" of object "Query" takes "value" and, optionally, "static", not "val", "other"',
  ]);
});

test('roots: none named, a subscription root in the schema definition, the remote’s own mutation root', () => {
  expect(reasons(THING)).toEqual(['query root does not exist in the schema definition']);
  expect(reasons('schema { query: Query, subscription: Query } type Query { old: Int }')).toEqual(["a remote schema's subscriptions are not served"]);
  expect('schema' in roleRemote(upstream, `type Query { old: Int } type Mutation { touch(id: ID!): Thing } ${THING}`)).toBe(true);
});

test('an interface’s fields are checked as an object’s; an input object whose fields carry only the remote’s directives is not preset', () => {
  expect(reasons(`type Query { old: Int } interface Node { id: ID!, nope: Int }`)).toEqual([
    'field "nope" of interface "Node" does not exist in the upstream remote schema',
  ]);
  expect(
    'schema' in roleRemote(upstream, `type Query { things(where: Where): [Thing!]! } ${THING} enum Kind { BIG } input Where { kind: Kind! @cached(ttl: 1) }`),
  ).toBe(true);
});

test('on a compatible server a preset naming x-hasura-… is a session variable', () => {
  const role = roleRemote(upstream, `type Query { thing(id: ID! @preset(value: "X-Hasura-User-Id")): Thing } ${THING}`, 'hasura') as RoleRemote;
  expect([...role.presets.args.get('Query.thing')!].map(([n, p]) => [n, p.kind, p.kind === 'session' ? [p.variable, p.header] : null])).toEqual([
    ['id', 'session', ['x-engine-user-id', 'x-hasura-user-id']],
  ]);
});
