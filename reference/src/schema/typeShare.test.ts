import { loadConfig } from '../config';
import type { GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { MetadataDocument } from '../../../spec';
import { introspectionOf, type DbColumn, type DbTable } from '../db/introspection';
import { buildSchemaCache, roleSchema } from '../execute/schemaCache';

const column = (name: string, type: string): DbColumn => ({
  name,
  position: 0,
  type,
  type_schema: 'pg_catalog',
  type_kind: 'b',
  type_category: type === 'int4' ? 'N' : 'S',
  element_type: null,
  nullable: false,
  has_default: false,
  generated: false,
  enum_values: null,
  comment: null,
});
const table = (name: string, oid: number, columns: DbColumn[], constraints: DbTable['constraints']): DbTable => ({
  schema: 'public',
  name,
  kind: 'r',
  oid: String(oid),
  updatable: 28,
  comment: null,
  columns,
  constraints: [{ name: `${name}_pkey`, type: 'p', columns: ['id'], ref_schema: null, ref_table: null, ref_columns: null }, ...constraints],
  unique_indexes: [],
});
// artist <-> album (a cycle through two relationships), and an unrelated note table.
const tables = [
  table('artist', 1, [column('id', 'int4'), column('name', 'text'), column('secret', 'text')], []),
  table(
    'album',
    2,
    [column('id', 'int4'), column('artist_id', 'int4')],
    [{ name: 'album_artist_id_fkey', type: 'f', columns: ['artist_id'], ref_schema: 'public', ref_table: 'artist', ref_columns: ['id'] }],
  ),
  table('note', 3, [column('id', 'int4'), column('body', 'text')], []),
];
const select = (role: string, columns: string[], filter: Record<string, unknown> = {}) => ({ role, permission: { columns, filter } });
const document = {
  version: 2,
  tables: [
    {
      table: { schema: 'public', name: 'artist' },
      array_relationships: [{ name: 'albums', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'album' }, column: 'artist_id' } } }],
      select_permissions: [select('fan', ['id', 'name'], { id: { _gt: 1 } }), select('critic', ['id', 'name'], { id: { _lt: 5 } }), select('guest', ['id'])],
    },
    {
      table: { schema: 'public', name: 'album' },
      object_relationships: [{ name: 'artist', using: { foreign_key_constraint_on: 'artist_id' } }],
      select_permissions: [select('fan', ['id', 'artist_id']), select('critic', ['id', 'artist_id']), select('guest', ['id', 'artist_id'])],
    },
    {
      table: { schema: 'public', name: 'note' },
      select_permissions: [select('fan', ['id', 'body']), select('critic', ['id', 'body']), select('guest', ['id', 'body'])],
    },
  ],
} as unknown as MetadataDocument;

const fieldsOf = (schema: GraphQLSchema, type: string) => Object.keys((schema.getType(type) as GraphQLObjectType).getFields());

describe('schemas of roles share types', () => {
  const cache = buildSchemaCache(document, introspectionOf(tables, tables), new Map(), loadConfig({}).limits);
  const fan = roleSchema(cache, 'fan', false);
  const critic = roleSchema(cache, 'critic', false);
  const guest = roleSchema(cache, 'guest', false);

  test('roles that see the same columns share one schema, and keep their own permissions', () => {
    expect(critic.built.schema).toBe(fan.built.schema);
    expect(fan.built.queryFields.get('artist')!.table.permissions!.select!.filter).toEqual({ id: { _gt: 1 } });
    expect(critic.built.queryFields.get('artist')!.table.permissions!.select!.filter).toEqual({ id: { _lt: 5 } });
  });

  test('a role that sees other columns gets its own schema, and its own types for every table that reaches them', () => {
    expect(guest.built.schema).not.toBe(fan.built.schema);
    expect(fieldsOf(guest.built.schema, 'artist')).toEqual(['albums', 'id']);
    expect(fieldsOf(fan.built.schema, 'artist')).toEqual(['albums', 'id', 'name']);
    // album looks the same to both, but its artist field leads to a different artist type.
    expect(guest.built.schema.getType('album')).not.toBe(fan.built.schema.getType('album'));
    expect(guest.built.schema.getType('album_bool_exp')).not.toBe(fan.built.schema.getType('album_bool_exp'));
  });

  test('a table whose view and reach agree has the same type objects in both schemas', () => {
    for (const name of ['note', 'note_bool_exp', 'note_order_by', 'note_select_column', 'Int_comparison_exp', 'String_comparison_exp']) {
      expect(guest.built.schema.getType(name)).toBe(fan.built.schema.getType(name));
    }
  });

  test('the admin schema is built from the same share and stays complete', () => {
    expect(fieldsOf(cache.admin.schema, 'artist')).toEqual(['albums', 'albums_aggregate', 'id', 'name', 'secret']);
    expect(cache.admin.schema.getType('note_aggregate')).toBeDefined();
    expect(fan.built.schema.getType('note_aggregate')).toBeUndefined();
    expect(cache.admin.schema.getType('String_comparison_exp')).toBe(fan.built.schema.getType('String_comparison_exp'));
  });
});
