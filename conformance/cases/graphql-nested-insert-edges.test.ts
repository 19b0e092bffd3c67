// Nested inserts at their edges (decision dec.graphql.nested-inserts): what they refuse, undoing
// everything, and what they leave alone: null and empty relationships, a level of rows that nest
// nothing (one statement, as in the engine), a relationship of two columns.
import { covers } from '../harness/cases';
import { musicRowCounts, useMusicWriters } from '../harness/musicWriters';
import { useTarget } from '../harness/target';

const target = useTarget();
const gql = async (query: string) => (await target.graphql(query)).body;
const refused = (message: string, code: string) => ({ errors: [{ message, extensions: { path: '$', code } }] });
const count = () => musicRowCounts(target);

useMusicWriters(target);

test(covers(['dec.graphql.nested-inserts'], 'a null object relationship inserts nothing and leaves the column to the row'), async () => {
  const body = await gql(`mutation { insert_music_album_one(object: {id: 43, title: "Null", artist_id: 1, artist: null,
    tracks: {data: [{id: 430, name: "a", milliseconds: 1}]}}) { id artist { name } tracks { name } } }`);
  expect(body).toEqual({ data: { insert_music_album_one: { id: 43, artist: { name: 'Aurora Lane' }, tracks: [{ name: 'a' }] } } });
  expect(await count()).toBe('3/5/7');
});

test(covers(['dec.graphql.nested-inserts'], 'an empty array relationship asks nothing of its row, not even that it is inserted'), async () => {
  const body = await gql(`mutation { insert_music_album(objects: [{id: 10, title: "First Light", tracks: {data: []},
      artist: {data: {id: 1, name: "Aurora Lane"}, on_conflict: {constraint: artist_pkey, update_columns: [name]}}}],
    on_conflict: {constraint: album_pkey, update_columns: []}) { affected_rows returning { id } } }`);
  expect(body).toEqual({ data: { insert_music_album: { affected_rows: 1, returning: [] } } });
  expect(await count()).toBe('3/4/6');
});

test(
  covers(
    ['dec.graphql.nested-inserts', 'dec.graphql.errors'],
    'rows that nest nothing are one statement, which may not upsert a row twice; rows that nest go one by one',
  ),
  async () => {
    const upsert = 'on_conflict: {constraint: artist_pkey, update_columns: [name]}';
    expect(
      await gql(
        `mutation { insert_music_artist(objects: [{id: 5, name: "Echo"}, {id: 5, name: "Echo II", albums: {data: []}}], ${upsert}) { affected_rows } }`,
      ),
    ).toEqual(refused('database query error', 'postgres-error'));
    // A null object relationship nests nothing either.
    const albums = '[{id: 50, title: "A", artist_id: 1, artist: null}, {id: 50, title: "B", artist_id: 1}]';
    expect(
      await gql(`mutation { insert_music_album(objects: ${albums}, on_conflict: {constraint: album_pkey, update_columns: [title]}) { affected_rows } }`),
    ).toEqual(refused('database query error', 'postgres-error'));
    expect(await count()).toBe('3/4/6');
    const body = await gql(
      `mutation { insert_music_artist(objects: [{id: 5, name: "Echo"}, {id: 5, name: "Echo II", albums: {data: [{id: 50, title: "E"}]}}], ${upsert}) { affected_rows } }`,
    );
    expect(body).toEqual({ data: { insert_music_artist: { affected_rows: 3 } } });
    expect(await target.sql('select a.name, b.id from music.artist a join music.album b on b.artist_id = a.id where a.id = 5')).toEqual([
      { name: 'Echo II', id: 50 },
    ]);
  },
);

test(covers(['dec.graphql.nested-inserts'], 'a relationship of two columns sets both in the rows it inserts'), async () => {
  const body = await gql(
    'mutation { insert_music_artist_one(object: {id: 6, name: "Fjord", namesakes: {data: [{id: 60}]}}) { namesakes { id title artist_id } } }',
  );
  expect(body).toEqual({ data: { insert_music_artist_one: { namesakes: [{ id: 60, title: 'Fjord', artist_id: 6 }] } } });
});
test(
  covers(
    ['dec.graphql.nested-inserts', 'err.graphql.nested-insert-empty-object'],
    'an object relationship whose insert changes no row stops the insert, and nothing is kept',
  ),
  async () => {
    const body = await gql(
      'mutation { insert_music_album_one(object: {id: 92, title: "x", artist: {data: {id: 2, name: "Brass Tacks"}, on_conflict: {constraint: artist_pkey, update_columns: []}}}) { id } }',
    );
    expect(body).toEqual(refused('cannot proceed to insert object relation "artist" since insert to table "music.artist" affects zero rows', 'not-supported'));
    expect(await count()).toBe('3/4/6');
  },
);

test(
  covers(['dec.graphql.nested-inserts', 'err.graphql.nested-insert-empty-parent'], 'a row whose insert changes no row cannot take array relationships'),
  async () => {
    const body = await gql(
      'mutation { insert_music_artist_one(object: {id: 1, name: "Aurora Lane", albums: {data: [{id: 93, title: "x"}]}}, on_conflict: {constraint: artist_pkey, update_columns: []}) { id } }',
    );
    expect(body).toEqual(refused('cannot proceed to insert array relations since insert to table "music.artist" affects zero rows', 'not-supported'));
    expect(await count()).toBe('3/4/6');
  },
);

test(
  covers(
    ['dec.graphql.nested-inserts', 'err.graphql.nested-insert-parent-column', 'err.graphql.nested-insert-object-column'],
    'a column the parent or an object relationship determines cannot be given',
  ),
  async () => {
    expect(await gql('mutation { insert_music_artist_one(object: {id: 9, name: "x", albums: {data: [{id: 94, title: "y", artist_id: 2}]}}) { id } }')).toEqual(
      refused('cannot insert "artist_id" columns as their values are already being determined by parent insert', 'validation-failed'),
    );
    expect(
      await gql('mutation { insert_music_artist_one(object: {id: 9, name: "x", namesakes: {data: [{id: 96, title: "y", artist_id: 2}]}}) { id } }'),
    ).toEqual(refused('cannot insert "title", "artist_id" columns as their values are already being determined by parent insert', 'validation-failed'));
    expect(await gql('mutation { insert_music_album_one(object: {id: 95, title: "y", artist_id: 1, artist: {data: {id: 9, name: "x"}}}) { id } }')).toEqual(
      refused('cannot insert object relationship "artist" as "artist_id" column values are already determined', 'validation-failed'),
    );
    expect(await count()).toBe('3/4/6');
  },
);
