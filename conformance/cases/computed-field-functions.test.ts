// What a computed field's function may become (decision dec.computed_fields.run_sql): run_sql that
// drops it (even to make it again), overloads it or makes it VOLATILE, and add_computed_field of a
// VOLATILE function.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const item = { schema: 'shopfn', name: 'item' };
const fn = (name: string) => ({ schema: 'shopfn', name });
const ok = { message: 'success' };
const COMMAND_OK = { result_type: 'CommandOk', result: null };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const runSql = (sql: string, cascade?: boolean) =>
  target.metadata({ type: 'run_sql', args: { sql, ...(cascade === undefined ? {} : { cascade }) } }, { endpoint: '/v2/query' });
const exported = async () => (await run('export_metadata', {})).body;
const gql = async (query: string) => (await target.graphql(query, undefined, { headers: target.adminHeaders() })).body;
const labelOf1 = () => gql('{ shopfn_item(where: {id: {_eq: 1}}) { label } }');
const itemLabels = async () =>
  (
    await target.sql(
      `select pronargs::int as args, provolatile::text as volatility from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'shopfn' and p.proname = 'item_label' order by pronargs`,
    )
  ).map((r) => [r.args, r.volatility]);

const LABEL = `language sql stable as $$ select upper(i.title) || ' (' || i.price || ')' $$`;
const withLabel = {
  version: 2,
  tables: [
    {
      table: item,
      computed_fields: [{ name: 'label', definition: { function: fn('item_label') } }],
      select_permissions: [{ role: 'user', permission: { columns: ['id'], computed_fields: ['label'], filter: {} } }],
    },
  ],
};

beforeEach(async () => {
  await target.reset();
  await target.sql(fixtureSql('shopfn'));
  expectResponse(await run('replace_metadata', withLabel), 200, ok);
});

test(
  covers(
    ['dec.computed_fields.run_sql', 'err.dependency-error.drop', 'op.run_sql'],
    'a function dropped and made again, with another signature or the same one, takes the computed field along: refused, or dropped with its permissions by cascade',
  ),
  async () => {
    const refused = {
      path: '$.args',
      error: 'cannot drop due to the following dependent objects : computed field shopfn.item.label',
      code: 'dependency-error',
    };
    for (const signature of ["i shopfn.item, suffix text default ''", 'i shopfn.item']) {
      expectResponse(
        await runSql(`drop function shopfn.item_label(shopfn.item); create function shopfn.item_label(${signature}) returns text ${LABEL}`),
        400,
        refused,
      );
    }
    expect(await itemLabels()).toEqual([[1, 's']]);
    expect(await exported()).toEqual(withLabel);
    expect(await labelOf1()).toEqual({ data: { shopfn_item: [{ label: 'APPLE PIE (3.50)' }] } });
    expectResponse(
      await runSql(
        `drop function shopfn.item_label(shopfn.item); create function shopfn.item_label(i shopfn.item, suffix text default '') returns text ${LABEL}`,
        true,
      ),
      200,
      COMMAND_OK,
    );
    expect(await itemLabels()).toEqual([[2, 's']]);
    // The field is gone, and the permission that listed it with it.
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  },
);

test(
  covers(
    ['dec.computed_fields.run_sql', 'err.not-supported.computed-field-function-volatile', 'err.not-supported.computed-field-function-overloaded'],
    "a computed field's function made VOLATILE or given a second overload is refused, cascade or not; a new body of the same signature is kept",
  ),
  async () => {
    const volatile = {
      path: '$.args',
      error: 'The type of function "shopfn.item_label" associated with computed field "label" of table "shopfn.item" is being altered to "VOLATILE"',
      code: 'not-supported',
    };
    const overloaded = {
      path: '$.args',
      error: 'The function "shopfn.item_label" associated with computed field"label" of table "shopfn.item" is being overloaded',
      code: 'not-supported',
    };
    for (const cascade of [undefined, true]) {
      expectResponse(await runSql('alter function shopfn.item_label(shopfn.item) volatile', cascade), 400, volatile);
      expectResponse(await runSql(`create function shopfn.item_label(i shopfn.item, n integer) returns text ${LABEL}`, cascade), 400, overloaded);
    }
    expect(await itemLabels()).toEqual([[1, 's']]);
    expect(await exported()).toEqual(withLabel);
    // IMMUTABLE is still a function a query may read.
    expectResponse(await runSql('alter function shopfn.item_label(shopfn.item) immutable'), 200, COMMAND_OK);
    expectResponse(
      await runSql("create or replace function shopfn.item_label(i shopfn.item) returns text language sql stable as $$ select 'label ' || i.id $$"),
      200,
      COMMAND_OK,
    );
    expect(await exported()).toEqual(withLabel);
    expect(await labelOf1()).toEqual({ data: { shopfn_item: [{ label: 'label 1' }] } });
  },
);

test(
  covers(
    ['dec.computed_fields.run_sql', 'err.not-supported.computed-field-volatile', 'op.add_computed_field'],
    'add_computed_field refuses a VOLATILE function',
  ),
  async () => {
    await target.sql("create function shopfn.item_stamp(i shopfn.item) returns text language sql volatile as $$ select i.title || ' ' || random() $$");
    expectResponse(await run('add_computed_field', { table: item, name: 'stamp', definition: { function: fn('item_stamp') } }), 400, {
      path: '$.args',
      error: 'in table "shopfn.item": in computed field "stamp": the function "shopfn.item_stamp" is of type VOLATILE; cannot be added as a computed field',
      code: 'constraint-violation',
    });
    expect(await exported()).toEqual(withLabel);
  },
);

test(covers(['op.add_computed_field'], 'one function may define several computed fields of a table, added one by one or in one document'), async () => {
  const second = { name: 'caption', definition: { function: fn('item_label') } };
  expectResponse(await run('add_computed_field', { table: item, ...second }), 200, ok);
  expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { label caption } }')).toEqual({
    data: { shopfn_item: [{ label: 'APPLE PIE (3.50)', caption: 'APPLE PIE (3.50)' }] },
  });
  // Exported in the order of their names.
  const [entry] = withLabel.tables;
  const both = { ...withLabel, tables: [{ ...entry!, computed_fields: [second, ...entry!.computed_fields] }] };
  expect(await exported()).toEqual(both);
  // And so does a whole document that names the function twice.
  expectResponse(await run('clear_metadata', {}), 200, ok);
  expectResponse(await run('replace_metadata', both), 200, ok);
  expect(await exported()).toEqual(both);
});
