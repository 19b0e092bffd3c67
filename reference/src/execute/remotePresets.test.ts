// The presets of a role's remote schema permission written into the request sent on: every field
// and input object they belong to, in literals, variables and fragments, and session variables as
// the scalar or enum of their argument.
import { buildSchema, parse, print } from 'graphql';
import { roleRemote, type RoleRemote } from '../remote/rolePermission';
import { withPresets } from './remotePresets';

const upstream = buildSchema(`
  type Query { weather(city: String!): Weather, search(filters: [Filter!], one: Filter, range: Range, meta: JSON): [Weather!]!, at(x: Float, on: Boolean, sky: Sky, id: ID, note: String, n: Int): Int }
  input Range { from: Int }
  scalar JSON
  type Weather { city: String!, forecast(days: Int!, unit: String): [Weather!]! }
  input Filter { city: String, owner: String, inner: Filter }
  enum Sky { CLEAR CLOUDY }
`);
const role = roleRemote(
  upstream,
  `type Query { weather(city: String! @preset(value: "x-engine-city")): Weather, search(filters: [Filter!], one: Filter, range: Range, meta: JSON): [Weather!]!,
     at(x: Float @preset(value: "x-engine-x"), on: Boolean @preset(value: "x-engine-on"), sky: Sky @preset(value: "x-engine-sky"), id: ID @preset(value: "x-engine-id"), note: String @preset(value: "x-engine-note"), n: Int @preset(value: "x-engine-n")): Int }
   input Range { from: Int }
   scalar JSON
   type Weather { city: String!, forecast(days: Int! @preset(value: 2), unit: String): [Weather!]! }
   input Filter { city: String, owner: String @preset(value: "x-engine-user-id"), inner: Filter }
   enum Sky { CLEAR CLOUDY }`,
) as RoleRemote;
const session = {
  'x-engine-n': ' 12 ',
  'x-engine-city': 'Oslo',
  'x-engine-user-id': '7',
  'x-engine-x': ' 1.5 ',
  'x-engine-on': 'false',
  'x-engine-sky': 'CLOUDY',
  'x-engine-id': ' 0042 ',
  'x-engine-note': ' as is ',
};
const sent = (query: string, variables: Record<string, unknown> = {}, values: Record<string, string> = session) => {
  const out = withPresets(parse(query), variables, role.presets, values);
  return { query: print(out.document), variables: out.variables };
};

test('the role SDL is a subset', () => {
  expect('reasons' in role).toBe(false);
});

test('an argument preset goes on every field that has it: at the root, nested, and inside fragments', () => {
  expect(sent('query { weather { city forecast { forecast { city } } } }').query).toBe(
    '{\n  weather(city: "Oslo") {\n    city\n    forecast(days: 2) {\n      forecast(days: 2) {\n        city\n      }\n    }\n  }\n}',
  );
  expect(sent('query Q { weather { ...F } } fragment F on Weather { forecast { city } }').query).toBe(
    'query Q {\n  weather(city: "Oslo") {\n    ...F\n  }\n}\n\nfragment F on Weather {\n  forecast(days: 2) {\n    city\n  }\n}',
  );
});

test("a field's presets go on it by its name, whatever its alias, after the client's own arguments: none for a field aliased as one that has presets", () => {
  expect(sent('{ weather { f: forecast(unit: "C") { city } } }').query).toBe(
    '{\n  weather(city: "Oslo") {\n    f: forecast(unit: "C", days: 2) {\n      city\n    }\n  }\n}',
  );
  expect(sent('{ here: weather { f: forecast { city } } }').query).toBe(
    '{\n  here: weather(city: "Oslo") {\n    f: forecast(days: 2) {\n      city\n    }\n  }\n}',
  );
  expect(sent('{ weather: search(range: {from: 1}) { forecast: city } }').query).toBe('{\n  weather: search(range: {from: 1}) {\n    forecast: city\n  }\n}');
});

test('an input field preset goes into every object of its type: in lists, nested objects and beside the fields given', () => {
  // An object of a type without presets is left as it is.
  expect(sent('{ search(range: {from: 1}) { city } }').query).toBe('{\n  search(range: {from: 1}) {\n    city\n  }\n}');
  expect(sent('{ search(filters: [{city: "a"}, {inner: {city: "b"}}]) { city } }').query).toBe(
    '{\n  search(\n    filters: [{city: "a", owner: "7"}, {inner: {city: "b", owner: "7"}, owner: "7"}]\n  ) {\n    city\n  }\n}',
  );
});

test('variables: objects, lists of them, nested ones; null and absent values stay as they are, other variables untouched', () => {
  const query = 'query S($fs: [Filter!], $one: Filter, $n: Int, $meta: JSON) { search(filters: $fs, one: $one, meta: $meta) { city } }';
  // A JSON scalar's object is not an input object: no preset goes into it.
  expect(sent(query, { meta: { owner: 'x', inner: {} } }).variables).toEqual({ meta: { owner: 'x', inner: {} } });
  expect(sent(query, { fs: [{ city: 'a' }, { inner: { city: 'b' } }], one: { inner: null }, n: 3 }).variables).toEqual({
    fs: [
      { city: 'a', owner: '7' },
      { inner: { city: 'b', owner: '7' }, owner: '7' },
    ],
    one: { inner: null, owner: '7' },
    n: 3,
  });
  // A single object where a list is expected is a list of one (input coercion).
  expect(sent(query, { fs: { city: 'c' }, one: null }).variables).toEqual({ fs: { city: 'c', owner: '7' }, one: null });
  expect(Object.keys(sent(query, {}).variables)).toEqual([]);
  // An object of an input type without presets is left as it is; so is a value that is no object where one is expected.
  expect(sent('query R($r: Range) { search(range: $r) { city } }', { r: { from: 1 } }).variables).toEqual({ r: { from: 1 } });
  expect(sent(query, { one: 5, fs: ['x'] }).variables).toEqual({ one: 5, fs: ['x'] });
});

test('session variables are sent as the scalar or enum of their argument; strings and IDs as they are', () => {
  expect(sent('{ at }').query).toBe('{\n  at(x: 1.5, on: false, sky: CLOUDY, id: " 0042 ", note: " as is ", n: 12)\n}');
  expect(sent('{ at }', {}, { ...session, 'x-engine-on': 'true', 'x-engine-x': '-2' }).query).toBe(
    '{\n  at(x: -2, on: true, sky: CLOUDY, id: " 0042 ", note: " as is ", n: 12)\n}',
  );
  expect(sent('{ weather { forecast { city } } }', {}, { 'x-engine-city': ' 12 ' }).query).toContain('weather(city: " 12 ")');
});

test('a session variable that is missing or not of its type is refused with the header it names', () => {
  const refused = (values: Record<string, string>, message: string) =>
    expect(() => sent('{ at }', {}, { ...session, ...values })).toThrow(expect.objectContaining({ message, code: 'invalid-headers' }));
  refused({ 'x-engine-x': 'warm' }, 'X-Engine-X should be a number');
  refused({ 'x-engine-n': '12a' }, 'X-Engine-N should be an integer');
  refused({ 'x-engine-n': 'a12' }, 'X-Engine-N should be an integer');
  refused({ 'x-engine-n': '1.5' }, 'X-Engine-N should be an integer');
  refused({ 'x-engine-x': ' ' }, 'X-Engine-X should be a number');
  refused({ 'x-engine-on': 'yes' }, 'X-Engine-On should be true or false');
  refused({ 'x-engine-sky': 'FOGGY' }, 'X-Engine-Sky should be one of the values of Sky');
  expect(() => sent('{ weather { city } }', {}, {})).toThrow(expect.objectContaining({ message: 'missing header : x-engine-city', code: 'invalid-headers' }));
  expect(() => sent('{ search(filters: [{city: "a"}]) { city } }', {}, {})).toThrow('missing header : x-engine-user-id');
});
