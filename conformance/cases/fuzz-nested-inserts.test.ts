// Property-based check of nested inserts (decision dec.graphql.nested-inserts): generated trees of
// rows over three related tables (a ← b ← c, through object and array relationships both ways),
// inserted by a role with a check, a preset and upserts at every level, sometimes with a column a
// parent determines given too. A plain TypeScript model inserts the same tree in the engine's
// order (object relationships first, then the row, then its array relationships), with serial ids
// and upserts by name; the target must answer the same affected_rows, returning and refusal, and
// leave exactly the model's rows (none at all when the insert is refused).
import fc from 'fast-check';
import { covers } from '../harness/cases';
import { useTarget } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const target = useTarget();
const RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 5, 80);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);
const USER = '7';
const table = (name: string) => ({ schema: 'fuzznest', name });

interface A {
  name: string;
  n: number;
  bs?: B[];
}
interface B {
  label: string;
  n: number;
  a_id?: null;
  a?: A;
  cs?: C[];
}
interface C {
  n: number;
  b_id?: null;
  b?: B;
}
type Root = { table: 'a'; objects: A[] } | { table: 'b'; objects: B[] } | { table: 'c'; objects: C[] };

// Now and then a negative n, which the role's check refuses.
const n = fc.oneof({ arbitrary: fc.nat(5), weight: 15 }, { arbitrary: fc.constant(-1), weight: 1 });
const DEPTH = { depthIdentifier: 'tree', maxDepth: 3 };
const few = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 1, maxLength: 3, depthIdentifier: 'tree' });
/** A relationship to insert through, half the time (`weight` 1: now and then); never deeper than four levels. */
const maybe = <T>(arb: fc.Arbitrary<T>, weight = 8) => fc.oneof(DEPTH, { arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: arb, weight });
/** Now and then a column the parent or an object relationship determines, given too (refused). */
const rarely = fc.oneof({ arbitrary: fc.constant(undefined), weight: 10 }, { arbitrary: fc.constant(null), weight: 1 });
// Rows under an array relationship rarely insert their parent through an object relationship too (refused).
const trees = fc.letrec<{ a: A; b: B; bUnderA: B; c: C; cUnderB: C }>((tie) => ({
  a: fc.record({ name: fc.constantFrom('x', 'y', 'z'), n, bs: maybe(few(tie('bUnderA'))) }),
  b: fc.record({ label: fc.constantFrom('p', 'q'), n, a_id: rarely, a: maybe(tie('a')), cs: maybe(few(tie('cUnderB'))) }),
  bUnderA: fc.record({ label: fc.constantFrom('p', 'q'), n, a_id: rarely, a: maybe(tie('a'), 1), cs: maybe(few(tie('cUnderB'))) }),
  c: fc.record({ n, b_id: rarely, b: maybe(tie('b')) }),
  cUnderB: fc.record({ n, b_id: rarely, b: maybe(tie('b'), 1) }),
}));
const roots: fc.Arbitrary<Root> = fc.oneof(
  fc.uniqueArray(trees.a, { minLength: 1, maxLength: 3, selector: (a) => a.name }).map((objects) => ({ table: 'a' as const, objects })),
  fc.array(trees.b, { minLength: 1, maxLength: 3 }).map((objects) => ({ table: 'b' as const, objects })),
  fc.array(trees.c, { minLength: 1, maxLength: 3 }).map((objects) => ({ table: 'c' as const, objects })),
);

const UPSERT = '{constraint: a_name_key, update_columns: [n]}';
/** The GraphQL input of a row: its columns, and its relationships as nested inserts. */
function literal(t: 'a' | 'b' | 'c', o: A | B | C): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(o)) {
    if (value === undefined) continue;
    if (key === 'bs') parts.push(`bs: {data: [${(value as B[]).map((b) => literal('b', b)).join(', ')}]}`);
    else if (key === 'cs') parts.push(`cs: {data: [${(value as C[]).map((c) => literal('c', c)).join(', ')}]}`);
    else if (key === 'a') parts.push(`a: {data: ${literal('a', value as A)}, on_conflict: ${UPSERT}}`);
    else if (key === 'b') parts.push(`b: {data: ${literal('b', value as B)}}`);
    else parts.push(`${key}: ${JSON.stringify(value)}`);
  }
  return `{${parts.join(', ')}}`;
}

type Answer = { data: unknown } | { errors: { message: string; extensions: { code: string } }[] };
interface Tables {
  a: { id: number; name: string; n: number }[];
  b: { id: number; a_id: number | null; label: string; n: number }[];
  c: { id: number; b_id: number | null; note: string; n: number }[];
}

class Refused extends Error {}

/** What the engine does with the tree: the answer, and the rows it leaves. */
function model(root: Root): { answer: Answer; rows: Tables } {
  const rows: Tables = { a: [], b: [], c: [] };
  const serial = { a: 0, b: 0, c: 0 };
  let affected = 0;
  let checkFailed = false;
  const ok = (value: number) => {
    if (value < 0) checkFailed = true;
  };
  // The input is checked whole before anything is inserted.
  const validate = (t: 'a' | 'b' | 'c', o: A | B | C, fromParent: boolean) => {
    if (t === 'a') for (const b of (o as A).bs ?? []) validate('b', b, true);
    if (t === 'b') {
      const b = o as B;
      if (fromParent && b.a_id !== undefined) throw new Refused('cannot insert "a_id" columns as their values are already being determined by parent insert');
      if (b.a && (fromParent || b.a_id !== undefined))
        throw new Refused('cannot insert object relationship "a" as "a_id" column values are already determined');
      if (b.a) validate('a', b.a, false);
      for (const c of b.cs ?? []) validate('c', c, true);
    }
    if (t === 'c') {
      const c = o as C;
      if (fromParent && c.b_id !== undefined) throw new Refused('cannot insert "b_id" columns as their values are already being determined by parent insert');
      if (c.b && (fromParent || c.b_id !== undefined))
        throw new Refused('cannot insert object relationship "b" as "b_id" column values are already determined');
      if (c.b) validate('b', c.b, false);
    }
  };
  const insertA = (o: A): number => {
    const id = ++serial.a; // an upsert takes a value of the sequence too
    const existing = rows.a.find((r) => r.name === o.name);
    if (existing) existing.n = o.n;
    else rows.a.push({ id, name: o.name, n: o.n });
    ok(o.n);
    affected++;
    const key = existing?.id ?? id;
    for (const b of o.bs ?? []) insertB(b, key);
    return key;
  };
  const insertB = (o: B, aId: number | null): number => {
    const parent = o.a ? insertA(o.a) : aId;
    const id = ++serial.b;
    rows.b.push({ id, a_id: parent, label: o.label, n: o.n });
    ok(o.n);
    affected++;
    for (const c of o.cs ?? []) insertC(c, id);
    return id;
  };
  const insertC = (o: C, bId: number | null): number => {
    const parent = o.b ? insertB(o.b, null) : bId;
    const id = ++serial.c;
    rows.c.push({ id, b_id: parent, note: USER, n: o.n });
    ok(o.n);
    affected++;
    return id;
  };
  const none: Tables = { a: [], b: [], c: [] };
  try {
    for (const o of root.objects) validate(root.table, o, false);
  } catch (e) {
    return { answer: { errors: [{ message: (e as Error).message, extensions: { code: 'validation-failed' } }] }, rows: none };
  }
  const ids = root.objects.map((o) => (root.table === 'a' ? insertA(o as A) : root.table === 'b' ? insertB(o as B, null) : insertC(o as C, null)));
  if (checkFailed)
    return {
      answer: { errors: [{ message: 'check constraint of an insert/update permission has failed', extensions: { code: 'permission-error' } }] },
      rows: none,
    };
  return { answer: { data: { [`insert_fuzznest_${root.table}`]: { affected_rows: affected, returning: ids.map((id) => ({ id })) } } }, rows };
}

beforeAll(async () => {
  await target.sql(`drop schema if exists fuzznest cascade; create schema fuzznest;
    create table fuzznest.a (id serial primary key, name text not null unique, n integer not null);
    create table fuzznest.b (id serial primary key, a_id integer references fuzznest.a (id), label text, n integer not null);
    create table fuzznest.c (id serial primary key, b_id integer references fuzznest.b (id), note text, n integer not null);`);
  const relationship = (kind: string, from: string, name: string, using: unknown) => ({
    type: `create_${kind}_relationship`,
    args: { table: table(from), name, using },
  });
  const permission = (type: string, on: string, p: unknown) => ({
    type: `create_${type}_permission`,
    args: { table: table(on), role: 'writer', permission: p },
  });
  const inserts = { check: { n: { _gte: 0 } } };
  const r = await target.metadata({
    type: 'bulk',
    args: [
      { type: 'reload_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      ...['a', 'b', 'c'].map((t) => ({ type: 'track_table', args: { table: table(t) } })),
      relationship('object', 'b', 'a', { foreign_key_constraint_on: 'a_id' }),
      relationship('array', 'a', 'bs', { foreign_key_constraint_on: { table: table('b'), column: 'a_id' } }),
      relationship('object', 'c', 'b', { foreign_key_constraint_on: 'b_id' }),
      relationship('array', 'b', 'cs', { foreign_key_constraint_on: { table: table('c'), column: 'b_id' } }),
      ...['a', 'b', 'c'].map((t) => permission('select', t, { columns: '*', filter: {} })),
      permission('insert', 'a', { ...inserts, columns: ['name', 'n'] }),
      permission('update', 'a', { columns: ['n'], filter: {} }),
      permission('insert', 'b', { ...inserts, columns: ['a_id', 'label', 'n'] }),
      permission('insert', 'c', { ...inserts, columns: ['b_id', 'n'], set: { note: 'X-Engine-User-Id' } }),
    ],
  });
  expect(r.status).toBe(200);
});

test(
  covers(
    ['dec.graphql.nested-inserts', 'err.graphql.nested-insert-parent-column', 'err.graphql.nested-insert-object-column'],
    `generated nested inserts write what a model of them writes (${RUNS} trees)`,
  ),
  async () => {
    const headers = { ...target.adminHeaders(), 'x-engine-role': 'writer', 'x-engine-user-id': USER };
    const tally = { inserted: 0, rows: 0, nested: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(roots, async (root) => {
        await target.sql('truncate fuzznest.c, fuzznest.b, fuzznest.a restart identity');
        const conflict = root.table === 'a' ? `, on_conflict: ${UPSERT}` : '';
        const objects = (root.objects as (A | B | C)[]).map((o) => literal(root.table, o)).join(', ');
        const query = `mutation { insert_fuzznest_${root.table}(objects: [${objects}]${conflict}) { affected_rows returning { id } } }`;
        const expected = model(root);
        const answer = (await target.graphql(query, undefined, { headers })).body as Answer;
        const comparable =
          'errors' in answer ? { errors: answer.errors.map((e) => ({ message: e.message, extensions: { code: e.extensions.code } })) } : answer;
        expect({ query, answer: comparable }).toEqual({ query, answer: expected.answer });
        if ('errors' in expected.answer) tally.refused++;
        else tally.inserted++;
        tally.rows += expected.rows.a.length + expected.rows.b.length + expected.rows.c.length;
        if (/data:/.test(query)) tally.nested++;
        expect({
          a: await target.sql('select id, name, n from fuzznest.a order by id'),
          b: await target.sql('select id, a_id, label, n from fuzznest.b order by id'),
          c: await target.sql('select id, b_id, note, n from fuzznest.c order by id'),
        }).toEqual({ a: [...expected.rows.a].sort((x, y) => x.id - y.id), b: expected.rows.b, c: expected.rows.c });
      }),
      { numRuns: RUNS, seed },
    );
    process.stdout.write(
      `nested inserts: ${tally.nested} of ${RUNS} trees nested, ${tally.inserted} inserted (${tally.rows} rows), ${tally.refused} refused, seed ${seed}\n`,
    );
  },
  120_000,
);
