// Remote relationships to remote schemas (decisions dec.remote-relationship.forms and .execution):
// a field of a table's type answered by a field of a remote schema, its arguments filled from the
// row. The remote is an msw server on loopback; what it was sent is checked literally.
import { branded } from '../harness/brand';
import { HttpResponse, http } from 'msw';
import { caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { useTarget } from '../harness/target';

const target = useTarget({ profiles: ['remote-schema-permissions'] });
const remote = useMockServer();
const ok = { message: 'success' };
const artist = musicTable('artist');
const album = musicTable('album');
const run = (type: string, args: unknown) => target.metadata({ type, args });
const tablesOf = async () => ((await run('export_metadata', {})).body as { tables: Record<string, unknown>[] }).tables;
const gql = async (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = target.adminHeaders()) =>
  (await target.graphql(query, variables, { headers })).body;
/** What the remote was sent, apart from introspection. */
const sent = () =>
  remote
    .requestsTo('/geo')
    .map((r) => r.body as { query: string; variables?: unknown })
    .filter((b) => !b.query.includes('__schema'));

const SDL = `
  type Query { country(code: String!): Country, countries(codes: [String!]!): [Country!]!, failing(code: String!): Country }
  type Country { code: String!, name: String!, population(unit: String): Int, capital: City }
  type City { name: String! }
`;
const NAMES: Record<string, string> = { NO: 'Norway', US: 'United States' };
const country = (code: string) => ({
  code,
  name: NAMES[code] ?? '?',
  population: (a: { unit?: string }) => (a.unit === 'millions' ? 5 : 5_500_000),
  capital: { name: code === 'NO' ? 'Oslo' : 'Washington' },
});
const geo = graphQLServer('/geo', SDL, {
  country: (a) => country(a.code as string),
  countries: (a) => (a.codes as string[]).map(country),
  failing: () => {
    throw new Error('no such country');
  },
});
const origin = (remoteField: Record<string, unknown> = { country: { arguments: { code: '$country' } } }) => ({
  to_remote_schema: { remote_schema: 'geo', lhs_fields: ['country'], remote_field: remoteField },
});

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
});
beforeEach(async () => {
  await target.reset();
  remote.use(geo);
  expectResponse(await target.metadata(musicMetadata(['artist', 'album'], ['album.artist'])), 200);
  expectResponse(
    await run('add_remote_schema', { name: 'geo', definition: { url: `${remote.url}/geo`, forward_client_headers: false, timeout_seconds: 60 } }),
    200,
    ok,
  );
});

test(
  covers(
    ['op.create_remote_relationship', 'dec.remote-relationship.forms', 'dec.remote-relationship.execution'],
    'a remote relationship joins each row to the remote: one request, one field per distinct value, null where the column is null',
  ),
  async () => {
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
    expect((await tablesOf()).find((t) => (t.table as { name: string }).name === 'artist')).toEqual({
      table: artist,
      remote_relationships: [{ name: 'origin', definition: origin() }],
    });
    remote.requests.length = 0;
    expect(await gql('{ music_artist(order_by: {id: asc}) { id origin { name code } } }')).toEqual({
      data: {
        music_artist: [
          { id: 1, origin: { name: 'Norway', code: 'NO' } },
          { id: 2, origin: { name: 'United States', code: 'US' } },
          { id: 3, origin: null },
        ],
      },
    });
    expect(sent()).toEqual([
      { query: '{\n  r0: country(code: "NO") {\n    name\n    code\n  }\n  r1: country(code: "US") {\n    name\n    code\n  }\n}', variables: {} },
    ]);
    // Through an object relationship, for many rows with the same artist: still one field per country.
    remote.requests.length = 0;
    const albums = (await gql('{ music_album(order_by: {id: asc}) { id artist { origin { name } } } }')) as {
      data: { music_album: { id: number; artist: { origin: { name: string } | null } }[] };
    };
    expect(albums.data.music_album.slice(0, 3)).toEqual([
      { id: 10, artist: { origin: { name: 'Norway' } } },
      { id: 11, artist: { origin: { name: 'Norway' } } },
      { id: 20, artist: { origin: { name: 'United States' } } },
    ]);
    expect(sent()).toEqual([{ query: '{\n  r0: country(code: "NO") {\n    name\n  }\n  r1: country(code: "US") {\n    name\n  }\n}', variables: {} }]);
  },
);

test(
  covers(
    ['op.create_remote_relationship', 'dec.remote-relationship.forms', 'dec.remote-relationship.execution'],
    'a path of two fields: the last one keeps the arguments the path does not set, the client gives them (also as variables)',
  ),
  async () => {
    const path = { country: { arguments: { code: '$country' }, field: { population: { arguments: {} } } } };
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'people', definition: origin(path) }), 200, ok);
    remote.requests.length = 0;
    expect(await gql('query P($u: String) { music_artist(where: {id: {_eq: 1}}) { people(unit: $u) } }', { u: 'millions' })).toEqual({
      data: { music_artist: [{ people: 5 }] },
    });
    expect(sent()).toEqual([{ query: 'query ($u: String) {\n  r0: country(code: "NO") {\n    population(unit: $u)\n  }\n}', variables: { u: 'millions' } }]);
    expect(await gql('{ music_artist(where: {id: {_eq: 1}}) { people } }')).toEqual({ data: { music_artist: [{ people: 5500000 }] } });
    // The field's arguments in the schema: only unit.
    expect(await gql('{ __type(name: "music_artist") { fields(includeDeprecated: true) { name args { name } type { name } } } }')).toEqual({
      data: {
        __type: {
          fields: expect.arrayContaining([{ name: 'people', args: [{ name: 'unit' }], type: { name: 'Int' } }]),
        },
      },
    });
  },
);

test(
  covers(
    [
      'op.create_remote_relationship',
      'err.remote-schema-error.remote-relationship',
      'err.already-exists.remote-relationship',
      'err.already-exists.remote-relationship-field',
      'err.validation-failed.graphql-name',
    ],
    'refused: a remote, field or argument that does not exist, "$column" outside lhs_fields, an lhs column the table lacks, a taken name',
  ),
  async () => {
    const refused = (code: string, message: string) => ({ path: '$.args', error: message, code });
    const cases: [unknown, string, string][] = [
      [
        { to_remote_schema: { remote_schema: 'nope', lhs_fields: ['country'], remote_field: { country: { arguments: { code: '$country' } } } } },
        'remote-schema-error',
        'remote relationship "r" of table "music.artist" cannot be served: the remote schema "nope" does not exist',
      ],
      [
        origin({ kingdom: { arguments: {} } }),
        'remote-schema-error',
        'remote relationship "r" of table "music.artist" cannot be served: field "kingdom" not found in the query root',
      ],
      [
        origin({ country: { arguments: { iso: '$country' } } }),
        'remote-schema-error',
        'remote relationship "r" of table "music.artist" cannot be served: argument "iso" not found on field "country"',
      ],
      [
        origin({ country: { arguments: { code: '$name' } } }),
        'remote-schema-error',
        'remote relationship "r" of table "music.artist" cannot be served: the argument "code" of "country" reads "$name", which lhs_fields does not list',
      ],
      [
        { to_remote_schema: { remote_schema: 'geo', lhs_fields: ['land'], remote_field: { country: { arguments: { code: '$land' } } } } },
        'remote-schema-error',
        'remote relationship "r" of table "music.artist" cannot be served: the column "land" of lhs_fields does not exist',
      ],
      [
        origin({ failing: { arguments: {}, field: { name: { arguments: {} } } } }),
        'remote-schema-error',
        'remote relationship "r" of table "music.artist" cannot be served: the required argument "code" of field "failing" is not set',
      ],
      [
        origin({ country: { arguments: { code: '$country' }, field: { name: { arguments: {}, field: { x: { arguments: {} } } } } } }),
        'remote-schema-error',
        'remote relationship "r" of table "music.artist" cannot be served: type "String" has no fields: "x" cannot be reached',
      ],
    ];
    for (const [definition, code, message] of cases) {
      expectResponse(await run('create_remote_relationship', { table: artist, name: 'r', definition }), 400, refused(code, message));
    }
    expectResponse(
      await run('create_remote_relationship', { table: artist, name: 'name', definition: origin() }),
      400,
      refused('already-exists', 'the name "name" is already used by a column, relationship or computed field of table "music.artist"'),
    );
    for (const name of ['bad name', '__typename', '1st'])
      expectResponse(
        await run('create_remote_relationship', { table: artist, name, definition: origin() }),
        400,
        refused('validation-failed', `${JSON.stringify(name)} (remote relationship name) is not a valid GraphQL name`),
      );
    expectResponse(
      await run('create_remote_relationship', {
        table: album,
        name: 'artist',
        definition: { to_remote_schema: { remote_schema: 'geo', lhs_fields: [], remote_field: { countries: { arguments: { codes: [] } } } } },
      }),
      400,
      refused('already-exists', 'the name "artist" is already used by a column, relationship or computed field of table "music.album"'),
    );
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
    expectResponse(
      await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }),
      400,
      refused('already-exists', 'remote relationship "origin" already exists on table "music.artist"'),
    );
    // The other way round: a relationship may not take a remote relationship's name.
    const taken = await run('create_object_relationship', {
      table: artist,
      name: 'origin',
      using: { manual_configuration: { remote_table: album, column_mapping: { id: 'artist_id' } } },
    });
    expectResponse(
      taken,
      400,
      refused('already-exists', 'the name "origin" is already used by a column, relationship or computed field of table "music.artist"'),
    );
    expect((await tablesOf()).find((t) => (t.table as { name: string }).name === 'artist')).toEqual({
      table: artist,
      remote_relationships: [{ name: 'origin', definition: origin() }],
    });
  },
);

test(
  covers(
    ['op.update_remote_relationship', 'op.delete_remote_relationship', 'err.not-exists.remote-relationship', 'op.create_remote_relationship'],
    'update replaces the definition, delete removes it; both refuse a name that does not exist; the oldest form is kept as given',
  ),
  async () => {
    const legacy = { remote_schema: 'geo', hasura_fields: ['country'], remote_field: { country: { arguments: { code: '$country' } } } };
    // The oldest form: the definition's keys beside name and table, at /v1/query.
    const created = await target.metadata(
      { type: 'create_remote_relationship', args: { table: artist, name: 'origin', ...legacy } },
      { endpoint: '/v1/query' },
    );
    expectResponse(created, 200, ok);
    expect((await tablesOf()).find((t) => (t.table as { name: string }).name === 'artist')).toEqual({
      table: artist,
      remote_relationships: [{ name: 'origin', definition: legacy }],
    });
    expect(await gql('{ music_artist(where: {id: {_eq: 2}}) { origin { name } } }')).toEqual({
      data: { music_artist: [{ origin: { name: 'United States' } }] },
    });
    const capital = origin({ country: { arguments: { code: '$country' }, field: { capital: { arguments: {} } } } });
    expectResponse(await run('pg_update_remote_relationship', { source: 'default', table: artist, name: 'origin', definition: capital }), 200, ok);
    expect(await gql('{ music_artist(where: {id: {_eq: 1}}) { origin { name } } }')).toEqual({ data: { music_artist: [{ origin: { name: 'Oslo' } }] } });
    const missing = { path: '$.args', error: 'remote relationship "elsewhere" does not exist on table "music.artist"', code: 'not-exists' };
    expectResponse(await run('update_remote_relationship', { table: artist, name: 'elsewhere', definition: capital }), 400, missing);
    expectResponse(await run('delete_remote_relationship', { table: artist, name: 'elsewhere' }), 400, missing);
    expectResponse(await run('pg_delete_remote_relationship', { source: 'default', table: artist, name: 'origin' }), 200, ok);
    expect((await tablesOf()).find((t) => (t.table as { name: string }).name === 'artist')).toEqual({ table: artist });
    expect(await gql('{ music_artist { origin { name } } }')).toEqual({
      errors: [{ message: 'Cannot query field "origin" on type "music_artist".', extensions: { path: '$', code: 'validation-failed' } }],
    });
  },
);

const asRole = (role: string, extra: Record<string, string> = {}) => ({ ...target.adminHeaders(), 'x-engine-role': role, ...extra });
const selectArtist = (role: string, columns: string[]) => ({
  type: 'create_select_permission',
  args: { table: artist, role, permission: { columns, filter: {} } },
});
const noField = (field: string, type: string) => ({
  errors: [{ message: `Cannot query field "${field}" on type "${type}".`, extensions: { path: '$', code: 'validation-failed' } }],
});

test(covers(['dec.remote-relationship.execution'], 'a role sees a remote relationship only where it may read every lhs column'), async () => {
  expectResponse(await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
  expectResponse(await target.metadata({ type: 'bulk', args: [selectArtist('reader', ['id', 'country']), selectArtist('guest', ['id', 'name'])] }), 200);
  expect(await gql('{ music_artist(where: {id: {_eq: 1}}) { origin { name } } }', undefined, asRole('reader'))).toEqual({
    data: { music_artist: [{ origin: { name: 'Norway' } }] },
  });
  expect(await gql('{ music_artist { origin { name } } }', undefined, asRole('guest'))).toEqual(noField('origin', 'music_artist'));
});

caseWithProfile(
  'remote-schema-permissions',
  ['dec.remote-relationship.execution', 'dec.remote-schema.presets'],
  'with remote schema permissions, a role sees a remote relationship only where its part of the remote has the path; its presets are sent',
  async () => {
    const strict = target.profileTarget('remote-schema-permissions')!;
    const on = (type: string, args: unknown) => strict.metadata({ type, args });
    expectResponse(await on('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
    expectResponse(await strict.metadata({ type: 'bulk', args: [selectArtist('reader', ['id', 'country']), selectArtist('guest', ['id', 'country'])] }), 200);
    const sdl = 'type Query { country(code: String!): Country }\ntype Country { name: String! population(unit: String @preset(value: "x-engine-unit")): Int }';
    expectResponse(await on('add_remote_schema_permissions', { remote_schema: 'geo', role: 'reader', definition: { schema: sdl } }), 200, ok);
    const ask = (query: string, role: string, extra?: Record<string, string>) => strict.graphql(query, undefined, { headers: asRole(role, extra) });
    remote.requests.length = 0;
    expect((await ask('{ music_artist(where: {id: {_eq: 1}}) { origin { name population } } }', 'reader', { 'x-engine-unit': 'millions' })).body).toEqual({
      data: { music_artist: [{ origin: { name: 'Norway', population: 5 } }] },
    });
    expect(sent()).toEqual([{ query: '{\n  r0: country(code: "NO") {\n    name\n    population(unit: "millions")\n  }\n}', variables: {} }]);
    // Under an alias the field keeps its preset.
    remote.requests.length = 0;
    expect((await ask('{ music_artist(where: {id: {_eq: 1}}) { origin { people: population } } }', 'reader', { 'x-engine-unit': 'millions' })).body).toEqual({
      data: { music_artist: [{ origin: { people: 5 } }] },
    });
    expect(sent()).toEqual([{ query: '{\n  r0: country(code: "NO") {\n    people: population(unit: "millions")\n  }\n}', variables: {} }]);
    // The preset's session variable is read when the rows are joined: without it, the request's error.
    expect((await ask('{ music_artist(where: {id: {_eq: 1}}) { origin { population } } }', 'reader')).body).toEqual({
      errors: [{ message: branded('missing header : x-engine-unit'), extensions: { path: '$', code: 'invalid-headers' } }],
    });
    // Not in the role's part: code; no permission on the remote at all: no field.
    expect((await ask('{ music_artist { origin { code } } }', 'reader')).body).toEqual(noField('code', 'Country'));
    expect((await ask('{ music_artist { origin { name } } }', 'guest')).body).toEqual(noField('origin', 'music_artist'));
  },
);

test(
  covers(['dec.remote-relationship.execution'], "the remote's errors are placed at the first row that asked; an unreachable remote fails the request"),
  async () => {
    const bad = { to_remote_schema: { remote_schema: 'geo', lhs_fields: ['country'], remote_field: { failing: { arguments: { code: '$country' } } } } };
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'bad', definition: bad }), 200, ok);
    const answer = (await gql('{ music_artist(order_by: {id: asc}, limit: 2) { id bad { name } } }')) as {
      data: unknown;
      errors: { message: string; path: unknown[] }[];
    };
    expect(answer.data).toEqual({
      music_artist: [
        { id: 1, bad: null },
        { id: 2, bad: null },
      ],
    });
    expect(answer.errors.map((e) => [e.message, e.path])).toEqual([
      ['no such country', ['music_artist', 0, 'bad']],
      ['no such country', ['music_artist', 1, 'bad']],
    ]);
    // The remote answers something other than GraphQL.
    remote.use(http.post('/geo', () => HttpResponse.text('down', { status: 502 })));
    const down = (await gql('{ music_artist { id bad { name } } }')) as { errors: { extensions: { code: string } }[] };
    expect(down.errors.map((e) => e.extensions.code)).toEqual(['remote-schema-error']);
  },
);

test(
  covers(['dec.remote-relationship.execution'], 'values reach the remote as literals of the argument type, whatever they hold; subscriptions are refused'),
  async () => {
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
    await target.sql(`update music.artist set country = 'N"O\\ }' where id = 3`);
    try {
      remote.requests.length = 0;
      expect(await gql('{ music_artist(where: {id: {_eq: 3}}) { origin { code } } }')).toEqual({ data: { music_artist: [{ origin: { code: 'N"O\\ }' } }] } });
      expect(sent()).toEqual([{ query: '{\n  r0: country(code: "N\\"O\\\\ }") {\n    code\n  }\n}', variables: {} }]);
    } finally {
      await target.sql('update music.artist set country = null where id = 3');
    }
    expect(await gql('subscription { music_artist { origin { name } } }')).toEqual({
      errors: [{ message: 'Remote relationships are not allowed in subscriptions', extensions: { path: '$', code: 'not-supported' } }],
    });
  },
);

test(
  covers(
    ['op.replace_metadata.v2', 'dec.remote-relationship.forms', 'err.remote-schema-error.remote-relationship', 'op.drop_inconsistent_metadata'],
    'replace_metadata takes remote relationships; a remote they need cannot be removed; one that no longer fits is inconsistent and dropped',
  ),
  async () => {
    const exported = (await run('export_metadata', {})).body as { tables: { table: { name: string }; remote_relationships?: unknown[] }[] };
    exported.tables.find((t) => t.table.name === 'artist')!.remote_relationships = [{ name: 'origin', definition: origin() }];
    expectResponse(await run('replace_metadata', exported), 200, ok);
    expect(await gql('{ music_artist(where: {id: {_eq: 1}}) { origin { name } } }')).toEqual({ data: { music_artist: [{ origin: { name: 'Norway' } }] } });
    const refusal = await run('remove_remote_schema', { name: 'geo' });
    expectResponse(refusal, 400, {
      path: '$.args',
      code: 'remote-schema-error',
      error: 'remote relationship "origin" of table "music.artist" cannot be served: the remote schema "geo" does not exist',
    });
    // The remote changes: country is gone.
    remote.use(
      graphQLServer('/geo', 'type Query { countries(codes: [String!]!): [Country!]! }\ntype Country { code: String!, name: String! }', { countries: () => [] }),
    );
    expectResponse(await run('reload_remote_schema', { name: 'geo' }), 200, ok);
    expect((await run('get_inconsistent_metadata', {})).body).toEqual([
      {
        type: 'remote_relationship',
        name: 'remote_relationship origin in table music.artist in source default',
        reason: 'Inconsistent object: remote relationship "origin" of table "music.artist" cannot be served: field "country" not found in the query root',
        definition: { table: artist, name: 'origin', definition: origin() },
      },
    ]);
    expect(await gql('{ music_artist { origin { name } } }')).toEqual(noField('origin', 'music_artist'));
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect((await tablesOf()).find((t) => (t.table as { name: string }).name === 'artist')).toEqual({ table: artist });
  },
);

test(
  covers(
    ['op.create_remote_relationship', 'dec.remote-relationship.forms'],
    'hostile definitions are refused at their path: deep paths, two fields at one level, to_source',
  ),
  async () => {
    let deep: Record<string, unknown> = { name: { arguments: {} } };
    for (let i = 0; i < 20; i++) deep = { capital: { arguments: {}, field: deep } };
    const deepAnswer = await run('create_remote_relationship', { table: artist, name: 'r', definition: origin(deep) });
    expect(deepAnswer.status).toBe(400);
    expect(deepAnswer.body).toEqual(expect.objectContaining({ code: 'parse-failed', error: 'remote fields nest at most 16 deep' }));
    expectResponse(
      await run('create_remote_relationship', { table: artist, name: 'r', definition: origin({ a: { arguments: {} }, b: { arguments: {} } }) }),
      400,
      {
        path: '$.args.definition.to_remote_schema.remote_field',
        code: 'parse-failed',
        error: 'expected exactly one remote field, found 2',
      },
    );
    expectResponse(
      await run('create_remote_relationship', {
        table: artist,
        name: 'r',
        definition: { to_source: { source: 'other', table: 'x', relationship_type: 'object', field_mapping: {} } },
      }),
      400,
      { path: '$.args.definition.to_source.field_mapping', code: 'parse-failed', error: 'field_mapping must map at least one column' },
    );
    // Arguments nested 100,000 deep: refused, the server goes on.
    const deepArgs = `{"type": "create_remote_relationship", "args": {"table": {"schema": "music", "name": "artist"}, "name": "r", "definition": {"to_remote_schema": {"remote_schema": "geo", "lhs_fields": ["country"], "remote_field": {"country": {"arguments": {"code": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}}}}}}`;
    const hugeAnswer = await target.request('POST', '/v1/metadata', { body: deepArgs, raw: true, headers: target.adminHeaders() });
    expect(hugeAnswer.status).toBe(400);
    expect((await tablesOf()).find((t) => (t.table as { name: string }).name === 'artist')).toEqual({ table: artist });
  },
);

test(
  covers(
    ['err.dependency-error.drop', 'dec.remote-relationship.forms'],
    'dropping a column a remote relationship reads needs cascade, which drops the relationship',
  ),
  async () => {
    const place = musicTable('place');
    await target.sql('drop table if exists music.place; create table music.place (id int primary key, code text)');
    expectResponse(await run('track_table', { table: place }), 200, ok);
    const definition = { to_remote_schema: { remote_schema: 'geo', lhs_fields: ['code'], remote_field: { country: { arguments: { code: '$code' } } } } };
    expectResponse(await run('create_remote_relationship', { table: place, name: 'land', definition }), 200, ok);
    const drop = (cascade: boolean) =>
      target.metadata({ type: 'run_sql', args: { sql: 'alter table music.place drop column code', cascade } }, { endpoint: '/v2/query' });
    expectResponse(await drop(false), 400, {
      path: '$.args',
      error: 'cannot drop due to the following dependent objects : remote relationship music.place.land',
      code: 'dependency-error',
    });
    expectResponse(await drop(true), 200, { result_type: 'CommandOk', result: null });
    expect((await tablesOf()).find((t) => (t.table as { name: string }).name === 'place')).toEqual({ table: place });
  },
);

test(
  covers(
    ['dec.remote-relationship.forms', 'dec.remote-relationship.execution', 'dec.remote-schema.customization'],
    "to a customized remote: the path in the remote's names, the field's type in the engine's; the request in the remote's names, __typename back in the engine's",
  ),
  async () => {
    const customization = {
      root_fields_namespace: 'geo_ns',
      type_names: { prefix: 'G_' },
      field_names: [{ parent_type: 'Country', mapping: { name: 'title', capital: 'seat' } }],
    };
    expectResponse(
      await run('update_remote_schema', {
        name: 'geo',
        definition: { url: `${remote.url}/geo`, forward_client_headers: false, timeout_seconds: 60, customization },
      }),
      200,
      ok,
    );
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
    const seat = origin({ country: { arguments: { code: '$country' }, field: { capital: { arguments: {} } } } });
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'seat', definition: seat }), 200, ok);
    remote.requests.length = 0;
    expect(await gql('{ music_artist(where: {id: {_eq: 1}}) { origin { title __typename } seat { name __typename } } }')).toEqual({
      data: { music_artist: [{ origin: { title: 'Norway', __typename: 'G_Country' }, seat: { name: 'Oslo', __typename: 'G_City' } }] },
    });
    expect(
      sent()
        .map((s) => s.query)
        .sort(),
    ).toEqual([
      '{\n  r0: country(code: "NO") {\n    seat: capital {\n      name\n      __typename\n    }\n  }\n}',
      '{\n  r0: country(code: "NO") {\n    title: name\n    __typename\n  }\n}',
    ]);
    // A path in the engine's names is not the remote's.
    expectResponse(
      await run('create_remote_relationship', {
        table: artist,
        name: 'r',
        definition: origin({ country: { arguments: { code: '$country' }, field: { seat: { arguments: {} } } } }),
      }),
      400,
      {
        path: '$.args',
        code: 'remote-schema-error',
        error: 'remote relationship "r" of table "music.artist" cannot be served: field "seat" not found in type "G_Country"',
      },
    );
  },
);

test(covers(['dec.remote-relationship.execution'], "a mutation's returned rows and an aggregate's nodes are joined too; many rows, one request"), async () => {
  expectResponse(await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
  await target.sql('delete from music.artist where id >= 100');
  try {
    remote.requests.length = 0;
    expect(await gql('mutation { insert_music_artist_one(object: {id: 100, name: "New", country: "US"}) { id origin { name } } }')).toEqual({
      data: { insert_music_artist_one: { id: 100, origin: { name: 'United States' } } },
    });
    expect(sent()).toEqual([{ query: '{\n  r0: country(code: "US") {\n    name\n  }\n}', variables: {} }]);
    await target.sql("insert into music.artist (id, name, country) select g, 'a' || g, 'C' || (g % 250) from generate_series(101, 1100) g");
    remote.requests.length = 0;
    const answer = (await gql('{ music_artist_aggregate(where: {id: {_gte: 101}}) { aggregate { count } nodes { id origin { code } } } }')) as {
      data: { music_artist_aggregate: { aggregate: { count: number }; nodes: { id: number; origin: { code: string } }[] } };
    };
    expect(answer.data.music_artist_aggregate.aggregate.count).toBe(1000);
    expect(answer.data.music_artist_aggregate.nodes.filter((n) => n.origin.code !== `C${n.id % 250}`)).toEqual([]);
    // 1,000 rows, 250 countries: one request with 250 fields.
    expect(sent().map((s) => s.query.split('\n').filter((l) => l.startsWith('  r')).length)).toEqual([250]);
  } finally {
    await target.sql('delete from music.artist where id >= 100');
  }
});

test(
  covers(
    ['dec.remote-relationship.execution', 'err.graphql.remote-failed'],
    'a remote answering data nested 100,000 deep is refused clearly; the server goes on',
  ),
  async () => {
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'origin', definition: origin() }), 200, ok);
    const deep = `{"data": {"r0": {"name": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
    remote.use(http.post('/geo', () => new HttpResponse(deep, { headers: { 'content-type': 'application/json' } })));
    const answer = await target.graphql('{ music_artist(where: {id: {_eq: 1}}) { origin { name } } }', undefined, { headers: target.adminHeaders() });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [
        {
          message: 'the remote schema "geo" did not answer: it answered 200 with JSON nested deeper than 1000',
          extensions: { path: '$', code: 'remote-schema-error' },
        },
      ],
    });
    remote.use(geo);
    expect(await gql('{ music_artist(where: {id: {_eq: 1}}) { origin { name } } }')).toEqual({ data: { music_artist: [{ origin: { name: 'Norway' } }] } });
  },
);

test(
  covers(
    ['dec.remote-relationship.execution', 'err.graphql.remote-relationship-value'],
    "a row value the remote argument's type cannot take is the request's error, not a crash",
  ),
  async () => {
    // name is text; population's unit is a String, but year is an Int: the artist's name is not one.
    remote.use(
      graphQLServer('/geo', 'type Query { country(code: String!): Country, byYear(year: Int!): Country } type Country { name: String! }', {
        country: (a) => ({ name: String(a.code) }),
        byYear: (a) => ({ name: String(a.year) }),
      }),
    );
    expectResponse(await run('reload_remote_schema', { name: 'geo' }), 200, ok);
    const byName = { to_remote_schema: { remote_schema: 'geo', lhs_fields: ['name'], remote_field: { byYear: { arguments: { year: '$name' } } } } };
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'odd', definition: byName }), 200, ok);
    const answer = await target.graphql('{ music_artist(where: {id: {_eq: 1}}) { odd { name } } }', undefined, { headers: target.adminHeaders() });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [
        {
          message:
            'the remote relationship "odd" cannot send the value of the row as the argument "year" of "byYear": Int cannot represent non-integer value: "Aurora Lane"',
          extensions: { path: '$', code: 'remote-schema-error' },
        },
      ],
    });
    expect(await gql('{ music_artist(where: {id: {_eq: 1}}) { name } }')).toEqual({ data: { music_artist: [{ name: 'Aurora Lane' }] } });
  },
);
