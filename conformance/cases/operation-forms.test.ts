// The forms in which scripts and CLIs written for the engine send operations: the source-prefixed
// forms at /v1/metadata (decision dec.metadata.source-prefixed), the `source` argument, and one
// error for an unknown type, with a hint where one helps.
import { branded } from '../harness/brand';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';
import { openSocket } from '../harness/websocket';

const target = useTarget();
const customer = { schema: 'shop', name: 'customer' };
const orders = { schema: 'shop', name: 'orders' };
const status = { schema: 'shop', name: 'status' };
const ok = { message: 'success' };
const exported = async () => (await target.metadata({ type: 'export_metadata', args: {} })).body;

beforeAll(async () => {
  await target.sql(fixtureSql('shop'));
  await target.metadata({ type: 'reload_metadata', args: {} });
});
beforeEach(async () => {
  await target.reset();
});

test(covers(['dec.metadata.source-prefixed'], 'the pg_ forms of the table, relationship and permission operations do what the plain ones do'), async () => {
  const steps: [string, unknown][] = [
    ['pg_track_table', { source: 'default', table: customer }],
    ['pg_track_table', { source: 'default', table: orders, configuration: { custom_name: 'purchase' } }],
    ['pg_track_table', { table: status }],
    ['pg_set_table_is_enum', { source: 'default', table: status, is_enum: true }],
    ['pg_set_table_customization', { source: 'default', table: customer, configuration: { custom_column_names: { email: 'mail' } } }],
    ['pg_create_object_relationship', { source: 'default', table: orders, name: 'buyer', using: { foreign_key_constraint_on: 'customer_id' } }],
    [
      'pg_create_array_relationship',
      { source: 'default', table: customer, name: 'purchases', using: { foreign_key_constraint_on: { table: orders, column: 'customer_id' } } },
    ],
    ['pg_rename_relationship', { source: 'default', table: orders, name: 'buyer', new_name: 'customer' }],
    ['pg_set_relationship_comment', { source: 'default', table: orders, name: 'customer', comment: 'who ordered' }],
    [
      'pg_create_select_permission',
      { source: 'default', table: customer, role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Engine-User-Id' } } } },
    ],
    [
      'pg_create_insert_permission',
      { source: 'default', table: orders, role: 'user', permission: { columns: ['customer_id'], check: { customer_id: { _eq: 'X-Engine-User-Id' } } } },
    ],
    [
      'pg_create_update_permission',
      { source: 'default', table: customer, role: 'user', permission: { columns: ['name'], filter: { id: { _eq: 'X-Engine-User-Id' } } } },
    ],
    ['pg_create_delete_permission', { source: 'default', table: orders, role: 'user', permission: { filter: { customer_id: { _eq: 'X-Engine-User-Id' } } } }],
    ['pg_set_permission_comment', { source: 'default', table: customer, role: 'user', type: 'select', comment: 'own row' }],
  ];
  for (const [type, args] of steps) expectResponse(await target.metadata({ type, args }), 200, ok);
  expect(await exported()).toEqual(
    branded({
      version: 2,
      tables: [
        {
          table: customer,
          configuration: { custom_column_names: { email: 'mail' } },
          array_relationships: [{ name: 'purchases', using: { foreign_key_constraint_on: { table: orders, column: 'customer_id' } } }],
          select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Engine-User-Id' } } }, comment: 'own row' }],
          update_permissions: [{ role: 'user', permission: { columns: ['name'], filter: { id: { _eq: 'X-Engine-User-Id' } } } }],
        },
        {
          table: orders,
          configuration: { custom_name: 'purchase' },
          object_relationships: [{ name: 'customer', using: { foreign_key_constraint_on: 'customer_id' }, comment: 'who ordered' }],
          insert_permissions: [{ role: 'user', permission: { columns: ['customer_id'], check: { customer_id: { _eq: 'X-Engine-User-Id' } } } }],
          delete_permissions: [{ role: 'user', permission: { filter: { customer_id: { _eq: 'X-Engine-User-Id' } } } }],
        },
        { table: status, is_enum: true },
      ],
    }),
  );

  const undo: [string, unknown][] = [
    ['pg_drop_select_permission', { source: 'default', table: customer, role: 'user' }],
    ['pg_drop_update_permission', { source: 'default', table: customer, role: 'user' }],
    ['pg_drop_insert_permission', { source: 'default', table: orders, role: 'user' }],
    ['pg_drop_delete_permission', { source: 'default', table: orders, role: 'user' }],
    ['pg_drop_relationship', { source: 'default', table: orders, relationship: 'customer' }],
    ['pg_drop_relationship', { source: 'default', table: customer, relationship: 'purchases' }],
    ['pg_untrack_table', { source: 'default', table: customer }],
    ['pg_untrack_table', { source: 'default', table: orders }],
    ['pg_untrack_table', { table: status }],
  ];
  for (const [type, args] of undo) expectResponse(await target.metadata({ type, args }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [] });
});

test(
  covers(
    ['dec.metadata.source-prefixed', 'err.not-exists.source'],
    'a source other than default is refused at $.args and changes nothing, in the pg_ and the plain forms',
  ),
  async () => {
    const refused = (path: string) => ({ path, error: 'source with name "analytics" does not exist', code: 'not-exists' });
    expectResponse(await target.metadata({ type: 'pg_track_table', args: { source: 'analytics', table: customer } }), 400, refused('$.args'));
    expectResponse(await target.metadata({ type: 'track_table', version: 2, args: { source: 'analytics', table: customer } }), 400, refused('$.args'));
    expectResponse(
      await target.metadata({
        type: 'bulk',
        args: [
          { type: 'pg_track_table', args: { table: orders } },
          { type: 'pg_track_table', args: { source: 'analytics', table: customer } },
        ],
      }),
      400,
      refused('$.args[1].args'),
    );
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

test(
  covers(
    ['dec.metadata.source-prefixed', 'err.parse-failed.operation-elsewhere'],
    'the pg_ forms belong to /v1/metadata; /v1/query names where they are taken',
  ),
  async () => {
    expectResponse(await target.metadata({ type: 'pg_track_table', args: { table: customer } }, { endpoint: '/v1/query' }), 400, {
      path: '$.type',
      error: 'unknown operation type : pg_track_table; it is taken at /v1/metadata',
      code: 'parse-failed',
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

test(
  covers(
    ['err.parse-failed.unknown-operation-near', 'err.parse-failed.unknown-operation'],
    'an unknown type near a known one names it; one far from all does not',
  ),
  async () => {
    expectResponse(await target.metadata({ type: 'trak_table', args: { table: customer } }), 400, {
      path: '$.type',
      error: 'unknown operation type : trak_table; did you mean track_table?',
      code: 'parse-failed',
    });
    expectResponse(await target.metadata({ type: 'pg_track_tabel', args: { table: customer } }), 400, {
      path: '$.type',
      error: 'unknown operation type : pg_track_tabel; did you mean pg_track_table?',
      code: 'parse-failed',
    });
    expectResponse(await target.metadata({ type: 'frobnicate_everything', args: {} }), 400, {
      path: '$.type',
      error: 'unknown operation type : frobnicate_everything',
      code: 'parse-failed',
    });
  },
);

test(
  covers(['op.track_table.v1', 'op.add_existing_table_or_view'], 'the oldest forms: the table name alone as the arguments, and add_existing_table_or_view'),
  async () => {
    await target.sql(
      'create table if not exists public.legacy_item (id int primary key); create table if not exists public.legacy_view_source (id int primary key)',
    );
    await target.metadata({ type: 'reload_metadata', args: {} });
    expectResponse(await target.metadata({ type: 'track_table', args: 'legacy_item' }), 200, ok);
    expectResponse(await target.metadata({ type: 'add_existing_table_or_view', args: 'legacy_view_source' }), 200, ok);
    expectResponse(
      await target.metadata({ type: 'add_existing_table_or_view', args: { schema: 'shop', name: 'customer' } }, { endpoint: '/v1/query' }),
      200,
      ok,
    );
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: { schema: 'public', name: 'legacy_item' } }, { table: { schema: 'public', name: 'legacy_view_source' } }, { table: customer }],
    });
    expectResponse(await target.metadata({ type: 'track_table', args: 42 }), 400, {
      path: '$.args',
      error: 'expected a table name, or an object with "table", but encountered Number',
      code: 'parse-failed',
    });
  },
);

test(
  covers(['dec.envelope.extra-keys', 'rule.envelope.shape:allowed'], 'keys beside type, version and args are ignored; unknown keys inside args are not'),
  async () => {
    expectResponse(await target.metadata({ type: 'run_sql', args: { sql: 'select 1 as one' }, cascade: true }, { endpoint: '/v2/query' }), 200, {
      result_type: 'TuplesOk',
      result: [['one'], ['1']],
    });
    expectResponse(await target.metadata({ type: 'track_table', args: { table: customer }, source: 'default', comment: 'from a script' }), 200, ok);
    expectResponse(await target.metadata({ type: 'bulk', args: [{ type: 'track_table', args: { table: orders }, cascade: false }] }), 200, [ok]);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: customer }, { table: orders }] });
    expectResponse(await target.metadata({ type: 'untrack_table', args: { table: customer, sauce: 'default' } }), 400, {
      path: '$.args',
      error: 'unexpected key "sauce"',
      code: 'parse-failed',
    });
  },
);

test(
  covers(
    ['dec.graphql.v1alpha1'],
    "/v1alpha1/graphql serves a role under its permission, refuses what the role may not do and takes mutations, in /v1/graphql's words",
  ),
  async () => {
    await target.sql(
      "delete from shop.status where value like 'alpha-%'; insert into shop.status values ('alpha-seen', 'shown'), ('alpha-hidden', 'not shown')",
    );
    expectResponse(
      await target.metadata({
        type: 'bulk',
        args: [
          { type: 'track_table', args: { table: status } },
          {
            type: 'create_select_permission',
            args: { table: status, role: 'user', permission: { columns: ['value'], filter: { comment: { _eq: 'shown' } } } },
          },
        ],
      }),
      200,
      [ok, ok],
    );
    const asUser = { ...target.adminHeaders(), 'x-engine-role': 'user' };
    const post = (path: string, query: string, headers: Record<string, string> = asUser) => target.request('POST', path, { body: { query }, headers });
    const rows = '{ shop_status(where: {value: {_like: "alpha-%"}}, order_by: {value: asc}) { value } }';
    for (const path of ['/v1/graphql', '/v1alpha1/graphql']) {
      expectResponse(await post(path, rows), 200, { data: { shop_status: [{ value: 'alpha-seen' }] } });
      expectResponse(await post(path, '{ shop_status { comment } }'), 200, {
        errors: [
          {
            message: 'Cannot query field "comment" on type "shop_status".',
            extensions: { path: '$', code: 'validation-failed' },
          },
        ],
      });
    }
    expectResponse(
      await post(
        '/v1alpha1/graphql',
        'mutation { insert_shop_status(objects: [{value: "alpha-new", comment: "shown"}]) { affected_rows } }',
        target.adminHeaders(),
      ),
      200,
      { data: { insert_shop_status: { affected_rows: 1 } } },
    );
    expect(await target.sql("select value from shop.status where value like 'alpha-%' order by value")).toEqual([
      { value: 'alpha-hidden' },
      { value: 'alpha-new' },
      { value: 'alpha-seen' },
    ]);
    expectResponse(await post('/v1alpha1/graphql', rows), 200, { data: { shop_status: [{ value: 'alpha-new' }, { value: 'alpha-seen' }] } });
  },
);

test(covers(['dec.graphql.v1alpha1'], '/v1alpha1/graphql answers POST, GET and subscriptions as /v1/graphql does'), async () => {
  await target.metadata({ type: 'track_table', args: { table: status } });
  await target.sql("insert into shop.status values ('v1alpha1-probe', null) on conflict do nothing");
  const query = '{ shop_status(where: {value: {_eq: "v1alpha1-probe"}}) { value } }';
  const expected = { data: { shop_status: [{ value: 'v1alpha1-probe' }] } };
  expectResponse(await target.request('POST', '/v1alpha1/graphql', { body: { query }, headers: target.adminHeaders() }), 200, expected);
  expectResponse(await target.request('GET', `/v1alpha1/graphql?query=${encodeURIComponent(query)}`, { headers: target.adminHeaders() }), 200, expected);
  const socket = openSocket(target, target.adminHeaders(), '/v1alpha1/graphql');
  try {
    const live = socket.start(`subscription ${query}`);
    expect(await live.take()).toEqual({ type: 'next', payload: expected });
  } finally {
    await socket.close();
  }
});
