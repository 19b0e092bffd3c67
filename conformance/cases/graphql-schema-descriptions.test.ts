// The descriptions of the generated schema (decision dec.graphql.descriptions) and the @cached
// directive every schema declares (dec.graphql.cached): what a client's generated types carry as
// documentation, read by introspection.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, storeMetadata } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();

beforeAll(async () => {
  await target.sql(fixtureSql('store'));
  expectResponse(await target.metadata(storeMetadata()), 200);
});

type Described = { name: string; description: string | null };
const INTROSPECT = `description fields { name description args { name description } } inputFields { name description } enumValues { name description }`;
const typeOf = async (name: string) => {
  const r = await target.graphql(`{ __type(name: "${name}") { name ${INTROSPECT} } }`);
  expect(r.status).toBe(200);
  return (r.body as { data: { __type: { description: string | null; fields?: Described[]; inputFields?: Described[]; enumValues?: Described[] } } }).data
    .__type;
};
/** name → description of a type's fields, input fields or enum values. */
const descriptions = (list: (Described & { args?: Described[] })[] | undefined) => Object.fromEntries((list ?? []).map((f) => [f.name, f.description]));

test(covers(['dec.graphql.descriptions'], "a table's object and aggregate types, relationships and columns carry the engine's descriptions"), async () => {
  const customer = await typeOf('store_customer');
  expect(customer.description).toBe('people who order');
  expect(descriptions(customer.fields)).toEqual({
    email: 'where receipts go',
    id: null,
    name: null,
    purchases: 'An array relationship',
    purchases_aggregate: 'An aggregate relationship',
  });
  const purchases = customer.fields!.find((f) => f.name === 'purchases') as Described & { args: Described[] };
  expect(descriptions(purchases.args)).toEqual({
    distinct_on: 'distinct select on columns',
    limit: 'limit the number of rows returned',
    offset: 'skip the first n rows. Use only with order_by',
    order_by: 'sort the rows by one or more columns',
    where: 'filter the rows returned',
  });
  expect((await typeOf('store_purchase')).description).toBe('columns and relationships of "store.purchase"');
  expect((await typeOf('store_purchase_aggregate')).description).toBe('aggregated selection of "store.purchase"');
  expect((await typeOf('store_purchase_aggregate_fields')).description).toBe('aggregate fields of "store.purchase"');
  expect((await typeOf('store_purchase_avg_fields')).description).toBe('aggregate avg on columns');
  expect((await typeOf('store_customer_max_fields')).fields).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'email', description: 'where receipts go' })]),
  );
  expect((await typeOf('store_purchase_bool_exp')).description).toBe(
    'Boolean expression to filter rows from the table "store.purchase". All fields are combined with a logical \'AND\'.',
  );
  expect((await typeOf('store_purchase_order_by')).description).toBe('Ordering options when selecting data from "store.purchase".');
  expect((await typeOf('store_purchase_sum_order_by')).description).toBe('order by sum() on columns of table "store.purchase"');
  const select = await typeOf('store_purchase_select_column');
  expect(select.description).toBe('select columns of table "store.purchase"');
  expect(new Set(Object.values(descriptions(select.enumValues)))).toEqual(new Set(['column name']));
});

test(covers(['dec.graphql.descriptions'], "root fields, mutation inputs, constraints and comparison operators carry the engine's descriptions"), async () => {
  const query = await typeOf('query_root');
  expect(descriptions(query.fields)).toMatchObject({
    store_purchase: 'fetch data from the table: "store.purchase"',
    store_purchase_by_pk: 'fetch data from the table: "store.purchase" using primary key columns',
    store_purchase_aggregate: 'fetch aggregated fields from the table: "store.purchase"',
  });
  const mutation = await typeOf('mutation_root');
  expect(mutation.description).toBe('mutation root');
  expect(descriptions(mutation.fields)).toMatchObject({
    insert_store_purchase: 'insert data into the table: "store.purchase"',
    insert_store_purchase_one: 'insert a single row into the table: "store.purchase"',
    update_store_purchase: 'update data of the table: "store.purchase"',
    update_store_purchase_by_pk: 'update single row of the table: "store.purchase"',
    delete_store_purchase: 'delete data from the table: "store.purchase"',
    delete_store_purchase_by_pk: 'delete single row from the table: "store.purchase"',
    update_store_purchase_many: 'update multiples rows of table: "store.purchase"',
  });
  const many = mutation.fields!.find((f) => f.name === 'update_store_purchase_many') as Described & { args: Described[] };
  expect(descriptions(many.args)).toEqual({ updates: 'updates to execute, in order' });
  const updates = await typeOf('store_purchase_updates');
  expect([updates.description, descriptions(updates.inputFields).where, descriptions(updates.inputFields)._set]).toEqual([
    null,
    'filter the rows which have to be updated',
    'sets the columns of the filtered rows to the given values',
  ]);
  const arrayInsert = await typeOf('store_purchase_arr_rel_insert_input');
  expect(arrayInsert.description).toBe('input type for inserting array relation for remote table "store.purchase"');
  expect(descriptions(arrayInsert.inputFields)).toEqual({ data: null, on_conflict: 'upsert condition' });
  expect((await typeOf('store_customer_obj_rel_insert_input')).description).toBe('input type for inserting object relation for remote table "store.customer"');
  const update = mutation.fields!.find((f) => f.name === 'update_store_purchase') as Described & { args: Described[] };
  expect(descriptions(update.args)).toEqual({
    _append: 'append existing jsonb value of filtered columns with new jsonb value',
    _delete_at_path: 'delete the field or element with specified path (for JSON arrays, negative integers count from the end)',
    _delete_elem:
      'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array',
    _delete_key: 'delete key/value pair or string element. key/value pairs are matched based on their key value',
    _inc: 'increments the numeric columns with given value of the filtered values',
    _prepend: 'prepend existing jsonb value of filtered columns with new jsonb value',
    _set: 'sets the columns of the filtered rows to the given values',
    where: 'filter the rows which have to be updated',
  });
  const insert = mutation.fields!.find((f) => f.name === 'insert_store_purchase') as Described & { args: Described[] };
  expect(descriptions(insert.args)).toEqual({ objects: 'the rows to be inserted', on_conflict: 'upsert condition' });
  expect((await typeOf('store_customer_insert_input')).description).toBe('input type for inserting data into table "store.customer"');
  expect(descriptions((await typeOf('store_customer_set_input')).inputFields)).toEqual({ email: 'where receipts go', id: null, name: null });
  expect((await typeOf('store_purchase_inc_input')).description).toBe('input type for incrementing numeric columns in table "store.purchase"');
  expect((await typeOf('store_purchase_pk_columns_input')).description).toBe('primary key columns input for table: store.purchase');
  expect((await typeOf('store_purchase_on_conflict')).description).toBe('on_conflict condition type for table "store.purchase"');
  const response = await typeOf('store_purchase_mutation_response');
  expect(response.description).toBe('response of any mutation on the table "store.purchase"');
  expect(descriptions(response.fields)).toEqual({
    affected_rows: 'number of rows affected by the mutation',
    returning: 'data from the rows affected by the mutation',
  });
  const constraint = await typeOf('store_customer_constraint');
  expect(constraint.description).toBe('unique or primary key constraints on table "store.customer"');
  expect(descriptions(constraint.enumValues)).toEqual({
    customer_email_key: 'unique or primary key constraint on columns "email"',
    customer_pkey: 'unique or primary key constraint on columns "id"',
  });
  const text = await typeOf('String_comparison_exp');
  expect(text.description).toBe('Boolean expression to compare columns of type "String". All fields are combined with logical \'AND\'.');
  expect(descriptions(text.inputFields)).toMatchObject({ _eq: null, _ilike: 'does the column match the given case-insensitive pattern' });
  expect(descriptions((await typeOf('jsonb_comparison_exp')).inputFields)).toMatchObject({
    _contains: 'does the column contain the given json value at the top level',
    _has_keys_all: 'do all of these strings exist as top-level keys in the column',
  });
  expect(descriptions((await typeOf('order_by')).enumValues)).toEqual({
    asc: 'in ascending order, nulls last',
    asc_nulls_first: 'in ascending order, nulls first',
    asc_nulls_last: 'in ascending order, nulls last',
    desc: 'in descending order, nulls first',
    desc_nulls_first: 'in descending order, nulls first',
    desc_nulls_last: 'in descending order, nulls last',
  });
});

test(covers(['dec.graphql.cached'], 'every schema declares @cached(ttl: Int! = 60, refresh: Boolean! = false) on QUERY'), async () => {
  const r = await target.graphql(
    '{ __schema { directives { name description locations args { name description defaultValue type { kind ofType { name } } } } } }',
  );
  const directives = (r.body as { data: { __schema: { directives: { name: string }[] } } }).data.__schema.directives;
  expect(directives.find((d) => d.name === 'cached')).toEqual({
    name: 'cached',
    description: 'whether this query should be cached',
    locations: ['QUERY'],
    args: [
      { name: 'ttl', description: 'measured in seconds', defaultValue: '60', type: { kind: 'NON_NULL', ofType: { name: 'Int' } } },
      { name: 'refresh', description: 'refresh the cache entry', defaultValue: 'false', type: { kind: 'NON_NULL', ofType: { name: 'Boolean' } } },
    ],
  });
});
