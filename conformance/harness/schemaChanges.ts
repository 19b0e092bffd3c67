// Generated sequences of changes to the database and the metadata: DDL through run_sql, or outside
// the service followed by reload_metadata (columns added and dropped, tables and the composite type
// of a function's argument dropped and made again, functions altered) mixed with metadata changes
// (tables and functions tracked and untracked, relationships, select, insert, update and delete
// permissions, reloads, a query action) and remote schemas on the mock server (interfaces, unions,
// input objects, and now and then one that is no valid GraphQL, which must be refused), function
// permissions, and the same kinds of changes on a second source (sourceSteps.ts). Used by the
// cases that check what every change leaves behind (fuzz-schema-changes.test.ts).
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import type { HttpResult } from './client';
import { remoteHandler, remoteSdl, remoteSpec, type RemoteSpec } from './generatedRemotes';
import type { MockServer } from './mockServer';
import { functionPermissionChange, SIDE, SIDE_SETUP_SQL, sideChange, sideDdl, sideStart } from './sourceSteps';
import type { Target } from './target';

export const SCHEMA = 'fzinv';
const table = (name: string) => ({ schema: SCHEMA, name });
const fn = (name: string) => ({ schema: SCHEMA, name });

/** The composite type of near's argument: its fields' order and types change when it is made again. */
const POINT_SHAPES = ['x int, y int', 'x bigint, y int', 'y int, x int', 'x int, y int, z text'] as const;
const NEAR_BODIES = ['w = (p).x', 'w >= (p).x', 'id = (p).y'] as const;

const near = (body: string = NEAR_BODIES[0]) =>
  `create or replace function ${SCHEMA}.near(p ${SCHEMA}.pt) returns setof ${SCHEMA}.a language sql stable as $$ select * from ${SCHEMA}.a where ${body} $$;`;
// Takes a row of the table a (its row type changes with the table's columns).
// Dropped first: after the step that gives it another result type, `create or replace` could not change it back.
const LIKE_A = `drop function if exists ${SCHEMA}.like_a(${SCHEMA}.a); create function ${SCHEMA}.like_a(r ${SCHEMA}.a) returns setof ${SCHEMA}.b language sql stable as $$ select * from ${SCHEMA}.b where a_id = (r).id $$;`;
const TABLE_A = `create table ${SCHEMA}.a (id int primary key, v text, w int); insert into ${SCHEMA}.a values (1, 'one', 1), (2, 'two', 2), (3, null, 2);`;
const TABLE_B = `create table ${SCHEMA}.b (id int primary key, a_id int, note text); insert into ${SCHEMA}.b values (1, 1, 'n1'), (2, 2, null), (3, 1, 'n3');`;
const B_FOREIGN_KEY = `alter table ${SCHEMA}.b add constraint b_a_id_fkey foreign key (a_id) references ${SCHEMA}.a (id);`;

/** The database every sequence starts from. */
export const SETUP_SQL = `drop schema if exists ${SCHEMA} cascade; create schema ${SCHEMA};
  create type ${SCHEMA}.pt as (${POINT_SHAPES[0]}); ${TABLE_A} ${TABLE_B} ${B_FOREIGN_KEY} ${near()} ${LIKE_A}`;

/** DDL through run_sql: every text is valid SQL whatever came before; the metadata may refuse it. */
const ddl = fc.oneof(
  fc.constantFrom(
    `alter table ${SCHEMA}.a add column if not exists extra int default 3`,
    `alter table ${SCHEMA}.a drop column if exists extra`,
    `alter table ${SCHEMA}.b drop column if exists note`,
    `alter table ${SCHEMA}.b add column if not exists note text`,
    // The same shape again; what depends on the table goes with it and comes back.
    `drop table ${SCHEMA}.b cascade; ${TABLE_B} ${B_FOREIGN_KEY} ${LIKE_A}`,
    `drop table ${SCHEMA}.a cascade; ${TABLE_A} ${B_FOREIGN_KEY} ${near()} ${LIKE_A}`,
    `alter function ${SCHEMA}.near(${SCHEMA}.pt) volatile`,
    `alter function ${SCHEMA}.near(${SCHEMA}.pt) stable`,
    // Another result type: the old function must go first.
    `drop function ${SCHEMA}.like_a(${SCHEMA}.a); create function ${SCHEMA}.like_a(r ${SCHEMA}.a) returns setof ${SCHEMA}.a language sql stable as $$ select * from ${SCHEMA}.a where id = (r).id $$`,
  ),
  fc.constantFrom(...POINT_SHAPES).map((shape) => `drop type ${SCHEMA}.pt cascade; create type ${SCHEMA}.pt as (${shape}); ${near()}`),
  fc.constantFrom(...NEAR_BODIES).map((body) => near(body)),
);

const ROLES = ['r1', 'r2'] as const;
export const PROBED_ROLES = ['admin', ...ROLES] as const;
/** Rows of the types functions take, as GraphQL string literals (the table a as first made). */
export const ROW_LITERALS = { pt_scalar: '"(1,2)"', a_scalar: '"(1,one,1)"' };

const permissionFilter = fc.constantFrom({}, { w: { _gt: 1 } }, { id: { _eq: 'X-Engine-User-Id' } });
const selectPermission = fc.record({
  table: fc.constantFrom('a', 'b'),
  role: fc.constantFrom(...ROLES),
  columns: fc.oneof(fc.constant('*' as const), fc.subarray(['id', 'v', 'w', 'a_id', 'note'], { minLength: 1 })),
  filter: permissionFilter,
  allow_aggregations: fc.boolean(),
});

const WRITES = ['insert', 'update', 'delete'] as const;
/** A role's insert, update or delete permission: its mutations join the role's schema, and are asked after each change. */
const writePermission = fc
  .record({ t: fc.constantFrom('a', 'b'), role: fc.constantFrom(...ROLES), kind: fc.constantFrom(...WRITES), filter: permissionFilter })
  .map(({ t, role, kind, filter }) => ({
    type: `create_${kind}_permission`,
    args: {
      table: table(t),
      role,
      permission: kind === 'insert' ? { columns: '*', check: filter } : kind === 'update' ? { columns: '*', filter, check: filter } : { filter },
    },
  }));

const metadataChange = fc.oneof(
  fc.constantFrom('a', 'b').map((name) => ({ type: 'track_table', args: { table: table(name) } })),
  fc.constantFrom('a', 'b').map((name) => ({ type: 'untrack_table', args: { table: table(name), cascade: true } })),
  fc.constantFrom('near', 'like_a').map((name) => ({ type: 'track_function', args: { function: fn(name) } })),
  fc.constantFrom('near', 'like_a').map((name) => ({ type: 'untrack_function', args: { function: fn(name) } })),
  fc.constant({ type: 'create_object_relationship', args: { table: table('b'), name: 'parent', using: { foreign_key_constraint_on: 'a_id' } } }),
  fc.constant({
    type: 'create_array_relationship',
    args: { table: table('a'), name: 'children', using: { foreign_key_constraint_on: { table: table('b'), column: 'a_id' } } },
  }),
  fc.constantFrom(['b', 'parent'], ['a', 'children']).map(([t, name]) => ({ type: 'drop_relationship', args: { table: table(t!), relationship: name } })),
  selectPermission.map(({ table: t, role, columns, filter, allow_aggregations }) => ({
    type: 'create_select_permission',
    // The columns a table does not have make a refused change now and then.
    args: {
      table: table(t),
      role,
      permission: { columns: columns === '*' ? '*' : columns.filter((c) => t === 'b' || !['a_id', 'note'].includes(c)), filter, allow_aggregations },
    },
  })),
  fc
    .record({ t: fc.constantFrom('a', 'b'), role: fc.constantFrom(...ROLES) })
    .map(({ t, role }) => ({ type: 'drop_select_permission', args: { table: table(t), role } })),
  writePermission,
  fc
    .record({ t: fc.constantFrom('a', 'b'), role: fc.constantFrom(...ROLES), kind: fc.constantFrom(...WRITES) })
    .map(({ t, role, kind }) => ({ type: `drop_${kind}_permission`, args: { table: table(t), role } })),
  fc.constantFrom({ type: 'reload_metadata', args: {} }, { type: 'reload_metadata', args: { reload_remote_schemas: true } }),
);

const ACTION_TYPES = {
  objects: [
    {
      name: 'FzPicked',
      fields: [
        { name: 'id', type: 'Int!' },
        { name: 'label', type: 'String' },
      ],
      relationships: [{ name: 'row', type: 'object', remote_table: table('a'), field_mapping: { id: 'id' } }],
    },
  ],
};
const actionOf = (base: string) => ({
  type: 'create_action',
  args: {
    name: 'fz_pick',
    definition: { type: 'query', handler: `${base}/schema-changes/action`, output_type: 'FzPicked', arguments: [{ name: 'n', type: 'Int' }] },
  },
});

export type Step =
  | { readonly kind: 'sql'; readonly sql: string }
  // The same DDL outside the service, then reload_metadata.
  | { readonly kind: 'outside_sql'; readonly sql: string }
  | { readonly kind: 'metadata'; readonly body: { type: string; args: unknown } }
  | { readonly kind: 'add_remote'; readonly remote: RemoteSpec }
  | { readonly kind: 'remove_remote'; readonly name: string }
  // A query action (on the mock server) whose output has a relationship to the table a.
  | { readonly kind: 'add_action' }
  // DDL on the side source's database: through run_sql with its source, or outside then reload_metadata.
  | { readonly kind: 'side_sql'; readonly sql: string }
  | { readonly kind: 'side_outside_sql'; readonly sql: string };

const OWN_FUNCTIONS = [fn('near'), fn('like_a')];

/** One generated step; with `sideUrl`, steps on the side source (on the database there) too. */
const step = (sideUrl: string | undefined): fc.Arbitrary<Step> =>
  fc.oneof(
    { arbitrary: ddl.map((sql) => ({ kind: 'sql' as const, sql })), weight: 3 },
    { arbitrary: ddl.map((sql) => ({ kind: 'outside_sql' as const, sql })), weight: 1 },
    { arbitrary: metadataChange.map((body) => ({ kind: 'metadata' as const, body })), weight: 4 },
    { arbitrary: functionPermissionChange(OWN_FUNCTIONS, sideUrl !== undefined).map((body) => ({ kind: 'metadata' as const, body })), weight: 2 },
    { arbitrary: remoteSpec.map((remote) => ({ kind: 'add_remote' as const, remote })), weight: 1 },
    { arbitrary: fc.constantFrom('rs0', 'rs1').map((name) => ({ kind: 'remove_remote' as const, name })), weight: 1 },
    ...(sideUrl
      ? [
          { arbitrary: sideDdl.map((sql) => ({ kind: 'side_sql' as const, sql })), weight: 2 },
          { arbitrary: sideDdl.map((sql) => ({ kind: 'side_outside_sql' as const, sql })), weight: 1 },
          { arbitrary: sideChange(sideUrl).map((body) => ({ kind: 'metadata' as const, body })), weight: 3 },
        ]
      : []),
  );

const metadata = (type: string, args: unknown): Step => ({ kind: 'metadata', body: { type, args } });
/** What a sequence may start from besides the two tables: most later changes need some of it. */
const START: Step[] = [
  metadata('track_function', { function: fn('near') }),
  metadata('track_function', { function: fn('like_a') }),
  metadata('create_object_relationship', { table: table('b'), name: 'parent', using: { foreign_key_constraint_on: 'a_id' } }),
  metadata('create_array_relationship', { table: table('a'), name: 'children', using: { foreign_key_constraint_on: { table: table('b'), column: 'a_id' } } }),
  metadata('create_select_permission', { table: table('a'), role: 'r1', permission: { columns: '*', filter: {}, allow_aggregations: true } }),
  metadata('create_select_permission', { table: table('b'), role: 'r1', permission: { columns: ['id', 'a_id'], filter: {} } }),
  metadata('create_select_permission', { table: table('a'), role: 'r2', permission: { columns: ['id', 'w'], filter: { w: { _gt: 1 } } } }),
  metadata('create_insert_permission', { table: table('b'), role: 'r1', permission: { columns: '*', check: {} } }),
  metadata('create_update_permission', { table: table('a'), role: 'r2', permission: { columns: ['w'], filter: { w: { _gt: 1 } }, check: {} } }),
  metadata('pg_create_function_permission', { function: fn('near'), role: 'r1' }),
  metadata('pg_create_function_permission', { function: fn('like_a'), role: 'r2' }),
  { kind: 'add_remote', remote: { name: 'rs0', interfaces: true, union: true, input: true, flaw: 'none' } },
  { kind: 'add_action' },
];

/** A sequence: the tables tracked, some of START, the side source with its tables and some of the rest of its start, then generated steps. */
export const steps = (maxLength: number, sideUrl?: string): fc.Arbitrary<Step[]> => {
  const [add, trackC, trackD, ...side] = sideUrl ? sideStart(sideUrl).map((body): Step => ({ kind: 'metadata', body })) : [];
  return fc
    .tuple(fc.subarray(START), fc.subarray(side), fc.array(step(sideUrl), { minLength: 1, maxLength }))
    .map(([start, onSide, generated]) => [
      metadata('track_table', { table: table('a') }),
      metadata('track_table', { table: table('b') }),
      ...start,
      ...(add ? [add, trackC!, trackD!, ...onSide] : []),
      ...generated,
    ]);
};

/** The side source's database, where a run has one. */
export interface SideDatabase {
  sql(text: string): Promise<unknown>;
}

/** Start a sequence: empty metadata, the database of SETUP_SQL and the side database of SIDE_SETUP_SQL. */
export async function startSequence(target: Target, side?: SideDatabase): Promise<void> {
  await target.reset();
  await target.sql(SETUP_SQL);
  await side?.sql(SIDE_SETUP_SQL);
}

// Each remote added gets a path of its own, so that no earlier handler answers for it.
let remotesServed = 0;

/** Apply one step. */
export async function applyStep(target: Target, remote: MockServer, s: Step, side?: SideDatabase): Promise<HttpResult> {
  switch (s.kind) {
    case 'sql':
      return target.metadata({ type: 'run_sql', args: { sql: s.sql } }, { endpoint: '/v2/query' });
    case 'outside_sql':
      await target.sql(s.sql);
      return target.metadata({ type: 'reload_metadata', args: {} });
    case 'metadata':
      return target.metadata(s.body);
    case 'add_remote': {
      const path = `/schema-changes/${++remotesServed}/${s.remote.name}`;
      remote.use(remoteHandler(path, s.remote));
      return target.metadata({ type: 'add_remote_schema', args: { name: s.remote.name, definition: { url: `${remote.url}${path}`, timeout_seconds: 10 } } });
    }
    case 'remove_remote':
      return target.metadata({ type: 'remove_remote_schema', args: { name: s.name } });
    case 'add_action':
      remote.use(http.post('/schema-changes/action', () => HttpResponse.json({ id: 1, label: 'one' })));
      return target.metadata({ type: 'bulk', args: [{ type: 'set_custom_types', args: ACTION_TYPES }, actionOf(remote.url)] });
    case 'side_sql':
      return target.metadata({ type: 'run_sql', args: { source: SIDE, sql: s.sql } }, { endpoint: '/v2/query' });
    case 'side_outside_sql':
      await side!.sql(s.sql);
      return target.metadata({ type: 'reload_metadata', args: {} });
  }
}

/** One line for a step in a failure's report. */
export function describeStep(s: Step): string {
  switch (s.kind) {
    case 'sql':
      return `run_sql ${JSON.stringify(s.sql)}`;
    case 'outside_sql':
      return `SQL outside, then reload_metadata: ${JSON.stringify(s.sql)}`;
    case 'metadata':
      return JSON.stringify(s.body);
    case 'add_remote':
      return `add_remote_schema ${s.remote.name} (${s.remote.flaw}): ${remoteSdl(s.remote).replace(/\n/g, ' ')}`;
    case 'remove_remote':
      return `remove_remote_schema ${s.name}`;
    case 'add_action':
      return `set_custom_types and create_action fz_pick: ${JSON.stringify(ACTION_TYPES)}`;
    case 'side_sql':
      return `run_sql on ${SIDE} ${JSON.stringify(s.sql)}`;
    case 'side_outside_sql':
      return `SQL outside on ${SIDE}'s database, then reload_metadata: ${JSON.stringify(s.sql)}`;
  }
}
