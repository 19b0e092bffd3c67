// Remote relationships to tables of sources (decision dec.remote-relationship.to-source): a field of
// a table of the server's own database joined to the rows of a table of another source (or of its
// own), on field_mapping. The second database is the file's own (harness/sourceDatabase.ts).
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const remote = useMockServer();
const ok = { message: 'success' };
const artist = musicTable('artist');
const album = musicTable('album');
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as { tables: { table: { name: string }; remote_relationships?: unknown }[] };
const remoteRelationshipsOf = async (name: string) => (await exported()).tables.find((t) => t.table.name === name)?.remote_relationships;
const gql = async (query: string, headers: Record<string, string> = target.adminHeaders()) => (await target.graphql(query, undefined, { headers })).body;
const as = (role: string, user = 'ann') => ({ ...target.adminHeaders(), 'x-engine-role': role, 'x-engine-user-id': user });

const BOOKS_SQL = `
  drop view if exists public.review_seen; drop table if exists public.review, public.label, public.scene;
  create table public.scene (country text primary key, name text not null);
  insert into public.scene values ('NO', 'Nordic'), ('US', 'American');
  create table public.review (id int primary key, album_id int not null, stars int not null, author text not null);
  insert into public.review values (1, 10, 5, 'ann'), (2, 10, 3, 'bo'), (3, 11, 4, 'ann'), (4, 20, 2, 'cy');
  create table public.label (artist_id int primary key, label text not null);
  insert into public.label values (1, 'North'), (2, 'South');
  create view public.review_seen as select r.*, statement_timestamp()::text as at from public.review r;
`;

/** A to_source definition. */
const toSource = (table: unknown, relationship_type: string, field_mapping: Record<string, string>, source = 'books') => ({
  to_source: { source, table, relationship_type, field_mapping },
});
const reviews = toSource('review', 'array', { id: 'album_id' });
const reviewsExported = toSource({ schema: 'public', name: 'review' }, 'array', { id: 'album_id' });
const label = toSource({ schema: 'public', name: 'label' }, 'object', { id: 'artist_id' });
const maker = toSource(artist, 'object', { artist_id: 'id' }, 'default');
const GEO_SDL = 'type Query { country(code: String!): Country } type Country { name: String! }';

beforeAll(async () => {
  if (!REQUIRES_SOURCE_DATABASE.met) return;
  await target.sql(fixtureSql('music'));
  await second.sql(BOOKS_SQL);
});
beforeEach(async () => {
  await target.reset();
  if (!REQUIRES_SOURCE_DATABASE.met) return;
  // One request: the music tables, the source and its tables.
  const setup = musicMetadata(['artist', 'album'], ['album.artist', 'artist.albums']);
  const source = { type: 'pg_add_source', args: { name: 'books', configuration: { connection_info: { database_url: second.url } } } };
  const tracked = ['review', 'label', 'review_seen', 'scene'].map((table) => ({ type: 'pg_track_table', args: { source: 'books', table } }));
  expectResponse(await target.metadata({ ...setup, args: [...setup.args, source, ...tracked] }), 200);
});
// Each case leaves the target without the source, whose database goes when the file ends.
afterEach(async () => {
  await target.reset();
});

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'op.create_remote_relationship', 'op.update_remote_relationship', 'op.delete_remote_relationship'],
  'to_source relationships are created in both prefixes, exported with their table as {schema, name}, replaced and deleted',
  async () => {
    expectResponse(await run('create_remote_relationship', { table: album, name: 'reviews', definition: reviews }), 200, ok);
    expectResponse(await run('pg_create_remote_relationship', { source: 'default', table: artist, name: 'label', definition: label }), 200, ok);
    expectResponse(await run('create_remote_relationship', { table: album, name: 'maker', definition: maker }), 200, ok);
    expect(await remoteRelationshipsOf('album')).toEqual([
      { name: 'maker', definition: maker },
      { name: 'reviews', definition: reviewsExported },
    ]);
    expect(await remoteRelationshipsOf('artist')).toEqual([{ name: 'label', definition: label }]);
    const labels = toSource({ schema: 'public', name: 'label' }, 'array', { id: 'artist_id' });
    expectResponse(await run('update_remote_relationship', { table: artist, name: 'label', definition: labels }), 200, ok);
    expect(await remoteRelationshipsOf('artist')).toEqual([{ name: 'label', definition: labels }]);
    expect(await gql('{ music_artist_by_pk(id: 2) { label { label } } }')).toEqual({ data: { music_artist_by_pk: { label: [{ label: 'South' }] } } });
    expectResponse(await run('delete_remote_relationship', { table: artist, name: 'label' }), 200, ok);
    expect(await remoteRelationshipsOf('artist')).toBeUndefined();
    expectResponse(await run('pg_delete_remote_relationship', { source: 'default', table: album, name: 'maker' }), 200, ok);
    expect(await remoteRelationshipsOf('album')).toEqual([{ name: 'reviews', definition: reviewsExported }]);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  [
    'dec.remote-relationship.to-source',
    'op.create_remote_relationship',
    'err.invalid-configuration.source-relationship',
    'err.already-exists.remote-relationship-field',
  ],
  'a to_source relationship whose source, table or columns do not exist, or whose name is taken, is refused with the reason; nothing changes',
  async () => {
    const before = await exported();
    const refused = (reason: string) => ({
      path: '$.args',
      error: `remote relationship "x" of table "music.album" cannot be served: ${reason}`,
      code: 'invalid-configuration',
    });
    const cases: [unknown, unknown][] = [
      [toSource('review', 'array', { id: 'album_id' }, 'nowhere'), refused('the source "nowhere" does not exist')],
      [toSource('ghost', 'array', { id: 'album_id' }), refused('the table "ghost" is not tracked in the source "books"')],
      [toSource(musicTable('track'), 'array', { id: 'album_id' }, 'default'), refused('the table "music.track" is not tracked in the source "default"')],
      [toSource('review', 'array', { id: 'nope' }), refused('the column "nope" of field_mapping does not exist in the table "review" of the source "books"')],
      [toSource('review', 'array', { nope: 'album_id' }), refused('the column "nope" of field_mapping does not exist')],
      // A value that would not reach the other column as itself.
      [
        toSource('review', 'array', { title: 'album_id' }),
        refused('the column "title" (text) cannot be joined to the column "album_id" (int4) of the table "review" of the source "books"'),
      ],
    ];
    for (const [definition, error] of cases) expectResponse(await run('create_remote_relationship', { table: album, name: 'x', definition }), 400, error);
    expectResponse(await run('create_remote_relationship', { table: album, name: 'title', definition: reviews }), 400, {
      path: '$.args',
      error: 'the name "title" is already used by a column, relationship or computed field of table "music.album"',
      code: 'already-exists',
    });
    // Malformed definitions are refused where they are wrong.
    expectResponse(await run('create_remote_relationship', { table: album, name: 'x', definition: toSource('review', 'many', { id: 'album_id' }) }), 400, {
      path: '$.args.definition.to_source.relationship_type',
      error: 'unexpected value "many"; expected one of "object", "array"',
      code: 'parse-failed',
    });
    expectResponse(await run('create_remote_relationship', { table: album, name: 'x', definition: toSource('review', 'array', {}) }), 400, {
      path: '$.args.definition.to_source.field_mapping',
      error: 'field_mapping must map at least one column',
      code: 'parse-failed',
    });
    expectResponse(
      await run('create_remote_relationship', {
        table: album,
        name: 'x',
        definition: { ...reviews, to_remote_schema: { remote_schema: 'geo', lhs_fields: [], remote_field: { a: { arguments: {} } } } },
      }),
      400,
      {
        path: '$.args.definition',
        error: 'to_source cannot be given with to_remote_schema, remote_schema, hasura_fields or remote_field',
        code: 'parse-failed',
      },
    );
    expect(await exported()).toEqual(before);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'op.create_remote_relationship', 'dec.remote-relationship.execution'],
  "GraphQL joins rows to a source's table: object, array with its arguments and _aggregate, to the server's own database, and one inside another",
  async () => {
    expectResponse(await run('create_remote_relationship', { table: album, name: 'reviews', definition: reviews }), 200, ok);
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'label', definition: label }), 200, ok);
    expectResponse(await run('create_remote_relationship', { table: album, name: 'maker', definition: maker }), 200, ok);
    // A row whose mapped column is null matches no row.
    const scene = toSource('scene', 'object', { country: 'country' });
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'scene', definition: scene }), 200, ok);
    const answer = await gql(`{
      music_artist(order_by: {id: asc}) {
        name
        label { label }
        scene { name }
        albums(order_by: {id: asc}, limit: 2) {
          title
          reviews(order_by: {stars: desc}) { stars author }
          best: reviews(where: {stars: {_gte: 4}}) { stars }
          reviews_aggregate { aggregate { count max { stars } } }
        }
      }
      music_album_by_pk(id: 11) { maker { name label { label } } }
    }`);
    expect(answer).toEqual({
      data: {
        music_artist: [
          {
            name: 'Aurora Lane',
            label: { label: 'North' },
            scene: { name: 'Nordic' },
            albums: [
              {
                title: 'First Light',
                reviews: [
                  { stars: 5, author: 'ann' },
                  { stars: 3, author: 'bo' },
                ],
                best: [{ stars: 5 }],
                reviews_aggregate: { aggregate: { count: 2, max: { stars: 5 } } },
              },
              {
                title: 'Long Night',
                reviews: [{ stars: 4, author: 'ann' }],
                best: [{ stars: 4 }],
                reviews_aggregate: { aggregate: { count: 1, max: { stars: 4 } } },
              },
            ],
          },
          {
            name: 'Brass Tacks',
            label: { label: 'South' },
            scene: { name: 'American' },
            albums: [
              { title: 'Horns Up', reviews: [{ stars: 2, author: 'cy' }], best: [], reviews_aggregate: { aggregate: { count: 1, max: { stars: 2 } } } },
              { title: 'Second Wind', reviews: [], best: [], reviews_aggregate: { aggregate: { count: 0, max: { stars: null } } } },
            ],
          },
          { name: 'Cellar Door', label: null, scene: null, albums: [] },
        ],
        music_album_by_pk: { maker: { name: 'Aurora Lane', label: { label: 'North' } } },
      },
    });
    // A mutation's rows are joined once it has committed.
    expect(
      await gql(
        'mutation { insert_music_album_one(object: {id: 30, title: "Fresh", artist_id: 3}) { title reviews { stars } maker { name scene { name } } } }',
      ),
    ).toEqual({
      data: { insert_music_album_one: { title: 'Fresh', reviews: [], maker: { name: 'Cellar Door', scene: null } } },
    });
    expect(await gql('mutation { delete_music_album_by_pk(id: 30) { title maker { name } } }')).toEqual({
      data: { delete_music_album_by_pk: { title: 'Fresh', maker: { name: 'Cellar Door' } } },
    });
    // Not in subscriptions, as remote relationships to remote schemas.
    expect(await gql('subscription { music_artist { label { label } } }')).toEqual({
      errors: [{ message: 'Remote relationships are not allowed in subscriptions', extensions: { path: '$', code: 'not-supported' } }],
    });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'op.create_select_permission'],
  "a role sees a to_source field where it reads the mapped columns and the target, and gets the target's rows its permission allows",
  async () => {
    expectResponse(await run('create_remote_relationship', { table: album, name: 'reviews', definition: reviews }), 200, ok);
    const own = { author: { _eq: 'X-Engine-User-Id' } };
    const steps: [string, unknown][] = [
      ['create_select_permission', { table: album, role: 'fan', permission: { columns: ['id', 'title'], filter: {} } }],
      ['pg_create_select_permission', { source: 'books', table: 'review', role: 'fan', permission: { columns: ['stars'], filter: own } }],
      // Without the mapped column, or without the target, the field is not there.
      ['create_select_permission', { table: album, role: 'blind', permission: { columns: ['title'], filter: {} } }],
      ['pg_create_select_permission', { source: 'books', table: 'review', role: 'blind', permission: { columns: ['stars'], filter: {} } }],
      ['create_select_permission', { table: album, role: 'local', permission: { columns: ['id', 'title'], filter: {} } }],
      // With aggregations allowed, the _aggregate field too.
      ['create_select_permission', { table: album, role: 'counter', permission: { columns: ['id', 'title'], filter: {} } }],
      [
        'pg_create_select_permission',
        { source: 'books', table: 'review', role: 'counter', permission: { columns: ['stars'], filter: {}, allow_aggregations: true } },
      ],
    ];
    for (const [type, args] of steps) expectResponse(await run(type, args), 200, ok);
    expect(await gql('{ music_album(where: {id: {_lt: 20}}, order_by: {id: asc}) { title reviews(order_by: {stars: asc}) { stars } } }', as('fan'))).toEqual({
      data: {
        music_album: [
          { title: 'First Light', reviews: [{ stars: 5 }] },
          { title: 'Long Night', reviews: [{ stars: 4 }] },
        ],
      },
    });
    expect(await gql('{ music_album(where: {id: {_eq: 10}}) { reviews { stars } } }', as('fan', 'bo'))).toEqual({
      data: { music_album: [{ reviews: [{ stars: 3 }] }] },
    });
    const fields = async (role: string) =>
      (
        (await gql('{ __type(name: "music_album") { fields { name } } }', as(role))) as { data: { __type: { fields: { name: string }[] } } }
      ).data.__type.fields.map((f) => f.name);
    expect(await fields('fan')).toEqual(['id', 'reviews', 'title']);
    expect(await fields('blind')).toEqual(['title']);
    expect(await fields('local')).toEqual(['id', 'title']);
    expect(await fields('counter')).toEqual(['id', 'reviews', 'reviews_aggregate', 'title']);
    expect(await gql('{ music_album_by_pk(id: 10) { reviews_aggregate { aggregate { count } } } }', as('counter'))).toEqual({
      data: { music_album_by_pk: { reviews_aggregate: { aggregate: { count: 2 } } } },
    });
    // A column the role does not read on the target is not there to select.
    expect(await gql('{ music_album { reviews { author } } }', as('fan'))).toEqual({
      errors: [{ message: 'Cannot query field "author" on type "review".', extensions: { path: '$', code: 'validation-failed' } }],
    });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'dec.remote-relationship.execution', 'op.create_remote_relationship'],
  'a query joining a table to a remote schema and to two tables of a second source: one request to the remote, one statement on the source',
  async () => {
    let requests = 0;
    remote.use(
      graphQLServer('/geo', GEO_SDL, {
        country: (a) => {
          requests += 1;
          return { name: a.code === 'NO' ? 'Norway' : 'United States' };
        },
      }),
    );
    expectResponse(
      await run('add_remote_schema', { name: 'geo', definition: { url: `${remote.url}/geo`, forward_client_headers: false, timeout_seconds: 60 } }),
      200,
      ok,
    );
    const seen = toSource('review_seen', 'array', { id: 'album_id' });
    const seenLabel = toSource('review_seen', 'object', { id: 'id' });
    const origin = { to_remote_schema: { remote_schema: 'geo', lhs_fields: ['country'], remote_field: { country: { arguments: { code: '$country' } } } } };
    for (const [table, name, definition] of [
      [album, 'reviews', seen],
      [artist, 'first_review', seenLabel],
      [artist, 'origin', origin],
    ] as const)
      expectResponse(await run('create_remote_relationship', { table, name, definition }), 200, ok);
    remote.requests.length = 0;
    requests = 0;
    const answer = (await gql(
      '{ music_artist(where: {id: {_lt: 3}}, order_by: {id: asc}) { origin { name } first_review { at } albums(order_by: {id: asc}) { reviews { id at } } } }',
    )) as { data: { music_artist: { origin: unknown; first_review: { at: string }; albums: { reviews: { id: number; at: string }[] }[] }[] } };
    const rows = answer.data.music_artist;
    expect(rows.map((r) => [r.origin, r.albums.map((a) => a.reviews.map((x) => x.id))])).toEqual([
      [{ name: 'Norway' }, [[1, 2], [3]]],
      [{ name: 'United States' }, [[4], []]],
    ]);
    // Both relationships to the source were read by one statement: one statement time.
    const times = new Set([...rows.map((r) => r.first_review.at), ...rows.flatMap((r) => r.albums.flatMap((a) => a.reviews.map((x) => x.at)))]);
    expect(times.size).toBe(1);
    // One request to the remote, with a field per distinct value.
    expect(remote.requestsTo('/geo').filter((r) => !(r.body as { query: string }).query.includes('__schema'))).toHaveLength(1);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'err.invalid-configuration.source-relationship', 'op.replace_metadata.v2', 'rule.replace_metadata.2'],
  'replace_metadata of a document whose to_source target is not tracked keeps the relationship as inconsistent when allowed, rather than refusing it as untracking the target would be',
  async () => {
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'label', definition: label }), 200, ok);
    const document = (await run('export_metadata', {})).body as { sources: { name: string; tables: { table: { name: string } }[] }[] };
    const untracked = {
      ...document,
      sources: document.sources.map((s) => ({ ...s, tables: s.tables.filter((t) => t.table.name !== 'label') })),
    };
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: untracked } }), 200, {
      is_consistent: false,
      inconsistent_objects: [
        {
          type: 'remote_relationship',
          name: 'remote_relationship label in table music.artist in source default',
          reason:
            'Inconsistent object: remote relationship "label" of table "music.artist" cannot be served: the table "label" is not tracked in the source "books"',
          definition: { table: artist, name: 'label', definition: label },
        },
      ],
    });
    expect(await remoteRelationshipsOf('artist')).toEqual([{ name: 'label', definition: label }]);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  [
    'dec.remote-relationship.to-source',
    'err.invalid-configuration.source-relationship',
    'op.get_inconsistent_metadata',
    'op.drop_inconsistent_metadata',
    'op.replace_metadata.v2',
  ],
  'a to_source relationship whose target goes away is an inconsistent remote_relationship: the rest is served, replace_metadata refuses it unless allowed, drop_inconsistent_metadata drops it',
  async () => {
    expectResponse(await run('create_remote_relationship', { table: album, name: 'reviews', definition: reviews }), 200, ok);
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'label', definition: label }), 200, ok);
    const document = await run('export_metadata', {});
    await second.sql('alter table public.label rename column artist_id to owner_id');
    try {
      expectResponse(await run('reload_metadata', {}), 200);
      const inconsistent = {
        type: 'remote_relationship',
        name: 'remote_relationship label in table music.artist in source default',
        reason:
          'Inconsistent object: remote relationship "label" of table "music.artist" cannot be served: the column "artist_id" of field_mapping does not exist in the table "label" of the source "books"',
        definition: { table: artist, name: 'label', definition: label },
      };
      expectResponse(await run('get_inconsistent_metadata', {}), 200, [inconsistent]);
      // The rest is served; the relationship is not.
      expect(await gql('{ music_album_by_pk(id: 20) { reviews { stars } } }')).toEqual({ data: { music_album_by_pk: { reviews: [{ stars: 2 }] } } });
      expect(await gql('{ music_artist_by_pk(id: 1) { label { label } } }')).toEqual({
        errors: [{ message: 'Cannot query field "label" on type "music_artist". Did you mean "name"?', extensions: { path: '$', code: 'validation-failed' } }],
      });
      expectResponse(await run('replace_metadata', { metadata: document.body }), 400, {
        path: '$.args',
        error: 'cannot continue due to inconsistent metadata',
        code: 'unexpected',
        internal: [inconsistent],
      });
      expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
      expect(await remoteRelationshipsOf('artist')).toBeUndefined();
      expect(await remoteRelationshipsOf('album')).toEqual([{ name: 'reviews', definition: reviewsExported }]);
      expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    } finally {
      await second.sql('alter table public.label rename column owner_id to artist_id');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'err.dependency-error.drop', 'op.untrack_table', 'op.pg_drop_source'],
  'untracking the target of a to_source relationship or dropping its source is refused, naming it; with cascade the relationship goes too',
  async () => {
    expectResponse(await run('create_remote_relationship', { table: album, name: 'reviews', definition: reviews }), 200, ok);
    expectResponse(await run('create_remote_relationship', { table: artist, name: 'label', definition: label }), 200, ok);
    expectResponse(await run('create_remote_relationship', { table: album, name: 'maker', definition: maker }), 200, ok);
    const before = await exported();
    const refused = (dependents: string) => ({
      path: '$.args',
      error: `cannot drop due to the following dependent objects : ${dependents}`,
      code: 'dependency-error',
    });
    expectResponse(await run('pg_untrack_table', { source: 'books', table: 'label' }), 400, refused('remote relationship music.artist.label'));
    expectResponse(
      await run('pg_drop_source', { name: 'books' }),
      400,
      refused('remote relationship music.artist.label, remote relationship music.album.reviews'),
    );
    expectResponse(await run('untrack_table', { table: artist }), 400, refused('relationship music.album.artist, remote relationship music.album.maker'));
    expect(await exported()).toEqual(before);
    expectResponse(await run('pg_untrack_table', { source: 'books', table: 'label', cascade: true }), 200, ok);
    expect(await remoteRelationshipsOf('artist')).toBeUndefined();
    expect(await remoteRelationshipsOf('album')).toEqual([
      { name: 'maker', definition: maker },
      { name: 'reviews', definition: reviewsExported },
    ]);
    expectResponse(await run('pg_drop_source', { name: 'books', cascade: true }), 200, ok);
    expect(await remoteRelationshipsOf('album')).toEqual([{ name: 'maker', definition: maker }]);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'op.create_remote_relationship', 'dec.metadata.source-prefixed', 'err.dependency-error.drop'],
  "a table of another source has remote relationships too: to_source ones exported under its source, answered from the server's own database and named when their target goes; to a remote schema",
  async () => {
    const toAlbum = toSource(album, 'object', { album_id: 'id' }, 'default');
    expectResponse(await run('pg_create_remote_relationship', { source: 'books', table: 'review', name: 'album', definition: toAlbum }), 200, ok);
    expectResponse(await run('create_remote_relationship', { table: album, name: 'maker', definition: maker }), 200, ok);
    // Within the same source.
    const sameSource = toSource({ schema: 'public', name: 'review' }, 'array', { artist_id: 'id' });
    expectResponse(await run('pg_create_remote_relationship', { source: 'books', table: 'label', name: 'reviews', definition: sameSource }), 200, ok);
    const books = ((await run('export_metadata', {})).body as { sources: { tables: { table: { name: string }; remote_relationships?: unknown }[] }[] })
      .sources[0]!;
    expect(books.tables.find((t) => t.table.name === 'review')!.remote_relationships).toEqual([{ name: 'album', definition: toAlbum }]);
    expect(books.tables.find((t) => t.table.name === 'label')!.remote_relationships).toEqual([{ name: 'reviews', definition: sameSource }]);
    // A review of an album that is not there: no album, and nothing asked below it; two of one album share its row.
    await second.sql("insert into public.review values (5, 99, 1, 'zed')");
    const answer = await gql(
      '{ review(where: {id: {_in: [1, 2, 4, 5]}}, order_by: {id: asc}) { stars album { title maker { name } } } label_by_pk(artist_id: 2) { reviews { id } } }',
    );
    await second.sql('delete from public.review where id = 5');
    expect(answer).toEqual({
      data: {
        review: [
          { stars: 5, album: { title: 'First Light', maker: { name: 'Aurora Lane' } } },
          { stars: 3, album: { title: 'First Light', maker: { name: 'Aurora Lane' } } },
          { stars: 2, album: { title: 'Horns Up', maker: { name: 'Brass Tacks' } } },
          { stars: 1, album: null },
        ],
        label_by_pk: { reviews: [{ id: 2 }] },
      },
    });
    expectResponse(await run('untrack_table', { table: album }), 400, {
      path: '$.args',
      error: 'cannot drop due to the following dependent objects : relationship music.artist.albums, remote relationship books.review.album',
      code: 'dependency-error',
    });
    // To a remote schema too: one request for the source's rows.
    remote.use(graphQLServer('/geo', GEO_SDL, { country: (a) => ({ name: a.code === 'North' ? 'Norway' : 'elsewhere' }) }));
    expectResponse(
      await run('add_remote_schema', { name: 'geo', definition: { url: `${remote.url}/geo`, forward_client_headers: false, timeout_seconds: 60 } }),
      200,
      ok,
    );
    const toRemote = (code: string) => ({
      to_remote_schema: { remote_schema: 'geo', lhs_fields: ['label'], remote_field: { country: { arguments: { code } } } },
    });
    expectResponse(await run('pg_create_remote_relationship', { source: 'books', table: 'label', name: 'origin', definition: toRemote('$label') }), 200, ok);
    expectResponse(await run('pg_create_remote_relationship', { source: 'books', table: 'label', name: 'bad', definition: toRemote('$nope') }), 400, {
      path: '$.args',
      error: 'remote relationship "bad" of table "label" cannot be served: the argument "code" of "country" reads "$nope", which lhs_fields does not list',
      code: 'remote-schema-error',
    });
    expect(await gql('{ label(order_by: {artist_id: asc}) { origin { name } } }')).toEqual({
      data: { label: [{ origin: { name: 'Norway' } }, { origin: { name: 'elsewhere' } }] },
    });
    expectResponse(await run('untrack_table', { table: album, cascade: true }), 200, ok);
    expect(
      (
        (await run('export_metadata', {})).body as { sources: { tables: { table: { name: string }; remote_relationships?: unknown }[] }[] }
      ).sources[0]!.tables.find((t) => t.table.name === 'review')!.remote_relationships,
    ).toBeUndefined();
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'dec.source.forms', 'op.run_sql', 'err.dependency-error.drop'],
  'run_sql on a source follows what is tracked there: a dropped table is untracked, refused while a to_source relationship leads to it unless cascade',
  async () => {
    await second.sql('create table public.stage (id int primary key); create table public.spare (id int primary key)');
    const runSql = (sql: string, extra: Record<string, unknown> = {}) =>
      target.metadata({ type: 'run_sql', args: { source: 'books', sql, ...extra } }, { endpoint: '/v2/query' });
    try {
      for (const table of ['stage', 'spare']) expectResponse(await run('pg_track_table', { source: 'books', table }), 200, ok);
      expectResponse(await run('create_remote_relationship', { table: artist, name: 'stage', definition: toSource('stage', 'object', { id: 'id' }) }), 200, ok);
      const tracked = async () =>
        ((await run('export_metadata', {})).body as { sources: { tables: { table: { name: string } }[] }[] }).sources[0]!.tables.map((t) => t.table.name);
      expect(await tracked()).toEqual(['label', 'review', 'review_seen', 'scene', 'spare', 'stage']);
      // A table nothing leads to goes with its tracking.
      expectResponse(await runSql('drop table public.spare'), 200, { result_type: 'CommandOk', result: null });
      expect(await tracked()).toEqual(['label', 'review', 'review_seen', 'scene', 'stage']);
      expectResponse(await runSql('drop table public.stage'), 400, {
        path: '$.args',
        error: 'cannot drop due to the following dependent objects : remote relationship music.artist.stage',
        code: 'dependency-error',
      });
      expect(await second.sql("select to_regclass('public.stage')::text as t")).toEqual([{ t: 'stage' }]);
      expectResponse(await runSql('drop table public.stage', { cascade: true }), 200, { result_type: 'CommandOk', result: null });
      expect(await tracked()).toEqual(['label', 'review', 'review_seen', 'scene']);
      expect(await remoteRelationshipsOf('artist')).toBeUndefined();
      expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    } finally {
      await second.sql('drop table if exists public.stage, public.spare');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.remote-relationship.to-source', 'err.invalid-configuration.source-relationship', 'op.get_inconsistent_metadata'],
  'field_mapping joins a type to itself, integers of any width and strings of any kind; a relationship loses its own column or its target table as one inconsistency, in whichever source it is',
  async () => {
    await target.sql('drop table if exists public.crate; create table public.crate (id bigint primary key, code uuid not null, title varchar(40))');
    await target.sql("insert into public.crate values (7, '00000000-0000-0000-0000-000000000007', 'seven')");
    await second.sql('drop table if exists public.stock; create table public.stock (id int primary key, code uuid not null, title text)');
    await second.sql("insert into public.stock values (7, '00000000-0000-0000-0000-000000000007', 'seven')");
    try {
      expectResponse(await run('pg_track_table', { table: 'crate' }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'stock' }), 200, ok);
      const mappings: [string, Record<string, string>][] = [
        ['by_id', { id: 'id' }],
        ['by_code', { code: 'code' }],
        ['by_title', { title: 'title' }],
        ['by_both', { id: 'id', code: 'code' }],
      ];
      for (const [name, mapping] of mappings)
        expectResponse(await run('create_remote_relationship', { table: 'crate', name, definition: toSource('stock', 'object', mapping) }), 200, ok);
      const back = toSource({ schema: 'public', name: 'crate' }, 'object', { id: 'id' }, 'default');
      expectResponse(await run('pg_create_remote_relationship', { source: 'books', table: 'stock', name: 'crate', definition: back }), 200, ok);
      const refused = (name: string, reason: string) => ({
        path: '$.args',
        error: `remote relationship "${name}" of table "crate" cannot be served: ${reason}`,
        code: 'invalid-configuration',
      });
      expectResponse(
        await run('create_remote_relationship', { table: 'crate', name: 'bad', definition: toSource('stock', 'object', { code: 'title' }) }),
        400,
        refused('bad', 'the column "code" (uuid) cannot be joined to the column "title" (text) of the table "stock" of the source "books"'),
      );
      expectResponse(
        await run('create_remote_relationship', { table: 'crate', name: 'bad', definition: toSource(album, 'object', { id: 'nope' }, 'default') }),
        400,
        refused('bad', 'the column "nope" of field_mapping does not exist in the table "music.album"'),
      );
      expect(await gql('{ crate { by_id { title } by_code { id } by_title { code } by_both { id } } stock { crate { title } } }')).toEqual({
        data: {
          crate: [{ by_id: { title: 'seven' }, by_code: { id: 7 }, by_title: { code: '00000000-0000-0000-0000-000000000007' }, by_both: { id: 7 } }],
          stock: [{ crate: { title: 'seven' } }],
        },
      });
      // The relationship's own column goes: one inconsistency, its own table's.
      await target.sql('alter table public.crate drop column title');
      expectResponse(await run('reload_metadata', {}), 200);
      const definitionOf = (name: string, mapping: Record<string, string>) => ({
        table: { schema: 'public', name: 'crate' },
        name,
        definition: toSource({ schema: 'public', name: 'stock' }, 'object', mapping),
      });
      expectResponse(await run('get_inconsistent_metadata', {}), 200, [
        {
          type: 'remote_relationship',
          name: 'remote_relationship by_title in table crate in source default',
          reason: 'Inconsistent object: remote relationship "by_title" of table "crate" cannot be served: the column "title" of field_mapping does not exist',
          definition: definitionOf('by_title', { title: 'title' }),
        },
      ]);
      const fields = (await gql('{ __type(name: "crate") { fields { name } } }')) as { data: { __type: { fields: { name: string }[] } } };
      expect(fields.data.__type.fields.map((f) => f.name)).toEqual(['by_both', 'by_code', 'by_id', 'code', 'id']);
      // The target table goes: the relationship of the source's table is inconsistent in that source.
      await target.sql('drop table public.crate');
      expectResponse(await run('reload_metadata', {}), 200);
      const objects = (await run('get_inconsistent_metadata', {})).body as { type: string; reason: string; source?: string }[];
      expect(objects.filter((o) => o.type === 'remote_relationship' && o.source === 'books')).toEqual([
        {
          type: 'remote_relationship',
          name: 'remote_relationship crate in table stock in source books',
          reason: 'Inconsistent object: remote relationship "crate" of table "stock" cannot be served: the table "crate" cannot be served',
          definition: { table: { schema: 'public', name: 'stock' }, name: 'crate', definition: back },
          source: 'books',
        },
      ]);
    } finally {
      await target.sql('drop table if exists public.crate');
      await second.sql('drop table if exists public.stock');
    }
  },
);
