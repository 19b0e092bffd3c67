// Tracking tables: SPEC.md §4.3 table operations, §2.3 TableConfig, §7.2 messages.
import { covers } from '../harness/cases';
import { expectError, expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const customer = { schema: 'shop', name: 'customer' };
const orders = { schema: 'shop', name: 'orders' };
const status = { schema: 'shop', name: 'status' };
const ok = { message: 'success' };

const run = (type: string, args: unknown, version?: number) => target.metadata({ type, ...(version ? { version } : {}), args }, { endpoint: '/v1/query' });
const exported = async () => (await target.metadata({ type: 'export_metadata', args: {} })).body as { tables: unknown[] };

beforeAll(async () => {
  await target.sql(fixtureSql('shop'));
  await target.metadata({ type: 'reload_metadata', args: {} });
});
beforeEach(() => target.reset());

test(covers(['op.track_table.v1', 'rule.envelope.version-inferred'], 'track_table v1 with schema and name'), async () => {
  expectResponse(await run('track_table', { schema: 'shop', name: 'customer' }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: customer }] });
});

test(covers(['op.track_table.v1'], 'track_table v1 with a table object'), async () => {
  expectResponse(await run('track_table', { table: customer }, 1), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: customer }] });
});

test(covers(['op.track_table.v2', 'rule.envelope.version-explicit'], 'track_table v2 with a configuration'), async () => {
  const configuration = { custom_name: 'client', custom_root_fields: { select: 'clients', select_by_pk: 'client' }, custom_column_names: { name: 'fullName' } };
  expectResponse(await run('track_table', { table: customer, configuration }, 2), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: customer, configuration }] });
});

test(covers(['op.track_table.v2', 'dec.table-name.default-schema'], 'track_table v2 takes a bare table name as public'), async () => {
  await target.sql('create table if not exists public.cf_bare (id int primary key)');
  try {
    expectResponse(await run('track_table', { table: 'cf_bare' }, 2), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: { schema: 'public', name: 'cf_bare' } }] });
  } finally {
    await target.reset();
    await target.sql('drop table if exists public.cf_bare');
  }
});

test(covers(['op.track_table.v1', 'err.already-tracked'], 'tracking a tracked table again is refused'), async () => {
  await run('track_table', { table: customer });
  expectResponse(await run('track_table', { table: customer }), 400, {
    path: '$.args',
    error: 'view/table already tracked : "shop.customer"',
    code: 'already-tracked',
  });
});

test(covers(['op.track_table.v2', 'err.not-exists.table-in-postgres'], 'tracking a table the database does not have is refused'), async () => {
  expectResponse(await run('track_table', { table: { schema: 'shop', name: 'nothing' } }, 2), 400, {
    path: '$.args',
    error: 'no such table/view exists in postgres : "shop.nothing"',
    code: 'not-exists',
  });
  expect(await exported()).toEqual({ version: 2, tables: [] });
});

test(covers(['op.track_table.v1'], 'a view can be tracked, and answers its rows over GraphQL'), async () => {
  await target.sql(
    "insert into shop.customer (id, name) values (9001, 'viewer') on conflict do nothing; delete from shop.orders where customer_id = 9001; insert into shop.orders (customer_id, total) values (9001, 50), (9001, 150.5)",
  );
  expectResponse(await run('track_table', { table: { schema: 'shop', name: 'big_orders' } }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: { schema: 'shop', name: 'big_orders' } }] });
  expectResponse(await target.graphql('{ shop_big_orders(where: {customer_id: {_eq: 9001}}) { total } }'), 200, {
    data: { shop_big_orders: [{ total: 150.5 }] },
  });
});

test(covers(['op.track_table.v1', 'op.untrack_table'], 'two tables of one name in two schemas are two tables'), async () => {
  await target.sql(
    "drop schema if exists twin_a cascade; drop schema if exists twin_b cascade; create schema twin_a; create schema twin_b; create table twin_a.thing (id int primary key, label text); create table twin_b.thing (id int primary key, label text); insert into twin_a.thing values (1, 'a'); insert into twin_b.thing values (1, 'b'), (2, 'b2')",
  );
  const a = { schema: 'twin_a', name: 'thing' };
  const b = { schema: 'twin_b', name: 'thing' };
  expectResponse(await run('track_table', { table: a }), 200, ok);
  expectResponse(await run('track_table', { table: b }), 200, ok);
  expectResponse(await run('track_table', { table: b }), 400, {
    path: '$.args',
    error: 'view/table already tracked : "twin_b.thing"',
    code: 'already-tracked',
  });
  expectResponse(await target.graphql('{ twin_a_thing { label } twin_b_thing(order_by: {id: asc}) { label } }'), 200, {
    data: { twin_a_thing: [{ label: 'a' }], twin_b_thing: [{ label: 'b' }, { label: 'b2' }] },
  });
  expectResponse(
    await target.metadata({ type: 'create_select_permission', args: { table: b, role: 'r', permission: { columns: ['label'], filter: {} } } }),
    200,
    ok,
  );
  expect((await exported()).tables).toEqual([{ table: a }, { table: b, select_permissions: [{ role: 'r', permission: { columns: ['label'], filter: {} } }] }]);
  expectResponse(await run('untrack_table', { table: a }), 200, ok);
  expect((await exported()).tables).toEqual([{ table: b, select_permissions: [{ role: 'r', permission: { columns: ['label'], filter: {} } }] }]);
  expectResponse(await target.graphql('{ twin_b_thing(order_by: {id: asc}) { label } }'), 200, { data: { twin_b_thing: [{ label: 'b' }, { label: 'b2' }] } });
  await target.sql('drop schema twin_a cascade; drop schema twin_b cascade');
});

test(covers(['op.track_table.v1', 'dec.table.unserved-name'], 'a table whose name is not a GraphQL name is tracked; a custom name serves it'), async () => {
  const odd = { schema: 'shop', name: 'odd-name' };
  expectResponse(await run('track_table', { table: odd }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: odd }] });
  expectResponse(await run('untrack_table', { table: odd }), 200, ok);
  expectResponse(await run('track_table', { table: odd, configuration: { custom_name: 'odd_name' } }, 2), 200, ok);
  expectResponse(await target.graphql('{ odd_name { id } }'), 200, { data: { odd_name: [] } });
});

test(
  covers(['op.track_table.v2', 'err.validation-failed.graphql-name'], "a column whose name is not a GraphQL name, or is an operator's, needs a custom name"),
  async () => {
    await target.sql('create table shop.odd_columns (id int primary key, "full-name" text, _or int)');
    const table = { schema: 'shop', name: 'odd_columns' };
    const refused = (error: string) => ({ path: '$.args', error, code: 'validation-failed' });
    expectResponse(
      await run('track_table', { table }, 2),
      400,
      refused('"full-name" (column of table "shop.odd_columns"; give it a custom column name) is not a valid GraphQL name'),
    );
    const named = { custom_column_names: { 'full-name': 'full_name' } };
    expectResponse(
      await run('track_table', { table, configuration: named }, 2),
      400,
      refused('"_or" (column of table "shop.odd_columns": an operator of boolean expressions; give it a custom column name) is not a valid GraphQL name'),
    );
    // A custom_name that is itself no GraphQL name is named as the table's custom_name.
    expectResponse(
      await run('track_table', { table, configuration: { custom_name: 'odd columns' } }, 2),
      400,
      refused('"odd columns" (the custom_name of table "shop.odd_columns") is not a valid GraphQL name'),
    );
    expect(await exported()).toEqual({ version: 2, tables: [] });
    expectResponse(await run('track_table', { table, configuration: { custom_column_names: { 'full-name': 'full_name', _or: 'or_flag' } } }, 2), 200, ok);
    await target.sql('drop table shop.odd_columns');
  },
);

test(
  covers(
    ['rule.track_table.constraint-names:refused', 'rule.track_table.constraint-names:allowed', 'err.validation-failed.graphql-name'],
    'a table with a constraint name that is not a GraphQL name cannot be tracked; renamed, it can',
  ),
  async () => {
    expectResponse(await run('track_table', { table: { schema: 'shop', name: 'odd_constraint' } }), 400, {
      path: '$.args',
      error: '"odd-constraint" (constraint of table "shop.odd_constraint") is not a valid GraphQL name',
      code: 'validation-failed',
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
    await target.sql('alter table shop.odd_constraint rename constraint "odd-constraint" to odd_constraint_pkey');
    try {
      expectResponse(await run('track_table', { table: { schema: 'shop', name: 'odd_constraint' } }), 200, ok);
      expect(await exported()).toEqual({ version: 2, tables: [{ table: { schema: 'shop', name: 'odd_constraint' } }] });
      expectResponse(await target.graphql('{ shop_odd_constraint(order_by: {id: asc}) { id } }'), 200, { data: { shop_odd_constraint: [] } });
    } finally {
      await run('untrack_table', { table: { schema: 'shop', name: 'odd_constraint' } });
      await target.sql('alter table shop.odd_constraint rename constraint odd_constraint_pkey to "odd-constraint"');
    }
  },
);

test(covers(['op.track_table.v2', 'err.already-exists.graphql-name'], 'two tables may not take the same GraphQL names'), async () => {
  await run('track_table', { table: customer, configuration: { custom_name: 'thing' } }, 2);
  expectError(await run('track_table', { table: orders, configuration: { custom_name: 'thing' } }, 2), 400, {
    path: '$.args',
    code: 'already-exists',
    error: 'the GraphQL name "thing" of table "shop.orders" conflicts with table "shop.customer"',
  });
});

test(
  covers(
    ['op.track_table.v2', 'op.set_table_customization', 'err.already-exists.graphql-name'],
    'two query root fields of one table may not share a name, nor two mutation root fields; a query and a mutation root field may',
  ),
  async () => {
    expectError(
      await run('track_table', { table: customer, configuration: { custom_root_fields: { select: 'clients', select_aggregate: 'clients' } } }, 2),
      400,
      {
        path: '$.args',
        code: 'already-exists',
        error: 'the GraphQL name "clients" of root field select_aggregate of table "shop.customer" conflicts with root field select',
      },
    );
    // A custom name may take the default name of another root field of the table.
    expectError(await run('track_table', { table: customer, configuration: { custom_root_fields: { delete_by_pk: 'delete_shop_customer' } } }, 2), 400, {
      path: '$.args',
      code: 'already-exists',
      error: 'the GraphQL name "delete_shop_customer" of root field delete_by_pk of table "shop.customer" conflicts with root field delete',
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
    expectResponse(await run('track_table', { table: customer, configuration: { custom_root_fields: { select: 'clients', insert: 'clients' } } }, 2), 200, ok);
    expectError(await run('set_table_customization', { table: customer, configuration: { custom_root_fields: { insert: 'x', update: 'x' } } }), 400, {
      path: '$.args',
      code: 'already-exists',
      error: 'the GraphQL name "x" of root field update of table "shop.customer" conflicts with root field insert',
    });
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: customer, configuration: { custom_root_fields: { select: 'clients', insert: 'clients' } } }],
    });
    const inserted = await target.graphql('mutation { clients(objects: [{id: 900, name: "Root"}]) { affected_rows } }');
    expect(inserted.body).toEqual({ data: { clients: { affected_rows: 1 } } });
    expect((await target.graphql('{ clients(where: {id: {_eq: 900}}) { id name } }')).body).toEqual({ data: { clients: [{ id: 900, name: 'Root' }] } });
    await target.sql('delete from shop.customer where id = 900');
  },
);

test(covers(['op.track_table.v2', 'err.not-exists.column'], 'custom column names must name columns'), async () => {
  expectResponse(await run('track_table', { table: customer, configuration: { custom_column_names: { nickname: 'nick' } } }, 2), 400, {
    path: '$.args',
    error: '"nickname" does not exist',
    code: 'not-exists',
  });
});

test(covers(['op.untrack_table', 'rule.availability.untracked'], 'untrack_table forgets the table'), async () => {
  await run('track_table', { table: customer });
  expectResponse(await run('untrack_table', { table: customer }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [] });
});

test(
  covers(
    ['op.untrack_table', 'err.already-untracked'],
    'untracking a table that is not tracked is refused as already untracked, whether or not the database has it',
  ),
  async () => {
    expectResponse(await run('untrack_table', { table: customer }), 400, {
      path: '$.args',
      error: 'view/table already untracked : "shop.customer"',
      code: 'already-untracked',
    });
    expectResponse(await run('untrack_table', { table: 'no_such_table' }), 400, {
      path: '$.args',
      error: 'view/table already untracked : "no_such_table"',
      code: 'already-untracked',
    });
    expectResponse(await run('untrack_table', { table: { schema: 'shop', name: 'nothing' } }), 400, {
      path: '$.args',
      error: 'view/table already untracked : "shop.nothing"',
      code: 'already-untracked',
    });
  },
);

test(covers(['op.untrack_table', 'err.dependency-error.drop'], 'untrack_table without cascade refuses while relationships lead to the table'), async () => {
  await run('track_table', { table: customer });
  await run('track_table', { table: orders });
  await run('create_object_relationship', { table: orders, name: 'customer', using: { foreign_key_constraint_on: 'customer_id' } });
  expectResponse(await run('untrack_table', { table: customer }), 400, {
    path: '$.args',
    error: 'cannot drop due to the following dependent objects : relationship shop.orders.customer',
    code: 'dependency-error',
  });
  expectResponse(await run('untrack_table', { table: customer, cascade: true }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: orders }] });
});

test(
  covers(
    ['op.untrack_table', 'err.dependency-error.drop'],
    'untrack_table names every relationship that leads to the table, and cascade drops those alone, keeping the rest of each table',
  ),
  async () => {
    const note = { schema: 'shop', name: 'note' };
    const toCustomer = { manual_configuration: { remote_table: customer, column_mapping: { customer_ref: 'id' } } };
    const toOrders = { manual_configuration: { remote_table: orders, column_mapping: { id: 'id' } } };
    const notesOf = { manual_configuration: { remote_table: note, column_mapping: { id: 'id' } } };
    expectResponse(
      await run('bulk', [
        ...[customer, orders, note].map((table) => ({ type: 'track_table', args: { table } })),
        { type: 'create_object_relationship', args: { table: orders, name: 'customer', using: { foreign_key_constraint_on: 'customer_id' } } },
        { type: 'create_array_relationship', args: { table: orders, name: 'notes', using: notesOf } },
        { type: 'create_object_relationship', args: { table: orders, name: 'placer', using: { foreign_key_constraint_on: 'placed_by' } } },
        { type: 'create_object_relationship', args: { table: note, name: 'order', using: toOrders } },
        { type: 'create_object_relationship', args: { table: note, name: 'customer', using: toCustomer } },
        {
          type: 'create_array_relationship',
          args: { table: customer, name: 'orders', using: { foreign_key_constraint_on: { table: orders, column: 'customer_id' } } },
        },
        // Its own relationship back to itself goes with the table and is no dependent.
        {
          type: 'create_object_relationship',
          args: { table: customer, name: 'same', using: { manual_configuration: { remote_table: customer, column_mapping: { id: 'id' } } } },
        },
      ]),
      200,
      Array(10).fill(ok),
    );
    const before = await exported();
    expectResponse(await run('untrack_table', { table: customer }), 400, {
      path: '$.args',
      error:
        'cannot drop due to the following dependent objects : relationship shop.orders.customer, relationship shop.orders.placer, relationship shop.note.customer',
      code: 'dependency-error',
    });
    expect(await exported()).toEqual(before);
    expectResponse(await run('untrack_table', { table: customer, cascade: true }), 200, ok);
    expect(await exported()).toEqual({
      version: 2,
      tables: [
        { table: note, object_relationships: [{ name: 'order', using: toOrders }] },
        { table: orders, array_relationships: [{ name: 'notes', using: notesOf }] },
      ],
    });
    // Tables of the public schema are named without it.
    await target.sql(
      'drop table if exists public.untrack_child, public.untrack_parent; create table public.untrack_parent (id int primary key); create table public.untrack_child (id int primary key, parent_id int references public.untrack_parent (id))',
    );
    try {
      const parent = { schema: 'public', name: 'untrack_parent' };
      const child = { schema: 'public', name: 'untrack_child' };
      await run('reload_metadata', {});
      expectResponse(
        await run('bulk', [
          { type: 'track_table', args: { table: parent } },
          { type: 'track_table', args: { table: child } },
          { type: 'create_object_relationship', args: { table: child, name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } } },
        ]),
        200,
        [ok, ok, ok],
      );
      expectResponse(await run('untrack_table', { table: parent }), 400, {
        path: '$.args',
        error: 'cannot drop due to the following dependent objects : relationship untrack_child.parent',
        code: 'dependency-error',
      });
    } finally {
      await target.reset();
      await target.sql('drop table public.untrack_child, public.untrack_parent');
    }
  },
);

test(covers(['op.set_table_is_enum', 'op.track_table.v1'], 'an enum table: by track_table v1 or set_table_is_enum, and back'), async () => {
  expectResponse(await run('track_table', { table: status, is_enum: true }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: status, is_enum: true }] });
  expectResponse(await run('set_table_is_enum', { table: status, is_enum: false }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: status }] });
  expectResponse(await run('set_table_is_enum', { table: status, is_enum: true }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: status, is_enum: true }] });
});

test(
  covers(['op.set_table_is_enum', 'err.constraint-violation.enum-table'], "tables that cannot be enums are refused, with every reason in the engine's words"),
  async () => {
    await target.sql(`create table shop.coded (value text primary key, rank int); insert into shop.coded values ('a', 1);
    create table shop.pair (a text, b text, primary key (b, a));
    create table shop.bad_three (value text primary key); insert into shop.bad_three values ('x y'), ('true'), ('1a'), ('fine')`);
    for (const [name, reason] of [
      ['wide_enum', 'because the table must have exactly one primary key and optionally one comment column, not 2 columns (extra, label)'],
      ['empty_enum', 'because the table must have at least one row'],
      ['bad_enum', 'because the value "not valid" is not a valid GraphQL enum value name'],
      ['bad_three', 'because the values 1a, true, and "x y" are not valid GraphQL enum value names'],
      ['coded', 'because the table’s comment column ("rank") must have type "text", not type "integer"'],
      [
        'orders',
        'for the following reasons:\n  • the table’s primary key ("id") must have type "text", not type "integer"\n' +
          '  • the table must have exactly one primary key and optionally one comment column, not 4 columns (customer_id, id, placed_by, total)\n',
      ],
      [
        'pair',
        'for the following reasons:\n  • the table’s primary key must not span multiple columns (a, b)\n' +
          '  • the table must have exactly one primary key and optionally one comment column, not 2 columns (a, b)\n',
      ],
    ]) {
      const table = { schema: 'shop', name };
      await run('track_table', { table });
      expectResponse(await run('set_table_is_enum', { table, is_enum: true }), 400, {
        path: '$.args',
        error: `the table "shop.${name}" cannot be used as an enum ${reason}`,
        code: 'constraint-violation',
      });
    }
  },
);

test(covers(['op.set_table_is_enum', 'err.not-exists.table'], 'set_table_is_enum needs a tracked table'), async () => {
  expectResponse(await run('set_table_is_enum', { table: status, is_enum: true }), 400, {
    path: '$.args',
    error: 'table "shop.status" does not exist',
    code: 'not-exists',
  });
});

test(covers(['op.set_table_customization'], 'set_table_customization replaces the whole configuration'), async () => {
  await run('track_table', { table: customer, configuration: { custom_name: 'client', custom_column_names: { name: 'fullName' } } }, 2);
  expectResponse(await run('set_table_customization', { table: customer, configuration: { custom_root_fields: { insert: 'addClient' } } }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: customer, configuration: { custom_root_fields: { insert: 'addClient' } } }] });
  expectResponse(await run('set_table_customization', { table: customer }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: customer }] });
});

test(covers(['op.set_table_custom_fields'], 'set_table_custom_fields (v2) replaces root fields and column names, keeping the custom name'), async () => {
  await run('track_table', { table: customer, configuration: { custom_name: 'client', custom_column_names: { name: 'fullName' } } }, 2);
  expectResponse(await run('set_table_custom_fields', { table: customer, custom_root_fields: { delete: 'dropClients' } }, 2), 200, ok);
  expect(await exported()).toEqual({
    version: 2,
    tables: [{ table: customer, configuration: { custom_name: 'client', custom_root_fields: { delete: 'dropClients' } } }],
  });
});

test(covers(['op.set_table_customization', 'err.validation-failed.graphql-name'], 'custom names must be GraphQL names'), async () => {
  await run('track_table', { table: customer });
  expectResponse(await run('set_table_customization', { table: customer, configuration: { custom_root_fields: { select: 'not ok' } } }), 400, {
    path: '$.args',
    error: '"not ok" (root field select of table "shop.customer") is not a valid GraphQL name',
    code: 'validation-failed',
  });
  const refused: [Record<string, unknown>, Record<string, unknown>][] = [
    [
      { custom_column_names: { name: 'full-name' } },
      { code: 'validation-failed', error: '"full-name" (custom name of column "name" of table "shop.customer") is not a valid GraphQL name' },
    ],
    [
      { custom_column_names: { name: '_or' } },
      {
        code: 'validation-failed',
        error: '"_or" (custom name of column "name" of table "shop.customer": an operator of boolean expressions) is not a valid GraphQL name',
      },
    ],
    [{ custom_column_names: { name: 'email' } }, { code: 'already-exists', error: 'column/relationship of table "shop.customer" already exists' }],
    [
      { custom_column_names: { name: 'label', email: 'label' } },
      { code: 'already-exists', error: 'column/relationship of table "shop.customer" already exists' },
    ],
  ];
  for (const [configuration, body] of refused) {
    const r = await run('set_table_customization', { table: customer, configuration });
    expect([configuration, r.status, r.body]).toEqual([configuration, 400, { path: '$.args', ...body }]);
  }
  expect(await exported()).toEqual({ version: 2, tables: [{ table: customer }] });
  // Swapping two columns' names is fine: no two fields end up with one name.
  expectResponse(await run('set_table_customization', { table: customer, configuration: { custom_column_names: { name: 'email', email: 'name' } } }), 200, ok);
  await target.sql("delete from shop.orders; delete from shop.customer; insert into shop.customer (id, name, email) values (1, 'Ann', 'ann@example.test')");
  expectResponse(await target.graphql('{ shop_customer { name email } }'), 200, { data: { shop_customer: [{ name: 'ann@example.test', email: 'Ann' }] } });
  // A relationship in a document may not take a column's own name, even when the column goes by a custom one.
  const ordersOf = { foreign_key_constraint_on: { table: orders, column: 'customer_id' } };
  expectResponse(
    await run('replace_metadata', {
      version: 2,
      tables: [
        { table: customer, configuration: { custom_column_names: { email: 'mail' } }, array_relationships: [{ name: 'email', using: ordersOf }] },
        { table: orders },
      ],
    }),
    400,
    { path: '$.args', error: 'column/relationship of table "shop.customer" already exists', code: 'already-exists' },
  );
  expect(await exported()).toEqual({ version: 2, tables: [{ table: customer, configuration: { custom_column_names: { name: 'email', email: 'name' } } }] });
});

test(covers(['op.replace_metadata.v1', 'err.already-exists.multiple-declarations'], 'a document that tracks a table twice is refused'), async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: [{ table: customer }, { table: customer }] }), 400, {
    path: '$.args',
    error: 'multiple declarations exist for the following tables : "shop.customer"',
    code: 'already-exists',
  });
});

test(covers(['op.replace_metadata.v1', 'op.export_metadata.v1'], 'tables, enums, configuration and relationships round-trip'), async () => {
  const document = {
    version: 2,
    tables: [
      {
        table: customer,
        configuration: { custom_name: 'client' },
        array_relationships: [{ name: 'orders', using: { foreign_key_constraint_on: { table: orders, column: 'customer_id' } } }],
      },
      { table: orders, object_relationships: [{ name: 'customer', using: { foreign_key_constraint_on: 'customer_id' }, comment: 'who ordered' }] },
      { table: status, is_enum: true },
    ],
  };
  expectResponse(await run('replace_metadata', document), 200, ok);
  expect(await exported()).toEqual(document);
});

test(
  covers(
    ['dec.table.column-config', 'op.set_table_customization', 'op.track_table.v2'],
    'column_config names and describes columns; it is merged with custom_column_names (column_config wins) and both are exported',
  ),
  async () => {
    expectResponse(
      await run(
        'track_table',
        {
          table: customer,
          configuration: {
            custom_column_names: { name: 'legacyName', email: 'mail' },
            column_config: { name: { custom_name: 'fullName', comment: 'as printed on invoices' }, id: { comment: 'the key' } },
          },
        },
        2,
      ),
      200,
      ok,
    );
    expect(await exported()).toEqual({
      version: 2,
      tables: [
        {
          table: customer,
          configuration: {
            column_config: { email: { custom_name: 'mail' }, id: { comment: 'the key' }, name: { custom_name: 'fullName', comment: 'as printed on invoices' } },
            custom_column_names: { email: 'mail', name: 'fullName' },
          },
        },
      ],
    });
    const [ada] = await target.sql(
      "insert into shop.customer (id, name, email) select coalesce(max(id), 0) + 1, 'Ada', 'ada@example.org' from shop.customer returning id",
    );
    try {
      expect((await target.graphql('{ shop_customer(where: {mail: {_eq: "ada@example.org"}}) { id fullName mail } }')).body).toEqual({
        data: { shop_customer: [{ id: ada!.id, fullName: 'Ada', mail: 'ada@example.org' }] },
      });
    } finally {
      await target.sql('delete from shop.customer where id = $1', [ada!.id]);
    }
    // The comment is the field's description.
    const fields = (await target.graphql('{ __type(name: "shop_customer") { fields { name description } } }')).body as {
      data: { __type: { fields: { name: string; description: string | null }[] } };
    };
    expect(fields.data.__type.fields.filter((f) => ['id', 'fullName'].includes(f.name))).toEqual([
      { name: 'fullName', description: 'as printed on invoices' },
      { name: 'id', description: 'the key' },
    ]);
    // A comment changed alone: the description follows; then back as it was.
    const described = async () =>
      ((await target.graphql('{ __type(name: "shop_customer") { fields { name description } } }')).body as typeof fields).data.__type.fields.filter(
        (f) => f.name === 'id',
      );
    const original = ((await exported()) as { tables: { configuration: { column_config: Record<string, unknown> } }[] }).tables[0]!.configuration;
    const recommented = { ...original, column_config: { ...original.column_config, id: { comment: 'the customer number' } } };
    expectResponse(await run('set_table_customization', { table: customer, configuration: recommented }), 200, ok);
    expect(await described()).toEqual([{ name: 'id', description: 'the customer number' }]);
    expectResponse(await run('set_table_customization', { table: customer, configuration: original }), 200, ok);
    expect(await described()).toEqual([{ name: 'id', description: 'the key' }]);
    // The export goes back in unchanged.
    const document = await exported();
    expectResponse(await target.metadata({ type: 'replace_metadata', args: document }), 200, ok);
    expect(await exported()).toEqual(document);
    // A column the table does not have is refused.
    expectResponse(await run('set_table_customization', { table: customer, configuration: { column_config: { nope: { custom_name: 'x' } } } }), 400, {
      path: '$.args',
      error: '"nope" does not exist',
      code: 'not-exists',
    });
    expect(await exported()).toEqual(document);
  },
);

test(
  covers(
    ['dec.graphql.introspection-order', 'op.track_table.v2'],
    "introspection lists a table type's fields and an enum table's values sorted by name, as the engine does",
  ),
  async () => {
    // A value added last, sorted first.
    await target.sql("insert into shop.status values ('cancelled', null) on conflict do nothing");
    try {
      await introspectionOrder();
    } finally {
      await target.sql("delete from shop.status where value = 'cancelled'");
    }
  },
);

test(
  covers(
    ['dec.graphql.introspection-order', 'op.create_select_permission'],
    "a role's table type lists the columns and relationships it may see sorted by name, custom names among them",
  ),
  async () => {
    expectResponse(
      await target.metadata({
        type: 'bulk',
        args: [
          { type: 'track_table', args: { table: orders, configuration: { custom_column_names: { total: 'Amount' } } } },
          { type: 'track_table', args: { table: customer } },
          { type: 'create_object_relationship', args: { table: orders, name: 'buyer', using: { foreign_key_constraint_on: 'customer_id' } } },
          { type: 'create_select_permission', args: { table: orders, role: 'clerk', permission: { columns: ['total', 'placed_by', 'id'], filter: {} } } },
          { type: 'create_select_permission', args: { table: customer, role: 'clerk', permission: { columns: ['id'], filter: {} } } },
        ],
      }),
      200,
    );
    const r = await target.graphql('{ __type(name: "shop_orders") { fields { name } } }', undefined, {
      headers: { ...target.adminHeaders(), 'x-engine-role': 'clerk' },
    });
    expect(r.body).toEqual({ data: { __type: { fields: [{ name: 'Amount' }, { name: 'buyer' }, { name: 'id' }, { name: 'placed_by' }] } } });
  },
);

test(
  covers(
    ['dec.table.column-config', 'op.set_table_customization'],
    'column_config given by set_table_customization names the inputs of mutations too, and a later customization without it takes the names away',
  ),
  async () => {
    expectResponse(await run('track_table', { table: customer }), 200, ok);
    expectResponse(await run('set_table_customization', { table: customer, configuration: { column_config: { email: { custom_name: 'mail' } } } }), 200, ok);
    try {
      const inserted = await target.graphql('mutation { insert_shop_customer_one(object: {id: 9001, name: "Grace", mail: "grace@example.org"}) { id mail } }');
      expect(inserted.body).toEqual({ data: { insert_shop_customer_one: { id: 9001, mail: 'grace@example.org' } } });
      expect(await target.sql('select email from shop.customer where id = 9001')).toEqual([{ email: 'grace@example.org' }]);
      expectResponse(await run('set_table_customization', { table: customer, configuration: { custom_name: 'client' } }), 200, ok);
      expect(await exported()).toEqual({ version: 2, tables: [{ table: customer, configuration: { custom_name: 'client' } }] });
      expect((await target.graphql('{ client(where: {id: {_eq: 9001}}) { email } }')).body).toEqual({ data: { client: [{ email: 'grace@example.org' }] } });
    } finally {
      await target.sql('delete from shop.customer where id = 9001');
    }
  },
);

async function introspectionOrder() {
  expectResponse(
    await target.metadata({
      type: 'bulk',
      args: [
        { type: 'track_table', args: { table: customer, configuration: { custom_column_names: { name: 'Zname', email: 'aMail' } } } },
        { type: 'track_table', args: { table: orders } },
        { type: 'track_table', args: { table: status, is_enum: true } },
        {
          type: 'create_array_relationship',
          args: { table: customer, name: 'b_orders', using: { foreign_key_constraint_on: { table: orders, column: 'customer_id' } } },
        },
      ],
    }),
    200,
  );
  const body = (
    await target.graphql('{ customer: __type(name: "shop_customer") { fields { name } } status: __type(name: "shop_status_enum") { enumValues { name } } }')
  ).body as { data: { customer: { fields: { name: string }[] }; status: { enumValues: { name: string }[] } } };
  expect(body.data.customer.fields.map((f) => f.name)).toEqual(['Zname', 'aMail', 'b_orders', 'b_orders_aggregate', 'id']);
  expect(body.data.status.enumValues.map((v) => v.name)).toEqual(['cancelled', 'open', 'paid']);
}

test(
  covers(
    ['dec.graphql.column-scalars', 'op.track_table.v2'],
    'column types as GraphQL scalars: Int, Float, Boolean and String where the engine uses them, else the type name',
  ),
  async () => {
    await target.sql(`
      create table if not exists shop.typed (
        i integer primary key, r real, d double precision, b boolean, t text, v varchar(10), s smallint, g bigint,
        n numeric, c char(2), u uuid, j jsonb, a integer[])`);
    expectResponse(await run('track_table', { table: { schema: 'shop', name: 'typed' } }), 200, ok);
    const r = await target.graphql('{ __type(name: "shop_typed") { fields { name type { name ofType { name } } } } }', undefined, {
      headers: target.adminHeaders(),
    });
    const types = Object.fromEntries(
      (r.body as { data: { __type: { fields: { name: string; type: { name: string | null; ofType: { name: string } | null } }[] } } }).data.__type.fields.map(
        (f) => [f.name, f.type.name ?? `${f.type.ofType!.name}!`],
      ),
    );
    expect(types).toEqual({
      a: '_int4',
      b: 'Boolean',
      c: 'bpchar',
      d: 'float8',
      g: 'bigint',
      i: 'Int!',
      j: 'jsonb',
      n: 'numeric',
      r: 'Float',
      s: 'smallint',
      t: 'String',
      u: 'uuid',
      v: 'String',
    });
    await target.sql('insert into shop.typed (i, r) values (1, 1.5) on conflict do nothing');
    expect(
      (await target.graphql('query ($min: Float!) { shop_typed(where: {r: {_gte: $min}}) { i r } }', { min: 1 }, { headers: target.adminHeaders() })).body,
    ).toEqual({
      data: { shop_typed: [{ i: 1, r: 1.5 }] },
    });
  },
);
