// Remote schemas: SPEC.md §2.4 (the definition), §4.3 (add_remote_schema, remove_remote_schema,
// reload_remote_schema, reload_metadata's reload_remote_schemas), with what SPEC.md leaves open
// (defaults, headers, refusals, timeouts) as the engine documents it. The remote servers are msw
// handlers on loopback.
import { branded } from '../harness/brand';
import { HttpResponse, http } from 'msw';
import { caseNeeding, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata } from '../harness/fixtures';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { REQUIRES_REMOTE_HOST_ENVIRONMENT, useTarget } from '../harness/target';
import { scaled } from '../harness/wait';

const target = useTarget();
const remote = useMockServer();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });

const WEATHER_SDL = `
  type Query { weather(city: String!): Weather, echo_headers: [Header!]! }
  type Mutation { report(city: String!, celsius: Int!): Weather! }
  type Weather { city: String!, celsius: Int!, sky: Sky }
  enum Sky { CLEAR CLOUDY }
  type Header { name: String!, value: String! }
`;
const weather = (path = '/weather', delayMs?: number) =>
  graphQLServer(
    path,
    WEATHER_SDL,
    {
      weather: ({ city }) => (city === 'Oslo' ? { city: 'Oslo', celsius: -3, sky: 'CLEAR' } : null),
      echo_headers: (_args, { headers }) => [...headers.entries()].filter(([n]) => n.startsWith('x-')).map(([name, value]) => ({ name, value })),
      report: ({ city, celsius }) => ({ city, celsius, sky: null }),
    },
    delayMs ? { delayMs } : {},
  );
const definition = (path = '/weather', extra: Record<string, unknown> = {}) => ({ url: `${remote.url}${path}`, ...extra });

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
});
beforeEach(async () => {
  await target.reset();
  expectResponse(await target.metadata(musicMetadata(['artist'], [])), 200);
  remote.use(weather());
});

caseNeeding(
  REQUIRES_REMOTE_HOST_ENVIRONMENT,
  ['op.add_remote_schema', 'dec.environment.values-unquoted'],
  "a remote schema's url takes {{VARIABLE}} from the engine's environment, and is exported as written",
  async () => {
    const url = `http://{{ENGINE_CONFORMANCE_REMOTE_HOST}}:${new URL(remote.url).port}/weather`;
    expectResponse(await run('add_remote_schema', { name: 'templated', definition: { url } }), 200, ok);
    expect((await run('export_metadata', {})).body).toEqual({
      version: 2,
      tables: [{ table: { schema: 'music', name: 'artist' } }],
      remote_schemas: [{ name: 'templated', definition: { url, forward_client_headers: false, timeout_seconds: 60 } }],
    });
    expectResponse(await target.graphql('{ weather(city: "Oslo") { city celsius } }'), 200, { data: { weather: { city: 'Oslo', celsius: -3 } } });
    expectResponse(await run('reload_remote_schema', { name: 'templated' }), 200, ok);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
  },
);

test(
  covers(
    ['op.add_remote_schema', 'dec.remote-schema.defaults'],
    'a remote schema is stitched in: one document mixes a table and remote fields; the export fills in the defaults',
  ),
  async () => {
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition(), comment: 'forecasts' }), 200, ok);
    const r = await target.graphql(
      'query Mixed { music_artist(where: {id: {_eq: 1}}) { name } w: weather(city: "Oslo") { city celsius sky __typename } none: weather(city: "Rome") { city } }',
    );
    expectResponse(r, 200, {
      data: { music_artist: [{ name: 'Aurora Lane' }], w: { city: 'Oslo', celsius: -3, sky: 'CLEAR', __typename: 'Weather' }, none: null },
    });
    // The remote got only its own fields, once, with the aliases.
    expect(
      remote
        .requestsTo('/weather')
        .map((q) => (q.body as { query: string }).query)
        .filter((q) => !q.includes('__schema')),
    ).toEqual([
      'query Mixed {\n  w: weather(city: "Oslo") {\n    city\n    celsius\n    sky\n    __typename\n  }\n  none: weather(city: "Rome") {\n    city\n  }\n}',
    ]);
    expect((await exported()).remote_schemas).toEqual([
      { name: 'weather', definition: { url: `${remote.url}/weather`, forward_client_headers: false, timeout_seconds: 60 }, comment: 'forecasts' },
    ]);
    // The remote's types are in the schema: introspection shows them.
    expectResponse(await target.graphql('{ __type(name: "Weather") { fields { name } } }'), 200, {
      data: { __type: { fields: [{ name: 'city' }, { name: 'celsius' }, { name: 'sky' }] } },
    });
  },
);

test(
  covers(
    ['op.add_remote_schema', 'dec.remote-schema.headers'],
    'variables, fragments and mutations go to the remote; configured headers and session variables are sent, client headers only when forwarded',
  ),
  async () => {
    expectResponse(
      await run('add_remote_schema', { name: 'weather', definition: definition('/weather', { headers: [{ name: 'X-Api-Key', value: 'k1' }] }) }),
      200,
      ok,
    );
    const q = 'query Q($c: String!) { weather(city: $c) { ...W } } fragment W on Weather { city celsius }';
    expectResponse(await target.graphql(q, { c: 'Oslo' }), 200, { data: { weather: { city: 'Oslo', celsius: -3 } } });
    const sent = remote.requestsTo('/weather').at(-1)!;
    expect(sent.body).toEqual({
      query: 'query Q($c: String!) {\n  weather(city: $c) {\n    ...W\n  }\n}\n\nfragment W on Weather {\n  city\n  celsius\n}',
      variables: { c: 'Oslo' },
      operationName: 'Q',
    });
    // An operation's variables used by the tables only are not sent: the remote's part declares what it uses.
    const mixed = 'query M($c: String!, $id: Int!) { music_artist_by_pk(id: $id) { id } weather(city: $c) { city } }';
    expectResponse(await target.graphql(mixed, { c: 'Oslo', id: 1 }), 200, { data: { music_artist_by_pk: { id: 1 }, weather: { city: 'Oslo' } } });
    expect(remote.requestsTo('/weather').at(-1)!.body).toEqual({
      query: 'query M($c: String!) {\n  weather(city: $c) {\n    city\n  }\n}',
      variables: { c: 'Oslo' },
      operationName: 'M',
    });
    expectResponse(await target.graphql('mutation { report(city: "Bergen", celsius: 7) { city celsius } }'), 200, {
      data: { report: { city: 'Bergen', celsius: 7 } },
    });
    // Headers: the configured one and the session's role; the client's own header is not forwarded.
    const echo = await target.graphql('{ echo_headers { name value } }', undefined, { headers: { ...target.adminHeaders(), 'x-client-thing': 'c1' } });
    expectResponse(echo, 200, {
      data: {
        echo_headers: expect.arrayContaining([{ name: 'x-api-key', value: 'k1' }, branded({ name: 'x-engine-role', value: 'admin' })]),
      },
    });
    expect((echo.body as { data: { echo_headers: { name: string }[] } }).data.echo_headers.map((h) => h.name)).not.toContain('x-client-thing');
    expect((echo.body as { data: { echo_headers: { name: string }[] } }).data.echo_headers.map((h) => h.name)).not.toContain(branded('x-engine-admin-secret'));

    expectResponse(await run('remove_remote_schema', { name: 'weather' }), 200, ok);
    expectResponse(
      await run('add_remote_schema', {
        name: 'weather',
        definition: definition('/weather', { forward_client_headers: true, headers: [{ name: 'X-Api-Key', value: 'k1' }] }),
      }),
      200,
      ok,
    );
    const forwarded = await target.graphql('{ echo_headers { name value } }', undefined, {
      headers: { ...target.adminHeaders(), 'x-client-thing': 'c1', 'x-api-key': 'from-client' },
    });
    const names = Object.fromEntries(
      (forwarded.body as { data: { echo_headers: { name: string; value: string }[] } }).data.echo_headers.map((h) => [h.name, h.value]),
    );
    // Forwarded client headers, overridden by the configured ones; never the admin secret.
    expect(names).toEqual(expect.objectContaining(branded({ 'x-client-thing': 'c1', 'x-api-key': 'k1', 'x-engine-role': 'admin' })));
    expect(names[branded('x-engine-admin-secret')]).toBeUndefined();
  },
);

test(
  covers(
    [
      'op.add_remote_schema',
      'err.already-exists.remote-schema',
      'err.remote-schema-error.unusable',
      'err.remote-schema-error.http-exception',
      'err.invalid-configuration.remote-schema',
    ],
    'add_remote_schema refuses a taken name, an unusable remote and clashing names (the remote an inconsistent object), changing nothing',
  ),
  async () => {
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition() }), 200, ok);
    const before = await exported();
    expectResponse(
      await run('add_remote_schema', { name: 'weather', definition: definition() }),
      400,
      refused('already-exists', 'remote schema with name "weather" already exists'),
    );
    // Nothing listens on port 9 of loopback.
    const down = await run('add_remote_schema', { name: 'down', definition: { url: 'http://127.0.0.1:9/graphql' } });
    expectResponse(down, 400, refused('remote-schema-error', 'HTTP exception occurred while sending the request to "http://127.0.0.1:9/graphql"'));
    expectResponse(
      await run('add_remote_schema', { name: 'env', definition: { url_from_env: 'ENGINE_TEST_NO_SUCH_VARIABLE' } }),
      400,
      refused('remote-schema-error', 'the remote schema "env" cannot be used: the environment variable ENGINE_TEST_NO_SUCH_VARIABLE (url_from_env) is not set'),
    );
    remote.use(http.post('/not-graphql', () => new HttpResponse('<html>hello</html>', { status: 200, headers: { 'content-type': 'text/html' } })));
    expectResponse(
      await run('add_remote_schema', { name: 'html', definition: definition('/not-graphql') }),
      400,
      refused('remote-schema-error', 'the remote schema "html" cannot be used: it answered 200 with a body that is not JSON'),
    );
    // The same schema again under another name: its root field and types are taken.
    remote.use(weather('/weather2'));
    // The remote added is an inconsistent object, as the engine reports it.
    const inconsistent = (name: string, reason: string) => ({
      ...refused('invalid-configuration', `Inconsistent object: ${reason}`),
      internal: [
        {
          type: 'remote_schema',
          name: `remote_schema ${name}`,
          reason: `Inconsistent object: ${reason}`,
          definition: { name, definition: { ...definition(`/${name}`), forward_client_headers: false, timeout_seconds: 60 } },
        },
      ],
    });
    expectResponse(
      await run('add_remote_schema', { name: 'weather2', definition: definition('/weather2') }),
      400,
      inconsistent('weather2', 'the GraphQL name "Weather" of remote schema "weather2" conflicts with remote schema "weather"'),
    );
    // A root field named like a table's.
    remote.use(graphQLServer('/clash', 'type Query { music_artist: String }', { music_artist: () => 'x' }));
    expectResponse(
      await run('add_remote_schema', { name: 'clash', definition: definition('/clash') }),
      400,
      inconsistent('clash', 'the GraphQL name "music_artist" of remote schema "clash" conflicts with the schema of the tracked tables and functions'),
    );
    expect(await exported()).toEqual(before);
  },
);

test(
  covers(['op.add_remote_schema', 'err.remote-schema-conflicts.graphql-name'], 'tracking a table whose names a remote schema already defines is refused'),
  async () => {
    remote.use(graphQLServer('/albums', 'type Query { music_album: [String!]! }', { music_album: () => ['x'] }));
    expectResponse(await run('add_remote_schema', { name: 'albums', definition: definition('/albums') }), 200, ok);
    const before = await exported();
    expectResponse(
      await run('track_table', { table: { schema: 'music', name: 'album' } }),
      400,
      refused(
        'remote-schema-conflicts',
        'the GraphQL name "music_album" of remote schema "albums" conflicts with the schema of the tracked tables and functions',
      ),
    );
    expect(await exported()).toEqual(before);
    expectResponse(await target.graphql('{ music_album }'), 200, { data: { music_album: ['x'] } });
  },
);

test(
  covers(
    ['op.remove_remote_schema', 'op.reload_remote_schema', 'err.not-exists.remote-schema-removed'],
    'removing or reloading one of two remote schemas leaves the other as it was',
  ),
  async () => {
    remote.use(graphQLServer('/greeting', 'type Query { greeting: String! }', { greeting: () => 'hello' }));
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition() }), 200, ok);
    expectResponse(await run('add_remote_schema', { name: 'greeting', definition: definition('/greeting') }), 200, ok);
    const both = (await exported()).remote_schemas as { name: string }[];
    expect(both.map((r) => r.name)).toEqual(['greeting', 'weather']);
    expectResponse(await run('remove_remote_schema', { name: 'nothing' }), 400, refused('not-exists', 'no such remote schema'));
    expectResponse(await run('reload_remote_schema', { name: 'nothing' }), 400, refused('not-exists', 'remote schema with name "nothing" does not exist'));
    expectResponse(await run('reload_remote_schema', { name: 'greeting' }), 200, ok);
    expectResponse(await run('remove_remote_schema', { name: 'weather' }), 200, ok);
    expect((await exported()).remote_schemas).toEqual([both[0]]);
    expectResponse(await target.graphql('{ greeting }'), 200, { data: { greeting: 'hello' } });
    expectResponse(await run('remove_remote_schema', { name: 'weather' }), 400, refused('not-exists', 'no such remote schema'));
    expect((await exported()).remote_schemas).toEqual([both[0]]);
  },
);

test(
  covers(
    ['op.remove_remote_schema', 'err.not-exists.remote-schema-removed', 'err.not-exists.remote-schema'],
    'remove_remote_schema takes the fields and types out; an unknown name is refused',
  ),
  async () => {
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition() }), 200, ok);
    expectResponse(await run('remove_remote_schema', { name: 'weather' }), 200, ok);
    expect((await exported()).remote_schemas).toBeUndefined();
    expectResponse(await target.graphql('{ weather(city: "Oslo") { city } }'), 200, {
      errors: [{ message: 'Cannot query field "weather" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expectResponse(await target.graphql('{ __type(name: "Weather") { name } }'), 200, { data: { __type: null } });
    expectResponse(await run('remove_remote_schema', { name: 'weather' }), 400, refused('not-exists', 'no such remote schema'));
    expectResponse(await run('reload_remote_schema', { name: 'nothing' }), 400, refused('not-exists', 'remote schema with name "nothing" does not exist'));
  },
);

test(
  covers(['op.reload_remote_schema', 'op.reload_metadata'], 'reload_remote_schema and reload_metadata {reload_remote_schemas} pick up a changed remote schema'),
  async () => {
    remote.use(graphQLServer('/evolving', 'type Query { one: Int }', { one: () => 1 }));
    expectResponse(await run('add_remote_schema', { name: 'evolving', definition: definition('/evolving') }), 200, ok);
    remote.use(graphQLServer('/evolving', 'type Query { one: Int, two: Int }', { one: () => 1, two: () => 2 }));
    // Not introspected again yet: the engine still has the old schema.
    expect((await target.graphql('{ two }')).body).toEqual({
      errors: [{ message: 'Cannot query field "two" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expectResponse(await run('reload_remote_schema', { name: 'evolving' }), 200, ok);
    expectResponse(await target.graphql('{ one two }'), 200, { data: { one: 1, two: 2 } });
    remote.use(graphQLServer('/evolving', 'type Query { one: Int, two: Int, three: Int }', { one: () => 1, two: () => 2, three: () => 3 }));
    expectResponse(await run('reload_metadata', {}), 200, { message: 'success', is_consistent: true });
    expect((await target.graphql('{ three }')).status).toBe(200);
    expect((await target.graphql('{ three }')).body).toHaveProperty('errors');
    expectResponse(await run('reload_metadata', { reload_remote_schemas: true }), 200, { message: 'success', is_consistent: true });
    expectResponse(await target.graphql('{ three }'), 200, { data: { three: 3 } });
  },
);

test(
  covers(
    ['op.reload_metadata', 'rule.availability.inconsistent', 'op.get_inconsistent_metadata', 'op.drop_inconsistent_metadata'],
    'a remote that stops answering becomes an inconsistent remote_schema on reload; the rest is served; dropping it removes it',
  ),
  async () => {
    remote.use(graphQLServer('/fragile', 'type Query { fragile: Int }', { fragile: () => 1 }));
    const fragile = { name: 'fragile', definition: { url: `${remote.url}/fragile`, forward_client_headers: false, timeout_seconds: 60 } };
    expectResponse(await run('add_remote_schema', fragile), 200, ok);
    remote.use(http.post('/fragile', () => new HttpResponse('gone', { status: 503 })));
    const inconsistent = {
      type: 'remote_schema',
      name: 'remote_schema fragile',
      reason: 'Inconsistent object: the remote schema "fragile" cannot be used: it answered 503 with a body that is not JSON',
      definition: fragile,
    };
    expectResponse(await run('reload_metadata', { reload_remote_schemas: true }), 200, {
      message: 'success',
      is_consistent: false,
      inconsistent_objects: [inconsistent],
    });
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [inconsistent]);
    expectResponse(await target.graphql('{ music_artist(where: {id: {_eq: 2}}) { name } }'), 200, { data: { music_artist: [{ name: 'Brass Tacks' }] } });
    expect((await target.graphql('{ fragile }')).body).toEqual({
      errors: [{ message: 'Cannot query field "fragile" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expect((await exported()).remote_schemas).toEqual([fragile]);
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect((await exported()).remote_schemas).toBeUndefined();
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
  },
);

test(
  covers(
    ['op.add_remote_schema', 'err.graphql.remote-http-exception'],
    "a remote slower than its timeout_seconds fails the request with the engine's error, not a hung request",
  ),
  async () => {
    remote.use(graphQLServer('/slow', 'type Query { slow: Int }', { slow: () => 1 }));
    expectResponse(await run('add_remote_schema', { name: 'slow', definition: definition('/slow', { timeout_seconds: 1 }) }), 200, ok);
    // The remote answers four seconds (on this machine's scale) late: the engine's answer comes well before.
    remote.use(graphQLServer('/slow', 'type Query { slow: Int }', { slow: () => 1 }, { delayMs: scaled(4000) }));
    const started = Date.now();
    const r = await target.graphql('{ slow music_artist(limit: 1, order_by: {id: asc}) { id } }');
    expect(Date.now() - started).toBeLessThan(scaled(3500));
    expectResponse(r, 200, {
      errors: [
        {
          message: `HTTP exception occurred while sending the request to ${JSON.stringify(`${remote.url}/slow`)}`,
          extensions: { path: '$', code: 'remote-schema-error' },
        },
      ],
    });
  },
);

test(
  covers(['op.add_remote_schema', 'dec.remote-schema.roles'], 'every role sees the remote fields, and the remote gets the role and session variables'),
  async () => {
    expectResponse(await run('add_remote_schema', { name: 'weather', definition: definition() }), 200, ok);
    const headers = { ...target.adminHeaders(), 'x-engine-role': 'viewer', 'x-engine-user-id': '42' };
    const r = await target.graphql('{ echo_headers { name value } weather(city: "Oslo") { celsius } }', undefined, { headers });
    expect(r.status).toBe(200);
    const body = r.body as { data: { echo_headers: { name: string; value: string }[]; weather: unknown } };
    expect(body.data.weather).toEqual({ celsius: -3 });
    expect(Object.fromEntries(body.data.echo_headers.map((h) => [h.name, h.value]))).toEqual(
      expect.objectContaining(branded({ 'x-engine-role': 'viewer', 'x-engine-user-id': '42' })),
    );
  },
);

test(
  covers(
    ['op.replace_metadata.v1', 'op.replace_metadata.v2', 'op.export_metadata.v1', 'op.add_remote_schema'],
    'remote schemas round-trip through replace_metadata; an unusable one is refused like any inconsistency, or kept with allow_inconsistent_metadata',
  ),
  async () => {
    expectResponse(
      await run('add_remote_schema', {
        name: 'weather',
        definition: definition('/weather', { headers: [{ name: 'X-Api-Key', value_from_env: 'HOME' }], timeout_seconds: 5 }),
      }),
      200,
      ok,
    );
    const doc = await exported();
    expectResponse(await run('clear_metadata', {}), 200, ok);
    expectResponse(await run('replace_metadata', doc), 200, ok);
    expect(await exported()).toEqual(doc);
    expectResponse(await target.graphql('{ weather(city: "Oslo") { sky } }'), 200, { data: { weather: { sky: 'CLEAR' } } });
    const broken = {
      ...doc,
      remote_schemas: [
        ...(doc.remote_schemas as unknown[]),
        { name: 'down', definition: { url: 'http://127.0.0.1:9/graphql', forward_client_headers: false, timeout_seconds: 60 } },
      ],
    };
    const refusal = await run('replace_metadata', broken);
    expectResponse(refusal, 400, {
      path: '$.args',
      code: 'unexpected',
      error: 'cannot continue due to inconsistent metadata',
      internal: [expect.objectContaining({ type: 'remote_schema', definition: (broken.remote_schemas as unknown[])[1] })],
    });
    expect(await exported()).toEqual(doc);
    const kept = await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: broken, allow_inconsistent_metadata: true } });
    expectResponse(kept, 200, {
      is_consistent: false,
      inconsistent_objects: [expect.objectContaining({ type: 'remote_schema', definition: (broken.remote_schemas as unknown[])[1] })],
    });
    // Exported by name: down before weather.
    const [weather, down] = broken.remote_schemas as unknown[];
    expect(await exported()).toEqual({ ...broken, remote_schemas: [down, weather] });
  },
);

test(covers(['op.add_remote_schema', 'op.remove_remote_schema'], 'bad arguments are refused before anything is fetched'), async () => {
  const bad = async (args: unknown, path: string, code = 'parse-failed') => {
    const r = await run('add_remote_schema', args);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(expect.objectContaining({ code, path }));
  };
  await bad({ name: '', definition: definition() }, '$.args.name');
  await bad({ name: 'x', definition: {} }, '$.args.definition');
  await bad({ name: 'x', definition: { url: `${remote.url}/weather`, url_from_env: 'HOME' } }, '$.args.definition');
  await bad({ name: 'x', definition: definition('/weather', { timeout_seconds: 0 }) }, '$.args.definition.timeout_seconds');
  await bad({ name: 'x', definition: definition('/weather', { headers: [{ name: 'X-A' }] }) }, '$.args.definition.headers[0]');
  await bad(
    { name: 'x', definition: definition('/weather', { customization: { root_fields_namespace: 'not a name' } }) },
    '$.args.definition.customization.root_fields_namespace',
  );
  await bad({ name: 'x', definition: { url: 'ftp://127.0.0.1/x' } }, '$.args', 'remote-schema-error');
  expect(remote.requestsTo('/weather')).toEqual([]);
  expect((await exported()).remote_schemas).toBeUndefined();
  const none = await run('remove_remote_schema', {});
  expect(none.status).toBe(400);
});

test(
  covers(
    ['dec.remote-schema.defaults', 'err.already-exists.remote-schema', 'op.reload_remote_schema', 'op.bulk'],
    'a remote schema brought by replace_metadata is exported with the defaults; in a bulk, adding its name again is refused at its place and a reload alone is kept',
  ),
  async () => {
    const current = await exported();
    expectResponse(await run('replace_metadata', { ...current, remote_schemas: [{ name: 'weather', definition: definition() }] }), 200);
    expect((await exported()).remote_schemas).toEqual([
      { name: 'weather', definition: { url: `${remote.url}/weather`, forward_client_headers: false, timeout_seconds: 60 } },
    ]);
    const before = await exported();
    expectResponse(
      await run('bulk', [
        { type: 'reload_remote_schema', args: { name: 'weather' } },
        { type: 'add_remote_schema', args: { name: 'weather', definition: definition() } },
      ]),
      400,
      refused('already-exists', 'remote schema with name "weather" already exists', '$.args[1].args'),
    );
    expect(await exported()).toEqual(before);
    expectResponse(await run('bulk', [{ type: 'reload_remote_schema', args: { name: 'weather' } }]), 200, [ok]);
    expectResponse(await target.graphql('{ weather(city: "Oslo") { celsius } }'), 200, { data: { weather: { celsius: -3 } } });
    expect(await exported()).toEqual(before);
  },
);
