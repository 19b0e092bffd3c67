// Property-based check of BoolExp (SPEC.md §2.1) as select permission filters (§4.3 semantics 2):
// the rows a role sees through the target must be exactly those a plain TypeScript evaluation of
// the same expression keeps. Text values and session variables include hostile strings; none may
// change data or widen what a role sees.
import { branded } from '../harness/brand';
import fc from 'fast-check';
import { covers } from '../harness/cases';
import { boolExpArbitrary, evaluate, fuzzRows, type BoolExp } from '../harness/boolExpModel';
import { useTarget } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const target = useTarget();
const table = { schema: 'fuzz', name: 'item' };
const rows = fuzzRows();
const SESSION = { 'x-engine-user-id': '2' };
const ROLES_PER_RUN = 20;
const RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 6, 100);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);

const checksum = async () => (await target.sql(`select md5(string_agg(i::text, ',' order by id)) as sum from fuzz.item i`))[0]!.sum;
let before: unknown;

beforeAll(async () => {
  await target.sql(
    'drop schema if exists fuzz cascade; create schema fuzz; create table fuzz.item (id integer primary key, n integer, t text, b boolean, j jsonb, owner integer not null)',
  );
  for (const r of rows)
    await target.sql('insert into fuzz.item values ($1, $2, $3, $4, $5, $6)', [r.id, r.n, r.t, r.b, r.j === null ? null : JSON.stringify(r.j), r.owner]);
  await target.metadata({ type: 'reload_metadata', args: {} });
  before = await checksum();
});

async function seenBy(role: string, session: Record<string, string>): Promise<{ ids?: number[]; errors?: unknown }> {
  const r = await target.graphql('{ fuzz_item(order_by: {id: asc}) { id } }', undefined, {
    headers: { ...target.adminHeaders(), 'x-engine-role': role, ...session },
  });
  const body = r.body as { data?: { fuzz_item: { id: number }[] }; errors?: unknown };
  return body.data ? { ids: body.data.fuzz_item.map((x) => x.id) } : { errors: body.errors ?? r.text };
}

test(
  covers(
    ['rule.perm.select.filter', 'dec.graphql.where', 'rule.auth.4'],
    `generated filters: the target shows exactly the rows the model keeps (${RUNS * ROLES_PER_RUN} expressions)`,
  ),
  async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(boolExpArbitrary, { minLength: ROLES_PER_RUN, maxLength: ROLES_PER_RUN }), async (expressions: BoolExp[]) => {
        const select_permissions = expressions.map((filter, i) => ({ role: `fuzz${i}`, permission: { columns: ['id'], filter } }));
        const replaced = await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [{ table, select_permissions }] } });
        if (replaced.status !== 200) throw new Error(`replace_metadata refused a generated expression: ${replaced.text}`);
        const seen = await Promise.all(expressions.map((_, i) => seenBy(`fuzz${i}`, SESSION)));
        for (const [i, filter] of expressions.entries()) {
          const expected = rows.filter((r) => evaluate(filter, r, SESSION) === true).map((r) => r.id);
          if (JSON.stringify(seen[i]) !== JSON.stringify({ ids: expected })) {
            throw new Error(`filter ${JSON.stringify(filter)}: the target shows ${JSON.stringify(seen[i])}, the model keeps ${JSON.stringify(expected)}`);
          }
          checked++;
        }
      }),
      { numRuns: RUNS, seed, endOnFailure: false },
    );
    process.stdout.write(`BoolExp fuzz: ${checked} generated expressions checked, seed ${seed}, no mismatch\n`);
    expect(checked).toBeGreaterThanOrEqual(RUNS * ROLES_PER_RUN);
    expect(await checksum()).toBe(before);
  },
  300_000,
);

test(covers(['err.invalid-headers.user-id-integer', 'rule.auth.4'], 'hostile session variables never widen a role or change data'), async () => {
  const filter = { owner: 'X-Engine-User-Id' };
  await target.metadata({
    type: 'replace_metadata',
    args: { version: 2, tables: [{ table, select_permissions: [{ role: 'owner', permission: { columns: ['id'], filter } }] }] },
  });
  await fc.assert(
    fc.asyncProperty(fc.stringMatching(/^[ -~]{0,40}$/), async (value) => {
      const result = await seenBy('owner', { 'x-engine-user-id': value });
      const trimmed = value.trim();
      if (/^-?\d+$/.test(trimmed)) {
        const expected = rows.filter((r) => r.owner === Number(trimmed)).map((r) => r.id);
        expect(result).toEqual({ ids: expected });
      } else {
        expect(result).toEqual({ errors: [{ message: branded('X-Engine-User-Id should be an integer'), extensions: { path: '$', code: 'invalid-headers' } }] });
      }
    }),
    { numRuns: 200, seed },
  );
  expect(await checksum()).toBe(before);
});

test(
  covers(['err.not-exists.no-such-column', 'op.create_select_permission'], 'hostile column names in a filter are refused, with nothing changed'),
  async () => {
    await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [{ table }] } });
    const exported = (await target.metadata({ type: 'export_metadata', args: {} })).body;
    const known = new Set(['id', 'n', 't', 'b', 'j', 'owner']);
    const name = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('id"; drop table fuzz.item; --', "n' or '1'='1", 'ä', '😀', 'N', ' id', 'id ', 'pg_catalog.pg_class'),
    );
    await fc.assert(
      fc.asyncProperty(
        name.filter((n) => !known.has(n) && !/^[$_]/.test(n)),
        async (column) => {
          const r = await target.metadata({
            type: 'create_select_permission',
            args: { table, role: 'hostile', permission: { columns: ['id'], filter: { [column]: { _eq: 1 } } } },
          });
          expect({ status: r.status, body: r.body }).toEqual({
            status: 400,
            body: { path: '$.args.permission.filter', error: `no such column exists : ${JSON.stringify(column)}`, code: 'not-exists' },
          });
        },
      ),
      { numRuns: 200, seed },
    );
    expect((await target.metadata({ type: 'export_metadata', args: {} })).body).toEqual(exported);
    expect(await checksum()).toBe(before);
  },
);
