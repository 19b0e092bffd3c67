// The field a remote relationship adds, and every reason a path does not resolve; the document
// form's parsing and the table-side checks beside it.
import { buildSchema, printType, GraphQLObjectType, GraphQLString } from 'graphql';
import { columnReferences, remoteRelationshipDefinition, remoteTarget, type RemoteFieldPath } from '../../../spec';
import type { DbTable } from '../db/introspection';
import { contributionOf } from '../metadata/remoteSchemas';
import { addRemoteRelationship, deleteRemoteRelationship, lhsProblem, updateRemoteRelationship } from '../metadata/remoteRelationships';
import { engineFieldName, resolveRemotePath } from './remoteRelationshipField';

const remote = contributionOf(
  'geo',
  buildSchema(`
    type Query {
      "A country by code"
      country(code: String!, lang: String = "en", year: Int): Country
      strict(code: String!, key: Int!): Country
      relaxed(code: String!, key: Int! = 1): Country
      name: String
    }
    type Country { name(style: String): String!, capital: City, cities(min: Int!): [City!]! }
    type City { name: String! }
  `),
);
const at = (field: string, args: Record<string, unknown> = {}, below?: RemoteFieldPath): RemoteFieldPath => ({
  [field]: { arguments: args, ...(below ? { field: below } : {}) },
});
const shown = (r: ReturnType<typeof resolveRemotePath>) =>
  'problem' in r ? r.problem : printType(new GraphQLObjectType({ name: 'T', fields: { f: r.field } }));

test('the last field with the arguments the path leaves, its type and description', () => {
  expect(shown(resolveRemotePath(remote, at('country', { code: '$c' })))).toBe(
    'type T {\n  """A country by code"""\n  f(lang: String = "en", year: Int): Country\n}',
  );
  expect(shown(resolveRemotePath(remote, at('country', { code: '$c' }, at('cities'))))).toBe('type T {\n  f(min: Int!): [City!]!\n}');
  expect(shown(resolveRemotePath(remote, at('country', { code: '$c' }, at('capital', {}, at('name')))))).toBe('type T {\n  f: String!\n}');
  // An outer field's argument with a default need not be set.
  expect(shown(resolveRemotePath(remote, at('relaxed', { code: 'x' }, at('name'))))).toBe('type T {\n  f(style: String): String!\n}');
  const resolved = resolveRemotePath(remote, at('country', { code: '$c' }, at('name', { style: 'short' })));
  expect('steps' in resolved && resolved.steps).toEqual([
    { name: 'country', arguments: { code: '$c' } },
    { name: 'name', arguments: { style: 'short' } },
  ]);
});

test('every reason a path does not resolve', () => {
  const problem = (path: Record<string, unknown>) => shown(resolveRemotePath(remote, path as never));
  expect(problem(at('nation'))).toBe('field "nation" not found in the query root');
  expect(problem(at('country', { iso: 1 }))).toBe('argument "iso" not found on field "country"');
  expect(problem(at('country', { code: '$c' }, at('mayor')))).toBe('field "mayor" not found in type "Country"');
  expect(problem(at('country', { code: '$c' }, at('capital', {}, at('name', {}, at('length')))))).toBe(
    'type "String" has no fields: "length" cannot be reached',
  );
  expect(problem(at('name', {}, at('x')))).toBe('type "String" has no fields: "x" cannot be reached');
  expect(problem(at('strict', { code: 'a' }, at('name')))).toBe('the required argument "key" of field "strict" is not set');
  expect(problem(at('country', { code: '$c' }, at('name', { toString: 1 })))).toBe('argument "toString" not found on field "name"');
  expect(problem(at('constructor'))).toBe('field "constructor" not found in the query root');
});

const table: DbTable = { columns: [{ name: 'id' }, { name: 'code' }] } as unknown as DbTable;
const entry = { table: { schema: 'public', name: 'place' } };
const rel = (name: string, lhs: string[], args: Record<string, unknown>) => ({
  name,
  definition: { to_remote_schema: { remote_schema: 'geo', lhs_fields: lhs, remote_field: at('country', args) } },
});

test('the table side: lhs columns and "$column" references', () => {
  expect(lhsProblem(table, rel('r', ['code'], { code: '$code' }) as never)).toBeUndefined();
  expect(lhsProblem(table, rel('r', ['code', 'nope'], { code: '$code' }) as never)).toBe('the column "nope" of lhs_fields does not exist');
  expect(lhsProblem(table, rel('r', ['code'], { code: { deep: ['$id'] } }) as never)).toBe(
    'the argument "code" of "country" reads "$id", which lhs_fields does not list',
  );
  expect([...columnReferences({ a: ['$x', { b: '$y', c: 'z', d: 1 }], e: '$x' })].sort()).toEqual(['x', 'y']);
  expect([...columnReferences(JSON.parse('['.repeat(100_000) + '"$deep"' + ']'.repeat(100_000)))]).toEqual(['deep']);
});

test('add, update and delete keep the order and refuse what they must', () => {
  const one = addRemoteRelationship(entry, table, rel('a', ['code'], { code: '$code' }) as never);
  const two = addRemoteRelationship(one, table, rel('b', ['id'], { code: '$id' }) as never);
  expect(two.remote_relationships!.map((r) => r.name)).toEqual(['a', 'b']);
  expect(() => addRemoteRelationship(two, table, rel('a', [], {}) as never)).toThrow('remote relationship "a" already exists on table "place"');
  expect(() => addRemoteRelationship(two, table, rel('code', [], {}) as never)).toThrow(
    'the name "code" is already used by a column, relationship or computed field of table "place"',
  );
  const updated = updateRemoteRelationship(two, table, rel('a', ['id'], { code: '$id' }) as never);
  expect(updated.remote_relationships!.map((r) => remoteTarget(r.definition)!.lhs_fields)).toEqual([['id'], ['id']]);
  expect(() => updateRemoteRelationship(two, table, rel('c', [], {}) as never)).toThrow('remote relationship "c" does not exist on table "place"');
  expect(deleteRemoteRelationship(deleteRemoteRelationship(two, 'a'), 'b')).toEqual(entry);
  expect(() => deleteRemoteRelationship(entry, 'a')).toThrow('remote relationship "a" does not exist on table "place"');
});

test('the document form: both shapes, one field per level, names, depth', () => {
  const parse = (v: unknown) => {
    const r = remoteRelationshipDefinition.parse(v, '$');
    return r.ok ? r.value : r.problem;
  };
  const path = at('country', { code: '$c' });
  expect(parse({ to_remote_schema: { remote_schema: 'g', lhs_fields: ['c'], remote_field: path } })).toEqual({
    to_remote_schema: { remote_schema: 'g', lhs_fields: ['c'], remote_field: path },
  });
  expect(parse({ remote_schema: 'g', hasura_fields: ['c'], remote_field: path })).toEqual({ remote_schema: 'g', hasura_fields: ['c'], remote_field: path });
  expect(parse({ remote_schema: 'g', remote_field: path })).toEqual({ path: '$', message: 'key "hasura_fields" not found' });
  expect(parse({ remote_schema: 'g', hasura_fields: [] })).toEqual({ path: '$', message: 'key "remote_field" not found' });
  expect(parse({})).toEqual({ path: '$', message: 'expected to_remote_schema, or remote_schema with hasura_fields and remote_field' });
  expect(parse({ to_remote_schema: { remote_schema: 'g', lhs_fields: [], remote_field: path }, remote_schema: 'g' })).toEqual({
    path: '$',
    message: 'to_remote_schema cannot be given with remote_schema, hasura_fields or remote_field',
  });
  const field = (remote_field: unknown) => parse({ remote_schema: 'g', hasura_fields: [], remote_field });
  expect(field({})).toEqual({ path: '$.remote_field', message: 'expected exactly one remote field, found 0' });
  expect(field([])).toEqual({ path: '$.remote_field', message: 'expected an object with one remote field' });
  expect(field({ 'a b': { arguments: {} } })).toEqual({ path: '$.remote_field["a b"]', message: '"a b" is not a GraphQL name' });
  expect(field({ a: 1 })).toEqual({ path: '$.remote_field.a', message: 'expected an object with arguments' });
  expect(field({ a: { arguments: {}, alias: 'x' } })).toEqual({ path: '$.remote_field.a', message: 'unexpected key "alias"' });
  expect(field({ a: { arguments: [] } })).toEqual({ path: '$.remote_field.a.arguments', message: 'expected an object' });
  expect(field({ a: {} })).toEqual({ path: '$.remote_field.a.arguments', message: 'expected an object' });
  expect(field({ a: { arguments: { '1x': 1 } } })).toEqual({ path: '$.remote_field.a.arguments["1x"]', message: '"1x" is not a GraphQL name' });
  expect(field({ a: { arguments: {}, field: { b: { arguments: {}, field: 3 } } } })).toEqual({
    path: '$.remote_field.a.field.b.field',
    message: 'expected an object with one remote field',
  });
  let deep: Record<string, unknown> = { z: { arguments: {} } };
  for (let i = 1; i < 16; i++) deep = { a: { arguments: {}, field: deep } };
  expect(field(deep)).toEqual({ remote_schema: 'g', hasura_fields: [], remote_field: deep });
  expect((field({ a: { arguments: {}, field: deep } }) as { message: string }).message).toBe('remote fields nest at most 16 deep');
  // "__proto__" stays an own key.
  const proto = field(JSON.parse('{"__proto__": {"arguments": {}}}')) as { remote_field: Record<string, unknown> };
  expect(Object.keys(proto.remote_field)).toEqual(['__proto__']);
});

test("under a customization: the path in the remote's names, found by the engine's", () => {
  // As the engine shows a remote customized with a namespace and renamed fields of Country.
  const customized = buildSchema(`
    type geo_Query { land(code: String!): G_Country }
    type G_Country { title: String!, seat: G_City, population: Int }
    type G_City { name: String! }
  `);
  const namespaced = { query: new Map([['geo', { type: customized.getType('geo_Query') as GraphQLObjectType }]]) };
  const naming = {
    namespace: 'geo',
    queryRoot: 'geo_Query',
    fieldToRemote: new Map([
      ['geo_Query', new Map([['land', 'country']])],
      [
        'G_Country',
        new Map([
          ['title', 'name'],
          ['seat', 'capital'],
          ['population', 'population'],
        ]),
      ],
    ]),
  };
  const resolved = resolveRemotePath(namespaced, at('country', { code: '$c' }, at('capital', {}, at('name'))), naming);
  expect('steps' in resolved && resolved.steps.map((s) => s.name)).toEqual(['land', 'seat', 'name']);
  expect(shown(resolveRemotePath(namespaced, at('country', { code: '$c' }, at('capital')), naming))).toBe('type T {\n  f: G_City\n}');
  // The engine's names are not the remote's.
  expect(shown(resolveRemotePath(namespaced, at('land', { code: '$c' }), naming))).toBe('field "land" not found in the query root');
  expect(shown(resolveRemotePath(namespaced, at('country', { code: '$c' }, at('title')), naming))).toBe('field "title" not found in type "G_Country"');
  // Without a namespace the root fields are looked up under the query root's name.
  const flat = { query: new Map([['land', { type: customized.getType('G_Country') as GraphQLObjectType, args: { code: { type: GraphQLString } } }]]) };
  expect(shown(resolveRemotePath(flat, at('country', { code: '$c' }), { queryRoot: 'geo_Query', fieldToRemote: naming.fieldToRemote }))).toBe(
    'type T {\n  f: G_Country\n}',
  );
  expect(engineFieldName(undefined, 'Any', 'x')).toBe('x');
  expect(engineFieldName(naming, 'G_City', 'name')).toBe('name');
  expect(engineFieldName(naming, 'G_Country', 'seat')).toBeUndefined();
});
