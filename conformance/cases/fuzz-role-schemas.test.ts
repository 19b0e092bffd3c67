// Decision dec.schema.always-valid: metadata the target accepts never leaves a role without a
// working GraphQL schema. Generated permissions (column subsets down to none, presets covering
// every column, backend_only inserts, aggregations, tables a role may only write) on two related
// tables go in with replace_metadata; every role must then answer `{ __typename }` and a full
// introspection, with and without the backend-only header.
import fc from 'fast-check';
import { covers } from '../harness/cases';
import { useTarget } from '../harness/target';

const target = useTarget();
const RUNS = Number(process.env.ENGINE_ROLE_SCHEMA_RUNS ?? 25);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);
const parent = { schema: 'fuzzrole', name: 'parent' };
const child = { schema: 'fuzzrole', name: 'child' };
const COLUMNS = { parent: ['id', 'name', 'n', 'j'], child: ['id', 'parent_id', 'title'] } as const;
const ROLES = ['r0', 'r1', 'r2', 'r3'];

const subset = (columns: readonly string[]) => fc.subarray([...columns]);
const presets = (columns: readonly string[]) =>
  fc.subarray([...columns].filter((c) => c !== 'j' && c !== 'id')).map((cs) => Object.fromEntries(cs.map((c) => [c, c === 'n' || c === 'parent_id' ? 'X-Engine-User-Id' : 'X-Engine-User-Name'])));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

function permissionsOf(table: keyof typeof COLUMNS) {
  const columns = COLUMNS[table];
  return fc.record({
    select: maybe(fc.record({ columns: subset(columns), filter: fc.constant({}), allow_aggregations: fc.boolean() })),
    insert: maybe(fc.record({ columns: subset(columns), check: fc.constant({}), set: presets(columns), backend_only: fc.boolean() })),
    update: maybe(fc.record({ columns: subset(columns), filter: fc.constant({}), set: presets(columns) })),
    delete: maybe(fc.record({ filter: fc.constant({}) })),
  });
}

type Generated = Record<string, { parent: Record<string, unknown>; child: Record<string, unknown> }>;

function tableEntry(table: typeof parent, name: keyof typeof COLUMNS, byRole: Generated) {
  const list = (kind: string) =>
    ROLES.flatMap((role) => {
      const p = (byRole[role]![name] as Record<string, unknown>)[kind];
      return p === undefined ? [] : [{ role, permission: p }];
    });
  const relationships =
    name === 'child'
      ? { object_relationships: [{ name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } }] }
      : { array_relationships: [{ name: 'children', using: { foreign_key_constraint_on: { table: child, column: 'parent_id' } } }] };
  const entry: Record<string, unknown> = { table, ...relationships };
  for (const kind of ['select', 'insert', 'update', 'delete']) {
    const l = list(kind);
    if (l.length) entry[`${kind}_permissions`] = l;
  }
  return entry;
}

const INTROSPECTION = '{ __schema { queryType { name } types { name kind fields { name } inputFields { name } } } }';

beforeAll(async () => {
  await target.sql(`drop schema if exists fuzzrole cascade; create schema fuzzrole;
    create table fuzzrole.parent (id serial primary key, name text, n integer, j jsonb);
    create table fuzzrole.child (id serial primary key, parent_id integer references fuzzrole.parent (id), title text);`);
  await target.metadata({ type: 'reload_metadata', args: {} });
});

test(
  covers(['dec.schema.always-valid'], `generated permissions never leave a role without a working schema (${RUNS} metadata documents × ${ROLES.length} roles)`),
  async () => {
    const generated = fc.record(Object.fromEntries(ROLES.map((r) => [r, fc.record({ parent: permissionsOf('parent'), child: permissionsOf('child') })]))) as unknown as fc.Arbitrary<Generated>;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(generated, async (byRole) => {
        const document = { version: 2, tables: [tableEntry(parent, 'parent', byRole), tableEntry(child, 'child', byRole)] };
        const replaced = await target.metadata({ type: 'replace_metadata', args: document });
        if (replaced.status !== 200) return; // refused metadata changes nothing; only accepted metadata must work
        accepted++;
        for (const role of ROLES) {
          for (const backendOnly of [false, true]) {
            const headers = { ...target.adminHeaders(), 'x-engine-role': role, 'x-engine-user-id': '1', 'x-engine-user-name': 'fuzz', ...(backendOnly ? { 'x-engine-use-backend-only-permissions': 'true' } : {}) };
            for (const query of ['{ __typename }', INTROSPECTION]) {
              const r = await target.graphql(query, undefined, { headers });
              const body = r.body as { data?: unknown; errors?: unknown };
              if (r.status !== 200 || !body.data || body.errors) {
                throw new Error(`role ${role}${backendOnly ? ' (backend only)' : ''} cannot use its schema after accepted metadata ${JSON.stringify(document)}: ${r.text.slice(0, 400)}`);
              }
            }
          }
        }
      }),
      { numRuns: RUNS, seed },
    );
    process.stdout.write(`role schemas: ${accepted} of ${RUNS} generated documents accepted, every role's schema valid, seed ${seed}\n`);
    expect(accepted).toBeGreaterThan(RUNS / 2);
  },
  300_000,
);
