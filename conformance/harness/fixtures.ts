// SQL fixtures from fixtures/sql, run straight on the target's database.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../reference/src/packageRoot';

export function fixtureSql(name: string): string {
  return readFileSync(join(PACKAGE_ROOT, 'fixtures', 'sql', `${name}.sql`), 'utf8');
}

export const musicTable = (name: string) => ({ schema: 'music', name });

/** Relationships of the music fixture, by `table.name`. */
const MUSIC_RELATIONSHIPS: Record<string, { type: string; args: Record<string, unknown> }> = {
  'album.artist': {
    type: 'create_object_relationship',
    args: { table: musicTable('album'), name: 'artist', using: { foreign_key_constraint_on: 'artist_id' } },
  },
  'artist.albums': {
    type: 'create_array_relationship',
    args: { table: musicTable('artist'), name: 'albums', using: { foreign_key_constraint_on: { table: musicTable('album'), column: 'artist_id' } } },
  },
  'album.tracks': {
    type: 'create_array_relationship',
    args: { table: musicTable('album'), name: 'tracks', using: { foreign_key_constraint_on: { table: musicTable('track'), column: 'album_id' } } },
  },
  'track.album': { type: 'create_object_relationship', args: { table: musicTable('track'), name: 'album', using: { foreign_key_constraint_on: 'album_id' } } },
};

/** A bulk that re-reads the database and tracks the given music tables (genre as an enum) and relationships. */
export function musicMetadata(tables: string[], relationships: (keyof typeof MUSIC_RELATIONSHIPS)[]) {
  return {
    type: 'bulk',
    args: [
      { type: 'reload_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      ...tables.map((name) => ({ type: 'track_table', args: { table: musicTable(name), ...(name === 'genre' ? { is_enum: true } : {}) } })),
      ...relationships.map((r) => MUSIC_RELATIONSHIPS[r]!),
    ],
  };
}

/**
 * A bulk that re-reads the database and tracks blog.article with id-only select permissions: the
 * `user` role sees its own articles (by X-Engine-User-Id), `publicRole` the published ones.
 */
export function blogArticleMetadata(publicRole: string) {
  const table = { schema: 'blog', name: 'article' };
  const select = (role: string, filter: Record<string, unknown>) => ({
    type: 'create_select_permission',
    args: { table, role, permission: { columns: ['id'], filter } },
  });
  return {
    type: 'bulk',
    args: [
      { type: 'reload_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      { type: 'track_table', args: { table } },
      select('user', { author_id: 'X-Engine-User-Id' }),
      select(publicRole, { published: true }),
    ],
  };
}

const storeTable = (name: string) => ({ schema: 'store', name });
const storePermission = (name: string, role: string, filter: unknown) => ({
  type: 'create_select_permission',
  args: { table: storeTable(name), role, permission: { columns: '*', filter } },
});
/**
 * A bulk that re-reads the database and tracks the store fixture: its enum table, customers and
 * purchases with object relationships over a NOT NULL key, a nullable key and a manual
 * configuration; `user` reads its own customer row and every purchase, `everyone` reads all.
 */
export const storeMetadata = () => ({
  type: 'bulk',
  args: [
    { type: 'reload_metadata', args: {} },
    { type: 'clear_metadata', args: {} },
    { type: 'track_table', args: { table: storeTable('status'), is_enum: true } },
    { type: 'track_table', args: { table: storeTable('customer') } },
    { type: 'track_table', args: { table: storeTable('purchase') } },
    { type: 'create_object_relationship', args: { table: storeTable('purchase'), name: 'customer', using: { foreign_key_constraint_on: 'customer_id' } } },
    { type: 'create_object_relationship', args: { table: storeTable('purchase'), name: 'referrer', using: { foreign_key_constraint_on: 'referrer_id' } } },
    {
      type: 'create_object_relationship',
      args: {
        table: storeTable('purchase'),
        name: 'buyer',
        using: { manual_configuration: { remote_table: storeTable('customer'), column_mapping: { customer_id: 'id' } } },
      },
    },
    {
      type: 'create_array_relationship',
      args: {
        table: storeTable('customer'),
        name: 'purchases',
        using: { foreign_key_constraint_on: { table: storeTable('purchase'), column: 'customer_id' } },
      },
    },
    storePermission('customer', 'user', { id: { _eq: 'X-Engine-User-Id' } }),
    storePermission('purchase', 'user', {}),
    storePermission('customer', 'everyone', {}),
    storePermission('purchase', 'everyone', {}),
  ],
});
