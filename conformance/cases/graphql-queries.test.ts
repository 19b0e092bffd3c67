// GraphQL queries over tracked tables: SPEC.md §1.2, §3 (availability), §4.3 (generated names),
// and the decisions on root fields, where, order_by and errors.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const music = musicTable;

const data = async (query: string, variables?: Record<string, unknown>, operationName?: string) => {
  const r = await target.graphql(query, variables, operationName ? { operationName } : {});
  expect({ status: r.status, errors: (r.body as { errors?: unknown }).errors }).toEqual({ status: 200, errors: undefined });
  return (r.body as { data: Record<string, unknown> }).data;
};
const ids = async (root: string, where: string) =>
  ((await data(`{ rows: ${root}(where: ${where}, order_by: {id: asc}) { id } }`)).rows as { id: number }[]).map((r) => r.id);

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  const r = await target.metadata(musicMetadata(['genre', 'artist', 'album', 'track'], ['album.artist', 'artist.albums', 'album.tracks', 'track.album']));
  expect(r.status).toBe(200);
});

test(
  covers(
    ['rule.availability.tracked', 'dec.graphql.root-fields', 'rule.service.admin-unrestricted'],
    'a tracked table is queryable, named with its schema outside public',
  ),
  async () => {
    expect(await data('{ music_artist(order_by: {id: asc}) { id name country formed tags } }')).toEqual({
      music_artist: [
        { id: 1, name: 'Aurora Lane', country: 'NO', formed: 2010, tags: { label: 'North', active: true } },
        { id: 2, name: 'Brass Tacks', country: 'US', formed: 1998, tags: { label: 'South' } },
        { id: 3, name: 'Cellar Door', country: null, formed: null, tags: null },
      ],
    });
  },
);

test(covers(['dec.graphql.root-fields'], '<t>_by_pk finds one row, or null'), async () => {
  expect(await data('{ a: music_album_by_pk(id: 11) { title year price } b: music_album_by_pk(id: 99) { title } }')).toEqual({
    a: { title: 'Long Night', year: 2015, price: 12.5 },
    b: null,
  });
});

test(covers(['dec.graphql.where'], 'comparison operators'), async () => {
  expect(await ids('music_album', '{year: {_gt: 2004}}')).toEqual([10, 11]);
  expect(await ids('music_album', '{year: {_lte: 2004}}')).toEqual([20, 21]);
  expect(await ids('music_album', '{year: {_gte: 2004, _lt: 2015}}')).toEqual([10, 21]);
  expect(await ids('music_album', '{year: {_neq: 1999}}')).toEqual([10, 11, 21]);
  expect(await ids('music_album', '{id: {_in: [10, 20, 99]}}')).toEqual([10, 20]);
  expect(await ids('music_album', '{id: {_nin: [10, 20]}}')).toEqual([11, 21]);
  // NULL is neither equal nor unequal to anything: _neq and _nin leave out the row whose price is NULL.
  expect(await ids('music_album', '{price: {_nin: [9.99]}}')).toEqual([11, 20]);
  expect(await ids('music_album', '{price: {_neq: 9.99}}')).toEqual([11, 20]);
  expect(await ids('music_album', '{_not: {price: {_in: [9.99]}}}')).toEqual([11, 20]);
  expect(await ids('music_album', '{price: {_is_null: true}}')).toEqual([21]);
  expect(await ids('music_album', '{price: {_is_null: false}}')).toEqual([10, 11, 20]);
});

test(covers(['dec.graphql.where'], 'text operators'), async () => {
  expect(await ids('music_album', '{title: {_like: "%Light%"}}')).toEqual([10]);
  expect(await ids('music_album', '{title: {_nlike: "%o%"}}')).toEqual([10]);
  expect(await ids('music_album', '{title: {_ilike: "%NIGHT%"}}')).toEqual([11]);
  expect(await ids('music_album', '{title: {_nilike: "%n%"}}')).toEqual([10]);
  expect(await ids('music_album', '{title: {_similar: "(First|Horns)%"}}')).toEqual([10, 20]);
  expect(await ids('music_album', '{title: {_nsimilar: "(First|Horns)%"}}')).toEqual([11, 21]);
  expect(await ids('music_album', '{title: {_regex: "^S"}}')).toEqual([21]);
  expect(await ids('music_album', '{title: {_nregex: "n"}}')).toEqual([10]);
  expect(await ids('music_album', '{title: {_iregex: "^s"}}')).toEqual([21]);
  expect(await ids('music_album', '{title: {_niregex: "[sn]"}}')).toEqual([]);
});

test(covers(['dec.graphql.where'], 'jsonb operators'), async () => {
  expect(await ids('music_artist', '{tags: {_contains: {label: "North"}}}')).toEqual([1]);
  expect(await ids('music_artist', '{tags: {_contained_in: {label: "South", extra: 1}}}')).toEqual([2]);
  expect(await ids('music_artist', '{tags: {_has_key: "active"}}')).toEqual([1]);
  expect(await ids('music_artist', '{tags: {_has_keys_any: ["label", "x"]}}')).toEqual([1, 2]);
  expect(await ids('music_artist', '{tags: {_has_keys_all: ["label", "active"]}}')).toEqual([1]);
});

test(covers(['dec.graphql.where'], '_and, _or, _not and several keys'), async () => {
  expect(await ids('music_album', '{_or: [{year: {_lt: 2000}}, {price: {_gt: 10}}]}')).toEqual([11, 20]);
  expect(await ids('music_album', '{_and: [{artist_id: {_eq: 2}}, {year: {_gt: 2000}}]}')).toEqual([21]);
  expect(await ids('music_album', '{_not: {genre: {_eq: jazz}}}')).toEqual([10, 11]);
  expect(await ids('music_album', '{artist_id: {_eq: 1}, year: {_gt: 2013}}')).toEqual([11]);
  expect(await ids('music_album', '{_and: []}')).toEqual([10, 11, 20, 21]);
  expect(await ids('music_album', '{_or: []}')).toEqual([]);
});

test(covers(['dec.graphql.where'], 'filters through relationships'), async () => {
  expect(await ids('music_album', '{artist: {country: {_eq: "US"}}}')).toEqual([20, 21]);
  expect(await ids('music_artist', '{albums: {genre: {_eq: rock}}}')).toEqual([1]);
  expect(await ids('music_artist', '{_not: {albums: {}}}')).toEqual([3]);
  expect(await ids('music_track', '{album: {artist: {name: {_eq: "Brass Tacks"}}}}')).toEqual([200, 201, 202]);
});

test(covers(['dec.graphql.null-comparison'], 'a comparison with null matches no row'), async () => {
  expect(await ids('music_artist', '{country: {_eq: null}}')).toEqual([]);
  expect(await ids('music_artist', '{country: {_is_null: true}}')).toEqual([3]);
});

test(
  covers(['dec.graphql.null-comparison'], 'a null from a variable compares like a literal null: no row, in lists, aggregates and through relationships'),
  async () => {
    const query = `query nulls($c: String, $y: Int) {
    eq: music_artist(where: {country: {_eq: $c}}) { id }
    neq: music_artist_aggregate(where: {country: {_neq: $c}}) { aggregate { count } }
    through: music_album(where: {artist: {country: {_eq: $c}}}) { id }
    either: music_album(where: {_or: [{year: {_gt: $y}}, {id: {_eq: 10}}]}, order_by: {id: asc}) { id }
    unset: music_artist(where: {country: {_is_null: true}}) { id }
  }`;
    expect(await data(query, { c: null, y: null }, 'nulls')).toEqual({
      eq: [],
      neq: { aggregate: { count: 0 } },
      through: [],
      either: [{ id: 10 }],
      unset: [{ id: 3 }],
    });
  },
);

test(covers(['dec.graphql.order-by'], 'order_by directions and nulls'), async () => {
  const order = async (by: string) => ((await data(`{ r: music_artist(order_by: ${by}) { id } }`)).r as { id: number }[]).map((x) => x.id);
  expect(await order('{formed: desc}')).toEqual([3, 1, 2]);
  expect(await order('{formed: desc_nulls_last}')).toEqual([1, 2, 3]);
  expect(await order('{formed: asc}')).toEqual([2, 1, 3]);
  expect(await order('{formed: asc_nulls_first}')).toEqual([3, 2, 1]);
  expect(await order('[{country: desc_nulls_last}, {id: desc}]')).toEqual([2, 1, 3]);
});

test(covers(['dec.graphql.order-by'], 'order_by through an object relationship and an array aggregate'), async () => {
  expect(await ids('music_album', '{}')).toEqual([10, 11, 20, 21]);
  const albums = await data('{ r: music_album(order_by: [{artist: {name: desc}}, {year: asc}]) { id } }');
  expect(albums).toEqual({ r: [{ id: 20 }, { id: 21 }, { id: 10 }, { id: 11 }] });
  const artists = await data(
    '{ a: music_artist(order_by: [{albums_aggregate: {count: desc}}, {id: desc}]) { id } b: music_artist(order_by: {albums_aggregate: {max: {year: asc}}}) { id } }',
  );
  expect(artists).toEqual({ a: [{ id: 2 }, { id: 1 }, { id: 3 }], b: [{ id: 2 }, { id: 1 }, { id: 3 }] });
});

test(covers(['dec.graphql.root-fields', 'dec.graphql.order-by'], 'limit, offset and distinct_on'), async () => {
  expect(await data('{ music_track(order_by: {id: asc}, limit: 2, offset: 1) { id } }')).toEqual({ music_track: [{ id: 101 }, { id: 102 }] });
  expect(await data('{ music_album(distinct_on: artist_id, order_by: [{artist_id: asc}, {year: desc}]) { artist_id title } }')).toEqual({
    music_album: [
      { artist_id: 1, title: 'Long Night' },
      { artist_id: 2, title: 'Second Wind' },
    ],
  });
});

test(covers(['dec.graphql.root-fields'], 'nested object and array relationships with their own arguments'), async () => {
  const q = `{ music_artist_by_pk(id: 1) { name albums(order_by: {year: asc}) { title tracks(order_by: {milliseconds: desc}, limit: 1) { name } artist { name } } } }`;
  expect(await data(q)).toEqual({
    music_artist_by_pk: {
      name: 'Aurora Lane',
      albums: [
        { title: 'First Light', tracks: [{ name: 'Dawn' }], artist: { name: 'Aurora Lane' } },
        { title: 'Long Night', tracks: [{ name: 'Dusk' }], artist: { name: 'Aurora Lane' } },
      ],
    },
  });
});

test(covers(['dec.graphql.root-fields'], 'aggregates: count, sum, avg, max, min and nodes'), async () => {
  const q = `{ music_track_aggregate(where: {album_id: {_eq: 10}}) {
      aggregate { count sum { milliseconds } avg { milliseconds } max { milliseconds name } min { milliseconds } }
      nodes { name }
    }
    music_album_aggregate { aggregate { priced: count(columns: price) artists: count(columns: artist_id, distinct: true) } } }`;
  expect(await data(q)).toEqual({
    music_track_aggregate: {
      aggregate: {
        count: 2,
        sum: { milliseconds: 380000 },
        avg: { milliseconds: 190000 },
        max: { milliseconds: 200000, name: 'Noon' },
        min: { milliseconds: 180000 },
      },
      nodes: [{ name: 'Dawn' }, { name: 'Noon' }],
    },
    music_album_aggregate: { aggregate: { priced: 3, artists: 2 } },
  });
});

test(covers(['dec.graphql.root-fields'], 'aggregates of an array relationship'), async () => {
  expect(await data('{ music_artist(order_by: {id: asc}) { id albums_aggregate(where: {year: {_gt: 2000}}) { aggregate { count } } } }')).toEqual({
    music_artist: [
      { id: 1, albums_aggregate: { aggregate: { count: 2 } } },
      { id: 2, albums_aggregate: { aggregate: { count: 1 } } },
      { id: 3, albums_aggregate: { aggregate: { count: 0 } } },
    ],
  });
});

test(covers(['dec.graphql.root-fields'], 'an aggregate asked for its __typename alone, at the root and through a relationship'), async () => {
  expect(
    await data(`{ music_artist(order_by: {id: asc}, limit: 2) { id albums_aggregate { __typename } }
      music_artist_aggregate { __typename aggregate { __typename } }
      music_album(where: {id: {_eq: 10}}) { tracks_aggregate { __typename nodes { __typename } } } }`),
  ).toEqual({
    music_artist: [
      { id: 1, albums_aggregate: { __typename: 'music_album_aggregate' } },
      { id: 2, albums_aggregate: { __typename: 'music_album_aggregate' } },
    ],
    music_artist_aggregate: { __typename: 'music_artist_aggregate', aggregate: { __typename: 'music_artist_aggregate_fields' } },
    music_album: [{ tracks_aggregate: { __typename: 'music_track_aggregate', nodes: [{ __typename: 'music_track' }, { __typename: 'music_track' }] } }],
  });
});

test(covers(['dec.graphql.enum-tables', 'op.set_table_is_enum'], 'an enum table is a GraphQL enum, and columns referencing it take its type'), async () => {
  expect(await data('{ __type(name: "music_genre_enum") { kind enumValues { name description } } }')).toEqual({
    __type: {
      kind: 'ENUM',
      enumValues: [
        { name: 'jazz', description: null },
        { name: 'pop', description: 'Catchy' },
        { name: 'rock', description: 'Loud' },
      ],
    },
  });
  expect(await data('{ music_album(where: {genre: {_in: [pop, rock]}}, order_by: {id: asc}) { genre } }')).toEqual({
    music_album: [{ genre: 'pop' }, { genre: 'rock' }],
  });
  const r = await target.graphql('{ music_album(where: {genre: {_eq: "pop"}}) { id } }');
  expect((r.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('validation-failed');
});

test(covers(['dec.graphql.root-fields'], 'variables, fragments, aliases, directives and operationName'), async () => {
  const document = `
    query Old($year: Int, $withYear: Boolean!) { old: music_album(where: {year: {_lt: $year}}, order_by: {id: asc}) { ...albumFields year @include(if: $withYear) } }
    query One { x: music_artist_by_pk(id: 3) { name __typename country @skip(if: true) } }
    fragment albumFields on music_album { id title }`;
  expect(await data(document, { year: 2005, withYear: false }, 'Old')).toEqual({
    old: [
      { id: 20, title: 'Horns Up' },
      { id: 21, title: 'Second Wind' },
    ],
  });
  expect(await data(document, { year: 2000, withYear: true }, 'Old')).toEqual({ old: [{ id: 20, title: 'Horns Up', year: 1999 }] });
  expect(await data(document, undefined, 'One')).toEqual({ x: { name: 'Cellar Door', __typename: 'music_artist' } });
});

test(covers(['dec.graphql.errors'], 'documents the schema refuses answer validation-failed errors'), async () => {
  for (const query of ['{ music_nothing { id } }', '{ music_artist { nothing } }', 'query A { __typename } query B { __typename }', '{ music_artist(']) {
    const r = await target.graphql(query);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ errors: [expect.objectContaining({ message: expect.any(String), extensions: { path: '$', code: 'validation-failed' } })] });
  }
});

test(covers(['dec.graphql.errors'], 'variables of the wrong type are refused'), async () => {
  const r = await target.graphql('query ($id: Int!) { music_artist_by_pk(id: $id) { id } }', { id: 'one' });
  expect(r.body).toEqual({ errors: [expect.objectContaining({ extensions: { path: '$.variables', code: 'validation-failed' } })] });
});

test(covers(['dec.graphql.root-fields'], 'GET /v1/graphql takes the query in the URL'), async () => {
  const r = await target.request('GET', `/v1/graphql?query=${encodeURIComponent('{ music_artist_by_pk(id: 2) { name } }')}`, {
    headers: target.adminHeaders(),
  });
  expectResponse(r, 200, { data: { music_artist_by_pk: { name: 'Brass Tacks' } } });
});

test(covers(['rule.track_table.generated-names', 'op.set_table_customization'], 'root fields, types and fields follow the customization'), async () => {
  const configuration = { custom_name: 'performer', custom_root_fields: { select_by_pk: 'performer_one' }, custom_column_names: { name: 'title' } };
  await target.metadata({ type: 'set_table_customization', args: { table: music('artist'), configuration } });
  try {
    expect(
      await data(
        '{ performer(order_by: {id: asc}, limit: 1) { title __typename } performer_one(id: 2) { title } performer_aggregate { aggregate { count } } }',
      ),
    ).toEqual({
      performer: [{ title: 'Aurora Lane', __typename: 'performer' }],
      performer_one: { title: 'Brass Tacks' },
      performer_aggregate: { aggregate: { count: 3 } },
    });
    const gone = await target.graphql('{ music_artist { id } }');
    expect((gone.body as { errors?: unknown[] }).errors).toHaveLength(1);
  } finally {
    await target.metadata({ type: 'set_table_customization', args: { table: music('artist') } });
  }
});

test(
  covers(
    ['rule.availability.untracked', 'rule.availability.tracked', 'op.untrack_table'],
    'an untracked table leaves the schema, and comes back when tracked again',
  ),
  async () => {
    await target.metadata({ type: 'untrack_table', args: { table: music('track'), cascade: true } });
    try {
      const r = await target.graphql('{ music_track { id } }');
      expect(r.body).toEqual({ errors: [expect.objectContaining({ extensions: { path: '$', code: 'validation-failed' } })] });
    } finally {
      await target.metadata({ type: 'track_table', args: { table: music('track') } });
    }
    expect(await data('{ music_track_aggregate { aggregate { count } } }')).toEqual({ music_track_aggregate: { aggregate: { count: 6 } } });
  },
);

test(covers(['dec.graphql.roles-without-permissions'], 'a role without permissions sees no table'), async () => {
  const r = await target.graphql('{ __schema { queryType { fields { name } } } }', undefined, {
    headers: { ...target.adminHeaders(), 'x-engine-role': 'user' },
  });
  expectResponse(r, 200, { data: { __schema: { queryType: { fields: [{ name: 'no_queries_available' }] } } } });
});

test(covers(['dec.graphql.root-fields'], 'wide selections: many root fields and many fields of a row, answered in the order asked'), async () => {
  // Aliases named so that their order is neither alphabetical nor by length.
  const names = Array.from({ length: 120 }, (_, i) => `f${(i * 37) % 120}_${'x'.repeat(i % 3)}`);
  const roots = names.map((n, i) => `${n}: music_artist_by_pk(id: ${(i % 3) + 1}) { id }`).join(' ');
  const r = await target.graphql(`{ ${roots} }`);
  expect(r.status).toBe(200);
  expect(Object.keys((r.body as { data: Record<string, unknown> }).data)).toEqual(names);
  expect(r.text.startsWith(`{"data":{"${names[0]}"`.replace(/"/g, '"'))).toBe(true);
  expect((r.body as { data: Record<string, unknown> }).data[names[4]!]).toEqual({ id: 2 });
  const fields = names.map((n, i) => `${n}: ${['id', 'name', 'country'][i % 3]}`).join(' ');
  const row = await target.graphql(`{ music_artist_by_pk(id: 1) { ${fields} } }`);
  const answered = (row.body as { data: { music_artist_by_pk: Record<string, unknown> } }).data.music_artist_by_pk;
  expect(Object.keys(answered)).toEqual(names);
  expect([answered[names[0]!], answered[names[1]!], answered[names[2]!]]).toEqual([1, 'Aurora Lane', 'NO']);
});

test(covers(['dec.graphql.batch', 'err.graphql.batch-size'], 'a JSON array of requests is a batch: one answer per request, in order'), async () => {
  const post = (body: unknown) => target.request('POST', '/v1/graphql', { headers: target.adminHeaders(), body });
  const r = await post([
    { query: '{ music_artist_by_pk(id: 1) { name } }' },
    { query: 'query Q($id: Int!) { music_album_by_pk(id: $id) { title } }', variables: { id: 11 } },
    { query: '{ nope }' },
    'not a request',
  ]);
  expectResponse(r, 200, [
    { data: { music_artist_by_pk: { name: 'Aurora Lane' } } },
    { data: { music_album_by_pk: { title: 'Long Night' } } },
    { errors: [{ message: 'Cannot query field "nope" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }] },
    { errors: [{ message: 'expected an object with "query"', extensions: { path: '$', code: 'parse-failed' } }] },
  ]);
  const refused = { errors: [{ message: 'a batch holds 1 to 100 operations', extensions: { path: '$', code: 'validation-failed' } }] };
  expectResponse(await post([]), 200, refused);
  expectResponse(await post(Array.from({ length: 101 }, () => ({ query: '{ __typename }' }))), 200, refused);
});

test(covers(['dec.graphql.roles-without-permissions'], 'a role without permissions cannot reach a table by a query or a mutation'), async () => {
  const headers = { ...target.adminHeaders(), 'x-engine-role': 'nobody' };
  const roots = await target.graphql('{ __schema { mutationType { name } } }', undefined, { headers });
  expectResponse(roots, 200, { data: { __schema: { mutationType: null } } });
  const r = await target.graphql('{ music_artist { id } }', undefined, { headers });
  expectResponse(r, 200, {
    errors: [
      { message: expect.stringMatching(/^Cannot query field "music_artist" on type "query_root"/), extensions: { path: '$', code: 'validation-failed' } },
    ],
  });
  const m = await target.graphql('mutation { insert_music_artist_one(object: {id: 50, name: "x"}) { id } }', undefined, { headers });
  expectResponse(m, 200, {
    errors: [{ message: 'the schema is not configured for mutation operations', extensions: { path: '$', code: 'validation-failed' } }],
  });
  expect(await target.sql('select count(*)::int as n from music.artist where id = 50')).toEqual([{ n: 0 }]);
});
