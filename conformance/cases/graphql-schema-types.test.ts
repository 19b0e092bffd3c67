// The generated schema's types as the engine types them: which object relationships are non-null
// (decision dec.graphql.object-relationship-nullability), what an enum column is compared and
// aggregated with (dec.graphql.enum-column-operators), the descriptions (dec.graphql.descriptions)
// and the @cached directive (dec.graphql.cached). Read by introspection, as a client's generator does.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, storeMetadata } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
beforeAll(async () => {
  await target.sql(fixtureSql('store'));
  expectResponse(await target.metadata(storeMetadata()), 200);
});

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
const typeOf = async (name: string, headers?: Record<string, string>) => {
  const r = await target.graphql(
    `{ __type(name: "${name}") { name description fields { name description type { ${TYPE_REF} } args { name description } } inputFields { name description } enumValues { name description } } }`,
    undefined,
    headers ? { headers } : {},
  );
  expect(r.status).toBe(200);
  return (r.body as { data: { __type: Record<string, unknown> | null } }).data.__type;
};
const field = (type: Record<string, unknown> | null, name: string) => (type!.fields as { name: string }[]).find((f) => f.name === name);
const named = (name: string) => ({ kind: 'OBJECT', name, ofType: null });
const required = (name: string) => ({ kind: 'NON_NULL', name: null, ofType: { kind: 'OBJECT', name, ofType: null } });
const asRole = (role: string, userId = '1') => ({ ...target.adminHeaders(), 'x-engine-role': role, 'x-engine-user-id': userId });

test(
  covers(
    ['dec.graphql.object-relationship-nullability'],
    'an object relationship over a NOT NULL foreign key is non-null; over a nullable key or a manual configuration, or for a role that may not see every target row, nullable',
  ),
  async () => {
    const admin = await typeOf('store_purchase');
    expect(field(admin, 'customer')).toMatchObject({ type: required('store_customer'), description: 'An object relationship' });
    expect(field(admin, 'referrer')).toMatchObject({ type: named('store_customer') });
    expect(field(admin, 'buyer')).toMatchObject({ type: named('store_customer') });
    expect(field(await typeOf('store_customer'), 'purchases')).toMatchObject({
      type: { kind: 'NON_NULL', name: null, ofType: { kind: 'LIST', name: null, ofType: required('store_purchase') } },
      description: 'An array relationship',
    });
    expect(field(await typeOf('store_purchase', asRole('everyone')), 'customer')).toMatchObject({ type: required('store_customer') });
    // The user sees only their own customer row: the purchase of another leads to nothing.
    expect(field(await typeOf('store_purchase', asRole('user')), 'customer')).toMatchObject({ type: named('store_customer') });
    const r = await target.graphql('{ store_purchase(order_by: {id: asc}) { id customer { name } } }', undefined, { headers: asRole('user') });
    expectResponse(r, 200, {
      data: {
        store_purchase: [
          { id: 1, customer: { name: 'Ann' } },
          { id: 2, customer: null },
          { id: 3, customer: { name: 'Ann' } },
        ],
      },
    });
  },
);

test(covers(['dec.graphql.enum-column-operators'], "an enum table's column is compared for equality only, and has no max or min"), async () => {
  const comparison = await typeOf('store_status_enum_comparison_exp');
  expect((comparison!.inputFields as { name: string }[]).map((f) => f.name).sort()).toEqual(['_eq', '_in', '_is_null', '_neq', '_nin']);
  expect(((await typeOf('store_purchase_max_fields'))!.fields as { name: string }[]).map((f) => f.name).sort()).toEqual([
    'customer_id',
    'id',
    'referrer_id',
    'total',
  ]);
  expect(((await typeOf('store_purchase_min_order_by'))!.inputFields as { name: string }[]).map((f) => f.name).sort()).toEqual([
    'customer_id',
    'id',
    'referrer_id',
    'total',
  ]);
  const r = await target.graphql('{ store_purchase(where: {status: {_like: "o%"}}) { id } }');
  expect((r.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('validation-failed');
  expectResponse(await target.graphql('{ store_purchase(where: {status: {_in: [open]}}) { id status } }'), 200, {
    data: { store_purchase: [{ id: 1, status: 'open' }] },
  });
});
