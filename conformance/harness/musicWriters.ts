// The music fixture with roles that insert through relationships (the cases of nested inserts):
// `curator` inserts into every table (albums take its preset price, tracks must last, artists may
// be upserted by name), `contributor` inserts albums, and artists only as a backend. Beside the
// foreign-key relationships, two manual ones from artist to album: `records` (by artist_id) and
// `namesakes` (by artist_id and a title that is the artist's name).
import { fixtureSql, musicMetadata, musicTable } from './fixtures';
import type { Target } from './target';

const artist = musicTable('artist');
const album = musicTable('album');
const track = musicTable('track');
const permission = (type: string, table: unknown, role: string, p: unknown) => ({ type: `create_${type}_permission`, args: { table, role, permission: p } });
const manual = (name: string, column_mapping: Record<string, string>) => ({
  type: 'create_array_relationship',
  args: { table: artist, name, using: { manual_configuration: { remote_table: album, column_mapping } } },
});

/** A bulk that tracks the music fixture with its relationships and the writers' permissions. */
export function musicWritersMetadata() {
  const metadata = musicMetadata(['genre', 'artist', 'album', 'track'], ['album.artist', 'artist.albums', 'album.tracks', 'track.album']);
  metadata.args.push(
    manual('records', { id: 'artist_id' }),
    manual('namesakes', { id: 'artist_id', name: 'title' }),
    permission('select', artist, 'curator', { columns: ['id', 'name', 'country'], filter: {} }),
    permission('select', album, 'curator', { columns: ['id', 'title', 'artist_id', 'price'], filter: {} }),
    permission('select', track, 'curator', { columns: ['id', 'name', 'album_id'], filter: {} }),
    permission('insert', artist, 'curator', { columns: ['id', 'name', 'country'], check: {} }),
    permission('update', artist, 'curator', { columns: ['name'], filter: {} }),
    permission('insert', album, 'curator', { columns: ['id', 'title', 'artist_id', 'year'], check: {}, set: { price: '1.99' } }),
    permission('insert', track, 'curator', { columns: ['id', 'album_id', 'name', 'milliseconds'], check: { milliseconds: { _gt: 0 } } }),
    permission('select', artist, 'contributor', { columns: ['id', 'name'], filter: {} }),
    permission('select', album, 'contributor', { columns: ['id', 'title'], filter: {} }),
    permission('insert', album, 'contributor', { columns: ['id', 'title', 'artist_id'], check: {} }),
    permission('insert', artist, 'contributor', { columns: ['id', 'name'], check: {}, backend_only: true }),
  );
  return metadata;
}

/** The fixture's rows, put back (data only, so the metadata stays as it is). */
export async function resetMusicRows(target: Target): Promise<void> {
  await target.sql('delete from music.track; delete from music.album; delete from music.artist; delete from music.genre;');
  await target.sql(
    fixtureSql('music')
      .split('\n')
      .filter((line) => line.startsWith('insert into') || line.startsWith('  ('))
      .join('\n'),
  );
}

/** For a case file: the fixture and its metadata once, the fixture's rows before each case. */
export function useMusicWriters(target: Target): void {
  beforeAll(async () => {
    await target.sql(fixtureSql('music'));
    await target.metadata(musicWritersMetadata());
  });
  beforeEach(() => resetMusicRows(target));
}

/** How many artists, albums and tracks there are: `artists/albums/tracks`. */
export async function musicRowCounts(target: Target): Promise<string> {
  const [row] = await target.sql(
    "select (select count(*) from music.artist) || '/' || (select count(*) from music.album) || '/' || (select count(*) from music.track) as n",
  );
  return row!.n as string;
}
