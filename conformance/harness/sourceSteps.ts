// Steps of the schema-changes fuzzer on a second source (decision dec.source.forms): the source
// `side` on a database of its own, added and dropped; DDL on its database through run_sql with
// `args.source`, or outside the service followed by reload_metadata; its tables and function tracked
// and untracked, relationships, select permissions and function permissions in source-prefixed
// form (decision dec.metadata.source-prefixed). And function permissions on the server's own
// functions, which every source's changes may leave without their table or their role's select.
import fc from 'fast-check';

export const SIDE = 'side';
export const SIDE_SCHEMA = 'fzside';
const table = (name: string) => ({ schema: SIDE_SCHEMA, name });
const HEAVY = { schema: SIDE_SCHEMA, name: 'heavy' };

const TABLE_C = `create table ${SIDE_SCHEMA}.c (id int primary key, v text, w int); insert into ${SIDE_SCHEMA}.c values (1, 'one', 1), (2, 'two', 2);`;
const TABLE_D = `create table ${SIDE_SCHEMA}.d (id int primary key, c_id int, note text); insert into ${SIDE_SCHEMA}.d values (1, 1, 'n1'), (2, 2, null);`;
// Not valid: the rows of the other table are whatever the mutations probed left, and need not match.
const D_FOREIGN_KEY = `alter table ${SIDE_SCHEMA}.d add constraint d_c_id_fkey foreign key (c_id) references ${SIDE_SCHEMA}.c (id) not valid;`;
const HEAVY_BODIES = ['w >= lo', 'id > lo', 'v is not null'] as const;
const heavy = (body: string = HEAVY_BODIES[0]) =>
  `create or replace function ${SIDE_SCHEMA}.heavy(lo int) returns setof ${SIDE_SCHEMA}.c language sql stable as $$ select * from ${SIDE_SCHEMA}.c where ${body} $$;`;

/** The side database every sequence starts from. */
export const SIDE_SETUP_SQL = `drop schema if exists ${SIDE_SCHEMA} cascade; create schema ${SIDE_SCHEMA}; ${TABLE_C} ${TABLE_D} ${D_FOREIGN_KEY} ${heavy()}`;

/** DDL on the side database: valid SQL whatever came before; the metadata may refuse it. */
export const sideDdl: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    `alter table ${SIDE_SCHEMA}.c add column if not exists extra int default 3`,
    `alter table ${SIDE_SCHEMA}.c drop column if exists extra`,
    `alter table ${SIDE_SCHEMA}.d drop column if exists note`,
    `alter table ${SIDE_SCHEMA}.d add column if not exists note text`,
    `drop table ${SIDE_SCHEMA}.d cascade; ${TABLE_D} ${D_FOREIGN_KEY}`,
    `drop table ${SIDE_SCHEMA}.c cascade; ${TABLE_C} ${D_FOREIGN_KEY} ${heavy()}`,
    `alter function ${SIDE_SCHEMA}.heavy(int) volatile`,
    `alter function ${SIDE_SCHEMA}.heavy(int) stable`,
  ),
  fc.constantFrom(...HEAVY_BODIES).map((body) => heavy(body)),
);

const ROLES = ['r1', 'r2'] as const;

/** The source as pg_add_source adds it, on the database at `url`. */
export const addSide = (url: string) => ({ type: 'pg_add_source', args: { name: SIDE, configuration: { connection_info: { database_url: url } } } });

/** Function permissions of the server's own functions (`functions`) and, `withSide`, of the side's, on the roles of the sequence. */
export const functionPermissionChange = (functions: readonly { schema: string; name: string }[], withSide: boolean) =>
  fc
    .record({
      on: fc.constantFrom<[string, { schema: string; name: string }]>(
        ...functions.map((f): [string, typeof f] => ['default', f]),
        ...(withSide ? [[SIDE, HEAVY] as [string, typeof HEAVY]] : []),
      ),
      role: fc.constantFrom(...ROLES),
      drop: fc.boolean(),
    })
    .map(({ on: [source, fn], role, drop }) => ({
      type: drop ? 'pg_drop_function_permission' : 'pg_create_function_permission',
      args: { ...(source === 'default' ? {} : { source }), function: fn, role },
    }));

/** Metadata changes on the side source (and the source itself added again or dropped). */
export const sideChange = (url: string) =>
  fc.oneof(
    fc.constantFrom('c', 'd').map((name) => ({ type: 'pg_track_table', args: { source: SIDE, table: table(name) } })),
    fc.constantFrom('c', 'd').map((name) => ({ type: 'pg_untrack_table', args: { source: SIDE, table: table(name), cascade: true } })),
    fc.constantFrom('pg_track_function', 'pg_untrack_function').map((type) => ({ type, args: { source: SIDE, function: HEAVY } })),
    fc.constant({
      type: 'pg_create_object_relationship',
      args: { source: SIDE, table: table('d'), name: 'parent', using: { foreign_key_constraint_on: 'c_id' } },
    }),
    fc.constant({
      type: 'pg_create_array_relationship',
      args: { source: SIDE, table: table('c'), name: 'children', using: { foreign_key_constraint_on: { table: table('d'), column: 'c_id' } } },
    }),
    fc
      .constantFrom(['d', 'parent'], ['c', 'children'])
      .map(([t, name]) => ({ type: 'pg_drop_relationship', args: { source: SIDE, table: table(t!), relationship: name } })),
    fc
      .record({
        t: fc.constantFrom('c', 'd'),
        role: fc.constantFrom(...ROLES),
        columns: fc.oneof(fc.constant('*' as const), fc.subarray(['id', 'v', 'w', 'c_id', 'note'], { minLength: 1 })),
        filter: fc.constantFrom({}, { id: { _gt: 1 } }, { id: { _eq: 'X-Engine-User-Id' } }),
      })
      .map(({ t, role, columns, filter }) => ({
        type: 'pg_create_select_permission',
        // Columns the table lacks make a refused change now and then.
        args: { source: SIDE, table: table(t), role, permission: { columns, filter, allow_aggregations: true } },
      })),
    fc
      .record({ t: fc.constantFrom('c', 'd'), role: fc.constantFrom(...ROLES) })
      .map(({ t, role }) => ({ type: 'pg_drop_select_permission', args: { source: SIDE, table: table(t), role } })),
    fc.constantFrom(addSide(url), { type: 'pg_drop_source', args: { name: SIDE, cascade: true } }),
  );

/** What a sequence with the side source may start from: the source, its tables and function tracked, and some permissions. */
export const sideStart = (url: string) => [
  addSide(url),
  { type: 'pg_track_table', args: { source: SIDE, table: table('c') } },
  { type: 'pg_track_table', args: { source: SIDE, table: table('d') } },
  { type: 'pg_track_function', args: { source: SIDE, function: HEAVY } },
  { type: 'pg_create_object_relationship', args: { source: SIDE, table: table('d'), name: 'parent', using: { foreign_key_constraint_on: 'c_id' } } },
  { type: 'pg_create_select_permission', args: { source: SIDE, table: table('c'), role: 'r1', permission: { columns: '*', filter: {} } } },
  { type: 'pg_create_function_permission', args: { source: SIDE, function: HEAVY, role: 'r1' } },
];
