// Aggregate predicates in boolean expressions (decision dec.graphql.aggregate-predicates):
// `<array relationship>_aggregate: {count | bool_and | bool_or: {arguments, distinct, filter,
// predicate}}` in `where` and in permissions, over the related rows the role reads. The store
// fixture: Ann has purchases 1 (open, paid, 10.5) and 3 (closed, paid, 7), Bob purchase 2
// (closed, unpaid, 3), Cy none.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, storeMetadata } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const table = (name: string) => ({ schema: 'store', name });
const run = (type: string, args: unknown) => target.metadata({ type, args });
const select = (name: string, role: string, permission: Record<string, unknown>) =>
  run('create_select_permission', { table: table(name), role, permission: { columns: '*', filter: {}, ...permission } });
const asRole = (role: string) => ({ ...target.adminHeaders(), 'x-engine-role': role });
const ids = async (where: string, role?: string) => {
  const r = await target.graphql(`{ store_customer(where: ${where}, order_by: {id: asc}) { id } }`, undefined, role ? { headers: asRole(role) } : {});
  expect(r.status).toBe(200);
  const body = r.body as { data?: { store_customer: { id: number }[] }; errors?: unknown };
  if (!body.data) throw new Error(`${where}: ${JSON.stringify(body)}`);
  return body.data.store_customer.map((c) => c.id);
};

beforeEach(async () => {
  await target.sql(fixtureSql('store'));
  expectResponse(await target.metadata(storeMetadata()), 200);
});

test(covers(['dec.graphql.aggregate-predicates'], 'count, bool_and and bool_or over an array relationship, with arguments, distinct and filter'), async () => {
  expect(await ids('{purchases_aggregate: {count: {predicate: {_gt: 1}}}}')).toEqual([1]);
  expect(await ids('{purchases_aggregate: {count: {predicate: {_eq: 0}}}}')).toEqual([3]);
  expect(await ids('{purchases_aggregate: {count: {filter: {status: {_eq: closed}}, predicate: {_eq: 1}}}}')).toEqual([1, 2]);
  expect(await ids('{purchases_aggregate: {count: {arguments: [status], distinct: true, predicate: {_eq: 2}}}}')).toEqual([1]);
  expect(await ids('{purchases_aggregate: {count: {arguments: [referrer_id], predicate: {_eq: 1}}}}')).toEqual([1, 2]);
  expect(await ids('{purchases_aggregate: {bool_and: {arguments: paid, predicate: {_eq: true}}}}')).toEqual([1]);
  expect(await ids('{purchases_aggregate: {bool_or: {arguments: paid, predicate: {_eq: false}}}}')).toEqual([2]);
  expect(await ids('{_not: {purchases_aggregate: {count: {predicate: {_gte: 1, _lte: 1}}}}}')).toEqual([1, 3]);
  const both = await target.graphql(
    '{ store_customer(where: {purchases_aggregate: {count: {predicate: {_gt: 0}}, bool_or: {arguments: paid, predicate: {_eq: true}}}}) { id } }',
  );
  expectResponse(both, 200, { errors: [{ message: 'exactly one predicate should be specified', extensions: { path: '$', code: 'validation-failed' } }] });
});

test(
  covers(['dec.graphql.aggregate-predicates'], "a role's predicates count only the rows it reads, and exist only where it may aggregate the target"),
  async () => {
    expectResponse(await select('customer', 'counter', {}), 200);
    expectResponse(await select('purchase', 'counter', { filter: { total: { _gt: 5 } }, allow_aggregations: true }), 200);
    expect(await ids('{purchases_aggregate: {count: {predicate: {_eq: 2}}}}', 'counter')).toEqual([1]);
    expect(await ids('{purchases_aggregate: {count: {predicate: {_eq: 0}}}}', 'counter')).toEqual([2, 3]);
    // `everyone` reads purchases without aggregations: no predicates over them.
    const r = await target.graphql('{ __type(name: "store_customer_bool_exp") { inputFields { name } } }', undefined, { headers: asRole('everyone') });
    const fields = (r.body as { data: { __type: { inputFields: { name: string }[] } } }).data.__type.inputFields.map((f) => f.name);
    expect(fields).toContain('purchases');
    expect(fields).not.toContain('purchases_aggregate');
  },
);

test(covers(['dec.graphql.aggregate-predicates'], "the predicates' types as the engine names them"), async () => {
  const TYPE = '{ kind name ofType { kind name ofType { kind name } } }';
  const r = await target.graphql(
    `{ p: __type(name: "store_purchase_aggregate_bool_exp") { inputFields { name type ${TYPE} } }
       c: __type(name: "store_purchase_aggregate_bool_exp_count") { inputFields { name type ${TYPE} } }
       a: __type(name: "store_purchase_aggregate_bool_exp_bool_and") { inputFields { name type ${TYPE} } }
       e: __type(name: "store_purchase_select_column_store_purchase_aggregate_bool_exp_bool_and_arguments_columns") { description enumValues { name } }
       b: __type(name: "store_customer_bool_exp") { inputFields { name type ${TYPE} } } }`,
  );
  const data = (r.body as { data: Record<string, { inputFields?: { name: string }[] }> }).data;
  const input = (name: string) => ({ kind: 'INPUT_OBJECT', name, ofType: null });
  const nonNull = (inner: unknown) => ({ kind: 'NON_NULL', name: null, ofType: inner });
  expect(data.p!.inputFields!.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
    { name: 'bool_and', type: input('store_purchase_aggregate_bool_exp_bool_and') },
    { name: 'bool_or', type: input('store_purchase_aggregate_bool_exp_bool_or') },
    { name: 'count', type: input('store_purchase_aggregate_bool_exp_count') },
  ]);
  expect(data.c!.inputFields!.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
    {
      name: 'arguments',
      type: { kind: 'LIST', name: null, ofType: nonNull({ kind: 'ENUM', name: 'store_purchase_select_column' }) },
    },
    { name: 'distinct', type: { kind: 'SCALAR', name: 'Boolean', ofType: null } },
    { name: 'filter', type: input('store_purchase_bool_exp') },
    { name: 'predicate', type: nonNull({ kind: 'INPUT_OBJECT', name: 'Int_comparison_exp', ofType: null }) },
  ]);
  expect(data.a!.inputFields!.find((f) => f.name === 'predicate')).toEqual({
    name: 'predicate',
    type: nonNull({ kind: 'INPUT_OBJECT', name: 'Boolean_comparison_exp', ofType: null }),
  });
  expect(data.e).toEqual({
    description: 'select "store_purchase_aggregate_bool_exp_bool_and_arguments_columns" columns of table "store.purchase"',
    enumValues: [{ name: 'paid' }],
  });
  expect(data.b!.inputFields!.find((f) => f.name === 'purchases_aggregate')).toEqual({
    name: 'purchases_aggregate',
    type: input('store_purchase_aggregate_bool_exp'),
  });
});

test(
  covers(
    ['dec.graphql.aggregate-predicates', 'rule.perm.select.filter'],
    'a select permission filters by an aggregate predicate; one naming no column is refused',
  ),
  async () => {
    expectResponse(await select('customer', 'regular', { filter: { purchases_aggregate: { count: { predicate: { _gte: 2 } } } } }), 200);
    expect(await ids('{}', 'regular')).toEqual([1]);
    expectResponse(await select('customer', 'payer', { filter: { purchases_aggregate: { bool_or: { arguments: 'paid', predicate: { $eq: true } } } } }), 200);
    expect(await ids('{}', 'payer')).toEqual([1]);
    const before = (await run('export_metadata', {})).body;
    expectResponse(await select('customer', 'odd', { filter: { purchases_aggregate: { count: { arguments: ['nope'], predicate: { _gt: 0 } } } } }), 400, {
      path: '$.args.permission.filter',
      error: 'no such column exists : "nope"',
      code: 'not-exists',
    });
    expect((await run('export_metadata', {})).body).toEqual(before);
  },
);
