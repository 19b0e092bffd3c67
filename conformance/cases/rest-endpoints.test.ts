// REST endpoints: SPEC.md §2.8 (the endpoint), §4.3 (create_rest_endpoint, drop_rest_endpoint) and
// §4.6 (runtime rules 1-7), with the messages recorded for what SPEC.md leaves open.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const rest = (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  target.request(method, `/api/rest/${path}`, {
    headers: { ...target.adminHeaders(), ...(options.headers ?? {}) },
    ...(options.body !== undefined ? { body: options.body } : {}),
  });

const QUERIES = [
  { name: 'artist_by_id', query: 'query artist_by_id($id: Int!) { music_artist_by_pk(id: $id) { id name } }' },
  { name: 'albums_after', query: 'query albums_after($year: Int!) { music_album(where: {year: {_gt: $year}}, order_by: {id: asc}) { id title } }' },
  { name: 'add_artist', query: 'mutation add_artist($id: Int!, $name: String!) { insert_music_artist_one(object: {id: $id, name: $name}) { id name } }' },
  { name: 'artists_in', query: 'query artists_in($ids: [Int!]!) { music_artist(where: {id: {_in: $ids}}, order_by: {id: asc}) { id } }' },
  { name: 'cheap_albums', query: 'query cheap_albums($max: numeric!) { music_album(where: {price: {_lte: $max}}, order_by: {id: asc}) { id } }' },
];
const endpoint = (name: string, url: string, query: string, methods?: string[]) => ({
  name,
  url,
  ...(methods ? { methods } : {}),
  definition: { query: { query_name: query, collection_name: 'rest' } },
});

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
});
beforeEach(async () => {
  await target.reset();
  await target.sql('delete from music.artist where id >= 90');
  expectResponse(await target.metadata(musicMetadata(['artist', 'album'], [])), 200);
  expectResponse(
    await run('bulk', [
      { type: 'create_query_collection', args: { name: 'rest', definition: { queries: QUERIES } } },
      { type: 'create_rest_endpoint', args: endpoint('artist', 'artists/:id', 'artist_by_id') },
      { type: 'create_rest_endpoint', args: { ...endpoint('albums', 'albums', 'albums_after', ['GET']), comment: 'albums after a year' } },
      { type: 'create_rest_endpoint', args: endpoint('add_artist', 'artists', 'add_artist') },
    ]),
    200,
    [ok, ok, ok, ok],
  );
});

test(
  covers(
    ['op.create_rest_endpoint', 'rule.rest.1', 'rule.rest.6:allowed', 'rule.rest.6:refused', 'err.method-not-allowed.rest'],
    'default methods: GET and POST for a query, POST for a mutation; another method is a 405 that lists the allowed ones',
  ),
  async () => {
    const aurora = { data: { music_artist_by_pk: { id: 1, name: 'Aurora Lane' } } };
    expectResponse(await rest('GET', 'artists/1'), 200, aurora);
    expectResponse(await rest('POST', 'artists/1'), 200, aurora);
    const put = await rest('PUT', 'artists/1', { body: {} });
    expectResponse(put, 405, { path: '$', error: 'method PUT is not allowed at this REST endpoint; allowed methods: GET, POST', code: 'method-not-allowed' });
    expect(put.headers.get('allow')).toBe('GET, POST');
    const get = await rest('GET', 'artists');
    expectResponse(get, 405, { path: '$', error: 'method GET is not allowed at this REST endpoint; allowed methods: POST', code: 'method-not-allowed' });
    expect(get.headers.get('allow')).toBe('POST');
    expectResponse(await rest('POST', 'albums', { body: { year: 2010 } }), 405, {
      path: '$',
      error: 'method POST is not allowed at this REST endpoint; allowed methods: GET',
      code: 'method-not-allowed',
    });
    // By URL: albums, artists, artists/:id.
    expect((await exported()).rest_endpoints).toEqual([
      { ...endpoint('albums', 'albums', 'albums_after', ['GET']), comment: 'albums after a year' },
      endpoint('add_artist', 'artists', 'add_artist'),
      endpoint('artist', 'artists/:id', 'artist_by_id'),
    ]);
  },
);

test(
  covers(
    ['rule.rest.2', 'rule.rest.3', 'dec.rest.variables', 'err.parse-failed.rest-variable'],
    'variables come from the route, the query string and the JSON body; route and query values are typed',
  ),
  async () => {
    expectResponse(await rest('GET', 'albums?year=2010'), 200, {
      data: {
        music_album: [
          { id: 10, title: 'First Light' },
          { id: 11, title: 'Long Night' },
        ],
      },
    });
    expectResponse(await rest('POST', 'artists', { body: { id: 90, name: 'Ninety' } }), 200, { data: { insert_music_artist_one: { id: 90, name: 'Ninety' } } });
    expect(await target.sql('select id, name from music.artist where id >= 90')).toEqual([{ id: 90, name: 'Ninety' }]);
    // The route wins over the body and the query string.
    expectResponse(await rest('POST', 'artists/2?id=3', { body: { id: 1 } }), 200, { data: { music_artist_by_pk: { id: 2, name: 'Brass Tacks' } } });
    expectResponse(await rest('GET', 'artists/abc'), 400, refused('parse-failed', 'variable "id" expects Int, but got "abc"', '$.variables.id'));
    expectResponse(await rest('GET', 'albums?year=20.5'), 400, refused('parse-failed', 'variable "year" expects Int, but got "20.5"', '$.variables.year'));
    expectResponse(
      await run('bulk', [
        { type: 'create_rest_endpoint', args: endpoint('in', 'some/artists', 'artists_in', ['GET']) },
        { type: 'create_rest_endpoint', args: endpoint('cheap', 'albums/cheap/:max', 'cheap_albums', ['GET']) },
      ]),
      200,
      [ok, ok],
    );
    expectResponse(await rest('GET', 'some/artists?ids=3&ids=1'), 200, { data: { music_artist: [{ id: 1 }, { id: 3 }] } });
    expectResponse(await rest('GET', 'albums/cheap/7.5'), 200, { data: { music_album: [{ id: 20 }] } });
  },
);

test(covers(['rule.rest.4', 'rule.rest.7'], 'body values reach the query unchanged, and the answer is what GraphQL answers'), async () => {
  const viaRest = await rest('POST', 'artists', { body: { id: '91', name: 'Quoted' } });
  const viaGraphql = await target.graphql(QUERIES[2]!.query, { id: '91', name: 'Quoted' }, { headers: target.adminHeaders() });
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({ status: viaGraphql.status, body: viaGraphql.body });
  expect((viaRest.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('validation-failed');
  expect(await target.sql('select id from music.artist where id >= 90')).toEqual([]);
});

test(covers(['rule.rest.7'], "the caller's role, session variables and permissions apply as over GraphQL"), async () => {
  await run('create_select_permission', {
    table: musicTable('artist'),
    role: 'user',
    permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Engine-User-Id' } } },
  });
  const headers = { 'x-engine-role': 'user', 'x-engine-user-id': '1' };
  for (const id of ['1', '2']) {
    const viaRest = await rest('GET', `artists/${id}`, { headers });
    const viaGraphql = await target.graphql(QUERIES[0]!.query, { id: Number(id) }, { headers: { ...target.adminHeaders(), ...headers } });
    expect({ status: viaRest.status, body: viaRest.body }).toEqual({ status: viaGraphql.status, body: viaGraphql.body });
  }
  expectResponse(await rest('GET', 'artists/2', { headers }), 200, { data: { music_artist_by_pk: null } });
  expectResponse(await rest('GET', 'albums?year=2000', { headers }), 200, {
    errors: [
      { message: expect.stringMatching(/^Cannot query field "music_album" on type "query_root"/), extensions: { path: '$', code: 'validation-failed' } },
    ],
  });
});

test(
  covers(['rule.rest.5', 'err.unexpected.rest-ambiguous'], 'a request that several endpoints match is a 500 naming them; one that none matches is a 404'),
  async () => {
    expectResponse(await run('create_rest_endpoint', endpoint('in', 'artists/ids', 'artists_in', ['GET'])), 200, ok);
    expectResponse(await rest('GET', 'artists/ids?ids=1'), 500, {
      path: '$',
      error: 'several REST endpoints match this request: "artist", "in"',
      code: 'unexpected',
    });
    expectResponse(await rest('POST', 'artists/ids'), 400, refused('parse-failed', 'variable "id" expects Int, but got "ids"', '$.variables.id'));
    expectResponse(await rest('GET', 'nothing/here'), 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
    expectResponse(await rest('GET', 'artists/1/2'), 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
  },
);

test(
  covers(
    ['rule.rest.2', 'err.invalid-params.missing', 'dec.rest.missing-variable'],
    'a required variable that the request does not give is a 400 naming it, before anything runs',
  ),
  async () => {
    expectResponse(await rest('GET', 'albums'), 400, refused('invalid-params', 'missing parameter : year', '$.variables.year'));
    expectResponse(await rest('POST', 'artists', { body: { id: 91 } }), 400, refused('invalid-params', 'missing parameter : name', '$.variables.name'));
    // An explicit null is not a value either.
    expectResponse(
      await rest('POST', 'artists', { body: { id: 91, name: null } }),
      400,
      refused('invalid-params', 'missing parameter : name', '$.variables.name'),
    );
    expect(await target.sql('select id from music.artist where id >= 90')).toEqual([]);
    // The same query with the value runs.
    expectResponse(await rest('GET', 'albums?year=2013'), 200, { data: { music_album: [{ id: 11, title: 'Long Night' }] } });
  },
);

test(
  covers(
    [
      'op.create_rest_endpoint',
      'err.already-exists.rest-endpoint',
      'err.already-exists.query-template',
      'err.validation-failed.rest-url',
      'err.validation-failed.rest-variable',
      'err.validation-failed.rest-get-mutation',
      'err.not-exists.saved-query',
      'err.not-exists.query-collection',
      'err.validation-failed.rest-query',
    ],
    'create_rest_endpoint refuses what could not be served, changing nothing',
  ),
  async () => {
    const before = await exported();
    const create = (args: Record<string, unknown>) => run('create_rest_endpoint', args);
    expectResponse(
      await create(endpoint('artist', 'other', 'artist_by_id')),
      400,
      refused('already-exists', 'REST endpoint with name "artist" already exists'),
    );
    expectResponse(
      await create(endpoint('again', 'artists/:id', 'artist_by_id', ['POST'])),
      400,
      refused('already-exists', 'the query template already exists "artists/:id"'),
    );
    expectResponse(
      await create(endpoint('slash', '/artists', 'albums_after')),
      400,
      refused('validation-failed', 'invalid REST endpoint url "/artists": it may not start or end with /', '$.args.url'),
    );
    expectResponse(
      await create(endpoint('empty', 'a//b', 'albums_after')),
      400,
      refused('validation-failed', 'invalid REST endpoint url "a//b": it has an empty segment', '$.args.url'),
    );
    expectResponse(
      await create(endpoint('bad', 'a/:1x', 'albums_after')),
      400,
      refused('validation-failed', 'invalid REST endpoint url "a/:1x": ":1x" is not :<GraphQL name>', '$.args.url'),
    );
    expectResponse(
      await create(endpoint('space', 'a b', 'albums_after')),
      400,
      refused('validation-failed', 'invalid REST endpoint url "a b": the segment "a b" has characters other than letters, digits, - _ . ~', '$.args.url'),
    );
    expectResponse(
      await create(endpoint('undeclared', 'albums/:since', 'albums_after')),
      400,
      refused('validation-failed', 'the url "albums/:since" binds "since", which query "albums_after" does not declare', '$.args.url'),
    );
    expectResponse(
      await create(endpoint('get_mutation', 'new', 'add_artist', ['GET', 'POST'])),
      400,
      refused('validation-failed', 'REST endpoint "get_mutation" serves a mutation and cannot take GET', '$.args.methods'),
    );
    expectResponse(await create(endpoint('ghost', 'ghost', 'nope')), 400, refused('not-exists', 'query with name "nope" does not exist in collection "rest"'));
    expectResponse(
      await create({ ...endpoint('ghost', 'ghost', 'nope'), definition: { query: { query_name: 'x', collection_name: 'none' } } }),
      400,
      refused('not-exists', 'query collection with name "none" does not exist'),
    );
    expectResponse(await create({ ...endpoint('m', 'm', 'x', ['get']) }), 400, expect.objectContaining({ code: 'parse-failed', path: '$.args.methods[0]' }));
    expectResponse(await create({ ...endpoint('m', 'm', 'x', []) }), 400, expect.objectContaining({ code: 'parse-failed', path: '$.args.methods' }));
    await run('add_query_to_collection', { collection_name: 'rest', query_name: 'invalid', query: '{ music_artist { nope } }' });
    expectResponse(
      await create(endpoint('invalid', 'invalid', 'invalid')),
      400,
      refused(
        'validation-failed',
        expect.stringMatching(
          /^query "invalid" of collection "rest" does not validate against the GraphQL schema: Cannot query field "nope" on type "music_artist"\./,
        ) as unknown as string,
        '$.args.definition',
      ),
    );
    const after = await exported();
    expect(after.rest_endpoints).toEqual(before.rest_endpoints);
  },
);

test(
  covers(['op.drop_rest_endpoint', 'err.not-exists.rest-endpoint'], 'drop_rest_endpoint takes the url (SPEC.md) or the name; the path is then gone'),
  async () => {
    expectResponse(await run('drop_rest_endpoint', { url: 'artists/:id' }), 200, ok);
    expectResponse(await rest('GET', 'artists/1'), 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
    expectResponse(await run('drop_rest_endpoint', { name: 'albums' }), 200, ok);
    expectResponse(await run('drop_rest_endpoint', { name: 'albums' }), 400, refused('not-exists', 'REST endpoint with name "albums" does not exist'));
    expectResponse(await run('drop_rest_endpoint', { url: 'artists/:id' }), 400, refused('not-exists', 'REST endpoint with url "artists/:id" does not exist'));
    expectResponse(
      await run('drop_rest_endpoint', { url: 'artists', name: 'add_artist' }),
      400,
      refused('parse-failed', 'exactly one of "url" and "name" is expected'),
    );
    expect((await exported()).rest_endpoints).toEqual([endpoint('add_artist', 'artists', 'add_artist')]);
  },
);

test(
  covers(
    ['op.replace_metadata.v1', 'rule.availability.inconsistent', 'err.dependency-error.drop'],
    'endpoints round-trip; one whose saved query is gone is inconsistent; a query in use is dropped only with its collection and cascade',
  ),
  async () => {
    const document = await exported();
    expectResponse(await run('replace_metadata', document), 200, ok);
    expect(await exported()).toEqual(document);
    expectResponse(
      await run('drop_query_from_collection', { collection_name: 'rest', query_name: 'artist_by_id' }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : rest endpoint "artist"'),
    );
    expectResponse(
      await run('drop_query_collection', { collection: 'rest' }),
      400,
      refused(
        'dependency-error',
        'cannot drop due to the following dependent objects : rest endpoint "albums", rest endpoint "add_artist", rest endpoint "artist"',
      ),
    );
    const broken = { ...document, query_collections: [{ name: 'rest', definition: { queries: QUERIES.slice(1) } }] };
    expectResponse(await run('replace_metadata', broken), 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [
        {
          type: 'rest_endpoint',
          name: 'rest_endpoint artist',
          reason: 'Inconsistent object: query with name "artist_by_id" does not exist in collection "rest"',
          definition: endpoint('artist', 'artists/:id', 'artist_by_id'),
        },
      ],
    });
    expectResponse(await run('drop_query_collection', { collection: 'rest', cascade: true }), 200, ok);
    const after = await exported();
    expect([after.query_collections, after.rest_endpoints]).toEqual([undefined, undefined]);
  },
);

test(covers(['dec.rest.openapi'], 'the OpenAPI document describes every endpoint, its methods and its variables'), async () => {
  const r = await target.request('GET', '/api/swagger/json', { headers: target.adminHeaders() });
  expect(r.status).toBe(200);
  const doc = r.body as {
    openapi: string;
    paths: Record<string, Record<string, { operationId: string; parameters: unknown[]; requestBody?: unknown; summary: string }>>;
  };
  expect(doc.openapi).toBe('3.0.3');
  expect(Object.keys(doc.paths).sort()).toEqual(['/api/rest/albums', '/api/rest/artists', '/api/rest/artists/{id}']);
  expect(Object.keys(doc.paths['/api/rest/artists/{id}']!).sort()).toEqual(['get', 'post']);
  expect(doc.paths['/api/rest/artists/{id}']!.get!.parameters).toEqual([
    { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int32' } },
  ]);
  expect(doc.paths['/api/rest/albums']!.get).toEqual(
    expect.objectContaining({
      operationId: 'albums_get',
      summary: 'albums after a year',
      parameters: [{ name: 'year', in: 'query', required: false, schema: { type: 'integer', format: 'int32' } }],
    }),
  );
  // The fields OpenAPI 3.0 requires, for every operation; path parameters are the template's variables.
  for (const [path, operations] of Object.entries(doc.paths)) {
    const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const op of Object.values(operations) as {
      responses?: Record<string, { description?: string }>;
      parameters: { name: string; in: string; required: boolean; schema: unknown }[];
    }[]) {
      expect(Object.values(op.responses ?? {}).every((x) => typeof x.description === 'string')).toBe(true);
      expect(Object.keys(op.responses ?? {}).length).toBeGreaterThan(0);
      expect(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.required])).toEqual(templated.map((t) => [t, true]));
      expect(op.parameters.every((p) => ['path', 'query'].includes(p.in) && typeof p.name === 'string' && p.schema !== undefined)).toBe(true);
    }
  }
  expect((r.body as { info: unknown }).info).toEqual({ title: 'REST endpoints', version: expect.any(String) });
  expect(doc.paths['/api/rest/artists']!.post!.requestBody).toEqual({
    required: false,
    content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer', format: 'int32' }, name: { type: 'string' } } } } },
  });
});

test(
  covers(
    ['rule.availability.inconsistent', 'err.validation-failed.rest-query'],
    'an endpoint whose query no longer validates is inconsistent: a change that would cause it is refused, a database change is reported',
  ),
  async () => {
    const artistEndpoint = endpoint('artist', 'artists/:id', 'artist_by_id');
    const reason = expect.stringMatching(
      /^Inconsistent object: query "artist_by_id" of collection "rest" does not validate against the GraphQL schema: Cannot query field "music_artist_by_pk" on type "query_root"/,
    );
    const r = await run('untrack_table', { table: musicTable('artist') });
    const mutationReason = expect.stringMatching(
      /^Inconsistent object: query "add_artist" of collection "rest" does not validate against the GraphQL schema: Cannot query field "insert_music_artist_one" on type "mutation_root"/,
    );
    expectResponse(r, 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [
        { type: 'rest_endpoint', name: 'rest_endpoint artist', reason, definition: artistEndpoint },
        { type: 'rest_endpoint', name: 'rest_endpoint add_artist', reason: mutationReason, definition: endpoint('add_artist', 'artists', 'add_artist') },
      ],
    });
    expect((await exported()).tables).toEqual([{ table: musicTable('album') }, { table: musicTable('artist') }]);
    const renamed = expect.stringMatching(
      /^Inconsistent object: query "artist_by_id" of collection "rest" does not validate against the GraphQL schema: Cannot query field "name" on type "music_artist"/,
    );
    try {
      expectResponse(
        await target.metadata({ type: 'run_sql', args: { sql: 'alter table music.artist rename column name to full_name' } }, { endpoint: '/v2/query' }),
        200,
      );
      expectResponse(await run('get_inconsistent_metadata', {}), 200, [
        { type: 'rest_endpoint', name: 'rest_endpoint artist', reason: renamed, definition: artistEndpoint },
        {
          type: 'rest_endpoint',
          name: 'rest_endpoint add_artist',
          reason: expect.stringMatching(
            /^Inconsistent object: query "add_artist" of collection "rest" does not validate against the GraphQL schema: Field "name" is not defined by type "music_artist_insert_input"/,
          ),
          definition: endpoint('add_artist', 'artists', 'add_artist'),
        },
      ]);
      expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
      expect(((await exported()).rest_endpoints as { name: string }[]).map((e) => e.name)).toEqual(['albums']);
    } finally {
      await target.metadata({ type: 'run_sql', args: { sql: 'alter table music.artist rename column full_name to name' } }, { endpoint: '/v2/query' });
    }
  },
);

test(covers(['rule.rest.2', 'err.invalid-json'], 'bad input to a REST endpoint is a 4xx that changes nothing'), async () => {
  expectResponse(
    await target.request('POST', '/api/rest/artists', {
      headers: { ...target.adminHeaders(), 'content-type': 'application/json' },
      body: '{"id": 92,',
      raw: true,
    }),
    400,
    { path: '$', error: 'invalid json', code: 'invalid-json' },
  );
  expectResponse(await rest('GET', 'artists/%E0%A4%A'), 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
  expectResponse(
    await rest('GET', `artists/${'9'.repeat(40)}`),
    400,
    refused('parse-failed', `variable "id" expects Int, but got "${'9'.repeat(40)}"`, '$.variables.id'),
  );
  // A value that does not parse is refused even where the route would override it.
  expectResponse(await rest('GET', 'artists/1?id=2&id=x'), 400, refused('parse-failed', 'variable "id" expects Int, but got "x"', '$.variables.id'));
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const r = await target.request('POST', '/api/rest/artists', {
    headers: { ...target.adminHeaders(), 'content-type': 'application/json' },
    body: `{"id": 93, "name": ${deep}}`,
    raw: true,
  });
  expect(r.status).toBe(400);
  // A body that is not an object gives no variables.
  expectResponse(await rest('POST', 'artists', { body: [1, 2] }), 400, refused('invalid-params', 'missing parameter : id', '$.variables.id'));
  expect(await target.sql('select id from music.artist where id >= 90')).toEqual([]);
});

test(
  covers(
    [
      'rule.rest.1',
      'rule.rest.3',
      'rule.rest.4',
      'rule.rest.5',
      'rule.rest.6:allowed',
      'rule.rest.6:refused',
      'err.method-not-allowed.rest',
      'err.unexpected.rest-ambiguous',
    ],
    'endpoints that replace_metadata brings follow the same rules: default methods, typed route and query values, body values as sent, ambiguity and 405',
  ),
  async () => {
    const current = await exported();
    expectResponse(
      await run('replace_metadata', {
        ...current,
        rest_endpoints: [
          endpoint('cheap', 'albums/cheap/:max', 'cheap_albums'),
          endpoint('cheap_all', 'albums/cheap/all', 'albums_after', ['GET']),
          endpoint('after', 'albums/after', 'albums_after'),
          endpoint('new_artist', 'artist/new', 'add_artist'),
        ],
      }),
      200,
    );
    try {
      // A query takes GET and POST; the route value is read as the variable's type (numeric).
      expectResponse(await rest('GET', 'albums/cheap/7.5'), 200, { data: { music_album: [{ id: 20 }] } });
      expectResponse(await rest('POST', 'albums/cheap/7.5'), 200, { data: { music_album: [{ id: 20 }] } });
      const put = await rest('PUT', 'albums/cheap/7.5', { body: {} });
      expectResponse(put, 405, { path: '$', error: 'method PUT is not allowed at this REST endpoint; allowed methods: GET, POST', code: 'method-not-allowed' });
      expect(put.headers.get('allow')).toBe('GET, POST');
      // Two endpoints for one request: a 500 naming both.
      expectResponse(await rest('GET', 'albums/cheap/all'), 500, {
        path: '$',
        error: 'several REST endpoints match this request: "cheap", "cheap_all"',
        code: 'unexpected',
      });
      // A query-string value is typed; a body value goes to the query as sent.
      expectResponse(await rest('GET', 'albums/after?year=2013'), 200, { data: { music_album: [{ id: 11, title: 'Long Night' }] } });
      const viaRest = await rest('POST', 'albums/after', { body: { year: '2013' } });
      const viaGraphql = await target.graphql(QUERIES[1]!.query, { year: '2013' }, { headers: target.adminHeaders() });
      expect({ status: viaRest.status, body: viaRest.body }).toEqual({ status: viaGraphql.status, body: viaGraphql.body });
      expect((viaRest.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('validation-failed');
      // A mutation takes POST only.
      const get = await rest('GET', 'artist/new');
      expectResponse(get, 405, { path: '$', error: 'method GET is not allowed at this REST endpoint; allowed methods: POST', code: 'method-not-allowed' });
      expect(get.headers.get('allow')).toBe('POST');
      expectResponse(await rest('POST', 'artist/new', { body: { id: 92, name: 'Ninety-two' } }), 200, {
        data: { insert_music_artist_one: { id: 92, name: 'Ninety-two' } },
      });
      expect(await target.sql('select id, name from music.artist where id >= 90')).toEqual([{ id: 92, name: 'Ninety-two' }]);
    } finally {
      await target.sql('delete from music.artist where id >= 90');
    }
  },
);

test(
  covers(
    ['rule.rest.2', 'rule.rest.3', 'err.parse-failed.rest-variable', 'dec.rest.openapi'],
    'route and query values by type: Int at its bounds, Float, Boolean, a list from a route segment, an optional variable left out; an endpoint of another collection; the OpenAPI schemas of each',
  ),
  async () => {
    await target.sql(`
      create table if not exists music.reading (id integer primary key, value real not null, ok boolean not null);
      insert into music.reading values (1, 0.5, true), (2, 1.5, false), (3, 2.5, true) on conflict do nothing`);
    const READINGS =
      'query readings($min: Float!, $ok: Boolean!, $max: Float) { music_reading(where: {value: {_gte: $min, _lte: $max}, ok: {_eq: $ok}}, order_by: {id: asc}) { id } }';
    expectResponse(
      await run('bulk', [
        { type: 'track_table', args: { table: musicTable('reading') } },
        { type: 'create_query_collection', args: { name: 'more', definition: { queries: [{ name: 'readings', query: READINGS }] } } },
        {
          type: 'create_rest_endpoint',
          args: { name: 'readings', url: 'readings/:ok', methods: ['GET', 'POST'], definition: { query: { collection_name: 'more', query_name: 'readings' } } },
        },
        { type: 'create_rest_endpoint', args: endpoint('in', 'artists/in/:ids', 'artists_in', ['GET']) },
        { type: 'create_rest_endpoint', args: endpoint('cheap', 'albums/cheap', 'cheap_albums', ['GET']) },
      ]),
      200,
      [ok, ok, ok, ok, ok],
    );
    const ids = (...list: number[]) => ({ data: { music_reading: list.map((id) => ({ id })) } });
    expectResponse(await rest('GET', 'readings/true?min=1'), 200, ids(3));
    expectResponse(await rest('GET', 'readings/false?min=0.5'), 200, ids(2));
    expectResponse(await rest('GET', 'readings/true?min=0&max=1'), 200, ids(1));
    const notA = (name: string, type: string, value: string) =>
      refused('parse-failed', `variable "${name}" expects ${type}, but got ${JSON.stringify(value)}`, `$.variables.${name}`);
    expectResponse(await rest('GET', 'readings/yes?min=1'), 400, notA('ok', 'Boolean', 'yes'));
    expectResponse(await rest('GET', 'readings/true?min=abc'), 400, notA('min', 'Float', 'abc'));
    expectResponse(await rest('GET', 'readings/true?min='), 400, notA('min', 'Float', ''));
    expectResponse(await rest('GET', 'readings/true?min=%20'), 400, notA('min', 'Float', ' '));
    expectResponse(await rest('GET', 'readings/true?min=1e400'), 400, notA('min', 'Float', '1e400'));
    // Int takes exactly the 32-bit range.
    expectResponse(await rest('GET', 'artists/2147483647'), 200, { data: { music_artist_by_pk: null } });
    expectResponse(await rest('GET', 'artists/-2147483648'), 200, { data: { music_artist_by_pk: null } });
    expectResponse(await rest('GET', 'artists/2147483648'), 400, notA('id', 'Int', '2147483648'));
    expectResponse(await rest('GET', 'artists/-2147483649'), 400, notA('id', 'Int', '-2147483649'));
    // A list variable bound by a route segment is a list of one.
    expectResponse(await rest('GET', 'artists/in/2'), 200, { data: { music_artist: [{ id: 2 }] } });
    // An empty route segment binds nothing.
    expectResponse(await rest('GET', 'artists/'), 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
    const doc = (await target.request('GET', '/api/swagger/json', { headers: target.adminHeaders() })).body as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const answer = {
      '200': {
        description: 'The answer of the saved query, as over GraphQL: {"data": …} or {"errors": […]}',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    };
    const readingSchemas = {
      min: { type: 'number' },
      ok: { type: 'boolean' },
      max: { type: 'number' },
    };
    const readingParameters = Object.entries(readingSchemas).map(([name, schema]) => ({
      name,
      in: name === 'ok' ? 'path' : 'query',
      required: name === 'ok',
      schema,
    }));
    const readingOperation = (method: string) => ({
      operationId: `readings_${method}`,
      summary: 'readings',
      description: `Runs the saved query "readings" of collection "more":\n\n${READINGS}`,
      parameters: readingParameters,
      responses: answer,
    });
    expect(doc.paths['/api/rest/readings/{ok}']).toEqual({
      get: readingOperation('get'),
      post: {
        ...readingOperation('post'),
        requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: readingSchemas } } } },
      },
    });
    expect(doc.paths['/api/rest/artists/in/{ids}']!.get!.parameters).toEqual([
      { name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'integer', format: 'int32' } } },
    ]);
    expect(doc.paths['/api/rest/albums/cheap']!.get!.parameters).toEqual([
      { name: 'max', in: 'query', required: false, schema: { description: 'GraphQL type numeric' } },
    ]);
  },
);

test(
  covers(
    ['op.create_rest_endpoint', 'op.drop_rest_endpoint', 'err.validation-failed.rest-url', 'err.already-exists.query-template'],
    'templates: empty, ending in /, a variable twice are refused; one url with disjoint methods serves both; drop by name where name and url differ; a null comment',
  ),
  async () => {
    const create = (args: Record<string, unknown>) => run('create_rest_endpoint', args);
    const badUrl = (url: string, problem: string) => refused('validation-failed', `invalid REST endpoint url ${JSON.stringify(url)}: ${problem}`, '$.args.url');
    expectResponse(await create(endpoint('empty', '', 'albums_after')), 400, badUrl('', 'it is empty'));
    expectResponse(await create(endpoint('trailing', 'artists/', 'albums_after')), 400, badUrl('artists/', 'it may not start or end with /'));
    expectResponse(await create(endpoint('twice', 'a/:year/:year', 'albums_after')), 400, badUrl('a/:year/:year', 'the variable "year" appears twice'));
    // The same template as "albums" (GET) with another method is another endpoint; with GET again it is refused.
    expectResponse(await create({ ...endpoint('albums_post', 'albums', 'albums_after', ['POST']), comment: null }), 200, ok);
    expectResponse(
      await create(endpoint('albums_again', 'albums', 'albums_after', ['PUT', 'GET'])),
      400,
      refused('already-exists', 'the query template already exists "albums"'),
    );
    expectResponse(await rest('POST', 'albums', { body: { year: 2013 } }), 200, { data: { music_album: [{ id: 11, title: 'Long Night' }] } });
    expectResponse(await run('drop_rest_endpoint', { name: 'artist' }), 200, ok);
    expect((await exported()).rest_endpoints).toEqual([
      { ...endpoint('albums', 'albums', 'albums_after', ['GET']), comment: 'albums after a year' },
      endpoint('albums_post', 'albums', 'albums_after', ['POST']),
      endpoint('add_artist', 'artists', 'add_artist'),
    ]);
  },
);

test(
  covers(
    ['op.replace_metadata.v1', 'rule.availability.inconsistent', 'err.validation-failed.rest-get-mutation'],
    'replace_metadata bringing a mutation endpoint that takes GET: refused as inconsistent; let in, it is not served and its mutation never runs',
  ),
  async () => {
    await target.sql("insert into music.artist (id, name) values (95, 'Doomed') on conflict do nothing");
    const current = await exported();
    const getMutation = { name: 'remove', url: 'remove', methods: ['GET'], definition: { query: { collection_name: 'danger', query_name: 'remove' } } };
    const document = {
      ...current,
      query_collections: [
        ...(current.query_collections as unknown[]),
        {
          name: 'danger',
          definition: { queries: [{ name: 'remove', query: 'mutation remove { delete_music_artist(where: {id: {_eq: 95}}) { affected_rows } }' }] },
        },
      ],
      rest_endpoints: [...(current.rest_endpoints as unknown[]), getMutation],
    };
    const inconsistency = {
      type: 'rest_endpoint',
      name: 'rest_endpoint remove',
      reason: 'Inconsistent object: REST endpoint "remove" serves a mutation and cannot take GET',
      definition: getMutation,
    };
    expectResponse(await run('replace_metadata', document), 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [inconsistency],
    });
    expect(await exported()).toEqual(current);
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: document } }), 200, {
      is_consistent: false,
      inconsistent_objects: [inconsistency],
    });
    expectResponse(await rest('GET', 'remove'), 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
    expect(await target.sql('select id from music.artist where id = 95')).toEqual([{ id: 95 }]);
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect((await exported()).rest_endpoints).toEqual(current.rest_endpoints);
    await target.sql('delete from music.artist where id = 95');
  },
);
