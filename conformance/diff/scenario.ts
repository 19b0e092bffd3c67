// The scenarios of a differential run, and their fast-check generators: up to three related tables
// with generated rows, a metadata document (select, insert, update and delete permissions with
// generated BoolExps, relationships, REST endpoints over saved queries) and a list of requests
// (GraphQL queries, aggregates and mutations per role, legacy DML, REST calls, metadata
// operations). Every part is a plain value that fast-check shrinks on its own: a failing scenario
// shrinks towards one table, no rows, one permission and one request.
import fc from 'fast-check';
import { boolExpArbitraries, type BoolExp, type TableShape } from '../harness/boolExpModel';

/** The schema every scenario lives in, on both targets. */
export const DIFF_SCHEMA = 'engine_diff';

export type ColumnType = 'integer' | 'text' | 'boolean' | 'jsonb';

/** The tables a scenario may have (t1 and t2 refer to t0 by `p`). */
export const TABLES: readonly { name: string; columns: Readonly<Record<string, ColumnType>> }[] = [
  { name: 't0', columns: { id: 'integer', n: 'integer', t: 'text', b: 'boolean', j: 'jsonb', owner: 'integer' } },
  { name: 't1', columns: { id: 'integer', n: 'integer', t: 'text', p: 'integer' } },
  { name: 't2', columns: { id: 'integer', b: 'boolean', t: 'text', owner: 'integer', p: 'integer' } },
];

/** The relationships between the tables, when the scenario has both ends. */
export const RELATIONSHIPS: readonly { table: number; name: string; kind: 'object' | 'array'; to: number; mapping: Record<string, string> }[] = [
  { table: 1, name: 'parent', kind: 'object', to: 0, mapping: { p: 'id' } },
  { table: 2, name: 'parent', kind: 'object', to: 0, mapping: { p: 'id' } },
  { table: 0, name: 't1s', kind: 'array', to: 1, mapping: { id: 'p' } },
  { table: 0, name: 't2s', kind: 'array', to: 2, mapping: { id: 'p' } },
];

const SHAPES: Record<string, TableShape> = {
  t0: { ints: ['n', 'owner'], texts: ['t'], bools: ['b'], jsonbs: ['j'], sessionInts: ['owner'], relationships: { t1s: 't1', t2s: 't2' } },
  t1: { ints: ['n', 'p'], texts: ['t'], bools: [], jsonbs: [], sessionInts: [], relationships: { parent: 't0' } },
  t2: { ints: ['owner', 'p'], texts: ['t'], bools: ['b'], jsonbs: [], sessionInts: ['owner'], relationships: { parent: 't0' } },
};

export type Row = Record<string, unknown>;
export type Role = 'admin' | 'r0' | 'r1';
export type PermissionKind = 'select' | 'insert' | 'update' | 'delete';

export interface Permission {
  table: number;
  role: 'r0' | 'r1';
  kind: PermissionKind;
  /** The permission's body as the metadata has it. */
  permission: Record<string, unknown>;
}

/** A REST endpoint `r<i>` over a saved query that selects the rows of `table` whose `column` equals `$v`. */
export interface RestEndpoint {
  table: number;
  column: string;
}

export interface Caller {
  role: Role;
  /** X-Engine-User-Id, for roles. */
  userId: '1' | '2';
}

export type Request =
  | ({
      kind: 'select';
      table: number;
      fields: string[];
      where?: BoolExp;
      orderBy: [string, 'asc' | 'desc'][];
      limit?: number;
      offset?: number;
      distinctOn?: string;
      nested: boolean;
    } & Caller)
  | ({ kind: 'aggregate'; table: number; where?: BoolExp; fn?: ['max' | 'min' | 'sum' | 'avg', string] } & Caller)
  | ({ kind: 'insert'; table: number; objects: Row[] } & Caller)
  | ({ kind: 'update'; table: number; where: BoolExp; set: Row } & Caller)
  | ({ kind: 'delete'; table: number; where: BoolExp } & Caller)
  | { kind: 'dml-select'; table: number; where?: BoolExp; orderBy: [string, 'asc' | 'desc'][]; limit?: number }
  | { kind: 'dml-count'; table: number; where?: BoolExp }
  | { kind: 'rest'; endpoint: number; value: unknown }
  | { kind: 'metadata'; operation: Record<string, unknown> };

export interface Scenario {
  /** Which of TABLES exist (a relationship needs both of its tables). */
  tables: boolean[];
  /** Rows of each table (those of a table that does not exist are not made). */
  rows: Row[][];
  relationships: boolean;
  permissions: Permission[];
  rest: RestEndpoint[];
  requests: Request[];
}

/** The request kinds a run makes, by area (`--areas`). */
export const AREAS = {
  graphql: ['select', 'aggregate'],
  mutations: ['insert', 'update', 'delete'],
  dml: ['dml-select', 'dml-count'],
  rest: ['rest'],
  metadata: ['metadata'],
} as const satisfies Record<string, readonly Request['kind'][]>;
export type Area = keyof typeof AREAS;

const TEXTS = ['a', 'b', 'ab', 'Ab', '', "'", '%', 'a%b', 'ä', '😀'] as const;
const VALUES: Record<ColumnType, fc.Arbitrary<unknown>> = {
  integer: fc.integer({ min: -2, max: 12 }),
  text: fc.constantFrom(...TEXTS),
  boolean: fc.boolean(),
  jsonb: fc.constantFrom<Record<string, unknown>>({}, { a: 1 }, { a: 2, b: 'x' }, { b: 'y', c: true }),
};
const REFERENCE = fc.integer({ min: 1, max: 5 });

const columnsOf = (table: number) => Object.keys(TABLES[table]!.columns);
const dataColumns = (table: number) => columnsOf(table).filter((c) => c !== 'id');
const valueOf = (table: number, column: string) => (column === 'p' || column === 'owner' ? REFERENCE : VALUES[TABLES[table]!.columns[column]!]);

/** A row's values but its id (given by its place); each may be null. */
const rowArbitrary = (table: number): fc.Arbitrary<Row> =>
  fc.record(Object.fromEntries(dataColumns(table).map((c) => [c, fc.option(valueOf(table, c), { nil: null, freq: 4 })])));

/** `first` (what a value shrinks to) `weight` times in `weight + otherWeight`, else `other`. */
function mostly<A, B>(first: fc.Arbitrary<A>, weight: number, other: fc.Arbitrary<B>, otherWeight = 1): fc.Arbitrary<A | B> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight, arbitrary: first as fc.Arbitrary<A | B> },
    { weight: otherWeight, arbitrary: other as fc.Arbitrary<A | B> },
  );
}

const permissionFilters = boolExpArbitraries(SHAPES, 'permission');
const wheres = boolExpArbitraries(SHAPES, 'where');
const filterOf = (table: number) => permissionFilters[TABLES[table]!.name]!;
const whereOf = (table: number) => wheres[TABLES[table]!.name]!;

/** A role's permissions on a table: mostly a select permission, each of the others half the time. */
const rolePermissions = (table: number, role: 'r0' | 'r1'): fc.Arbitrary<Permission[]> => {
  // Mostly every column and every row: a role that sees nothing asks few questions worth comparing.
  const columns = mostly(fc.constant(columnsOf(table)), 3, fc.subarray(columnsOf(table), { minLength: 1 }));
  const writable = fc.subarray(dataColumns(table), { minLength: 1 });
  const filter = mostly(fc.constant({}), 1, filterOf(table));
  const sometimes = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
  const select = fc
    .record({
      columns,
      filter,
      limit: seldom(fc.integer({ min: 0, max: 4 }), 3),
      aggregations: fc.boolean(),
    })
    .map(({ columns, filter, limit, aggregations }) => ({
      columns,
      filter,
      ...(limit !== undefined ? { limit } : {}),
      ...(aggregations ? { allow_aggregations: true } : {}),
    }));
  const insert = fc.record({ check: filter }).map(({ check }) => ({ columns: columnsOf(table), check }));
  const update = fc
    .record({ columns: writable, filter, check: fc.option(filterOf(table), { nil: undefined }) })
    .map(({ columns, filter, check }) => ({ columns, filter, ...(check ? { check } : {}) }));
  const remove = fc.record({ filter });
  return fc
    .record({ select: fc.option(select, { nil: undefined, freq: 5 }), insert: sometimes(insert), update: sometimes(update), delete: sometimes(remove) })
    .map((kinds) =>
      (Object.entries(kinds) as [PermissionKind, Record<string, unknown> | undefined][])
        .filter(([, permission]) => permission !== undefined)
        .map(([kind, permission]) => ({ table, role, kind, permission: permission! })),
    );
};

const caller: fc.Arbitrary<Caller> = fc.record({ role: fc.constantFrom<Role>('r0', 'r1', 'admin'), userId: fc.constantFrom<'1' | '2'>('1', '2') });
const orderBy = (table: number) => fc.array(fc.tuple(fc.constantFrom(...dataColumns(table)), fc.constantFrom<'asc' | 'desc'>('asc', 'desc')), { maxLength: 2 });
/** Present one time in `1 + absent`: limits, offsets and distinct_on mostly leave rows to compare. */
const seldom = <T>(a: fc.Arbitrary<T>, absent = 2) => mostly(fc.constant(undefined), absent, a);
const small = seldom(fc.integer({ min: 0, max: 4 }));
const optionalWhere = (table: number) => seldom(whereOf(table), 1);

const requestOn = (table: number): fc.Arbitrary<Request> => {
  const numeric = dataColumns(table).filter((c) => TABLES[table]!.columns[c] === 'integer');
  return fc.oneof(
    { arbitrary: selectOn(table), weight: 4 },
    { arbitrary: aggregateOn(table, numeric), weight: 2 },
    { arbitrary: writeOn(table), weight: 3 },
    { arbitrary: dmlOn(table), weight: 2 },
  );
};

const selectOn = (table: number): fc.Arbitrary<Request> =>
  fc
    .record({
      caller,
      fields: fc.subarray(columnsOf(table), { minLength: 1 }),
      where: optionalWhere(table),
      orderBy: orderBy(table),
      limit: small,
      offset: seldom(fc.integer({ min: 0, max: 4 }), 3),
      distinctOn: seldom(fc.constantFrom(...dataColumns(table)), 4),
      nested: fc.boolean(),
    })
    .map(({ caller, ...rest }) => ({ kind: 'select' as const, table, ...caller, ...dropUndefined(rest) }));

const aggregateOn = (table: number, numeric: string[]): fc.Arbitrary<Request> =>
  fc
    .record({
      caller,
      where: optionalWhere(table),
      fn: fc.option(fc.tuple(fc.constantFrom<'max' | 'min' | 'sum' | 'avg'>('max', 'min', 'sum', 'avg'), fc.constantFrom(...numeric)), { nil: undefined }),
    })
    .map(({ caller, ...rest }) => ({ kind: 'aggregate' as const, table, ...caller, ...dropUndefined(rest) }));

const writeOn = (table: number): fc.Arbitrary<Request> =>
  fc.oneof(
    fc
      .record({ caller, objects: fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), rowArbitrary(table)), { minLength: 1, maxLength: 2 }) })
      .map(({ caller, objects }) => ({ kind: 'insert' as const, table, ...caller, objects: objects.map(([id, row]) => ({ id, ...row })) })),
    fc
      .record({
        caller,
        where: whereOf(table),
        set: rowArbitrary(table).chain((row) => fc.subarray(Object.keys(row), { minLength: 1 }).map((keys) => pick(row, keys))),
      })
      .map(({ caller, ...rest }) => ({ kind: 'update' as const, table, ...caller, ...rest })),
    fc.record({ caller, where: whereOf(table) }).map(({ caller, where }) => ({ kind: 'delete' as const, table, ...caller, where })),
  );

const dmlOn = (table: number): fc.Arbitrary<Request> =>
  fc.oneof(
    fc
      .record({ where: optionalWhere(table), orderBy: orderBy(table), limit: small })
      .map((rest) => ({ kind: 'dml-select' as const, table, ...dropUndefined(rest) })),
    fc.record({ where: optionalWhere(table) }).map((rest) => ({ kind: 'dml-count' as const, table, ...dropUndefined(rest) })),
  );

/** Metadata operations, some refused (a column or table that does not exist, a name taken). */
const metadataOperation = (table: number): fc.Arbitrary<Request> => {
  const qualified = { schema: DIFF_SCHEMA, name: TABLES[table]!.name };
  const role = fc.constantFrom('r0', 'r1', 'r2');
  const op = fc.oneof(
    fc.record({ role, columns: fc.subarray([...columnsOf(table), 'nope'], { minLength: 1 }), filter: filterOf(table) }).map(({ role, columns, filter }) => ({
      type: 'pg_create_select_permission',
      args: { source: 'default', table: qualified, role, permission: { columns, filter } },
    })),
    role.map((role) => ({ type: 'pg_drop_select_permission', args: { source: 'default', table: qualified, role } })),
    fc.constantFrom(qualified, { schema: DIFF_SCHEMA, name: 'missing' }).map((t) => ({ type: 'pg_track_table', args: { source: 'default', table: t } })),
    fc.constant({ type: 'pg_untrack_table', args: { source: 'default', table: qualified, cascade: true } }),
    fc.record({ name: fc.constantFrom('parent', 'other'), column: fc.constantFrom(...dataColumns(table), 'nope') }).map(({ name, column }) => ({
      type: 'pg_create_object_relationship',
      args: {
        source: 'default',
        table: qualified,
        name,
        using: { manual_configuration: { remote_table: { schema: DIFF_SCHEMA, name: 't0' }, column_mapping: { [column]: 'id' } } },
      },
    })),
  );
  return op.map((operation) => ({ kind: 'metadata' as const, operation }));
};

const anyTable = <T>(make: (table: number) => fc.Arbitrary<T>) => fc.oneof(...TABLES.map((_, i) => make(i)));

const restArbitrary: fc.Arbitrary<RestEndpoint> = anyTable((table) =>
  fc.constantFrom(...dataColumns(table).filter((c) => TABLES[table]!.columns[c] !== 'jsonb')).map((column) => ({ table, column })),
);

const requestArbitrary = (areas: readonly Area[]): fc.Arbitrary<Request> => {
  const kinds = new Set<string>(areas.flatMap((a) => AREAS[a]));
  const rest = fc.record({ endpoint: fc.integer({ min: 0, max: 1 }), value: fc.oneof(VALUES.integer, VALUES.text, VALUES.boolean) });
  return fc
    .oneof(
      { weight: 6, arbitrary: anyTable(requestOn) },
      { weight: 1, arbitrary: rest.map((r) => ({ kind: 'rest' as const, ...r })) },
      { weight: 1, arbitrary: anyTable(metadataOperation) },
    )
    .filter((r) => kinds.has(r.kind));
};

/** Scenarios whose requests come from `areas`. */
export function scenarioArbitrary(areas: readonly Area[] = Object.keys(AREAS) as Area[]): fc.Arbitrary<Scenario> {
  return fc
    .record({
      // Each table shrinks away (towards `false`).
      tables: fc.tuple(...TABLES.map(() => mostly(fc.constant(false), 1, fc.constant(true), 3))),
      rows: fc.tuple(...TABLES.map((_, i) => fc.array(rowArbitrary(i), { maxLength: 6 }))),
      relationships: fc.boolean(),
      permissions: fc.tuple(...TABLES.flatMap((_, i) => [rolePermissions(i, 'r0'), rolePermissions(i, 'r1')])).map((lists) => lists.flat()),
      rest: fc.array(restArbitrary, { maxLength: areas.includes('rest') ? 2 : 0 }),
      requests: fc.array(requestArbitrary(areas), { minLength: 1, maxLength: 10 }),
    })
    .map(usable);
}

/** The scenario without what refers to a table it does not have, and one permission per table, role and kind. */
export function usable(s: Scenario): Scenario {
  const has = (table: number) => s.tables[table] === true;
  // Expressions through a relationship the scenario does not have are refused alike; few are kept.
  const present = new Set(RELATIONSHIPS.filter((r) => s.relationships && has(r.to) && has(r.table)).map((r) => r.name));
  const missing = RELATIONSHIPS.filter((r) => !present.has(r.name)).map((r) => `"${r.name}":`);
  const possible = (x: unknown) => !missing.some((name) => JSON.stringify(x).includes(name));
  const seen = new Set<string>();
  const permissions = s.permissions.filter((p) => {
    const key = `${p.table}/${p.role}/${p.kind}`;
    if (!has(p.table) || seen.has(key) || !possible(p)) return false;
    seen.add(key);
    return true;
  });
  const rest = s.rest.filter((r) => has(r.table));
  const requests = s.requests.filter((r) => (r.kind === 'rest' ? r.endpoint < rest.length : r.kind === 'metadata' ? true : has(r.table) && possible(r)));
  return { ...s, rows: s.rows.map((rows, i) => (has(i) ? rows : [])), permissions, rest, requests };
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const pick = (row: Row, keys: string[]): Row => Object.fromEntries(keys.map((k) => [k, row[k]]));

/** The indexes of the tables the scenario has. */
export const tablesOf = (s: Scenario): number[] => TABLES.map((_, i) => i).filter((i) => s.tables[i]);
