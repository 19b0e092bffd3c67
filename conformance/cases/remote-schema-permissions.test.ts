// Remote schema permissions (decisions dec.remote-schema.roles, dec.remote-schema.permissions,
// dec.remote-schema.presets): what each role sees of a remote schema when the engine is started
// with ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS=true, the argument presets the engine sends
// in its place, and the refusals of SDL that is not a subset of the remote's. The remote server is
// an msw handler on loopback.
import { branded } from '../harness/brand';
import fc from 'fast-check';
import { buildSchema } from 'graphql';
import { caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { FUZZ_REMOTE_SDL, remoteRoleSdl } from '../harness/metadataDocuments';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { useTarget, type Target } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const target = useTarget({ profiles: ['remote-schema-permissions'] });
const remote = useMockServer();
const ok = { message: 'success' };
type On = Pick<Target, 'metadata'>;
const run = (type: string, args: unknown, on: On = target) => on.metadata({ type, args });
const exported = async (on: On = target) => (await run('export_metadata', {}, on)).body as { remote_schemas?: Record<string, unknown>[] };
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });
const asRole = (role: string, extra: Record<string, string> = {}) => ({ ...target.adminHeaders(), 'x-engine-role': role, ...extra });
const strict = () => target.profileTarget('remote-schema-permissions')!;
const gql = async (query: string, headers: Record<string, string>, variables?: Record<string, unknown>, on: Pick<Target, 'graphql'> = strict()) =>
  (await on.graphql(query, variables, { headers })).body;
const validationError = (message: string) => ({ errors: [{ message, extensions: { path: '$', code: 'validation-failed' } }] });
/** What the remote was sent last, apart from introspection. */
const lastSent = () =>
  remote
    .requestsTo('/weather')
    .map((r) => r.body as { query: string; variables?: unknown })
    .filter((b) => !b.query.includes('__schema'))
    .at(-1);

const WEATHER_SDL = `
  type Query {
    weather(city: String!): Weather
    forecast(city: String!, days: Int!): [Weather!]!
    search(filter: WeatherFilter!): [Weather!]!
    secret: String
  }
  type Mutation { report(city: String!, celsius: Int!): Weather! }
  type Weather { city: String!, celsius: Int!, sky: Sky, station: String }
  enum Sky { CLEAR CLOUDY }
  input WeatherFilter { city: String, min_celsius: Int, owner: String }
`;
type Filter = { city?: string; min_celsius?: number; owner?: string };
const weatherServer = (sdl = WEATHER_SDL) =>
  graphQLServer('/weather', sdl, {
    weather: (a) => ({ city: a.city, celsius: String(a.city).length, sky: 'CLEAR', station: `S-${String(a.city)}` }),
    forecast: (a) => Array.from({ length: a.days as number }, (_v, i) => ({ city: a.city, celsius: i, sky: null, station: null })),
    search: (a) => {
      const filter = a.filter as Filter;
      return [{ city: filter.city ?? 'any', celsius: filter.min_celsius ?? 0, sky: null, station: filter.owner ?? null }];
    },
    secret: () => 'classified',
    report: (a) => ({ city: a.city, celsius: a.celsius, sky: null, station: null }),
  });
const weather = () => ({ name: 'weather', definition: { url: `${remote.url}/weather`, forward_client_headers: false, timeout_seconds: 60 } });

const CITY_ONLY = `type Query { weather(city: String!): Weather }
type Weather { city: String! celsius: Int! }`;

beforeEach(async () => {
  await target.reset();
  remote.use(weatherServer());
});

test(
  covers(
    ['err.constraint-violation.remote-schema-permissions-disabled', 'dec.remote-schema.roles'],
    'without remote schema permissions enabled (the default) a permission is refused and every role sees the remote in full',
  ),
  async () => {
    expectResponse(await run('add_remote_schema', weather()), 200, ok);
    expectResponse(
      await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema: CITY_ONLY } }),
      400,
      refused('constraint-violation', 'remote schema permissions can only be added when ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS is true'),
    );
    expect((await exported()).remote_schemas).toEqual([weather()]);
    expect(await gql('{ secret weather(city: "Oslo") { station } }', asRole('user'), undefined, target)).toEqual({
      data: { secret: 'classified', weather: { station: 'S-Oslo' } },
    });
  },
);

caseWithProfile(
  'remote-schema-permissions',
  ['op.add_remote_schema_permissions', 'op.drop_remote_schema_permissions', 'dec.remote-schema.permissions', 'dec.remote-schema.roles'],
  'with permissions enabled a role sees only its SDL of a remote, a role without one sees nothing of it, admin sees it all',
  async () => {
    const on = strict();
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    expectResponse(
      await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema: CITY_ONLY }, comment: 'cities' }, on),
      200,
      ok,
    );
    expect((await exported(on)).remote_schemas).toEqual([
      { ...weather(), permissions: [{ role: 'user', definition: { schema: CITY_ONLY }, comment: 'cities' }] },
    ]);
    expect(await gql('query W { weather(city: "Oslo") { city celsius } }', asRole('user'))).toEqual({ data: { weather: { city: 'Oslo', celsius: 4 } } });
    // What the remote receives is the role's fields as written.
    expect(lastSent()).toEqual({ query: 'query W {\n  weather(city: "Oslo") {\n    city\n    celsius\n  }\n}', variables: {}, operationName: 'W' });
    expect(await gql('{ weather(city: "Oslo") { station } }', asRole('user'))).toEqual(validationError('Cannot query field "station" on type "Weather".'));
    expect(await gql('{ secret }', asRole('user'))).toEqual(validationError('Cannot query field "secret" on type "query_root".'));
    expect(await gql('mutation { report(city: "Oslo", celsius: 1) { city } }', asRole('user'))).toEqual(
      validationError('the schema is not configured for mutation operations'),
    );
    // A role with no permission on the remote sees none of it.
    expect(await gql('{ weather(city: "Oslo") { city } }', asRole('guest'))).toEqual(validationError('Cannot query field "weather" on type "query_root".'));
    expect(await gql('{ secret weather(city: "Oslo") { station } }', strict().adminHeaders())).toEqual({
      data: { secret: 'classified', weather: { station: 'S-Oslo' } },
    });

    expectResponse(await run('drop_remote_schema_permissions', { remote_schema: 'weather', role: 'user' }, on), 200, ok);
    expect((await exported(on)).remote_schemas).toEqual([weather()]);
    expect(await gql('{ weather(city: "Oslo") { city } }', asRole('user'))).toEqual(validationError('Cannot query field "weather" on type "query_root".'));
    // Removing the remote schema removes its permissions with it.
    expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema: CITY_ONLY } }, on), 200, ok);
    expectResponse(await run('remove_remote_schema', { name: 'weather' }, on), 200, ok);
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    expect((await exported(on)).remote_schemas).toEqual([weather()]);
    expect(await gql('{ weather(city: "Oslo") { city } }', asRole('user'))).toEqual(validationError('Cannot query field "weather" on type "query_root".'));
  },
);

const PRESETS = `schema { query: Query }
type Query {
  weather(city: String! @preset(value: "x-engine-city")): Weather
  forecast(city: String!, days: Int! @preset(value: 2)): [Weather!]!
  search(filter: WeatherFilter!): [Weather!]!
}
type Weather { city: String! celsius: Int! station: String }
input WeatherFilter {
  city: String
  min_celsius: Int @preset(value: "X-Engine-Min-Celsius")
  owner: String @preset(value: "x-engine-user-id", static: true)
}`;

caseWithProfile(
  'remote-schema-permissions',
  ['op.add_remote_schema_permissions', 'dec.remote-schema.presets'],
  'preset arguments and input fields leave the role schema and are sent by the engine: static values, and session variables as their scalar',
  async () => {
    const on = strict();
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema: PRESETS } }, on), 200, ok);
    const user = asRole('user', { 'x-engine-city': 'Narvik', 'x-engine-min-celsius': '-4' });
    // An argument from a session variable.
    expect(await gql('query A { weather { city } }', user)).toEqual({ data: { weather: { city: 'Narvik' } } });
    expect(lastSent()).toEqual({ query: 'query A {\n  weather(city: "Narvik") {\n    city\n  }\n}', variables: {}, operationName: 'A' });
    // The client cannot give a preset argument: it is not in the role's schema.
    expect(await gql('{ weather(city: "Rome") { city } }', user)).toEqual(validationError('Unknown argument "city" on field "query_root.weather".'));
    // A static argument, beside the client's own.
    expect(await gql('query B { forecast(city: "Bergen") { celsius } }', user)).toEqual({ data: { forecast: [{ celsius: 0 }, { celsius: 1 }] } });
    expect(lastSent()).toEqual({ query: 'query B {\n  forecast(city: "Bergen", days: 2) {\n    celsius\n  }\n}', variables: {}, operationName: 'B' });
    // Input fields: in a literal object, and in a variable; an Int session variable is sent as an Int; static: true is a plain string.
    expect(await gql('query C { search(filter: {city: "Oslo"}) { city celsius station } }', user)).toEqual({
      data: { search: [{ city: 'Oslo', celsius: -4, station: branded('x-engine-user-id') }] },
    });
    expect(lastSent()).toEqual({
      query: branded('query C {\n  search(filter: {city: "Oslo", min_celsius: -4, owner: "x-engine-user-id"}) {\n    city\n    celsius\n    station\n  }\n}'),
      variables: {},
      operationName: 'C',
    });
    expect(await gql('query D($f: WeatherFilter!) { search(filter: $f) { city celsius } }', user, { f: { city: 'Bodø' } })).toEqual({
      data: { search: [{ city: 'Bodø', celsius: -4 }] },
    });
    expect(lastSent()).toEqual({
      query: 'query D($f: WeatherFilter!) {\n  search(filter: $f) {\n    city\n    celsius\n  }\n}',
      variables: { f: { city: 'Bodø', min_celsius: -4, owner: branded('x-engine-user-id') } },
      operationName: 'D',
    });
    expect(await gql('{ search(filter: {owner: "me"}) { city } }', user)).toEqual(validationError('Field "owner" is not defined by type "WeatherFilter".'));
    // Session variables are read per request: missing, or not of the argument's type.
    const headersError = (message: string) => ({ errors: [{ message: branded(message), extensions: { path: '$', code: 'invalid-headers' } }] });
    expect(await gql('{ weather { city } }', asRole('user'))).toEqual(headersError('missing header : x-engine-city'));
    expect(await gql('{ search(filter: {}) { city } }', asRole('user', { 'x-engine-min-celsius': 'cold' }))).toEqual(
      headersError('X-Engine-Min-Celsius should be an integer'),
    );
    expect(await gql('query E { search(filter: {}) { celsius } }', asRole('user', { 'x-engine-min-celsius': '12' }))).toEqual({
      data: { search: [{ celsius: 12 }] },
    });
  },
);

caseWithProfile(
  'remote-schema-permissions',
  ['dec.remote-schema.presets'],
  "presets belong to the field, not to the name the client gives it: an aliased field gets its field's presets, a field aliased as another gets none of that one's",
  async () => {
    const on = strict();
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema: PRESETS } }, on), 200, ok);
    const user = asRole('user', { 'x-engine-city': 'Narvik', 'x-engine-min-celsius': '3' });
    expect(await gql('query A { here: weather { city } }', user)).toEqual({ data: { here: { city: 'Narvik' } } });
    expect(lastSent()).toEqual({ query: 'query A {\n  here: weather(city: "Narvik") {\n    city\n  }\n}', variables: {}, operationName: 'A' });
    // The same field twice under two aliases: each gets the preset.
    expect(await gql('query B { a: forecast(city: "A") { city } b: forecast(city: "B") { celsius } }', user)).toEqual({
      data: { a: [{ city: 'A' }, { city: 'A' }], b: [{ celsius: 0 }, { celsius: 1 }] },
    });
    expect(lastSent()).toEqual({
      query: 'query B {\n  a: forecast(city: "A", days: 2) {\n    city\n  }\n  b: forecast(city: "B", days: 2) {\n    celsius\n  }\n}',
      variables: {},
      operationName: 'B',
    });
    // Aliased as a field that has a preset argument: the field's own presets only (search has input field presets, no argument's).
    expect(await gql('query C { weather: search(filter: {city: "Oslo"}) { city celsius } }', user)).toEqual({
      data: { weather: [{ city: 'Oslo', celsius: 3 }] },
    });
    expect(lastSent()).toEqual({
      query: branded(
        'query C {\n  weather: search(\n    filter: {city: "Oslo", min_celsius: 3, owner: "x-engine-user-id"}\n  ) {\n    city\n    celsius\n  }\n}',
      ),
      variables: {},
      operationName: 'C',
    });
    // An alias does not let the client give a preset argument itself.
    expect(await gql('{ here: weather(city: "Rome") { city } }', user)).toEqual(validationError('Unknown argument "city" on field "query_root.weather".'));
  },
);

caseWithProfile(
  'remote-schema-permissions',
  [
    'err.validation-failed.remote-schema-permission',
    'err.parse-failed.schema-document',
    'err.already-exists.remote-schema-permission',
    'err.not-exists.remote-schema-permission',
    'dec.remote-schema.permissions',
  ],
  'an SDL that is not a subset of the remote, or not SDL at all, a second permission of a role, an unknown remote or permission: refused, nothing changes',
  async () => {
    const on = strict();
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    const add = (schema: string, role = 'user', remoteName = 'weather') =>
      run('add_remote_schema_permissions', { remote_schema: remoteName, role, definition: { schema } }, on);
    const failed = (reasons: string) =>
      refused('validation-failed', `validation for the given role-based schema failed ${reasons}`, '$.args.definition.schema');
    expectResponse(
      await add('type Query { weather(city: String!): Weather }\ntype Weather { station: Int humidity: Int }'),
      400,
      failed(
        'for the following reasons:\n' +
          ' • expected the type of field "station" of object "Weather" to be String but received Int\n' +
          ' • field "humidity" of object "Weather" does not exist in the upstream remote schema',
      ),
    );
    expectResponse(
      await add('type Query { forecast(city: String!): [Weather!]! }\ntype Weather { city: String! }'),
      400,
      failed('because field "forecast" of object "Query" expects the following non-nullable arguments to be present: "days"'),
    );
    expectResponse(
      await add('type Query { forecast(city: String!, days: Int! @preset(value: "three")): [Weather!]! }\ntype Weather { city: String! }'),
      400,
      failed('because the preset "three" of the argument "days" of field "forecast" of object "Query" is not a value of type Int!'),
    );
    expectResponse(
      await add(
        'type Query { search(filter: [WeatherFilter] @preset(value: "x-engine-filter")): [Weather!]! }\ntype Weather { city: String! }\ninput WeatherFilter { city: String }',
      ),
      400,
      failed(
        'for the following reasons:\n' +
          ' • expected the type of argument "filter" of field "search" of object "Query" to be WeatherFilter! but received [WeatherFilter]\n' +
          ' • a session variable preset needs a scalar or enum type, and the argument "filter" of field "search" of object "Query" is WeatherFilter!',
      ),
    );
    expectResponse(
      await add('type Query { secret: String }\nenum Sky { CLEAR FOGGY }'),
      400,
      failed('because enum "Sky" has values that the upstream remote enum does not have: "FOGGY"'),
    );
    expectResponse(
      await add('type Query { secret: String }\ntype Planet { name: String }'),
      400,
      failed('because object "Planet" does not exist in the upstream remote schema'),
    );
    expectResponse(await add('type Weather { city: String! }'), 400, failed('because query root does not exist in the schema definition'));
    expectResponse(
      await add(
        'type Query { search(filter: WeatherFilter!): [Weather!]! }\ntype Weather { city: String! }\ninput WeatherFilter { owner: String @preset(value: "x-engine-user-id") }',
      ),
      400,
      failed('because every field of input object "WeatherFilter" is preset: the role must be left at least one'),
    );
    // Text that is no SDL is refused as the arguments are read, before the remote is looked for.
    const notSdl = refused('parse-failed', 'parsing the schema document: Syntax Error: Expected Name, found <EOF>.', '$.args.definition.schema');
    expectResponse(await add('type Query { secret: String'), 400, notSdl);
    expectResponse(await add('type Query { secret: String', 'user', 'nowhere'), 400, notSdl);
    expectResponse(await add(CITY_ONLY, 'user', 'nowhere'), 400, refused('not-exists', 'remote schema with name "nowhere" does not exist'));
    expect((await exported(on)).remote_schemas).toEqual([weather()]);

    expectResponse(await add(CITY_ONLY), 200, ok);
    expectResponse(
      await add('type Query { secret: String }'),
      400,
      refused('already-exists', 'the role "user" already has a permission on the remote schema "weather"'),
    );
    expectResponse(
      await run('drop_remote_schema_permissions', { remote_schema: 'weather', role: 'guest' }, on),
      400,
      refused('not-exists', 'the role "guest" has no permission on the remote schema "weather"'),
    );
    expect((await exported(on)).remote_schemas).toEqual([{ ...weather(), permissions: [{ role: 'user', definition: { schema: CITY_ONLY } }] }]);
    expect(await gql('{ weather(city: "Oslo") { city } }', asRole('user'))).toEqual({ data: { weather: { city: 'Oslo' } } });
  },
);

caseWithProfile(
  'remote-schema-permissions',
  ['dec.remote-schema.permissions', 'op.replace_metadata.v2', 'op.get_inconsistent_metadata', 'op.drop_inconsistent_metadata'],
  'permissions round-trip through replace_metadata; one the remote no longer fits is an inconsistent remote_schema_permission until dropped',
  async () => {
    const on = strict();
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema: CITY_ONLY } }, on), 200, ok);
    const metadata = (await run('export_metadata', {}, on)).body;
    expectResponse(await run('clear_metadata', {}, on), 200, ok);
    expectResponse(await run('replace_metadata', { metadata }, on), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await exported(on)).toEqual(metadata);
    expect(await gql('{ weather(city: "Oslo") { celsius } }', asRole('user'))).toEqual({ data: { weather: { celsius: 4 } } });
    // A document whose permission is not a subset is refused whole, like any inconsistency.
    const bad = JSON.parse(JSON.stringify(metadata)) as { remote_schemas: { permissions: { definition: { schema: string } }[] }[] };
    const badSchema = 'type Query { weather(city: String!): Weather }\ntype Weather { humidity: Int }';
    bad.remote_schemas[0]!.permissions[0]!.definition.schema = badSchema;
    expectResponse(await run('replace_metadata', { metadata: bad }, on), 400, {
      path: '$.args',
      code: 'unexpected',
      error: 'cannot continue due to inconsistent metadata',
      internal: [
        {
          type: 'remote_schema_permission',
          name: 'remote_schema_permission user permission in remote schema weather',
          reason:
            'Inconsistent object: validation for the given role-based schema failed because field "humidity" of object "Weather" does not exist in the upstream remote schema',
          definition: { remote_schema: 'weather', role: 'user', definition: { schema: badSchema } },
        },
      ],
    });
    expect(await exported(on)).toEqual(metadata);

    // The remote drops celsius: the permission no longer fits.
    remote.use(weatherServer(WEATHER_SDL.replace('celsius: Int!, ', '')));
    const reason = 'validation for the given role-based schema failed because field "celsius" of object "Weather" does not exist in the upstream remote schema';
    const inconsistent = {
      type: 'remote_schema_permission',
      name: 'remote_schema_permission user permission in remote schema weather',
      reason: `Inconsistent object: ${reason}`,
      definition: { remote_schema: 'weather', role: 'user', definition: { schema: CITY_ONLY } },
    };
    expectResponse(await run('reload_remote_schema', { name: 'weather' }, on), 200, ok);
    expectResponse(await run('get_inconsistent_metadata', {}, on), 200, [inconsistent]);
    expect(await gql('{ weather(city: "Oslo") { city } }', asRole('user'))).toEqual(validationError('Cannot query field "weather" on type "query_root".'));
    expect(await gql('{ weather(city: "Oslo") { city } }', strict().adminHeaders())).toEqual({ data: { weather: { city: 'Oslo' } } });
    expectResponse(await run('drop_inconsistent_metadata', {}, on), 200, ok);
    expect((await exported(on)).remote_schemas).toEqual([weather()]);
    expectResponse(await run('get_inconsistent_metadata', {}, on), 200, []);
  },
);

caseWithProfile(
  'remote-schema-permissions',
  ['err.validation-failed.remote-schema-permission'],
  'hostile SDL (nesting deeper than any stack, a huge preset, names of Object.prototype) is refused and the server goes on',
  async () => {
    const on = strict();
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    const add = (schema: string) => run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema } }, on);
    const deepType = `type Query { secret: ${'['.repeat(100_000)}String${']'.repeat(100_000)} }`;
    const deepPreset = `type Query { forecast(city: String!, days: Int! @preset(value: ${'{a: '.repeat(100_000)}1${'}'.repeat(100_000)})): [Weather!]! }\ntype Weather { city: String! }`;
    const prototypeNames = 'type Query { secret: String, constructor: String }\ntype __proto__ { toString: Int }\ninput hasOwnProperty { valueOf: Int }';
    const failed = (reasons: string) =>
      refused('validation-failed', `validation for the given role-based schema failed ${reasons}`, '$.args.definition.schema');
    expectResponse(await add(deepType), 400, failed('because the schema nests brackets deeper than 128'));
    expectResponse(await add(deepPreset), 400, failed('because the schema nests brackets deeper than 128'));
    expectResponse(
      await add(prototypeNames),
      400,
      failed(
        'for the following reasons:\n' +
          ' • field "constructor" of object "Query" does not exist in the upstream remote schema\n' +
          ' • object "__proto__" does not exist in the upstream remote schema\n' +
          ' • input object "hasOwnProperty" does not exist in the upstream remote schema',
      ),
    );
    expect((await exported(on)).remote_schemas).toEqual([weather()]);
    expectResponse(await add(CITY_ONLY), 200, ok);
    expect(await gql('{ weather(city: "Oslo") { city } }', asRole('user'))).toEqual({ data: { weather: { city: 'Oslo' } } });
  },
);

caseWithProfile(
  'remote-schema-permissions',
  ['op.add_remote_schema_permissions', 'dec.remote-schema.permissions', 'dec.remote-schema.presets'],
  'generated subsets of a remote schema (with presets) are accepted, and the role sees exactly their root fields and arguments',
  async () => {
    const on = strict();
    remote.use(graphQLServer('/fuzz', FUZZ_REMOTE_SDL, { a: () => 1 }));
    expectResponse(await run('add_remote_schema', { name: 'rs0', definition: { url: `${remote.url}/fuzz` } }, on), 200, ok);
    const runs = generatedRuns('ENGINE_FUZZ_RUNS', 3, 40);
    await fc.assert(
      fc.asyncProperty(remoteRoleSdl, async (sdl) => {
        expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'rs0', role: 'r0', definition: { schema: sdl } }, on), 200, ok);
        // What the role should see: the SDL's root fields with their arguments, less the preset ones.
        const expected = Object.values(
          buildSchema(sdl.replace(/ @preset\([^)]*\)/g, ''))
            .getQueryType()!
            .getFields(),
        )
          .map((f) => ({ name: f.name, args: f.args.filter((a) => !new RegExp(`${a.name}: [^,)]*@preset`).test(sdl)).map((a) => a.name) }))
          .sort((x, y) => x.name.localeCompare(y.name));
        const seen = (await gql('{ __schema { queryType { fields { name args { name } } } } }', asRole('r0'))) as {
          data: { __schema: { queryType: { fields: { name: string; args: { name: string }[] }[] } } };
        };
        const fields = seen.data.__schema.queryType.fields
          .map((f) => ({ name: f.name, args: f.args.map((a) => a.name) }))
          .sort((x, y) => x.name.localeCompare(y.name));
        expect([sdl, fields]).toEqual([sdl, expected]);
        expectResponse(await run('drop_remote_schema_permissions', { remote_schema: 'rs0', role: 'r0' }, on), 200, ok);
      }),
      { numRuns: runs },
    );
  },
);

caseWithProfile(
  'remote-schema-permissions',
  ['op.update_remote_schema', 'dec.remote-schema.permissions'],
  "update_remote_schema keeps the roles' permissions; a new remote schema they no longer fit is refused",
  async () => {
    const on = strict();
    remote.use(graphQLServer('/small', 'type Query { weather(city: String!): Small } type Small { city: String! }', { weather: (a) => ({ city: a.city }) }));
    expectResponse(await run('add_remote_schema', weather(), on), 200, ok);
    expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema: CITY_ONLY } }, on), 200, ok);
    const longer = { ...weather(), definition: { ...weather().definition, timeout_seconds: 5 } };
    expectResponse(await run('update_remote_schema', longer, on), 200, ok);
    expect((await exported(on)).remote_schemas).toEqual([{ ...longer, permissions: [{ role: 'user', definition: { schema: CITY_ONLY } }] }]);
    expect(await gql('{ weather(city: "Oslo") { city } }', asRole('user'))).toEqual({ data: { weather: { city: 'Oslo' } } });
    const small = { name: 'weather', definition: { url: `${remote.url}/small`, forward_client_headers: false, timeout_seconds: 60 } };
    expectResponse(
      await run('update_remote_schema', small, on),
      400,
      refused(
        'validation-failed',
        'validation for the given role-based schema failed for the following reasons:\n' +
          ' • expected the type of field "weather" of object "Query" to be Small but received Weather\n' +
          ' • object "Weather" does not exist in the upstream remote schema',
      ),
    );
    expect((await exported(on)).remote_schemas).toEqual([{ ...longer, permissions: [{ role: 'user', definition: { schema: CITY_ONLY } }] }]);
  },
);

caseWithProfile(
  'remote-schema-permissions',
  ['dec.remote-schema.customization', 'dec.remote-schema.permissions', 'dec.remote-schema.presets'],
  "a role's permission is written in the remote's own names and served under the customization, presets included",
  async () => {
    const on = strict();
    const customization = {
      root_fields_namespace: 'wx',
      type_names: { prefix: 'W_' },
      field_names: [{ parent_type: 'Weather', mapping: { celsius: 'temp' } }],
    };
    expectResponse(await run('add_remote_schema', { ...weather(), definition: { ...weather().definition, customization } }, on), 200, ok);
    const schema = 'type Query { weather(city: String! @preset(value: "x-engine-city")): Weather }\ntype Weather { city: String! celsius: Int! }';
    expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'weather', role: 'user', definition: { schema } }, on), 200, ok);
    const user = asRole('user', { 'x-engine-city': 'Narvik' });
    expect(await gql('query U { wx { weather { city temp __typename } } }', user)).toEqual({
      data: { wx: { weather: { city: 'Narvik', temp: 6, __typename: 'W_Weather' } } },
    });
    expect(lastSent()).toEqual({
      query: 'query U {\n  weather(city: "Narvik") {\n    city\n    temp: celsius\n    __typename\n  }\n}',
      variables: {},
      operationName: 'U',
    });
    expect(await gql('{ wx { secret } }', user)).toEqual(validationError('Cannot query field "secret" on type "wxQuery".'));
  },
);
