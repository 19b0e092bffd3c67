// The scenario generators: every kind of request, permission and value comes up, and what a
// scenario keeps refers only to what it has.
import fc from 'fast-check';
import { AREAS, scenarioArbitrary, TABLES, usable, type Scenario } from './scenario';

const SAMPLE = fc.sample(scenarioArbitrary(), { numRuns: 400, seed: 20261125 });

test('every request kind, permission kind and area comes up; requests only of the areas asked', () => {
  const kinds = new Set(SAMPLE.flatMap((s) => s.requests.map((r) => r.kind)));
  expect([...kinds].sort()).toEqual(['aggregate', 'delete', 'dml-count', 'dml-select', 'insert', 'metadata', 'rest', 'select', 'update']);
  expect(new Set(SAMPLE.flatMap((s) => s.permissions.map((p) => `${p.kind}/${p.role}`)))).toEqual(
    new Set(['select/r0', 'select/r1', 'insert/r0', 'insert/r1', 'update/r0', 'update/r1', 'delete/r0', 'delete/r1']),
  );
  for (const area of Object.keys(AREAS) as (keyof typeof AREAS)[]) {
    const only = fc.sample(scenarioArbitrary([area]), { numRuns: 40, seed: 7 }).flatMap((s) => s.requests.map((r) => r.kind));
    expect(only.length).toBeGreaterThan(0);
    expect(new Set(only)).toEqual(new Set(AREAS[area]));
  }
  const operations = new Set(SAMPLE.flatMap((s) => s.requests.flatMap((r) => (r.kind === 'metadata' ? [r.operation.type] : []))));
  expect(operations).toEqual(
    new Set(['pg_create_select_permission', 'pg_drop_select_permission', 'pg_track_table', 'pg_untrack_table', 'pg_create_object_relationship']),
  );
});

test('selects use limits, offsets, distinct_on, nesting and where some of the time; permissions limits and aggregations', () => {
  const selects = SAMPLE.flatMap((s) => s.requests.flatMap((r) => (r.kind === 'select' ? [r] : [])));
  const some = (keep: (r: (typeof selects)[number]) => boolean) => selects.some(keep) && !selects.every(keep);
  expect(some((r) => r.limit !== undefined)).toBe(true);
  expect(some((r) => r.offset !== undefined)).toBe(true);
  expect(some((r) => r.distinctOn !== undefined)).toBe(true);
  expect(some((r) => r.where !== undefined)).toBe(true);
  expect(some((r) => r.nested)).toBe(true);
  expect(some((r) => r.orderBy.length > 0)).toBe(true);
  expect(some((r) => r.role === 'admin')).toBe(true);
  expect(selects.every((r) => r.fields.length > 0)).toBe(true);
  const selectPermissions = SAMPLE.flatMap((s) => s.permissions.filter((p) => p.kind === 'select').map((p) => p.permission));
  expect(selectPermissions.some((p) => 'limit' in p) && selectPermissions.some((p) => !('limit' in p))).toBe(true);
  expect(selectPermissions.some((p) => p.allow_aggregations === true) && selectPermissions.some((p) => !('allow_aggregations' in p))).toBe(true);
  expect(selectPermissions.some((p) => JSON.stringify(p.filter) === '{}') && selectPermissions.some((p) => JSON.stringify(p.filter) !== '{}')).toBe(true);
});

test('rows hold NULLs and values of every type, hostile text among them', () => {
  const values = SAMPLE.flatMap((s) => s.rows.flat().flatMap((r) => Object.values(r)));
  expect(values).toContain(null);
  expect(values).toContain("'");
  expect(values.some((v) => typeof v === 'number')).toBe(true);
  expect(values.some((v) => typeof v === 'boolean')).toBe(true);
  expect(values.some((v) => typeof v === 'object' && v !== null)).toBe(true);
  expect(SAMPLE.some((s) => s.tables.every(Boolean))).toBe(true);
  expect(SAMPLE.some((s) => s.tables.filter(Boolean).length === 1)).toBe(true);
});

test('what a scenario keeps refers only to tables, relationships and endpoints it has', () => {
  for (const s of SAMPLE) {
    const has = (t: number) => s.tables[t] === true;
    expect(s.tables).toHaveLength(TABLES.length);
    expect(s.requests.length).toBeLessThanOrEqual(10);
    for (const p of s.permissions) expect(has(p.table)).toBe(true);
    expect(new Set(s.permissions.map((p) => `${p.table}/${p.role}/${p.kind}`)).size).toBe(s.permissions.length);
    for (const r of s.rest) expect(has(r.table)).toBe(true);
    for (const r of s.requests) {
      if (r.kind === 'rest') expect(r.endpoint).toBeLessThan(s.rest.length);
      else if (r.kind !== 'metadata') expect(has(r.table)).toBe(true);
    }
    s.rows.forEach((rows, t) => (has(t) ? undefined : expect(rows).toEqual([])));
  }
});

test('usable: missing tables, endpoints and relationships drop what names them; a second permission of a kind drops', () => {
  const s: Scenario = {
    tables: [true, false, true],
    rows: [[], [{ n: 1, t: 'a', p: 1 }], []],
    relationships: true,
    permissions: [
      { table: 0, role: 'r0', kind: 'select', permission: { columns: ['id'], filter: {} } },
      { table: 0, role: 'r0', kind: 'select', permission: { columns: ['n'], filter: {} } },
      { table: 0, role: 'r1', kind: 'select', permission: { columns: ['n'], filter: {} } },
      { table: 0, role: 'r0', kind: 'delete', permission: { filter: {} } },
      { table: 0, role: 'r0', kind: 'update', permission: { columns: ['n'], filter: { t1s: { n: { _eq: 1 } } } } },
      { table: 2, role: 'r0', kind: 'update', permission: { columns: ['b'], filter: { parent: { n: { _eq: 1 } } } } },
    ],
    rest: [
      { table: 1, column: 'n' },
      { table: 2, column: 't' },
    ],
    requests: [
      { kind: 'rest', endpoint: 0, value: 1 },
      { kind: 'rest', endpoint: 1, value: 1 },
      { kind: 'metadata', operation: { type: 'pg_track_table', args: {} } },
      { kind: 'dml-count', table: 1 },
      { kind: 'dml-count', table: 2, where: { parent: { n: { _eq: 1 } } } },
      { kind: 'dml-count', table: 0, where: { t2s: { b: { _eq: true } } } },
    ],
  };
  expect(usable(s)).toEqual({
    tables: [true, false, true],
    rows: [[], [], []],
    relationships: true,
    permissions: [s.permissions[0], s.permissions[2], s.permissions[3], s.permissions[5]],
    rest: [{ table: 2, column: 't' }],
    requests: [s.requests[0], s.requests[2], s.requests[4], s.requests[5]],
  });
});
