// Remote schema customization (decision dec.remote-schema.customization): a remote's types, fields
// and root fields renamed, or its root fields under a namespace field, in the engine's schema;
// requests go to the remote in its own names and answers come back in the engine's. The remote
// servers are msw handlers on loopback.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata } from '../harness/fixtures';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { useTarget, type Target } from '../harness/target';

const target = useTarget();
const remote = useMockServer();
const ok = { message: 'success' };
type On = Pick<Target, 'metadata'>;
const run = (type: string, args: unknown, on: On = target) => on.metadata({ type, args });
const exported = async (on: On = target) => (await run('export_metadata', {}, on)).body as { remote_schemas?: Record<string, unknown>[] };
const gql = async (query: string, variables?: Record<string, unknown>, headers = target.adminHeaders(), on: Pick<Target, 'graphql'> = target) =>
  (await on.graphql(query, variables, { headers })).body;
/** What the remote at `path` was sent, apart from introspection. */
const sentTo = (path: string) =>
  remote
    .requestsTo(path)
    .map((r) => r.body as { query: string; variables?: unknown })
    .filter((b) => !b.query.includes('__schema'));

const SDL = `
  type Query { weather(city: String!): Weather, find(where: Where!): [Weather!]! }
  type Mutation { report(city: String!, celsius: Int!): Weather! }
  type Weather { city: String!, celsius: Int!, sky: Sky }
  enum Sky { CLEAR CLOUDY }
  input Where { city: String! }
`;
const server = (path: string) =>
  graphQLServer(path, SDL, {
    weather: (a) => ({ city: a.city, celsius: -3, sky: 'CLEAR' }),
    find: (a) => [{ city: (a.where as { city: string }).city, celsius: 1, sky: null }],
    report: (a) => ({ city: a.city, celsius: a.celsius, sky: null }),
  });
const definition = (path: string, customization?: unknown) => ({
  url: `${remote.url}${path}`,
  forward_client_headers: false,
  timeout_seconds: 60,
  ...(customization ? { customization } : {}),
});

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
});
beforeEach(async () => {
  await target.reset();
  expectResponse(await target.metadata(musicMetadata(['artist'], [])), 200);
  remote.use(server('/a'), server('/b'));
});

test(
  covers(
    ['dec.remote-schema.customization', 'op.add_remote_schema', 'dec.remote-schema.defaults'],
    'types and fields renamed: the schema shows the new names, the remote is asked in its own, __typename answers in the new',
  ),
  async () => {
    const customization = {
      type_names: { prefix: 'W_', mapping: { Sky: 'WeatherSky' } },
      field_names: [
        { parent_type: 'Weather', mapping: { celsius: 'temperature' } },
        { parent_type: 'Query', prefix: 'wx_' },
      ],
    };
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition('/a', customization) }), 200, ok);
    expect((await exported()).remote_schemas).toEqual([{ name: 'weather', definition: definition('/a', customization) }]);
    const q = 'query Q($c: String!) { wx_weather(city: $c) { city temperature t2: temperature __typename ...F } } fragment F on W_Weather { sky }';
    expect(await gql(q, { c: 'Oslo' })).toEqual({ data: { wx_weather: { city: 'Oslo', temperature: -3, t2: -3, __typename: 'W_Weather', sky: 'CLEAR' } } });
    expect(sentTo('/a').at(-1)).toEqual({
      query:
        'query Q($c: String!) {\n  wx_weather: weather(city: $c) {\n    city\n    temperature: celsius\n    t2: celsius\n    __typename\n    ...F\n  }\n}\n\nfragment F on Weather {\n  sky\n}',
      variables: { c: 'Oslo' },
      operationName: 'Q',
    });
    // A variable of a renamed input type is declared in the remote's name.
    expect(await gql('query F($w: W_Where!) { wx_find(where: $w) { city } }', { w: { city: 'Bergen' } })).toEqual({ data: { wx_find: [{ city: 'Bergen' }] } });
    expect(sentTo('/a').at(-1)).toEqual({
      query: 'query F($w: Where!) {\n  wx_find: find(where: $w) {\n    city\n  }\n}',
      variables: { w: { city: 'Bergen' } },
      operationName: 'F',
    });
    // The mutation root's fields are not renamed here; its result type is.
    expect(await gql('mutation { report(city: "Bodo", celsius: 7) { temperature __typename } }')).toEqual({
      data: { report: { temperature: 7, __typename: 'W_Weather' } },
    });
    expect(
      await gql(
        '{ a: __type(name: "W_Weather") { fields { name } } b: __type(name: "Weather") { name } c: __type(name: "WeatherSky") { enumValues { name } } }',
      ),
    ).toEqual({
      data: {
        a: { fields: [{ name: 'city' }, { name: 'temperature' }, { name: 'sky' }] },
        b: null,
        c: { enumValues: [{ name: 'CLEAR' }, { name: 'CLOUDY' }] },
      },
    });
  },
);

test(
  covers(
    ['dec.remote-schema.customization', 'op.add_remote_schema'],
    'a namespace holds the root fields: two remotes with the same types live side by side; each namespace field is one request',
  ),
  async () => {
    expectResponse(await run('add_remote_schema', { name: 'first', definition: definition('/a') }), 200, ok);
    // The same schema again clashes…
    const clash = await run('add_remote_schema', { name: 'second', definition: definition('/b') });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual(expect.objectContaining({ code: 'invalid-configuration' }));
    // …unless it is renamed.
    const customization = { root_fields_namespace: 'two', type_names: { suffix: '_2' } };
    expectResponse(await run('add_remote_schema', { name: 'second', definition: definition('/b', customization) }), 200, ok);
    const q =
      'query N { music_artist(where: {id: {_eq: 1}}) { name } weather(city: "Oslo") { city __typename } two { weather(city: "Rome") { city __typename } __typename } }';
    expect(await gql(q)).toEqual({
      data: {
        music_artist: [{ name: 'Aurora Lane' }],
        weather: { city: 'Oslo', __typename: 'Weather' },
        two: { weather: { city: 'Rome', __typename: 'Weather_2' }, __typename: 'twoQuery' },
      },
    });
    expect(sentTo('/b').at(-1)).toEqual({
      query: 'query N {\n  weather(city: "Rome") {\n    city\n    __typename\n  }\n  __typename\n}',
      variables: {},
      operationName: 'N',
    });
    const before = sentTo('/b').length;
    expect(await gql('{ x: two { weather(city: "A") { city } } y: two { w: weather(city: "B") { city } } }')).toEqual({
      data: { x: { weather: { city: 'A' } }, y: { w: { city: 'B' } } },
    });
    expect(sentTo('/b').length - before).toBe(2);
    expect(await gql('mutation { two { report(city: "Bodo", celsius: 7) { celsius __typename } } }')).toEqual({
      data: { two: { report: { celsius: 7, __typename: 'Weather_2' } } },
    });
    expect(await gql('{ __type(name: "query_root") { fields { name type { kind ofType { name } } } } }')).toEqual({
      data: {
        __type: {
          fields: expect.arrayContaining([{ name: 'two', type: { kind: 'NON_NULL', ofType: { name: 'twoQuery' } } }]),
        },
      },
    });
  },
);

test(
  covers(
    ['dec.remote-schema.customization', 'err.invalid-configuration.remote-schema'],
    'names that are not GraphQL names are refused; a customization giving two types one name makes the remote an inconsistent object',
  ),
  async () => {
    const refusedAt = async (customization: unknown, path: string) => {
      const r = await run('add_remote_schema', { name: 'weather', definition: definition('/a', customization) });
      expect([r.status, r.body]).toEqual([400, expect.objectContaining({ code: 'parse-failed', path })]);
    };
    await refusedAt({ type_names: { prefix: '1x' } }, '$.args.definition.customization.type_names.prefix');
    await refusedAt({ type_names: { suffix: '-x' } }, '$.args.definition.customization.type_names.suffix');
    await refusedAt({ type_names: { mapping: { Weather: 'a b' } } }, '$.args.definition.customization.type_names.mapping.Weather');
    await refusedAt({ field_names: [{ prefix: 'x' }] }, '$.args.definition.customization.field_names[0]');
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition('/a', { type_names: { mapping: { Weather: 'Sky' } } }) }), 400, {
      path: '$.args',
      code: 'invalid-configuration',
      error: 'Inconsistent object: Type name mappings are not distinct; the following types appear more than once: "Sky"',
      internal: [
        {
          type: 'remote_schema',
          name: 'remote_schema weather',
          reason: 'Inconsistent object: Type name mappings are not distinct; the following types appear more than once: "Sky"',
          definition: { name: 'weather', definition: definition('/a', { type_names: { mapping: { Weather: 'Sky' } } }) },
        },
      ],
    });
    expect((await exported()).remote_schemas).toBeUndefined();
    // An empty customization is no customization.
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition('/a', { type_names: {}, field_names: [] }) }), 200, ok);
    expect((await exported()).remote_schemas).toEqual([{ name: 'weather', definition: definition('/a') }]);
  },
);

test(
  covers(
    [
      'op.update_remote_schema',
      'dec.remote-schema.customization',
      'err.not-exists.remote-schema',
      'err.remote-schema-error.unusable',
      'err.invalid-configuration.remote-schema',
    ],
    'update_remote_schema changes the definition (a customization too) and comment; an unknown, unreachable or inconsistent one changes nothing',
  ),
  async () => {
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition('/a'), comment: 'first' }), 200, ok);
    const customized = definition('/a', { type_names: { prefix: 'W_' } });
    expectResponse(await run('update_remote_schema', { name: 'weather', definition: customized, comment: 'renamed' }), 200, ok);
    expect((await exported()).remote_schemas).toEqual([{ name: 'weather', definition: customized, comment: 'renamed' }]);
    expect(await gql('{ weather(city: "Oslo") { __typename } }')).toEqual({ data: { weather: { __typename: 'W_Weather' } } });
    expectResponse(await run('update_remote_schema', { name: 'nowhere', definition: definition('/a') }), 400, {
      path: '$.args',
      code: 'not-exists',
      error: 'remote schema with name "nowhere" does not exist',
    });
    // Two types under one name, a built-in scalar too (the engine's own case): the remote is an inconsistent object.
    const clashing = definition('/a', { type_names: { mapping: { String: 'Foo', Weather: 'Foo' } } });
    const reason = 'Inconsistent object: Type name mappings are not distinct; the following types appear more than once: "Foo"';
    expectResponse(await run('update_remote_schema', { name: 'weather', definition: clashing }), 400, {
      path: '$.args',
      code: 'invalid-configuration',
      error: reason,
      internal: [{ type: 'remote_schema', name: 'remote_schema weather', reason, definition: { name: 'weather', definition: clashing } }],
    });
    const down = { url: 'http://127.0.0.1:9/graphql', forward_client_headers: false, timeout_seconds: 60 };
    const r = await run('update_remote_schema', { name: 'weather', definition: down });
    expect([r.status, r.body]).toEqual([400, expect.objectContaining({ code: 'remote-schema-error', path: '$.args' })]);
    expect((await exported()).remote_schemas).toEqual([{ name: 'weather', definition: customized, comment: 'renamed' }]);
    expect(await gql('{ weather(city: "Oslo") { __typename } }')).toEqual({ data: { weather: { __typename: 'W_Weather' } } });
  },
);

test(covers(['dec.remote-schema.customization'], "names of Object.prototype's members are names like any other"), async () => {
  remote.use(
    graphQLServer('/proto', 'type Query { c: constructor } type constructor { toString: Int, valueOf: Int }', { c: () => ({ toString: 1, valueOf: 2 }) }),
  );
  const customization = {
    type_names: { prefix: 'P_', mapping: { Other: 'Else' } },
    field_names: [{ parent_type: 'constructor', mapping: { valueOf: 'value' } }],
  };
  expectResponse(await run('add_remote_schema', { name: 'proto', definition: definition('/proto', customization) }), 200, ok);
  expect(await gql('{ c { toString value __typename } }')).toEqual({ data: { c: { toString: 1, value: 2, __typename: 'P_constructor' } } });
});

test(covers(['dec.remote-schema.customization'], "a remote's errors under a namespace field carry its alias at the head of their path"), async () => {
  remote.use(
    graphQLServer('/failing', 'type Query { fine: Int, broken: Int }', {
      fine: () => 1,
      broken: () => {
        throw new Error('it broke');
      },
    }),
  );
  expectResponse(await run('add_remote_schema', { name: 'failing', definition: definition('/failing', { root_fields_namespace: 'f' }) }), 200, ok);
  const body = (await gql('{ mine: f { fine broken } }')) as { data: unknown; errors: { message: string; path: unknown }[] };
  expect(body.data).toEqual({ mine: { fine: 1, broken: null } });
  expect(body.errors.map((e) => [e.message, e.path])).toEqual([['it broke', ['mine', 'broken']]]);
});

test(
  covers(['dec.remote-schema.customization', 'err.invalid-configuration.remote-schema'], "an interface's field named otherwise in an object implementing it"),
  async () => {
    remote.use(graphQLServer('/nodes', 'type Query { node: Node } interface Node { id: ID! } type Thing implements Node { id: ID! }', { node: () => null }));
    const customized = definition('/nodes', { field_names: [{ parent_type: 'Thing', suffix: '_x' }] });
    const reason =
      'Inconsistent object: Remote schema customization inconsistency: field name mapping for field "id" of interface "Node" is inconsistent with mapping for type "Thing". Interface field name maps to "id". Type field name maps to "id_x".';
    expectResponse(await run('add_remote_schema', { name: 'nodes', definition: customized }), 400, {
      path: '$.args',
      code: 'invalid-configuration',
      error: reason,
      internal: [{ type: 'remote_schema', name: 'remote_schema nodes', reason, definition: { name: 'nodes', definition: customized } }],
    });
    expect((await exported()).remote_schemas).toBeUndefined();
  },
);
