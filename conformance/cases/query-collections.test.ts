// Query collections and the allow-list: SPEC.md §2.2 (query_collections.yaml, allow_list.yaml),
// §2.10 (is_allow_list_enabled); the operations take the engine's documented forms (compat).
import { caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget({ profiles: ['allow-list'] });
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const ARTISTS = 'query artists { music_artist(order_by: {id: asc}) { id name } }';
const ALBUMS = 'query albums { music_album(order_by: {id: asc}) { id } }';
const collection = (name: string, queries: { name: string; query: string }[], comment?: string) => ({
  name,
  definition: { queries },
  ...(comment ? { comment } : {}),
});

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
});
beforeEach(async () => {
  await target.reset();
  expectResponse(await target.metadata(musicMetadata(['artist', 'album'], [])), 200);
});

test(
  covers(
    ['op.create_query_collection', 'op.add_query_to_collection', 'op.drop_query_from_collection', 'op.drop_query_collection'],
    'collections hold named GraphQL documents, in the export form of query_collections.yaml',
  ),
  async () => {
    expectResponse(await run('create_query_collection', collection('app', [{ name: 'artists', query: ARTISTS }], "the app's queries")), 200, ok);
    expectResponse(await run('add_query_to_collection', { collection_name: 'app', query_name: 'albums', query: ALBUMS }), 200, ok);
    expect((await exported()).query_collections).toEqual([
      collection(
        'app',
        [
          { name: 'artists', query: ARTISTS },
          { name: 'albums', query: ALBUMS },
        ],
        "the app's queries",
      ),
    ]);
    expectResponse(await run('drop_query_from_collection', { collection_name: 'app', query_name: 'artists' }), 200, ok);
    expect((await exported()).query_collections).toEqual([collection('app', [{ name: 'albums', query: ALBUMS }], "the app's queries")]);
    expectResponse(await run('drop_query_collection', { collection: 'app' }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: musicTable('album') }, { table: musicTable('artist') }] });
  },
);

test(
  covers(
    [
      'op.create_query_collection',
      'op.add_query_to_collection',
      'err.already-exists.query-collection',
      'err.not-exists.query-collection',
      'err.already-exists.saved-query',
      'err.not-exists.saved-query',
      'err.validation-failed.saved-query',
    ],
    'names are unique, queries must parse as one operation, and unknown names are refused',
  ),
  async () => {
    expectResponse(await run('create_query_collection', collection('app', [])), 200, ok);
    expectResponse(
      await run('create_query_collection', collection('app', [])),
      400,
      refused('already-exists', 'query collection with name "app" already exists'),
    );
    expectResponse(
      await run(
        'create_query_collection',
        collection('twice', [
          { name: 'a', query: ARTISTS },
          { name: 'a', query: ALBUMS },
        ]),
      ),
      400,
      refused('already-exists', 'query with name "a" already exists in collection "twice"'),
    );
    expectResponse(
      await run('add_query_to_collection', { collection_name: 'nope', query_name: 'a', query: ARTISTS }),
      400,
      refused('not-exists', 'query collection with name "nope" does not exist'),
    );
    expectResponse(
      await run('add_query_to_collection', { collection_name: 'app', query_name: 'bad', query: 'query {' }),
      400,
      refused('validation-failed', 'query "bad" of collection "app" is not a GraphQL document with one operation: Syntax Error: Expected Name, found <EOF>.'),
    );
    expectResponse(
      await run('add_query_to_collection', { collection_name: 'app', query_name: 'two', query: `${ARTISTS} ${ALBUMS}` }),
      400,
      refused('validation-failed', 'query "two" of collection "app" is not a GraphQL document with one operation: 2 operations'),
    );
    expectResponse(await run('add_query_to_collection', { collection_name: 'app', query_name: 'a', query: ARTISTS }), 200, ok);
    expectResponse(
      await run('add_query_to_collection', { collection_name: 'app', query_name: 'a', query: ALBUMS }),
      400,
      refused('already-exists', 'query with name "a" already exists in collection "app"'),
    );
    expectResponse(
      await run('drop_query_from_collection', { collection_name: 'app', query_name: 'b' }),
      400,
      refused('not-exists', 'query with name "b" does not exist in collection "app"'),
    );
    expectResponse(await run('drop_query_collection', { collection: 'nope' }), 400, refused('not-exists', 'query collection with name "nope" does not exist'));
    expect((await exported()).query_collections).toEqual([collection('app', [{ name: 'a', query: ARTISTS }])]);
  },
);

test(
  covers(
    [
      'op.add_collection_to_allowlist',
      'op.drop_collection_from_allowlist',
      'err.already-exists.allowlist',
      'err.not-exists.allowlist',
      'err.dependency-error.drop',
    ],
    'the allow-list names collections; a collection in it is dropped only with cascade',
  ),
  async () => {
    expectResponse(await run('create_query_collection', collection('app', [{ name: 'artists', query: ARTISTS }])), 200, ok);
    expectResponse(
      await run('add_collection_to_allowlist', { collection: 'nope' }),
      400,
      refused('not-exists', 'query collection with name "nope" does not exist'),
    );
    expectResponse(await run('add_collection_to_allowlist', { collection: 'app' }), 200, ok);
    expectResponse(
      await run('add_collection_to_allowlist', { collection: 'app' }),
      400,
      refused('already-exists', 'collection "app" already exists in the allowlist'),
    );
    expect((await exported()).allowlist).toEqual([{ collection: 'app' }]);
    expectResponse(
      await run('drop_query_collection', { collection: 'app' }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : allowlist entry of "app"'),
    );
    expectResponse(await run('drop_collection_from_allowlist', { collection: 'app' }), 200, ok);
    expectResponse(
      await run('drop_collection_from_allowlist', { collection: 'app' }),
      400,
      refused('not-exists', 'collection "app" does not exist in the allowlist'),
    );
    expectResponse(await run('add_collection_to_allowlist', { collection: 'app' }), 200, ok);
    expectResponse(await run('drop_query_collection', { collection: 'app', cascade: true }), 200, ok);
    const after = await exported();
    expect([after.query_collections, after.allowlist]).toEqual([undefined, undefined]);
  },
);

test(
  covers(
    [
      'op.create_query_collection',
      'op.add_query_to_collection',
      'op.drop_query_from_collection',
      'op.drop_query_collection',
      'op.add_collection_to_allowlist',
      'op.drop_collection_from_allowlist',
      'err.dependency-error.drop',
      'err.not-exists.allowlist',
    ],
    'with two collections, each operation touches its own collection, allow-list entry and endpoints alone',
  ),
  async () => {
    const WITH_FRAGMENT = 'query named { music_artist(order_by: {id: asc}) { ...f } } fragment f on music_artist { id }';
    const endpoint = (name: string, url: string, collection_name: string, query_name: string) => ({
      name,
      url,
      methods: ['GET'],
      definition: { query: { collection_name, query_name } },
    });
    expectResponse(
      await run('bulk', [
        {
          type: 'create_query_collection',
          args: collection('app', [
            { name: 'artists', query: ARTISTS },
            { name: 'named', query: WITH_FRAGMENT },
          ]),
        },
        { type: 'create_query_collection', args: { ...collection('other', [{ name: 'albums', query: ALBUMS }]), comment: null } },
        { type: 'add_collection_to_allowlist', args: { collection: 'app' } },
        { type: 'add_collection_to_allowlist', args: { collection: 'other' } },
        { type: 'create_rest_endpoint', args: endpoint('artists', 'artists', 'app', 'artists') },
        { type: 'create_rest_endpoint', args: endpoint('artists_too', 'artists/too', 'app', 'artists') },
        { type: 'create_rest_endpoint', args: endpoint('albums', 'albums', 'other', 'albums') },
      ]),
      200,
      [ok, ok, ok, ok, ok, ok, ok],
    );
    expectResponse(await run('drop_collection_from_allowlist', { collection: 'other' }), 200, ok);
    expectResponse(
      await run('drop_collection_from_allowlist', { collection: 'other' }),
      400,
      refused('not-exists', 'collection "other" does not exist in the allowlist'),
    );
    expectResponse(
      await run('drop_query_from_collection', { collection_name: 'app', query_name: 'artists' }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : rest endpoint "artists", rest endpoint "artists_too"'),
    );
    // A query no endpoint uses goes, also from an allow-listed collection.
    expectResponse(await run('drop_query_from_collection', { collection_name: 'app', query_name: 'named' }), 200, ok);
    expectResponse(await run('add_query_to_collection', { collection_name: 'other', query_name: 'named', query: WITH_FRAGMENT }), 200, ok);
    expectResponse(
      await run('drop_query_collection', { collection: 'other' }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : rest endpoint "albums"'),
    );
    const appOnly = {
      query_collections: [collection('app', [{ name: 'artists', query: ARTISTS }])],
      allowlist: [{ collection: 'app' }],
      rest_endpoints: [endpoint('artists', 'artists', 'app', 'artists'), endpoint('artists_too', 'artists/too', 'app', 'artists')],
    };
    const both = await exported();
    expect([both.query_collections, both.allowlist, both.rest_endpoints]).toEqual([
      [
        ...appOnly.query_collections,
        collection('other', [
          { name: 'albums', query: ALBUMS },
          { name: 'named', query: WITH_FRAGMENT },
        ]),
      ],
      appOnly.allowlist,
      // By URL: albums, artists, artists/too.
      [endpoint('albums', 'albums', 'other', 'albums'), ...appOnly.rest_endpoints],
    ]);
    expectResponse(await run('drop_query_collection', { collection: 'other', cascade: true }), 200, ok);
    const after = await exported();
    expect([after.query_collections, after.allowlist, after.rest_endpoints]).toEqual([appOnly.query_collections, appOnly.allowlist, appOnly.rest_endpoints]);
  },
);

test(covers(['op.replace_metadata.v1', 'op.export_metadata.v1'], 'collections and the allow-list round-trip through replace_metadata'), async () => {
  const document = {
    ...(await exported()),
    query_collections: [collection('app', [{ name: 'artists', query: ARTISTS }], 'c'), collection('other', [{ name: 'albums', query: ALBUMS }])],
    allowlist: [{ collection: 'other' }, { collection: 'app' }],
  };
  expectResponse(await run('replace_metadata', document), 200, ok);
  expect(await exported()).toEqual({ ...document, allowlist: [{ collection: 'app' }, { collection: 'other' }] });
});

caseWithProfile(
  'allow-list',
  ['dec.allowlist', 'op.add_collection_to_allowlist', 'err.validation-failed.not-allowed'],
  'with the allow-list enabled, roles send only allow-listed documents (layout aside); admin is not bound',
  async () => {
    const strict = target.profileTarget('allow-list')!;
    const as = (role: string) => ({ ...strict.adminHeaders(), 'x-engine-role': role });
    const gql = async (query: string, headers: Record<string, string>) => (await strict.graphql(query, undefined, { headers })).body;
    const notAllowed = { errors: [{ message: 'query is not in any of the allowlists', extensions: { path: '$', code: 'validation-failed' } }] };
    expectResponse(
      await strict.metadata({
        type: 'bulk',
        args: [
          {
            type: 'create_select_permission',
            args: { table: musicTable('artist'), role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _lt: 3 } } } },
          },
          // Created first: the allow-list must take the queries of the collection it names, not the first one.
          { type: 'create_query_collection', args: collection('other', [{ name: 'albums', query: ALBUMS }]) },
          { type: 'create_query_collection', args: collection('app', [{ name: 'artists', query: ARTISTS }]) },
        ],
      }),
      200,
      [ok, ok, ok],
    );
    expect(await gql(ARTISTS, as('user'))).toEqual(notAllowed);
    expectResponse(await strict.metadata({ type: 'add_collection_to_allowlist', args: { collection: 'app' } }), 200, ok);
    const expected = {
      data: {
        music_artist: [
          { id: 1, name: 'Aurora Lane' },
          { id: 2, name: 'Brass Tacks' },
        ],
      },
    };
    expect(await gql(ARTISTS, as('user'))).toEqual(expected);
    expect(await gql('query artists {\n  music_artist(order_by: {id: asc}) {\n    id\n    name\n  }\n}\n', as('user'))).toEqual(expected);
    expect(await gql('query artists { music_artist(order_by: {id: desc}) { id name } }', as('user'))).toEqual(notAllowed);
    expect(await gql(ALBUMS, as('user'))).toEqual(notAllowed);
    // __typename fields, as clients add them, are no difference.
    expect(await gql('query artists { __typename music_artist(order_by: {id: asc}) { __typename id name } }', as('user'))).toEqual({
      data: {
        __typename: 'query_root',
        music_artist: [
          { __typename: 'music_artist', id: 1, name: 'Aurora Lane' },
          { __typename: 'music_artist', id: 2, name: 'Brass Tacks' },
        ],
      },
    });
    expect(await gql('query artists { music_artist(order_by: {id: asc}) { __typename id } }', as('user'))).toEqual(notAllowed);
    expect(await gql('{ music_album { id } }', strict.adminHeaders())).toEqual({ data: { music_album: [{ id: 10 }, { id: 11 }, { id: 20 }, { id: 21 }] } });
    expectResponse(
      await strict.request('GET', '/v1alpha1/config', { headers: strict.adminHeaders() }),
      200,
      expect.objectContaining({ is_allow_list_enabled: true }),
    );
    expectResponse(await strict.metadata({ type: 'drop_collection_from_allowlist', args: { collection: 'app' } }), 200, ok);
    expect(await gql(ARTISTS, as('user'))).toEqual(notAllowed);
  },
);
