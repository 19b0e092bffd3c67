// Property-based check of BoolExp through relationships (SPEC.md §2.1, §4.3 permission semantics
// 2-4): generated permission filters on two related tables (with _or, _not, nested _and and
// relationships of their own) together with generated `where` expressions through the object and
// the array relationship. The target must show, count, order, update and delete exactly the rows
// that a plain TypeScript evaluation keeps: a `where` sees related rows only as far as the role's
// filter on the related table lets it.
import fc from 'fast-check';
import { covers } from '../harness/cases';
import { boolExpArbitraries, evaluateIn, fuzzRows, type BoolExp, type ModelEnvironment, type ModelRow, type TableShape } from '../harness/boolExpModel';
import { useTarget } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const target = useTarget();
const item = { schema: 'fuzzrel', name: 'item' };
const person = { schema: 'fuzzrel', name: 'person' };
const SESSION = { 'x-engine-user-id': '2' };
const ROLES_PER_RUN = 4;
const WHERES_PER_ROLE = 3;
const RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 5, 80);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);

const items: ModelRow[] = fuzzRows().map((r) => ({ ...r, mark: null }));
const persons: ModelRow[] = [
  { id: 1, name: 'a', age: 30 },
  { id: 2, name: 'ab', age: null },
  { id: 3, name: "'", age: 5 },
  { id: 4, name: null, age: 12 },
];
const TABLES: Record<string, { rows: ModelRow[] }> = { item: { rows: items }, person: { rows: persons } };

const SHAPES: Record<string, TableShape> = {
  item: { ints: ['n', 'owner'], texts: ['t'], bools: ['b'], jsonbs: ['j'], sessionInts: ['owner'], relationships: { person: 'person' } },
  person: { ints: ['id', 'age'], texts: ['name'], bools: [], jsonbs: [], sessionInts: ['id'], relationships: { items: 'item' }, aggregated: { items: 'item' } },
};
const permissionArbitraries = boolExpArbitraries(SHAPES, 'permission');
const whereArbitraries = boolExpArbitraries(SHAPES, 'where');

function related(table: string, relationship: string, row: ModelRow) {
  if (table === 'item' && relationship === 'person') return { table: 'person', rows: persons.filter((p) => p.id === row.owner) };
  if (table === 'person' && relationship === 'items') return { table: 'item', rows: items.filter((i) => i.owner === row.id) };
  return undefined;
}

/** Permission filters traverse relationships without the related table's filter. */
const permissionEnv: ModelEnvironment = { session: SESSION, related };
const holds = (exp: BoolExp, table: string, row: ModelRow) => evaluateIn(exp, table, row, permissionEnv) === true;

interface RoleFilters {
  item: BoolExp;
  person: BoolExp;
}

/** A role's `where` sees related rows only where its select filter on that table holds. */
const whereEnv = (filters: RoleFilters): ModelEnvironment => ({
  session: SESSION,
  related,
  visible: (table, row) => holds(filters[table as keyof RoleFilters], table, row),
});
const kept = (filters: RoleFilters, table: 'item' | 'person', where: BoolExp) =>
  TABLES[table]!.rows.filter((r) => holds(filters[table], table, r) && evaluateIn(where, table, r, whereEnv(filters)) === true);

const checksum = async () => (await target.sql(`select md5(string_agg(i::text, ',' order by id)) as sum from fuzzrel.item i`))[0]!.sum;
let before: unknown;

async function insertItems(rows: ModelRow[]): Promise<void> {
  for (const r of rows) {
    await target.sql('insert into fuzzrel.item (id, n, t, b, j, owner) values ($1, $2, $3, $4, $5, $6)', [
      r.id,
      r.n,
      r.t,
      r.b,
      r.j === null ? null : JSON.stringify(r.j),
      r.owner,
    ]);
  }
}

beforeAll(async () => {
  await target.sql(`drop schema if exists fuzzrel cascade; create schema fuzzrel;
    create table fuzzrel.person (id integer primary key, name text, age integer);
    create table fuzzrel.item (id integer primary key, n integer, t text, b boolean, j jsonb, owner integer not null references fuzzrel.person (id), mark integer)`);
  for (const p of persons) await target.sql('insert into fuzzrel.person values ($1, $2, $3)', [p.id, p.name, p.age]);
  await insertItems(items);
  // Left without statistics, as small tables stay (autovacuum analyzes a table after 50 changes):
  // an engine that bounds the estimated cost of an operation must not refuse a filter over them.
  await target.metadata({ type: 'reload_metadata', args: {} });
  before = await checksum();
});

const headers = (role: string) => ({ ...target.adminHeaders(), 'x-engine-role': role, ...SESSION });

function metadataFor(roles: RoleFilters[], update: BoolExp, del: BoolExp) {
  const select = (table: 'item' | 'person') =>
    roles.map((f, i) => ({ role: `r${i}`, permission: { columns: '*', filter: f[table], allow_aggregations: true } }));
  return {
    version: 2,
    tables: [
      {
        table: item,
        object_relationships: [{ name: 'person', using: { foreign_key_constraint_on: 'owner' } }],
        select_permissions: select('item'),
        update_permissions: [{ role: 'r0', permission: { columns: ['mark'], filter: update } }],
        delete_permissions: [{ role: 'r0', permission: { filter: del } }],
      },
      {
        table: person,
        array_relationships: [{ name: 'items', using: { foreign_key_constraint_on: { table: item, column: 'owner' } } }],
        select_permissions: select('person'),
      },
    ],
  };
}

const QUERY = `query ($i0: fuzzrel_item_bool_exp!, $i1: fuzzrel_item_bool_exp!, $i2: fuzzrel_item_bool_exp!, $p0: fuzzrel_person_bool_exp!, $p1: fuzzrel_person_bool_exp!, $p2: fuzzrel_person_bool_exp!) {
  i0: fuzzrel_item(where: $i0, order_by: {id: asc}) { id }
  i1: fuzzrel_item(where: $i1, order_by: {id: asc}) { id }
  i2: fuzzrel_item(where: $i2, order_by: {id: asc}) { id }
  c0: fuzzrel_item_aggregate(where: $i0) { aggregate { count } }
  ordered: fuzzrel_item(where: $i1, order_by: [{person: {age: desc_nulls_last}}, {id: asc}]) { id }
  p0: fuzzrel_person(where: $p0, order_by: {id: asc}) { id items_aggregate(where: $i2) { aggregate { count } } }
  p1: fuzzrel_person(where: $p1, order_by: {id: asc}) { id items(where: $i0, order_by: {id: asc}) { id } }
  p2: fuzzrel_person(where: $p2, order_by: {id: asc}) { id }
}`;

/** What QUERY must answer for a role with `filters`, by the model. */
function expectedAnswer(filters: RoleFilters, w: { i: BoolExp[]; p: BoolExp[] }) {
  const ids = (rows: ModelRow[]) => rows.map((r) => ({ id: r.id }));
  const visiblePerson = (row: ModelRow) => persons.find((p) => p.id === row.owner && holds(filters.person, 'person', p));
  const ageOf = (row: ModelRow) => (visiblePerson(row)?.age ?? null) as number | null;
  const ordered = [...kept(filters, 'item', w.i[1]!)].sort((a, b) => {
    const x = ageOf(a);
    const y = ageOf(b);
    if (x !== y) return x === null ? 1 : y === null ? -1 : y - x;
    return (a.id as number) - (b.id as number);
  });
  const itemsOf = (p: ModelRow, where: BoolExp) => kept(filters, 'item', where).filter((i) => i.owner === p.id);
  return {
    data: {
      i0: ids(kept(filters, 'item', w.i[0]!)),
      i1: ids(kept(filters, 'item', w.i[1]!)),
      i2: ids(kept(filters, 'item', w.i[2]!)),
      c0: { aggregate: { count: kept(filters, 'item', w.i[0]!).length } },
      ordered: ids(ordered),
      p0: kept(filters, 'person', w.p[0]!).map((p) => ({ id: p.id, items_aggregate: { aggregate: { count: itemsOf(p, w.i[2]!).length } } })),
      p1: kept(filters, 'person', w.p[1]!).map((p) => ({ id: p.id, items: ids(itemsOf(p, w.i[0]!)) })),
      p2: ids(kept(filters, 'person', w.p[2]!)),
    },
  };
}

const roleArbitrary = fc.record({ item: permissionArbitraries.item!, person: permissionArbitraries.person! });
const wheresArbitrary = fc.record({
  i: fc.array(whereArbitraries.item!, { minLength: WHERES_PER_ROLE, maxLength: WHERES_PER_ROLE }),
  p: fc.array(whereArbitraries.person!, { minLength: WHERES_PER_ROLE, maxLength: WHERES_PER_ROLE }),
});
const runArbitrary = fc.record({
  roles: fc.array(roleArbitrary, { minLength: ROLES_PER_RUN, maxLength: ROLES_PER_RUN }),
  wheres: fc.array(wheresArbitrary, { minLength: ROLES_PER_RUN, maxLength: ROLES_PER_RUN }),
  update: fc.record({ filter: permissionArbitraries.item!, where: whereArbitraries.item! }),
  del: fc.record({ filter: permissionArbitraries.item!, where: whereArbitraries.item! }),
});

test(
  covers(
    [
      'rule.perm.select.filter',
      'rule.perm.select.aggregations',
      'rule.perm.update.filter',
      'rule.perm.delete.filter',
      'dec.graphql.where',
      'dec.graphql.order-by',
      'dec.graphql.aggregate-predicates',
    ],
    `generated filters on two tables with generated where through relationships: rows, counts, order, updates and deletes follow the model (${RUNS} runs)`,
  ),
  async () => {
    let checked = 0;
    let mark = 0;
    await fc.assert(
      fc.asyncProperty(runArbitrary, async (run) => {
        const replaced = await target.metadata({ type: 'replace_metadata', args: metadataFor(run.roles, run.update.filter, run.del.filter) });
        if (replaced.status !== 200) throw new Error(`replace_metadata refused generated filters: ${replaced.text}`);
        await Promise.all(
          run.roles.map(async (filters, r) => {
            const w = run.wheres[r]!;
            const variables = { i0: w.i[0], i1: w.i[1], i2: w.i[2], p0: w.p[0], p1: w.p[1], p2: w.p[2] };
            const answer = (await target.graphql(QUERY, variables, { headers: headers(`r${r}`) })).body;
            const expected = expectedAnswer(filters, w);
            if (JSON.stringify(answer) !== JSON.stringify(expected)) {
              throw new Error(
                `role filters ${JSON.stringify(filters)}, where ${JSON.stringify(variables)}:\n the target answers ${JSON.stringify(answer)}\n the model expects ${JSON.stringify(expected)}`,
              );
            }
            checked += 2 * WHERES_PER_ROLE;
          }),
        );

        // Update: the request's where together with the update filter.
        mark++;
        const updated = await target.graphql(
          'mutation ($w: fuzzrel_item_bool_exp!, $m: Int) { update_fuzzrel_item(where: $w, _set: {mark: $m}) { affected_rows } }',
          { w: run.update.where, m: mark },
          { headers: headers('r0') },
        );
        const toUpdate = items
          .filter((r) => evaluateIn(run.update.where, 'item', r, whereEnv(run.roles[0]!)) === true && holds(run.update.filter, 'item', r))
          .map((r) => r.id);
        const marked = (await target.sql('select id from fuzzrel.item where mark = $1 order by id', [mark])).map((r) => r.id);
        await target.sql('update fuzzrel.item set mark = null where mark is not null');
        if (
          JSON.stringify({ answer: updated.body, marked }) !==
          JSON.stringify({ answer: { data: { update_fuzzrel_item: { affected_rows: toUpdate.length } } }, marked: toUpdate })
        ) {
          throw new Error(
            `update filter ${JSON.stringify(run.update.filter)}, where ${JSON.stringify(run.update.where)}: the target answers ${updated.text} and changed ${JSON.stringify(marked)}, the model changes ${JSON.stringify(toUpdate)}`,
          );
        }

        // Delete: the same, then the deleted rows are put back.
        const deleted = await target.graphql(
          'mutation ($w: fuzzrel_item_bool_exp!) { delete_fuzzrel_item(where: $w) { affected_rows } }',
          { w: run.del.where },
          { headers: headers('r0') },
        );
        const toDelete = items
          .filter((r) => evaluateIn(run.del.where, 'item', r, whereEnv(run.roles[0]!)) === true && holds(run.del.filter, 'item', r))
          .map((r) => r.id);
        const remaining = new Set((await target.sql('select id from fuzzrel.item')).map((r) => r.id as number));
        const gone = items.filter((r) => !remaining.has(r.id as number));
        await insertItems(gone);
        if (
          JSON.stringify({ answer: deleted.body, gone: gone.map((r) => r.id) }) !==
          JSON.stringify({ answer: { data: { delete_fuzzrel_item: { affected_rows: toDelete.length } } }, gone: toDelete })
        ) {
          throw new Error(
            `delete filter ${JSON.stringify(run.del.filter)}, where ${JSON.stringify(run.del.where)}: the target answers ${deleted.text} and deleted ${JSON.stringify(gone.map((r) => r.id))}, the model deletes ${JSON.stringify(toDelete)}`,
          );
        }
        checked += 2;
      }),
      { numRuns: RUNS, seed, endOnFailure: false },
    );
    process.stdout.write(
      `BoolExp relationship fuzz: ${checked} generated where expressions and mutations checked in ${RUNS} runs, seed ${seed}, no mismatch\n`,
    );
    expect(checked).toBe(RUNS * (ROLES_PER_RUN * 2 * WHERES_PER_ROLE + 2));
    expect(await checksum()).toBe(before);
  },
  300_000,
);
