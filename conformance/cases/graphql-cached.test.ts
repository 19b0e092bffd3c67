// Queries with @cached (decision dec.graphql.cached): an answer is kept for its ttl and served
// without the database, made anew with refresh, never shared between sessions that could see
// different rows, and never kept when it has errors. A row changed behind the server's back shows
// which answers come from the cache.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, storeMetadata } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const asUser = (id: string) => ({ ...target.adminHeaders(), 'x-engine-role': 'user', 'x-engine-user-id': id });
const rename = (id: number, name: string) => target.sql('update store.customer set name = $1 where id = $2', [name, id]);

beforeEach(async () => {
  await target.sql(fixtureSql('store'));
  expectResponse(await target.metadata(storeMetadata()), 200);
});

test(covers(['dec.graphql.cached'], 'a cached answer is served for its ttl, with Cache-Control; refresh makes it anew'), async () => {
  const query = 'query Names @cached(ttl: 120) { store_customer(order_by: {id: asc}) { name } }';
  const first = await target.graphql(query);
  expectResponse(first, 200, { data: { store_customer: [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cy' }] } });
  expect(first.headers.get('cache-control')).toBe('max-age=120');
  await rename(1, 'Anna');
  const second = await target.graphql(query);
  expectResponse(second, 200, { data: { store_customer: [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cy' }] } });
  expect(second.headers.get('cache-control')).toMatch(/^max-age=(119|120)$/);
  // Without the directive the same selection reads the database.
  expectResponse(await target.graphql('query Names { store_customer(order_by: {id: asc}) { name } }'), 200, {
    data: { store_customer: [{ name: 'Anna' }, { name: 'Bob' }, { name: 'Cy' }] },
  });
  const refreshed = 'query Names @cached(ttl: 120, refresh: true) { store_customer(order_by: {id: asc}) { name } }';
  expectResponse(await target.graphql(refreshed), 200, { data: { store_customer: [{ name: 'Anna' }, { name: 'Bob' }, { name: 'Cy' }] } });
  await rename(2, 'Bobby');
  // refresh makes a new answer every time; the document without it keeps its own.
  expectResponse(await target.graphql(refreshed), 200, { data: { store_customer: [{ name: 'Anna' }, { name: 'Bobby' }, { name: 'Cy' }] } });
  expectResponse(await target.graphql(query), 200, { data: { store_customer: [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cy' }] } });
});

test(covers(['dec.graphql.cached'], 'sessions that could see different rows, and different variables, never share an answer'), async () => {
  const query = 'query Mine($id: Int!) @cached { store_customer(where: {id: {_gte: $id}}) { id name } }';
  expectResponse(await target.graphql(query, { id: 0 }, { headers: asUser('1') }), 200, { data: { store_customer: [{ id: 1, name: 'Ann' }] } });
  expectResponse(await target.graphql(query, { id: 0 }, { headers: asUser('2') }), 200, { data: { store_customer: [{ id: 2, name: 'Bob' }] } });
  await rename(1, 'Anna');
  expectResponse(await target.graphql(query, { id: 0 }, { headers: asUser('1') }), 200, { data: { store_customer: [{ id: 1, name: 'Ann' }] } });
  expectResponse(await target.graphql(query, { id: 1 }, { headers: asUser('1') }), 200, { data: { store_customer: [{ id: 1, name: 'Anna' }] } });
  // Admin reads every row: an answer of its own.
  expectResponse(
    await target.graphql('query Mine($id: Int!) @cached { store_customer(where: {id: {_gte: $id}}, order_by: {id: asc}) { id name } }', { id: 0 }),
    200,
    {
      data: {
        store_customer: [
          { id: 1, name: 'Anna' },
          { id: 2, name: 'Bob' },
          { id: 3, name: 'Cy' },
        ],
      },
    },
  );
});

test(covers(['dec.graphql.cached'], 'an answer with errors is not kept; @cached is refused on a mutation; a metadata change keeps no answer'), async () => {
  // A column renamed behind the server's back: the query fails, and the failure is not kept.
  const query = 'query Names @cached(ttl: 300) { store_customer_by_pk(id: 2) { name } }';
  await target.sql('alter table store.customer rename column name to full_name');
  const failed = await target.graphql(query);
  expect((failed.body as { errors?: unknown[] }).errors).toHaveLength(1);
  await target.sql('alter table store.customer rename column full_name to name');
  expectResponse(await target.graphql(query), 200, { data: { store_customer_by_pk: { name: 'Bob' } } });
  const mutation = await target.graphql('mutation @cached { delete_store_purchase(where: {}) { affected_rows } }');
  expect((mutation.body as { errors: { message: string; extensions: { code: string } }[] }).errors[0]).toEqual({
    message: 'Directive "@cached" may not be used on MUTATION.',
    extensions: { path: '$', code: 'validation-failed' },
  });
  await rename(2, 'Bobby');
  expectResponse(await target.graphql(query), 200, { data: { store_customer_by_pk: { name: 'Bob' } } });
  expectResponse(await target.metadata({ type: 'reload_metadata', args: {} }), 200);
  expectResponse(await target.graphql(query), 200, { data: { store_customer_by_pk: { name: 'Bobby' } } });
});

test(
  covers(
    ['dec.graphql.cached', 'op.create_rest_endpoint', 'op.create_query_collection'],
    'a REST endpoint whose document has @cached is made, and answers from the cache',
  ),
  async () => {
    const query = 'query names @cached(ttl: 60) { store_customer(order_by: {id: asc}) { name } }';
    const made = await target.metadata({
      type: 'bulk',
      args: [
        { type: 'create_query_collection', args: { name: 'rest', definition: { queries: [{ name: 'names', query }] } } },
        {
          type: 'create_rest_endpoint',
          args: { name: 'names', url: 'names', methods: ['GET'], definition: { query: { query_name: 'names', collection_name: 'rest' } } },
        },
      ],
    });
    expectResponse(made, 200, [{ message: 'success' }, { message: 'success' }]);
    const names = { data: { store_customer: [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cy' }] } };
    expectResponse(await target.request('GET', '/api/rest/names', { headers: target.adminHeaders() }), 200, names);
    await rename(1, 'Anna');
    expectResponse(await target.request('GET', '/api/rest/names', { headers: target.adminHeaders() }), 200, names);
  },
);
