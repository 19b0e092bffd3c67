// Where an operation asks for remote relationships: the paths through the selections, the steps'
// names and argument types, the fragments and variables the client's field takes along.
import { buildSchema, Kind, parse, type FragmentDefinitionNode, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import type { CustomizedRemote } from '../remote/customization';
import type { Models } from '../schema/model';
import { CompileError } from '../sql/graphql/context';
import { collectFields } from '../sql/graphql/fields';
import { remoteJoinsOf, type RemoteJoin } from './remoteJoinPlan';

const schema = buildSchema(`
  type Query { t: [T!]!, one: T, country(code: String!, lang: String): Country, geo: GeoRoot! }
  type Subscription { t: [T!]! }
  type T { id: Int!, rr(lang: String): Country, child: T, kids: [T!]!, n: Int, far: Country, pop: Int }
  type Country { name: String!, capital: City, population(unit: String): Int }
  type City { name: String! }
  type GeoRoot { land(code: String!): Country }
`);
const rel = (name: string, remoteField: Record<string, unknown>, remoteSchema = 'geo') => ({ name, remoteSchema, lhs: ['id'], remoteField });
const models = (rels = [rel('rr', { country: { arguments: { code: '$id' } } })]) =>
  new Map([['t', { name: 'T', remoteRelationships: rels, sourceRelationships: [] }]]) as unknown as Models;

function plan(text: string, variables: Record<string, unknown> = {}, m = models(), names?: ReadonlyMap<string, CustomizedRemote>) {
  const document = parse(text);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const fields = { fragments, variables };
  const root = (operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType()) as GraphQLObjectType;
  const env = { models: m, allModels: m, sessionVariables: {}, schema, fields };
  return remoteJoinsOf(env, operation, root, collectFields(fields, root, operation.selectionSet), variables, names) as RemoteJoin[];
}

test('every place a relationship is asked: through lists, objects and aliases, once per alias', () => {
  const joins = plan('{ t { id rr { name } child { kids { a: rr { name } b: rr { capital { name } } } } } one { n } }');
  expect(joins.map((j) => j.path).sort()).toEqual([
    ['t', 'child', 'kids', 'a'],
    ['t', 'child', 'kids', 'b'],
    ['t', 'rr'],
  ]);
  const first = joins.find((j) => j.path.join('.') === 't.rr')!;
  expect([first.remote, first.lhs, first.steps.map((s) => [s.name, s.arguments, Object.keys(s.argumentTypes)])]).toEqual([
    'geo',
    ['id'],
    [['country', { code: '$id' }, ['code', 'lang']]],
  ]);
  expect(String(first.steps[0]!.argumentTypes.code)).toBe('String!');
  // No table with remote relationships: nothing to look for.
  expect(plan('{ t { id rr { name } } }', {}, models([]))).toEqual([]);
});

test("the client's arguments, fragments and variables go along; others stay behind", () => {
  const [join] = plan(
    'query Q($u: String, $other: Int, $c: Boolean!) { t { n rr { ...A population(unit: $u) } } } fragment A on Country { name capital { ...B } } fragment B on City { name @include(if: $c) } fragment Unused on City { name }',
    { u: 'millions', other: 3, c: true },
  );
  expect(join!.fragments.map((f) => f.name.value)).toEqual(['A', 'B']);
  expect(join!.variableDefinitions.map((d) => d.variable.name.value)).toEqual(['u', 'c']);
  expect(join!.variables).toEqual({ u: 'millions', c: true });
  // A fragment spread twice is sent once.
  const [twice] = plan('{ t { rr { ...A capital { name } ...A } } } fragment A on Country { name }');
  expect(twice!.fragments.map((f) => f.name.value)).toEqual(['A']);
  const [withArgs] = plan('query ($x: String) { t { far: rr { population(unit: $x) } } }', { x: 'k' });
  expect(withArgs!.variables).toEqual({ x: 'k' });
  expect(withArgs!.path).toEqual(['t', 'far']);
});

test('a path of two steps, and a path the schema does not have', () => {
  const [join] = plan('{ t { rr { name } } }', {}, models([rel('rr', { country: { arguments: { code: '$id' }, field: { capital: { arguments: {} } } } })]));
  expect(join!.steps.map((s) => s.name)).toEqual(['country', 'capital']);
  expect(() => plan('{ t { rr { name } } }', {}, models([rel('rr', { nowhere: { arguments: {} } })]))).toThrow(
    new CompileError('the remote relationship "rr" cannot be answered'),
  );
});

test("under a namespace, the steps are found in the namespace field's type by the engine's names", () => {
  const names = {
    namespace: 'geo',
    schema: buildSchema('schema { query: GeoRoot } type GeoRoot { land(code: String!): Country } type Country { name: String! }'),
    fieldToRemote: new Map([['GeoRoot', new Map([['land', 'country']])]]),
    typeToRemote: new Map(),
    typeFromRemote: new Map(),
  } as unknown as CustomizedRemote;
  const [join] = plan('{ t { rr { name } } }', {}, models(), new Map([['geo', names]]));
  expect(join!.steps.map((s) => s.name)).toEqual(['land']);
  expect(join!.names).toBe(names);
});

test('subscriptions do not answer remote relationships', () => {
  expect(() => plan('subscription { t { rr { name } } }')).toThrow(new CompileError('Remote relationships are not allowed in subscriptions', 'not-supported'));
  expect(() => plan('subscription { t { rr { name } } }')).toThrow(expect.objectContaining({ code: 'not-supported' }));
  expect(plan('subscription { t { id } }')).toEqual([]);
});

test("without a namespace, a renamed root field is found under the remote root's engine name, not query_root's", () => {
  const engine = buildSchema(
    'schema { query: query_root } type query_root { t: [T!]!, land(code: String!): Country } type T { id: Int!, rr: Country } type Country { name: String! }',
  );
  const names = {
    schema: buildSchema('type Query { land(code: String!): Country } type Country { name: String! }'),
    fieldToRemote: new Map([['Query', new Map([['land', 'country']])]]),
    typeToRemote: new Map(),
    typeFromRemote: new Map(),
  } as unknown as CustomizedRemote;
  const operation = parse('{ t { rr { name } } }').definitions[0] as OperationDefinitionNode;
  const fields = { fragments: {}, variables: {} };
  const root = engine.getQueryType()!;
  const joins = remoteJoinsOf(
    { models: models(), allModels: models(), sessionVariables: {}, schema: engine, fields },
    operation,
    root,
    collectFields(fields, root, operation.selectionSet),
    {},
    new Map([['geo', names]]),
  );
  expect((joins[0] as RemoteJoin).steps.map((s) => s.name)).toEqual(['land']);
});

test("the client's own arguments on the relationship take their variables along; a relationship to a scalar has no selections", () => {
  const [join] = plan('query ($l: String, $o: Int) { t { rr(lang: $l) { name } } }', { l: 'nb', o: 1 });
  expect(join!.variableDefinitions.map((d) => d.variable.name.value)).toEqual(['l']);
  expect(join!.variables).toEqual({ l: 'nb' });
  const [scalar] = plan('{ t { pop } }', {}, models([rel('pop', { country: { arguments: { code: '$id' }, field: { population: { arguments: {} } } } })]));
  expect([scalar!.steps.map((s) => s.name), scalar!.selectionSet, scalar!.fragments, scalar!.variableDefinitions]).toEqual([
    ['country', 'population'],
    undefined,
    [],
    [],
  ]);
});

test("without a namespace, a step past the root is found under its own type's engine names; a namespace the role's schema lacks cannot be answered", () => {
  const engine = buildSchema(
    'schema { query: query_root } type query_root { t: [T!]!, country(code: String!): Country } type T { id: Int!, rr: City } type Country { seat: City } type City { name: String! }',
  );
  const names = (namespace?: string) =>
    ({
      ...(namespace ? { namespace } : {}),
      schema: buildSchema('type Query { country(code: String!): Country } type Country { seat: City } type City { name: String! }'),
      fieldToRemote: new Map([['Country', new Map([['seat', 'capital']])]]),
      typeToRemote: new Map(),
      typeFromRemote: new Map(),
    }) as unknown as CustomizedRemote;
  const operation = parse('{ t { rr { name } } }').definitions[0] as OperationDefinitionNode;
  const fields = { fragments: {}, variables: {} };
  const root = engine.getQueryType()!;
  const m = models([rel('rr', { country: { arguments: { code: '$id' }, field: { capital: { arguments: {} } } } })]);
  const joinsWith = (n: CustomizedRemote) =>
    remoteJoinsOf(
      { models: m, allModels: m, sessionVariables: {}, schema: engine, fields },
      operation,
      root,
      collectFields(fields, root, operation.selectionSet),
      {},
      new Map([['geo', n]]),
    );
  expect((joinsWith(names())[0] as RemoteJoin).steps.map((s) => s.name)).toEqual(['country', 'seat']);
  expect(() => joinsWith(names('geo'))).toThrow(new CompileError('the remote relationship "rr" cannot be answered'));
});
