// GraphQL mutations over tracked tables: insert (with on_conflict), update, delete and their
// single-row forms; errors from the database; several mutation fields as one transaction.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();

// The fixture's rows, put back before each case (data only, so the metadata stays as it is).
const RESET_DATA = fixtureSql('music')
  .split('\n')
  .filter((line) => line.startsWith('insert into') || line.startsWith('  ('))
  .join('\n');

const mutate = async (query: string, variables?: Record<string, unknown>) => {
  const r = await target.graphql(query, variables);
  expect({ status: r.status, errors: (r.body as { errors?: unknown }).errors }).toEqual({ status: 200, errors: undefined });
  return (r.body as { data: Record<string, unknown> }).data;
};
const errorOf = async (query: string) => {
  const r = await target.graphql(query);
  expect(r.status).toBe(200);
  return (r.body as { errors: unknown[] }).errors;
};

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  await target.metadata(musicMetadata(['genre', 'artist', 'album'], ['album.artist']));
});
beforeEach(async () => {
  await target.sql('delete from music.track; delete from music.album; delete from music.artist; delete from music.genre;');
  await target.sql(RESET_DATA);
});

test(covers(['dec.graphql.root-fields'], 'insert_<t> answers affected_rows and returning, and the rows are there'), async () => {
  const result = await mutate(
    `mutation { insert_music_artist(objects: [{id: 4, name: "Dune"}, {id: 5, name: "Echo", tags: {new: true}}]) { affected_rows returning { id name tags } } }`,
  );
  expect(result).toEqual({
    insert_music_artist: {
      affected_rows: 2,
      returning: [
        { id: 4, name: 'Dune', tags: null },
        { id: 5, name: 'Echo', tags: { new: true } },
      ],
    },
  });
  expect(await target.sql('select id, name from music.artist where id > 3 order by id')).toEqual([
    { id: 4, name: 'Dune' },
    { id: 5, name: 'Echo' },
  ]);
});

test(covers(['dec.graphql.root-fields'], 'insert_<t>_one answers the row, with relationships of the new row'), async () => {
  const result = await mutate(
    `mutation { insert_music_album_one(object: {id: 30, title: "Third", artist_id: 3, genre: rock}) { title genre artist { name } } }`,
  );
  expect(result).toEqual({ insert_music_album_one: { title: 'Third', genre: 'rock', artist: { name: 'Cellar Door' } } });
});

test(covers(['dec.graphql.root-fields'], 'on_conflict updates the listed columns, or does nothing'), async () => {
  const upsert = await mutate(
    `mutation { insert_music_artist_one(object: {id: 1, name: "Aurora Lane II", country: "SE"}, on_conflict: {constraint: artist_pkey, update_columns: [name]}) { id name country } }`,
  );
  expect(upsert).toEqual({ insert_music_artist_one: { id: 1, name: 'Aurora Lane II', country: 'NO' } });
  const nothing = await mutate(
    `mutation { insert_music_artist(objects: [{id: 2, name: "Ignored"}], on_conflict: {constraint: artist_pkey, update_columns: []}) { affected_rows returning { id } } }`,
  );
  expect(nothing).toEqual({ insert_music_artist: { affected_rows: 0, returning: [] } });
  const guarded = await mutate(
    `mutation { insert_music_artist(objects: [{id: 2, name: "Guarded"}], on_conflict: {constraint: artist_pkey, update_columns: [name], where: {country: {_eq: "NO"}}}) { affected_rows } }`,
  );
  expect(guarded).toEqual({ insert_music_artist: { affected_rows: 0 } });
  expect(await target.sql('select name from music.artist where id = 2')).toEqual([{ name: 'Brass Tacks' }]);
});

test(covers(['err.postgres-error.not-null', 'dec.graphql.errors'], 'a missing required column is a Not-NULL violation'), async () => {
  expect(await errorOf('mutation { insert_music_artist_one(object: {id: 6}) { id } }')).toEqual([
    { message: 'Not-NULL violation. null value in column "name" violates not-null constraint', extensions: { path: '$', code: 'postgres-error' } },
  ]);
});

test(covers(['dec.graphql.errors'], 'a duplicate key is a uniqueness violation'), async () => {
  const [error] = (await errorOf('mutation { insert_music_artist_one(object: {id: 7, name: "Aurora Lane"}) { id } }')) as {
    message: string;
    extensions: unknown;
  }[];
  expect(error).toEqual({
    message: expect.stringMatching(/^Uniqueness violation\. .*"artist_name_key"/),
    extensions: { path: '$', code: 'constraint-violation' },
  });
});

test(covers(['dec.graphql.root-fields'], 'update_<t> with _set and _inc'), async () => {
  const result = await mutate(
    `mutation { update_music_album(where: {artist_id: {_eq: 2}}, _set: {price: 1.5}, _inc: {year: 1}) { affected_rows returning { id year price } } }`,
  );
  expect(result).toEqual({
    update_music_album: {
      affected_rows: 2,
      returning: [
        { id: 20, year: 2000, price: 1.5 },
        { id: 21, year: 2005, price: 1.5 },
      ],
    },
  });
});

test(covers(['dec.graphql.root-fields'], 'update_<t> with the jsonb operators'), async () => {
  const r = await mutate(`mutation {
    a: update_music_artist(where: {id: {_eq: 2}}, _append: {tags: {x: 1}}) { returning { tags } }
    b: update_music_artist(where: {id: {_eq: 1}}, _delete_key: {tags: "active"}) { returning { tags } }
  }`);
  expect(r).toEqual({ a: { returning: [{ tags: { label: 'South', x: 1 } }] }, b: { returning: [{ tags: { label: 'North' } }] } });
  const c = await mutate(`mutation { update_music_artist(where: {id: {_eq: 2}}, _delete_at_path: {tags: ["x"]}) { returning { tags } } }`);
  expect(c).toEqual({ update_music_artist: { returning: [{ tags: { label: 'South' } }] } });
});

test(covers(['dec.graphql.root-fields'], 'update_<t>_by_pk answers the row, or null when there is none'), async () => {
  const r = await mutate(
    `mutation { a: update_music_album_by_pk(pk_columns: {id: 10}, _set: {title: "First Light (Remastered)"}) { id title } b: update_music_album_by_pk(pk_columns: {id: 99}, _set: {title: "x"}) { id } }`,
  );
  expect(r).toEqual({ a: { id: 10, title: 'First Light (Remastered)' }, b: null });
});

test(covers(['dec.graphql.root-fields'], 'delete_<t> and delete_<t>_by_pk'), async () => {
  await target.sql('delete from music.track');
  const r = await mutate(
    `mutation { d: delete_music_album(where: {year: {_lt: 2005}}) { affected_rows returning { id } } one: delete_music_album_by_pk(id: 11) { title } none: delete_music_album_by_pk(id: 99) { title } }`,
  );
  expect(r).toEqual({ d: { affected_rows: 2, returning: [{ id: 20 }, { id: 21 }] }, one: { title: 'Long Night' }, none: null });
  expect(await target.sql('select id from music.album')).toEqual([{ id: 10 }]);
});

test(covers(['dec.graphql.mutations-atomic'], 'when one mutation field fails, the others of the request are undone'), async () => {
  const errors = await errorOf(
    `mutation { a: insert_music_artist_one(object: {id: 9, name: "Kept?"}) { id } b: insert_music_artist_one(object: {id: 1, name: "Duplicate"}) { id } }`,
  );
  expect(errors).toHaveLength(1);
  expect(await target.sql('select count(*)::int as n from music.artist where id = 9')).toEqual([{ n: 0 }]);
});

test(covers(['dec.graphql.mutations-atomic'], 'an update before a delete that a foreign key refuses is undone too, and the answer has no data'), async () => {
  const r = await target.graphql(
    `mutation { renamed: update_music_artist_by_pk(pk_columns: {id: 2}, _set: {name: "Renamed"}) { id } gone: delete_music_artist_by_pk(id: 1) { id } }`,
  );
  expect({
    status: r.status,
    data: (r.body as { data?: unknown }).data,
    codes: (r.body as { errors: { extensions: { code: string } }[] }).errors.map((e) => e.extensions.code),
  }).toEqual({
    status: 200,
    data: undefined,
    codes: ['constraint-violation'],
  });
  expect(await target.sql('select id, name from music.artist where id in (1, 2) order by id')).toEqual([
    { id: 1, name: 'Aurora Lane' },
    { id: 2, name: 'Brass Tacks' },
  ]);
});

test(covers(['dec.graphql.root-fields'], 'a mutation with variables'), async () => {
  const r = await mutate('mutation ($objects: [music_artist_insert_input!]!) { insert_music_artist(objects: $objects) { affected_rows } }', {
    objects: [
      { id: 11, name: 'Var One' },
      { id: 12, name: 'Var Two', formed: 2020 },
    ],
  });
  expect(r).toEqual({ insert_music_artist: { affected_rows: 2 } });
  expectResponse(await target.graphql('{ music_artist_by_pk(id: 12) { formed } }'), 200, { data: { music_artist_by_pk: { formed: 2020 } } });
});

test(covers(['dec.graphql.root-fields'], 'a json (not jsonb) column takes any JSON value: a string, a number, an object'), async () => {
  await target.sql('create table if not exists music.memo (id int primary key, body json); delete from music.memo');
  await target.metadata({ type: 'track_table', args: { table: { schema: 'music', name: 'memo' } } });
  try {
    const r = await mutate(
      'mutation ($body: json) { a: insert_music_memo_one(object: {id: 1, body: "x"}) { id } b: insert_music_memo(objects: [{id: 2, body: 7}, {id: 3, body: {k: [1, "y"]}}, {id: 4, body: $body}]) { affected_rows } }',
      { body: 'it\'s "q"' },
    );
    expect(r).toEqual({ a: { id: 1 }, b: { affected_rows: 3 } });
    expect(await target.sql('select id, body::text as body from music.memo order by id')).toEqual([
      { id: 1, body: '"x"' },
      { id: 2, body: '7' },
      { id: 3, body: '{"k":[1,"y"]}' },
      { id: 4, body: '"it\'s \\"q\\""' },
    ]);
    expectResponse(await target.graphql('{ music_memo(order_by: {id: asc}) { body } }'), 200, {
      data: { music_memo: [{ body: 'x' }, { body: 7 }, { body: { k: [1, 'y'] } }, { body: 'it\'s "q"' }] },
    });
  } finally {
    await target.metadata({ type: 'untrack_table', args: { table: { schema: 'music', name: 'memo' } } });
  }
});
