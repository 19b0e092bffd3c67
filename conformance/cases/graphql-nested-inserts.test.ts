// Nested inserts (decision dec.graphql.nested-inserts): insert_<t> and insert_<t>_one insert rows
// of related tables through object relationships (inserted first, their key copied into the row)
// and array relationships (inserted after, the row's key set in theirs), at any depth, each level
// under the role's insert permission of its table, all in the request's transaction.
import { covers } from '../harness/cases';
import { musicRowCounts, useMusicWriters } from '../harness/musicWriters';
import { useTarget } from '../harness/target';

const target = useTarget();
const as = (role: string) => ({ ...target.adminHeaders(), 'x-engine-role': role });
/** As admin, as a role, or with these headers. */
const gql = async (query: string, who?: string | Record<string, string>) =>
  (await target.graphql(query, undefined, who === undefined ? {} : { headers: typeof who === 'string' ? as(who) : who })).body;
const refused = (message: string, code: string) => ({ errors: [{ message, extensions: { path: '$', code } }] });
const count = () => musicRowCounts(target);

useMusicWriters(target);

const TYPE = '{ kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
const inputFields = async (type: string, who?: string | Record<string, string>) =>
  ((await gql(`{ __type(name: "${type}") { inputFields { name type ${TYPE} } } }`, who)) as { data: { __type: { inputFields: { name: string }[] } | null } })
    .data.__type?.inputFields;
const named = (kind: string, name: string) => ({ kind, name, ofType: null });
const nonNull = (ofType: unknown) => ({ kind: 'NON_NULL', name: null, ofType });

test(
  covers(['dec.graphql.nested-inserts'], '<t>_insert_input has a field per relationship, of <target>_obj_rel_insert_input or <target>_arr_rel_insert_input'),
  async () => {
    expect((await inputFields('music_album_insert_input'))!.filter((f) => ['artist', 'tracks'].includes(f.name))).toEqual([
      { name: 'artist', type: named('INPUT_OBJECT', 'music_artist_obj_rel_insert_input') },
      { name: 'tracks', type: named('INPUT_OBJECT', 'music_track_arr_rel_insert_input') },
    ]);
    expect((await inputFields('music_artist_insert_input'))!.filter((f) => ['albums', 'records'].includes(f.name))).toEqual([
      { name: 'albums', type: named('INPUT_OBJECT', 'music_album_arr_rel_insert_input') },
      { name: 'records', type: named('INPUT_OBJECT', 'music_album_arr_rel_insert_input') },
    ]);
    expect(await inputFields('music_artist_obj_rel_insert_input')).toEqual([
      { name: 'data', type: nonNull(named('INPUT_OBJECT', 'music_artist_insert_input')) },
      { name: 'on_conflict', type: named('INPUT_OBJECT', 'music_artist_on_conflict') },
    ]);
    expect(await inputFields('music_track_arr_rel_insert_input')).toEqual([
      { name: 'data', type: nonNull({ kind: 'LIST', name: null, ofType: nonNull({ kind: 'INPUT_OBJECT', name: 'music_track_insert_input' }) }) },
      { name: 'on_conflict', type: named('INPUT_OBJECT', 'music_track_on_conflict') },
    ]);
  },
);

test(
  covers(['dec.graphql.nested-inserts'], 'a role has a relationship field only where it may insert into the target; upserts there only where it may update it'),
  async () => {
    expect((await inputFields('music_album_insert_input', 'contributor'))!.map((f) => f.name)).toEqual(['id', 'title', 'artist_id']);
    expect((await inputFields('music_album_insert_input', 'curator'))!.map((f) => f.name)).toEqual(['id', 'title', 'artist_id', 'year', 'artist', 'tracks']);
    expect((await inputFields('music_artist_obj_rel_insert_input', 'curator'))!.map((f) => f.name)).toEqual(['data', 'on_conflict']);
    expect((await inputFields('music_track_arr_rel_insert_input', 'curator'))!.map((f) => f.name)).toEqual(['data']);
    expect(await gql('mutation { insert_music_album_one(object: {id: 40, title: "x", artist: {data: {id: 4, name: "y"}}}) { id } }', 'contributor')).toEqual(
      refused('Field "artist" is not defined by type "music_album_insert_input". Did you mean "artist_id"?', 'validation-failed'),
    );
    expect(await count()).toBe('3/4/6');
  },
);

test(
  covers(['dec.graphql.nested-inserts', 'rule.perm.insert.backend-only'], "a target's backend_only insert permission counts where the request may use it"),
  async () => {
    const backend = { ...as('contributor'), 'x-engine-use-backend-only-permissions': 'true' };
    expect((await inputFields('music_album_insert_input', backend))!.map((f) => f.name)).toEqual(['id', 'title', 'artist_id', 'artist']);
    expect(await gql('mutation { insert_music_album_one(object: {id: 42, title: "Via", artist: {data: {id: 9, name: "Ivy"}}}) { id } }', backend)).toEqual({
      data: { insert_music_album_one: { id: 42 } },
    });
    expect(await target.sql('select id, artist_id from music.album where id = 42')).toEqual([{ id: 42, artist_id: 9 }]);
  },
);

test(covers(['dec.graphql.nested-inserts'], 'array relationships at any depth: each row gets its parent key, and returning sees the nested rows'), async () => {
  const body = await gql(`mutation { insert_music_artist_one(object: {id: 4, name: "Dune", albums: {data: [
      {id: 40, title: "Sand", tracks: {data: [{id: 400, name: "Wind", milliseconds: 1000}, {id: 401, name: "Dust", milliseconds: 2000}]}},
      {id: 41, title: "Glass"}]}}) {
    id name albums(order_by: {id: asc}) { id title tracks(order_by: {id: asc}) { id name } } } }`);
  expect(body).toEqual({
    data: {
      insert_music_artist_one: {
        id: 4,
        name: 'Dune',
        albums: [
          {
            id: 40,
            title: 'Sand',
            tracks: [
              { id: 400, name: 'Wind' },
              { id: 401, name: 'Dust' },
            ],
          },
          { id: 41, title: 'Glass', tracks: [] },
        ],
      },
    },
  });
  expect(await target.sql('select id, artist_id from music.album where id >= 40 order by id')).toEqual([
    { id: 40, artist_id: 4 },
    { id: 41, artist_id: 4 },
  ]);
  expect(await target.sql('select id, album_id from music.track where id >= 400 order by id')).toEqual([
    { id: 400, album_id: 40 },
    { id: 401, album_id: 40 },
  ]);
});

test(covers(['dec.graphql.nested-inserts'], 'object relationships are inserted first; affected_rows counts the rows of every level'), async () => {
  const body = await gql(`mutation { insert_music_track(objects: [
      {id: 500, name: "One", milliseconds: 10, album: {data: {id: 50, title: "Deep", artist: {data: {id: 5, name: "Echo"}}}}},
      {id: 501, name: "Two", milliseconds: 20, album_id: 10}
    ]) { affected_rows returning { id album { title artist { name } } } } }`);
  expect(body).toEqual({
    data: {
      insert_music_track: {
        affected_rows: 4,
        returning: [
          { id: 500, album: { title: 'Deep', artist: { name: 'Echo' } } },
          { id: 501, album: { title: 'First Light', artist: { name: 'Aurora Lane' } } },
        ],
      },
    },
  });
  expect(await target.sql('select t.album_id, a.artist_id from music.track t join music.album a on a.id = t.album_id where t.id = 500')).toEqual([
    { album_id: 50, artist_id: 5 },
  ]);
});

test(covers(['dec.graphql.nested-inserts'], 'through a manual relationship, and with no rows to nest'), async () => {
  const body =
    await gql(`mutation { insert_music_artist(objects: [{id: 6, name: "Fjord", records: {data: [{id: 60, title: "Ice"}]}}, {id: 7, name: "Gale", albums: {data: []}}]) {
    affected_rows returning { id records { id } } } }`);
  expect(body).toEqual({
    data: {
      insert_music_artist: {
        affected_rows: 3,
        returning: [
          { id: 6, records: [{ id: 60 }] },
          { id: 7, records: [] },
        ],
      },
    },
  });
  expect(await target.sql('select artist_id from music.album where id = 60')).toEqual([{ artist_id: 6 }]);
});

test(
  covers(['dec.graphql.nested-inserts', 'rule.perm.insert.set', 'rule.perm.insert.check:allowed'], "each level takes its own table's presets and check"),
  async () => {
    const body = await gql(
      'mutation { insert_music_artist_one(object: {id: 8, name: "Haze", albums: {data: [{id: 80, title: "Mist", tracks: {data: [{id: 800, name: "Fog", milliseconds: 5}]}}]}}) { id } }',
      'curator',
    );
    expect(body).toEqual({ data: { insert_music_artist_one: { id: 8 } } });
    expect(await target.sql('select id, price::text from music.album where id = 80')).toEqual([{ id: 80, price: '1.99' }]);
  },
);

test(
  covers(
    ['dec.graphql.nested-inserts', 'rule.perm.insert.check:refused', 'err.permission-error.check-failed'],
    'a failing check at a nested level undoes every level',
  ),
  async () => {
    const body = await gql(
      'mutation { insert_music_artist_one(object: {id: 8, name: "Haze", albums: {data: [{id: 80, title: "Mist", tracks: {data: [{id: 800, name: "Fog", milliseconds: 0}]}}]}}) { id } }',
      'curator',
    );
    expect(body).toEqual(refused('check constraint of an insert/update permission has failed', 'permission-error'));
    expect(await count()).toBe('3/4/6');
  },
);

test(covers(['dec.graphql.nested-inserts'], 'on_conflict at a nested level: an upserted parent gives its key, and is counted'), async () => {
  const upsert = '{constraint: artist_pkey, update_columns: [name]}';
  const body = await gql(
    `mutation { insert_music_album(objects: [
      {id: 90, title: "Nine", artist: {data: {id: 1, name: "Aurora"}, on_conflict: ${upsert}}},
      {id: 91, title: "Ninety", artist: {data: {id: 1, name: "Aurora Lane"}, on_conflict: ${upsert}}}
    ]) { affected_rows returning { id artist { id name } } } }`,
    'curator',
  );
  expect(body).toEqual({
    data: {
      insert_music_album: {
        affected_rows: 4,
        returning: [
          { id: 90, artist: { id: 1, name: 'Aurora Lane' } },
          { id: 91, artist: { id: 1, name: 'Aurora Lane' } },
        ],
      },
    },
  });
  expect(await target.sql('select id, artist_id from music.album where id >= 90 order by id')).toEqual([
    { id: 90, artist_id: 1 },
    { id: 91, artist_id: 1 },
  ]);
  expect(await count()).toBe('3/6/6');
});
