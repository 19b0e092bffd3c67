// Completing rows with remote relationships: which rows ask, what one request holds, where the
// answers and the remote's errors go; against a GraphQL server on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildSchema,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLString,
  Kind,
  parse,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputObjectType,
  type OperationDefinitionNode,
} from 'graphql';
import type { RemoteEndpoint } from '../remote/client';
import { customizedRemote, type CustomizedRemote } from '../remote/customization';
import { roleRemote, type RoleRemote } from '../remote/rolePermission';
import { RemoteCallFailed } from './remote';
import type { RemoteJoin } from './remoteJoinPlan';
import { withRemoteJoins } from './remoteJoins';

let server: Server;
let url = '';
const received: { query: string; variables: unknown }[] = [];
let reply: (body: { query: string }) => unknown = () => ({ data: {} });

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { query: string; variables: unknown };
      received.push(body);
      const answer = reply(body);
      res.writeHead(typeof answer === 'string' ? 502 : 200, { 'content-type': 'application/json' });
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

const endpoint = (): RemoteEndpoint => ({ name: 'geo', url, headers: {}, forwardClientHeaders: false, timeoutMs: 2000, shown: url });
const caller = () => ({ session: { role: 'admin', variables: {} }, headers: {}, endpoints: new Map([['geo', endpoint()]]) });

/** A join at `path` of `steps` (the last with the client's field `field`). */
function join(path: string[], steps: RemoteJoin['steps'], field = '{ f { name } }', lhs = ['c']): RemoteJoin {
  const node = ((parse(field).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode) ?? { kind: Kind.FIELD };
  return { name: 'rel', path, remote: 'geo', lhs, steps, field: node, selectionSet: node.selectionSet, fragments: [], variableDefinitions: [], variables: {} };
}
const country = { name: 'country', arguments: { code: '$c' }, argumentTypes: { code: new GraphQLNonNull(GraphQLString) } };

test('rows through lists and objects ask once per distinct value; a null value or a null row asks nothing', async () => {
  reply = () => ({ data: { r0: { name: 'Norway' }, r1: { name: 'Chad' } } });
  const data = {
    a: [
      { x: { c: 'NO' }, o: { x: { c: 'NO' } } },
      { x: { c: 'TD' }, o: null },
      { x: { c: null }, o: { x: { c: 'TD' } } },
    ],
  };
  const answer = await withRemoteJoins(JSON.stringify({ data }), [join(['a', 'x'], [country]), join(['a', 'o', 'x'], [country])], caller());
  expect(JSON.parse(answer)).toEqual({
    data: {
      a: [
        { x: { name: 'Norway' }, o: { x: { name: 'Norway' } } },
        { x: { name: 'Chad' }, o: null },
        { x: null, o: { x: { name: 'Chad' } } },
      ],
    },
  });
  expect(received.map((r) => r.query).sort()).toEqual([
    '{\n  r0: country(code: "NO") {\n    name\n  }\n  r1: country(code: "TD") {\n    name\n  }\n}',
    '{\n  r0: country(code: "NO") {\n    name\n  }\n  r1: country(code: "TD") {\n    name\n  }\n}',
  ]);
});

test('no row to join: no request, the answer as it was', async () => {
  const text = JSON.stringify({ data: { a: [{ x: { c: null } }], b: [] } });
  expect(await withRemoteJoins(text, [join(['a', 'x'], [country]), join(['b', 'x'], [country])], caller())).toBe(
    JSON.stringify({ data: { a: [{ x: null }], b: [] } }),
  );
  expect(received).toEqual([]);
  expect(await withRemoteJoins('{"data":null,"errors":[{"message":"m"}]}', [join(['a', 'x'], [country])], caller())).toBe(
    '{"data":null,"errors":[{"message":"m"}]}',
  );
});

test('a path of steps: the outer fields carry their arguments, the answer is taken from the last; values of every JSON kind become literals', async () => {
  reply = () => ({ data: { r0: { capital: { city: 'Oslo' } }, r1: null } });
  const where = buildSchema('input W { code: String, n: Int, all: [String] } type Query { q(w: W): Int }').getType('W') as GraphQLInputObjectType;
  const steps: RemoteJoin['steps'] = [
    { name: 'find', arguments: { where: { code: '$c', n: '$n', all: ['$c', 1, true] } }, argumentTypes: { where } },
    { name: 'capital', arguments: { size: '$n' }, argumentTypes: { size: GraphQLInt } },
  ];
  const data = { t: [{ j: { c: 'NO', n: 2 } }, { j: { c: 'XX', n: 3 } }] };
  const answer = await withRemoteJoins(JSON.stringify({ data }), [join(['t', 'j'], steps, '{ f(extra: 1) { city } }', ['c', 'n'])], caller());
  expect(JSON.parse(answer)).toEqual({ data: { t: [{ j: { city: 'Oslo' } }, { j: null }] } });
  expect(received[0]!.query).toBe(
    '{\n  r0: find(where: {code: "NO", n: 2, all: ["NO", "1", "true"]}) {\n    capital(size: 2, extra: 1) {\n      city\n    }\n  }\n  r1: find(where: {code: "XX", n: 3, all: ["XX", "1", "true"]}) {\n    capital(size: 3, extra: 1) {\n      city\n    }\n  }\n}',
  );
});

test("the remote's errors go to the first row that asked, past the path's fields; others stay as they are", async () => {
  reply = () => ({
    data: { r0: null, r1: { name: 'Chad' } },
    errors: [{ message: 'gone', path: ['r0', 'name'] }, { message: 'plain' }, { message: 'odd', path: ['elsewhere', 1] }, { message: 'far', path: ['r7'] }],
  });
  const data = { a: [{ x: { c: 'NO' } }, { x: { c: 'TD' } }, { x: { c: 'NO' } }] };
  const answer = JSON.parse(await withRemoteJoins(JSON.stringify({ data, errors: [{ message: 'own' }] }), [join(['a', 'x'], [country])], caller()));
  expect(answer).toEqual({
    data: { a: [{ x: null }, { x: { name: 'Chad' } }, { x: null }] },
    errors: [
      { message: 'own' },
      { message: 'gone', path: ['a', 0, 'x', 'name'] },
      { message: 'plain' },
      { message: 'odd', path: ['elsewhere', 1] },
      { message: 'far', path: ['r7'] },
    ],
  });
});

test('a remote that answers something other than GraphQL fails the request, naming it', async () => {
  reply = () => 'down';
  await expect(withRemoteJoins(JSON.stringify({ data: { a: { x: { c: 'NO' } } } }), [join(['a', 'x'], [country])], caller())).rejects.toEqual(
    new RemoteCallFailed('the remote schema "geo" did not answer: it answered 502 with a body that is not JSON'),
  );
});

test('a join of a later stage reads what a join of an earlier stage placed; each join runs in its own stage only', async () => {
  reply = (body) => (body.query.includes('country') ? { data: { r0: { name: 'Norway', capital: { c: 'OSL' } } } } : { data: { r0: { name: 'Oslo' } } });
  const city = { name: 'city', arguments: { code: '$c' }, argumentTypes: { code: GraphQLString } };
  const joins = [
    { ...join(['a', 'x', 'capital'], [city], '{ f { name } }'), stage: 1 },
    { ...join(['a', 'x'], [country], '{ f { name capital { c } } }'), stage: 0 },
  ];
  const answer = await withRemoteJoins(JSON.stringify({ data: { a: [{ x: { c: 'NO' } }] } }), joins, caller());
  expect(answer).toBe('{"data":{"a":[{"x":{"name":"Norway","capital":{"name":"Oslo"}}}]}}');
  expect(received.map((r) => r.query)).toEqual([
    '{\n  r0: country(code: "NO") {\n    name\n    capital {\n      c\n    }\n  }\n}',
    '{\n  r0: city(code: "OSL") {\n    name\n  }\n}',
  ]);
});

test('an answer without data, or without the row’s field, is null there; errors that are not a list are left out', async () => {
  const text = JSON.stringify({ data: { a: { x: { c: 'NO' } } } });
  for (const answer of [{ data: null }, { errors: [] }, { data: {} }, { data: { r1: { name: 'Chad' } }, errors: { message: 'not a list' } }]) {
    reply = () => answer;
    expect(await withRemoteJoins(text, [join(['a', 'x'], [country])], caller())).toBe('{"data":{"a":{"x":null}}}');
  }
});

test("an error's path past a path of steps keeps only what follows the last step; errors that are not objects, or whose path is not a row's, stay as they are", async () => {
  reply = () => ({
    data: { r0: { capital: null } },
    errors: [{ message: 'deep', path: ['r0', 'capital', 'city'] }, null, 'text', { message: 'n', path: [0] }],
  });
  const steps: RemoteJoin['steps'] = [country, { name: 'capital', arguments: {}, argumentTypes: {} }];
  const answer = await withRemoteJoins(JSON.stringify({ data: { t: [{ j: { c: 'NO' } }] } }), [join(['t', 'j'], steps, '{ f { city } }')], caller());
  expect(JSON.parse(answer)).toEqual({
    data: { t: [{ j: null }] },
    errors: [{ message: 'deep', path: ['t', 0, 'j', 'city'] }, null, 'text', { message: 'n', path: [0] }],
  });
});

test("a customized remote is asked in its own names, fragments included, and its __typename comes back in the engine's", async () => {
  const names = customizedRemote(buildSchema('type Query { country(code: String!): Country } type Country { name: String! }'), {
    type_names: { prefix: 'geo_' },
    field_names: [{ parent_type: 'Country', mapping: { name: 'title' } }],
  }) as CustomizedRemote;
  const document = parse('{ f { title ...C } } fragment C on geo_Country { __typename }');
  const customized: RemoteJoin = {
    ...join(['a', 'x'], [country], '{ f { title ...C } }'),
    fragments: [document.definitions[1] as FragmentDefinitionNode],
    names,
  };
  reply = () => ({ data: { r0: { title: 'Norway', __typename: 'Country' } } });
  const answer = await withRemoteJoins(JSON.stringify({ data: { a: { x: { c: 'NO' } } } }), [customized], caller());
  expect(received[0]!.query).toBe('{\n  r0: country(code: "NO") {\n    title: name\n    ...C\n  }\n}\n\nfragment C on Country {\n  __typename\n}');
  expect(answer).toBe('{"data":{"a":{"x":{"title":"Norway","__typename":"geo_Country"}}}}');
});

test("a row's value the argument's type cannot take fails the request, naming the relationship, the argument and the field", async () => {
  const sized = { name: 'country', arguments: { size: '$c' }, argumentTypes: { size: GraphQLInt } };
  await expect(withRemoteJoins(JSON.stringify({ data: { a: { x: { c: 'NO' } } } }), [join(['a', 'x'], [sized])], caller())).rejects.toEqual(
    new RemoteCallFailed(
      'the remote relationship "rel" cannot send the value of the row as the argument "size" of "country": Int cannot represent non-integer value: "NO"',
    ),
  );
  await expect(withRemoteJoins(JSON.stringify({ data: { a: { x: { c: 'NO' } } } }), [join(['a', 'x'], [sized])], caller())).rejects.toBeInstanceOf(
    RemoteCallFailed,
  );
  expect(received).toEqual([]);
});

test('constant arguments go as they are; a row missing one of its lhs values, or without the column, asks nothing', async () => {
  reply = () => ({ data: { r0: { name: 'Norway' } } });
  const constants = {
    name: 'country',
    arguments: { code: '$c', lang: 'en', region: null },
    argumentTypes: { code: GraphQLString, lang: GraphQLString, region: GraphQLString },
  };
  const data = { a: [{ x: { c: 'NO', n: 1 } }, { x: { c: 'TD', n: null } }, { x: { n: 2 } }] };
  const answer = await withRemoteJoins(JSON.stringify({ data }), [join(['a', 'x'], [constants], '{ f { name } }', ['c', 'n'])], caller());
  expect(answer).toBe('{"data":{"a":[{"x":{"name":"Norway"}},{"x":null},{"x":null}]}}');
  expect(received.map((r) => r.query)).toEqual(['{\n  r0: country(code: "NO", lang: "en", region: null) {\n    name\n  }\n}']);
});

test("the role's presets go into the request the join sends", async () => {
  reply = () => ({ data: { r0: { name: 'Norway' } } });
  const upstream = buildSchema('type Query { country(code: String!, lang: String): Country } type Country { name: String! }');
  const role = roleRemote(
    upstream,
    'type Query { country(code: String!, lang: String @preset(value: "nb")): Country } type Country { name: String! }',
  ) as RoleRemote;
  const withRole = { ...caller(), presets: new Map([['geo', role.presets]]) };
  const answer = await withRemoteJoins(JSON.stringify({ data: { a: { x: { c: 'NO' } } } }), [join(['a', 'x'], [country])], withRole);
  expect(answer).toBe('{"data":{"a":{"x":{"name":"Norway"}}}}');
  expect(received.map((r) => r.query)).toEqual(['{\n  r0: country(code: "NO", lang: "nb") {\n    name\n  }\n}']);
});
