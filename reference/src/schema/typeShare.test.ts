import { loadConfig } from '../config';
import fc from 'fast-check';
import {
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  validateSchema,
  type GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { MetadataDocument } from '../../../spec';
import { introspectionOf, type DbColumn, type DbTable } from '../db/introspection';
import { buildSchemaCache, roleSchema } from '../execute/schemaCache';
import { adminSchemaOf, validSchemaCache } from '../execute/schemaValidity';
import { schemaErrors } from './schemaValidation';
import { typeContext } from './typeContext';
import { TypeShare } from './typeShare';
import { generatedRuns } from '../../../conformance/harness/generatedRuns';
import { dbColumn, dbTable } from '../../test-support/introspectionRows';

/** Sequences of versions tried: a short run in npm test, a long one in npm run test:long (or ENGINE_FUZZ_RUNS). */
const VERSION_RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 8, 200);

const column = dbColumn;
const table = (name: string, oid: number, columns: DbColumn[], constraints: DbTable['constraints']): DbTable =>
  dbTable(name, oid, columns, ['id'], constraints);
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

describe('a table reaches the tables a role may insert into through it (decision dec.graphql.nested-inserts)', () => {
  // Both roles read and insert albums alike and may insert artists, which neither may read: only
  // the artist columns they may insert differ, and only the insert inputs that lead there.
  const insert = (role: string, columns: string[]) => ({ role, permission: { columns, check: {} } });
  const writers = {
    version: 2,
    tables: [
      { ...document.tables[0], select_permissions: [], insert_permissions: [insert('maker', ['id', 'name']), insert('plain', ['id'])] },
      {
        ...document.tables[1],
        select_permissions: [select('maker', ['id', 'artist_id']), select('plain', ['id', 'artist_id'])],
        insert_permissions: [insert('maker', ['id']), insert('plain', ['id'])],
      },
    ],
  } as unknown as MetadataDocument;
  const cache = buildSchemaCache(writers, introspectionOf(tables, tables), new Map(), loadConfig({}).limits);
  const maker = roleSchema(cache, 'maker', false).built.schema;
  const plain = roleSchema(cache, 'plain', false).built.schema;
  const inputFields = (schema: GraphQLSchema, type: string) => Object.keys((schema.getType(type) as GraphQLInputObjectType).getFields());

  test("an insert input has the field of a relationship to a table the role may only insert into, made of that role's view of it", () => {
    expect(schemaErrors(maker)).toEqual([]);
    expect(schemaErrors(plain)).toEqual([]);
    expect([inputFields(maker, 'album_insert_input'), inputFields(plain, 'album_insert_input')]).toEqual([
      ['id', 'artist'],
      ['id', 'artist'],
    ]);
    expect([inputFields(maker, 'artist_insert_input'), inputFields(plain, 'artist_insert_input')]).toEqual([
      ['id', 'name', 'albums'],
      ['id', 'albums'],
    ]);
    expect(maker.getType('album_insert_input')).not.toBe(plain.getType('album_insert_input'));
  });
});

describe('a version takes the types of the tables it has unchanged from the version before (decision 022)', () => {
  const limits = loadConfig({}).limits;
  const db = introspectionOf(tables, tables);
  const typeOf = (schema: GraphQLSchema, name: string) => schema.getType(name);
  const without = (name: string) => ({ ...document, tables: document.tables.filter((t) => t.table.name !== name) }) as MetadataDocument;

  test('a table added: the others keep their type objects, the new one is made, the schema is new', () => {
    const before = buildSchemaCache(without('note'), db, new Map(), limits);
    expect(schemaErrors(before.admin.schema)).toEqual([]);
    const after = buildSchemaCache(document, db, new Map(), limits, { previous: before.share });
    for (const name of ['artist', 'artist_bool_exp', 'album', 'album_insert_input', 'Int_comparison_exp', 'String_comparison_exp']) {
      expect(typeOf(after.admin.schema, name)).toBe(typeOf(before.admin.schema, name));
    }
    expect(typeOf(before.admin.schema, 'note')).toBeUndefined();
    expect(fieldsOf(after.admin.schema, 'note')).toEqual(['body', 'id']);
    expect(after.admin.schema).not.toBe(before.admin.schema);
    expect(schemaErrors(after.admin.schema)).toEqual([]);
  });

  test('a version that takes most tables from the one before is validated by its new types; one that makes most, whole (decision 029)', () => {
    // toConfig().assumeValid: graphql-js was told not to validate the schema whole (nothing validated it yet).
    const assumed = (schema: GraphQLSchema) => schema.toConfig().assumeValid;
    const first = buildSchemaCache(without('note'), db, new Map(), limits);
    expect(assumed(first.admin.schema)).toBe(false);
    expect(schemaErrors(first.admin.schema)).toEqual([]);
    // artist and album taken, note made.
    const added = buildSchemaCache(document, db, new Map(), limits, { previous: first.share });
    expect(assumed(added.admin.schema)).toBe(true);
    expect(schemaErrors(added.admin.schema)).toEqual([]);
    // From only note to all three: two of three made.
    const onlyNote = buildSchemaCache(
      { ...document, tables: document.tables.filter((t) => t.table.name === 'note') } as MetadataDocument,
      db,
      new Map(),
      limits,
    );
    expect(schemaErrors(onlyNote.admin.schema)).toEqual([]);
    const grown = buildSchemaCache(document, db, new Map(), limits, { previous: onlyNote.share });
    expect(assumed(grown.admin.schema)).toBe(false);
    expect(schemaErrors(grown.admin.schema)).toEqual([]);
  });

  test('without a version before, or when a role sees something else, nothing is taken', () => {
    const before = buildSchemaCache(document, db, new Map(), limits);
    const fanBefore = roleSchema(before, 'fan', false).built.schema;
    const fresh = buildSchemaCache(document, db, new Map(), limits);
    expect(typeOf(fresh.admin.schema, 'artist')).not.toBe(typeOf(before.admin.schema, 'artist'));
    const narrower = {
      ...document,
      tables: document.tables.map((t) => (t.table.name === 'note' ? { ...t, select_permissions: [select('fan', ['id'])] } : t)),
    } as MetadataDocument;
    const after = buildSchemaCache(narrower, db, new Map(), limits, { previous: before.share });
    const fanAfter = roleSchema(after, 'fan', false).built.schema;
    expect(fieldsOf(fanAfter, 'note')).toEqual(['id']);
    expect(typeOf(fanAfter, 'note')).not.toBe(typeOf(fanBefore, 'note'));
    expect(typeOf(fanAfter, 'artist')).toBe(typeOf(fanBefore, 'artist'));
    // admin's view of every table is the same: its whole schema is the version before's.
    expect(after.admin.schema).toBe(before.admin.schema);
  });

  test("what the database says of a column is part of a table's view: a comment, a nullability, a type", () => {
    const before = buildSchemaCache(document, db, new Map(), limits);
    expect(schemaErrors(before.admin.schema)).toEqual([]);
    const changed = tables.map((t) =>
      t.name !== 'note'
        ? t
        : {
            ...t,
            columns: [
              { ...t.columns[0]!, comment: 'the key' },
              { ...t.columns[1]!, nullable: true, type: 'int4', type_category: 'N' },
            ],
          },
    );
    const after = buildSchemaCache(document, introspectionOf(changed, changed), new Map(), limits, { previous: before.share });
    const note = after.admin.schema.getType('note') as GraphQLObjectType;
    expect(note.getFields().id!.description).toBe('the key');
    expect(String(note.getFields().body!.type)).toBe('Int');
    expect(String((after.admin.schema.getType('note_bool_exp') as GraphQLInputObjectType).getFields().body!.type)).toBe('Int_comparison_exp');
    expect(typeOf(after.admin.schema, 'artist')).toBe(typeOf(before.admin.schema, 'artist'));
    expect(schemaErrors(after.admin.schema)).toEqual([]);
  });

  test("an enum table's values are part of the view of every table whose column takes its enum", () => {
    const color = table('color', 4, [column('value', 'text'), { ...column('comment', 'text'), nullable: true }], []);
    color.constraints = [{ name: 'color_pkey', type: 'p', columns: ['value'], ref_schema: null, ref_table: null, ref_columns: null }];
    const paint = table(
      'paint',
      5,
      [column('id', 'int4'), column('color', 'text')],
      [{ name: 'paint_color_fkey', type: 'f', columns: ['color'], ref_schema: 'public', ref_table: 'color', ref_columns: ['value'] }],
    );
    const enumDb = introspectionOf([color, paint], [color, paint]);
    const enumDocument = {
      version: 2,
      tables: [{ table: { schema: 'public', name: 'color' }, is_enum: true }, { table: { schema: 'public', name: 'paint' } }],
    } as unknown as MetadataDocument;
    const values = (...names: string[]) => new Map([['public\u0000color', names.map((value) => ({ value, comment: null }))]]);
    const before = buildSchemaCache(enumDocument, enumDb, values('red', 'blue'), limits);
    expect(schemaErrors(before.admin.schema)).toEqual([]);
    const after = buildSchemaCache(enumDocument, enumDb, values('red', 'green'), limits, { previous: before.share });
    const schema = after.admin.schema;
    expect(schemaErrors(schema)).toEqual([]);
    const colorEnum = schema.getType('color_enum') as GraphQLEnumType;
    expect(colorEnum.getValues().map((v) => v.name)).toEqual(['green', 'red']);
    expect((schema.getType('paint') as GraphQLObjectType).getFields().color!.type).toEqual(new GraphQLNonNull(colorEnum));
    const comparison = schema.getType('color_enum_comparison_exp') as GraphQLInputObjectType;
    expect(comparison.getFields()._eq!.type).toBe(colorEnum);
    expect(schema.getType('paint')).not.toBe(before.admin.schema.getType('paint'));
    // the same values again: everything is taken
    const again = buildSchemaCache(enumDocument, enumDb, values('red', 'green'), limits, { previous: after.share });
    expect(again.admin.schema).toBe(schema);
  });

  test('types taken stay known to the versions after: a table added two versions later refers to the same comparison types', () => {
    const first = buildSchemaCache(without('note'), db, new Map(), limits);
    expect(schemaErrors(first.admin.schema)).toEqual([]);
    const second = buildSchemaCache(without('note'), db, new Map(), limits, { previous: first.share });
    expect(second.admin.schema).toBe(first.admin.schema);
    second.share.forgetPrevious();
    const third = buildSchemaCache(document, db, new Map(), limits, { previous: second.share });
    expect(schemaErrors(third.admin.schema)).toEqual([]);
    expect(third.admin.schema.getType('Int_comparison_exp')).toBe(first.admin.schema.getType('Int_comparison_exp'));
    // The version between took the whole schema, and with it the types of its tables for the versions after.
    for (const name of ['artist', 'album_bool_exp', 'artist_aggregate']) expect(third.admin.schema.getType(name)).toBe(first.admin.schema.getType(name));
    expect((third.admin.schema.getType('note_bool_exp') as GraphQLInputObjectType).getFields().id!.type).toBe(first.admin.schema.getType('Int_comparison_exp'));
  });

  test('a schema that is not valid with types of a version before is built again from nothing before anything is left out', () => {
    const before = buildSchemaCache(document, db, new Map(), limits);
    expect(schemaErrors(before.admin.schema)).toEqual([]);
    // A type of the version before that is not what its class makes: it must not be trusted.
    const noteClass = typeContext(before.models, before.share).classes.get('public\u0000note')!;
    before.share.typesOfClass(noteClass).set('note', new GraphQLObjectType({ name: 'note', fields: { 'not a name': { type: GraphQLString } } }));
    const noteOnly = { ...document, tables: document.tables.filter((t) => t.table.name === 'note') } as MetadataDocument;
    const taken = buildSchemaCache(noteOnly, db, new Map(), limits, { previous: before.share });
    expect(() => taken.admin.schema).toThrow('Names must only contain [_a-zA-Z0-9] but "not a name" does not.');
    const valid = validSchemaCache(noteOnly, db, new Map(), limits, { previous: before.share });
    expect(valid.problems).toEqual([]);
    expect(fieldsOf(valid.cache.admin.schema, 'note')).toEqual(['body', 'id']);
    expect(fieldsOf(roleSchema(valid.cache, 'fan', false).built.schema, 'note')).toEqual(['body', 'id']);
    // The admin schema that remote schemas are checked against too.
    const admin = adminSchemaOf(noteOnly, db, new Map(), limits, { previous: before.share });
    expect([schemaErrors(admin), fieldsOf(admin, 'note')]).toEqual([[], ['body', 'id']]);
  });
});

describe("each part of a table's view tells its types apart from the version before's", () => {
  const limits = loadConfig({}).limits;
  type Entry = MetadataDocument['tables'][number];
  /** The document with `note`'s entry changed by `change`. */
  const withNote = (change: (entry: Entry) => Entry) =>
    ({ ...document, tables: document.tables.map((t) => (t.table.name === 'note' ? change(t) : t)) }) as MetadataDocument;
  /** The database with `note` changed by `change`. */
  const noteDb = (change: (t: DbTable) => DbTable) => {
    const changed = tables.map((t) => (t.name === 'note' ? change(t) : t));
    return introspectionOf(changed, changed);
  };
  const unique = {
    name: 'note_body_key',
    type: 'u',
    columns: ['body'],
    ref_schema: null,
    ref_table: null,
    ref_columns: null,
  } as DbTable['constraints'][number];
  const fanMay = (extra: Record<string, unknown>) => withNote((t) => ({ ...t, ...extra }) as Entry);
  const variants: [string, string, MetadataDocument, ReturnType<typeof introspectionOf>][] = [
    [
      'a column named otherwise',
      'admin',
      withNote((t) => ({ ...t, configuration: { column_config: { body: { custom_name: 'text' } } } }) as Entry),
      noteDb((t) => t),
    ],
    [
      'root fields named otherwise',
      'admin',
      withNote((t) => ({ ...t, configuration: { custom_root_fields: { select: 'notes' } } }) as Entry),
      noteDb((t) => t),
    ],
    ['the table commented in the database', 'admin', document, noteDb((t) => ({ ...t, comment: 'notes kept' }))],
    ['no primary key', 'admin', document, noteDb((t) => ({ ...t, constraints: [] }))],
    ['one more unique constraint', 'admin', document, noteDb((t) => ({ ...t, constraints: [...t.constraints, unique] }))],
    ['the primary key on another column', 'admin', document, noteDb((t) => ({ ...t, constraints: [{ ...t.constraints[0]!, columns: ['body'] }] }))],
  ];
  const uniqueDb = noteDb((t) => ({ ...t, constraints: [...t.constraints, unique] }));
  const renamedDb = noteDb((t) => ({ ...t, constraints: [...t.constraints, { ...unique, name: 'note_body_unique' }] }));
  const fromUnique: [string, string, MetadataDocument, ReturnType<typeof introspectionOf>][] = [
    ['a unique constraint named otherwise', 'admin', document, renamedDb],
    ['an insert permission', 'fan', fanMay({ insert_permissions: [{ role: 'fan', permission: { columns: ['id'], check: {} } }] }), noteDb((t) => t)],
    [
      'an update permission',
      'fan',
      fanMay({ update_permissions: [{ role: 'fan', permission: { columns: ['body'], filter: {}, check: {} } }] }),
      noteDb((t) => t),
    ],
    ['a delete permission', 'fan', fanMay({ delete_permissions: [{ role: 'fan', permission: { filter: {} } }] }), noteDb((t) => t)],
    [
      'aggregations allowed',
      'fan',
      withNote(
        (t) => ({ ...t, select_permissions: [{ role: 'fan', permission: { columns: ['id', 'body'], filter: {}, allow_aggregations: true } }] }) as Entry,
      ),
      noteDb((t) => t),
    ],
  ];
  const db = introspectionOf(tables, tables);
  const schemaOf = (cache: ReturnType<typeof buildSchemaCache>, role: string) =>
    role === 'admin' ? cache.admin.schema : roleSchema(cache, role, false).built.schema;

  test.each([...variants.map((v) => [...v, db] as const), ...fromUnique.map((v) => [...v, uniqueDb] as const)])(
    '%s: new types for the table, the others taken',
    (_, role, changedDocument, changedDb, startDb) => {
      const before = buildSchemaCache(document, startDb, new Map(), limits);
      const previous = schemaOf(before, role);
      expect(schemaErrors(previous)).toEqual([]);
      const after = schemaOf(buildSchemaCache(changedDocument, changedDb, new Map(), limits, { previous: before.share }), role);
      expect(schemaErrors(after)).toEqual([]);
      expect(after.getType('artist')).toBe(previous.getType('artist'));
      expect(after.getType('note_bool_exp')).not.toBe(previous.getType('note_bool_exp'));
      // And the same once more takes everything.
      const again = buildSchemaCache(changedDocument, changedDb, new Map(), limits, { previous: before.share });
      const againSchema = schemaOf(again, role);
      expect(schemaOf(buildSchemaCache(changedDocument, changedDb, new Map(), limits, { previous: again.share }), role)).toBe(againSchema);
    },
  );

  test('insert and update columns are part of the view', () => {
    const insert = (columns: string[]) => fanMay({ insert_permissions: [{ role: 'fan', permission: { columns, check: {} } }] });
    const update = (columns: string[]) => fanMay({ update_permissions: [{ role: 'fan', permission: { columns, filter: {}, check: {} } }] });
    for (const [one, other] of [
      [insert(['id']), insert(['id', 'body'])],
      [insert(['id']), insert(['body'])],
      [update(['body']), update(['id', 'body'])],
      [update(['body']), update(['id'])],
    ] as const) {
      const before = buildSchemaCache(one, db, new Map(), limits);
      const fanBefore = roleSchema(before, 'fan', false).built.schema;
      const fanAfter = roleSchema(buildSchemaCache(other, db, new Map(), limits, { previous: before.share }), 'fan', false).built.schema;
      expect(schemaErrors(fanAfter)).toEqual([]);
      expect(fanAfter.getType('note_bool_exp')).not.toBe(fanBefore.getType('note_bool_exp'));
      expect(fanAfter.getType('artist')).toBe(fanBefore.getType('artist'));
    }
  });

  test('a relationship named otherwise: new types for its table and for the tables that reach it', () => {
    const renamed = {
      ...document,
      tables: document.tables.map((t) => (t.table.name === 'artist' ? { ...t, array_relationships: [{ ...t.array_relationships![0]!, name: 'records' }] } : t)),
    } as MetadataDocument;
    const before = buildSchemaCache(document, db, new Map(), limits);
    expect(schemaErrors(before.admin.schema)).toEqual([]);
    const after = buildSchemaCache(renamed, db, new Map(), limits, { previous: before.share });
    expect(schemaErrors(after.admin.schema)).toEqual([]);
    expect(fieldsOf(after.admin.schema, 'artist')).toEqual(['id', 'name', 'records', 'records_aggregate', 'secret']);
    expect(after.admin.schema.getType('album')).not.toBe(before.admin.schema.getType('album'));
    expect(after.admin.schema.getType('note')).toBe(before.admin.schema.getType('note'));
  });
});

describe("a table's class: its view and the classes of the tables it reaches", () => {
  const limits = loadConfig({}).limits;
  const fk = (from: string, col: string, to: string) =>
    ({ name: `${from}_${col}_fkey`, type: 'f', columns: [col], ref_schema: 'public', ref_table: to, ref_columns: ['id'] }) as DbTable['constraints'][number];
  // t1 -> t2 -> t3 (a chain); c1 <-> c2 (a cycle) -> t3; u on its own.
  const graph = [
    table('t1', 11, [column('id', 'int4'), column('next_id', 'int4')], [fk('t1', 'next_id', 't2')]),
    table('t2', 12, [column('id', 'int4'), column('next_id', 'int4')], [fk('t2', 'next_id', 't3')]),
    table('t3', 13, [column('id', 'int4'), column('body', 'text')], []),
    table('c1', 14, [column('id', 'int4'), column('other_id', 'int4')], [fk('c1', 'other_id', 'c2')]),
    table('c2', 15, [column('id', 'int4'), column('other_id', 'int4'), column('leaf_id', 'int4')], [fk('c2', 'other_id', 'c1'), fk('c2', 'leaf_id', 't3')]),
    table('u', 16, [column('id', 'int4')], []),
  ];
  const to = (name: string, column: string) => ({ name, using: { foreign_key_constraint_on: column } });
  const entries = [
    { table: { schema: 'public', name: 't1' }, object_relationships: [to('next', 'next_id')] },
    { table: { schema: 'public', name: 't2' }, object_relationships: [to('next', 'next_id')] },
    { table: { schema: 'public', name: 't3' } },
    { table: { schema: 'public', name: 'c1' }, object_relationships: [to('other', 'other_id')] },
    { table: { schema: 'public', name: 'c2' }, object_relationships: [to('other', 'other_id'), to('leaf', 'leaf_id')] },
    { table: { schema: 'public', name: 'u' } },
  ];
  const names = ['t1', 't2', 't3', 'c1', 'c2', 'u'];
  const classesOf = (order: typeof entries, dbTables: DbTable[]) => {
    const cache = buildSchemaCache({ version: 2, tables: order } as unknown as MetadataDocument, introspectionOf(dbTables, dbTables), new Map(), limits);
    const classes = typeContext(cache.models, cache.share).classes;
    return Object.fromEntries(names.map((n) => [n, classes.get(`public\u0000${n}`)!]));
  };
  const base = classesOf(entries, graph);

  test('the tables of one cycle share a class; every other table has its own', () => {
    expect(base.c1).toBe(base.c2);
    expect(new Set(Object.values(base)).size).toBe(5);
  });

  test('a cycle of three tables is one class, found from whichever table the walk starts', () => {
    const ring = [
      table('r1', 21, [column('id', 'int4'), column('n', 'int4')], [fk('r1', 'n', 'r2')]),
      table('r2', 22, [column('id', 'int4'), column('n', 'int4')], [fk('r2', 'n', 'r3')]),
      table('r3', 23, [column('id', 'int4'), column('n', 'int4')], [fk('r3', 'n', 'r1')]),
    ];
    const ringEntries = ['r1', 'r2', 'r3'].map((name) => ({ table: { schema: 'public', name }, object_relationships: [to('n', 'n')] }));
    for (const order of [ringEntries, [...ringEntries].reverse(), [ringEntries[1]!, ringEntries[0]!, ringEntries[2]!]]) {
      const cache = buildSchemaCache({ version: 2, tables: order } as unknown as MetadataDocument, introspectionOf(ring, ring), new Map(), limits);
      const classes = typeContext(cache.models, cache.share).classes;
      expect(new Set(['r1', 'r2', 'r3'].map((n) => classes.get(`public\u0000${n}`))).size).toBe(1);
      expect(schemaErrors(cache.admin.schema)).toEqual([]);
    }
  });

  test('the order of the tables in the metadata changes no class', () => {
    expect(classesOf([...entries].reverse(), [...graph].reverse())).toEqual(base);
    expect(classesOf([entries[2]!, entries[4]!, entries[0]!, entries[5]!, entries[3]!, entries[1]!], graph)).toEqual(base);
  });

  test('a table changed changes the class of every table that reaches it, and of no other', () => {
    const changed = graph.map((t) => (t.name === 't3' ? { ...t, columns: [t.columns[0]!, { ...t.columns[1]!, comment: 'changed' }] } : t));
    const after = classesOf(entries, changed);
    for (const n of ['t1', 't2', 't3', 'c1', 'c2']) expect({ [n]: after[n] }).not.toEqual({ [n]: base[n] });
    expect(after.u).toBe(base.u);
    expect(after.c1).toBe(after.c2);
    const cycleChanged = classesOf(
      entries,
      graph.map((t) => (t.name === 'c1' ? { ...t, comment: 'changed' } : t)),
    );
    expect([cycleChanged.c1 === base.c1, cycleChanged.c2 === base.c2, cycleChanged.t1, cycleChanged.t3, cycleChanged.u]).toEqual([
      false,
      false,
      base.t1,
      base.t3,
      base.u,
    ]);
  });
});

describe('validated by its new types, a version is found valid exactly when validating it whole finds it valid (decision 029)', () => {
  const limits = loadConfig({}).limits;
  const db = introspectionOf(tables, tables);
  const roles = ['fan', 'critic', 'guest'];
  // Names that make a schema invalid ("__…", reserved by introspection) or clash ("note": another table's type).
  const configuration = fc.record(
    {
      custom_name: fc.constantFrom('renamed', 'named', 'titled', '__hidden', 'note'),
      custom_root_fields: fc.record({ select: fc.constantFrom('listed', 'all', '__listed') }),
      custom_column_names: fc.record({ id: fc.constantFrom('ident', 'key', '__id') }),
    },
    { requiredKeys: [] },
  );
  /** 'valid', or what is wrong: graphql-js refusing to build (two types of one name) or a schema's errors. */
  const verdict = (schemas: (() => GraphQLSchema)[], errorsOf: (s: GraphQLSchema) => readonly unknown[]) => {
    try {
      return schemas.every((s) => errorsOf(s()).length === 0) ? 'valid' : 'invalid';
    } catch (error) {
      return `not built: ${(error as Error).message}`;
    }
  };
  const schemasOf = (cache: ReturnType<typeof buildSchemaCache>) => [
    () => cache.admin.schema,
    ...roles.map((role) => () => roleSchema(cache, role, false).built.schema),
  ];

  test('over versions that each change one table', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), configuration), { minLength: 1, maxLength: 8 }), (changes) => {
        let current = document;
        let previous: ReturnType<typeof buildSchemaCache>['share'] | undefined;
        for (const [index, config] of changes) {
          current = { ...current, tables: current.tables.map((t, i) => (i === index ? { ...t, configuration: config } : t)) } as MetadataDocument;
          const incremental = buildSchemaCache(current, db, new Map(), limits, previous ? { previous } : {});
          const whole = buildSchemaCache(current, db, new Map(), limits);
          const found = verdict(schemasOf(incremental), schemaErrors);
          expect([changes, found]).toEqual([changes, verdict(schemasOf(whole), (s) => validateSchema(s))]);
          incremental.share.forgetPrevious();
          // As the server does: only a valid version's types are taken by the next.
          if (found === 'valid') previous = incremental.share;
        }
      }),
      { numRuns: VERSION_RUNS },
    );
  });
});

describe("the share's memo of one version, and what it takes from the version before", () => {
  const limits = loadConfig({}).limits;
  const schemaNamed = (name: string) => ({ name }) as unknown as GraphQLSchema;

  test('a named type is taken from the version before only when made of the same; one without content is always made again', () => {
    const first = new TypeShare();
    const made: string[] = [];
    const make = (label: string) => () => {
      made.push(label);
      return { label };
    };
    const a = first.named('A', make('A1'), 'a');
    expect(first.named('A', make('A again'), 'a')).toBe(a);
    const b = first.named('B', make('B1'), 'b');
    const c = first.named('C', make('C1'));
    const second = new TypeShare(first);
    expect(second.named('A', make('A2'), 'a')).toBe(a);
    expect(second.named('B', make('B2'), 'b changed')).not.toBe(b);
    expect(second.named('C', make('C2'))).not.toBe(c);
    expect(made).toEqual(['A1', 'B1', 'C1', 'B2', 'C2']);
  });

  test('once the version before is forgotten, its named types stay known and its classes are taken no more', () => {
    const first = new TypeShare();
    const a = first.named('A', () => ({ a: 1 }), 'a');
    const firstTypes = first.typesOfClass('class of a table');
    const firstOther = first.typesOfClass('another class');
    const second = new TypeShare(first);
    expect(second.typesOfClass('class of a table')).toBe(firstTypes);
    second.forgetPrevious();
    expect(second.typesOfClass('another class')).not.toBe(firstOther);
    expect(second.named('A', () => ({ a: 2 }), 'a')).toBe(a);
    // And the version after that still finds it.
    const third = new TypeShare(second);
    third.forgetPrevious();
    expect(third.named('A', () => ({ a: 3 }), 'a')).toBe(a);
    // Forgotten twice, or with no version before: nothing to forget.
    third.forgetPrevious();
    expect(third.named('A', () => ({ a: 4 }), 'a')).toBe(a);
    const alone = new TypeShare();
    alone.forgetPrevious();
    expect(alone.named('A', () => ({ a: 5 }), 'a')).not.toBe(a);
  });

  test("a schema of the same roots: this version's own first, the version before's only when its schemas are carried", () => {
    const first = new TypeShare();
    const one = schemaNamed('one');
    expect(first.schema('roots', false, () => one)).toBe(one);
    expect(first.schema('roots', false, () => schemaNamed('again'))).toBe(one);
    const notCarried = new TypeShare(first);
    const two = schemaNamed('two');
    expect(notCarried.schema('roots', false, () => two)).toBe(two);
    const carried = new TypeShare(first);
    expect(carried.schema('roots', true, () => schemaNamed('three'))).toBe(one);
    expect(carried.schema('other roots', true, () => two)).toBe(two);
    expect([...carried.schemas]).toEqual([
      ['roots', one],
      ['other roots', two],
    ]);
  });

  test("the schemas a version mostly taken is validated against: the version before's and its own", () => {
    const before = buildSchemaCache(
      { ...document, tables: document.tables.filter((t) => t.table.name !== 'note') } as MetadataDocument,
      introspectionOf(tables, tables),
      new Map(),
      limits,
    );
    const previous = before.admin.schema;
    const after = buildSchemaCache(document, introspectionOf(tables, tables), new Map(), limits, { previous: before.share });
    const own = after.admin.schema;
    expect(after.share.schemasBefore()!()).toEqual([previous, own]);
  });

  test("the roots' key tells the functions apart", () => {
    const share = new TypeShare();
    expect(share.rootKey(new Map(), new Map(), ['f'])).not.toBe(share.rootKey(new Map(), new Map()));
    expect(share.rootKey(new Map(), new Map(), [])).toBe(share.rootKey(new Map(), new Map()));
  });

  test('a scalar of the database has one object in a version and the versions after: a table made again refers to the one the tables taken have', () => {
    const withUuid = tables.map((t) => (t.name === 'note' || t.name === 'artist' ? { ...t, columns: [...t.columns, column('ref', 'uuid')] } : t));
    const before = buildSchemaCache(document, introspectionOf(withUuid, withUuid), new Map(), limits);
    expect(schemaErrors(before.admin.schema)).toEqual([]);
    const changed = withUuid.map((t) => (t.name === 'note' ? { ...t, comment: 'changed' } : t));
    const after = buildSchemaCache(document, introspectionOf(changed, changed), new Map(), limits, { previous: before.share });
    expect(schemaErrors(after.admin.schema)).toEqual([]);
    const uuid = (schema: GraphQLSchema, type: string) => (schema.getType(type) as GraphQLObjectType).getFields().ref!.type;
    expect(after.admin.schema.getType('artist')).toBe(before.admin.schema.getType('artist'));
    expect(after.admin.schema.getType('note')).not.toBe(before.admin.schema.getType('note'));
    expect(uuid(after.admin.schema, 'note')).toBe(uuid(before.admin.schema, 'artist'));
  });
});
