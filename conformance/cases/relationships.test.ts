// Relationships: SPEC.md §2.2 "Relationship entry"; operations in the engine's documented forms.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const customer = { schema: 'shop', name: 'customer' };
const orders = { schema: 'shop', name: 'orders' };
const note = { schema: 'shop', name: 'note' };
const ok = { message: 'success' };

const run = (type: string, args: unknown) => target.metadata({ type, args });
const tableEntry = async (name: string, schema?: string) =>
  ((await target.metadata({ type: 'export_metadata', args: {} })).body as { tables: { table: { schema: string; name: string } }[] }).tables.find(
    (t) => t.table.name === name && (schema === undefined || t.table.schema === schema),
  );

beforeAll(async () => {
  await target.sql(fixtureSql('shop'));
  await target.metadata({ type: 'reload_metadata', args: {} });
});
beforeEach(async () => {
  await target.reset();
  for (const table of [customer, orders, note]) await run('track_table', { table });
});

const customerOf = { foreign_key_constraint_on: 'customer_id' };
const ordersOf = { foreign_key_constraint_on: { table: orders, column: 'customer_id' } };

test(covers(['op.create_object_relationship'], 'an object relationship by foreign key'), async () => {
  expectResponse(await run('create_object_relationship', { table: orders, name: 'customer', using: customerOf }), 200, ok);
  expect(await tableEntry('orders')).toEqual({ table: orders, object_relationships: [{ name: 'customer', using: customerOf }] });
});

test(covers(['op.create_array_relationship'], 'an array relationship by foreign key of the other table'), async () => {
  expectResponse(await run('create_array_relationship', { table: customer, name: 'orders', using: ordersOf, comment: 'all of them' }), 200, ok);
  expect(await tableEntry('customer')).toEqual({ table: customer, array_relationships: [{ name: 'orders', using: ordersOf, comment: 'all of them' }] });
});

test(covers(['op.create_object_relationship', 'op.create_array_relationship'], 'relationships by manual configuration'), async () => {
  const toCustomer = { manual_configuration: { remote_table: customer, column_mapping: { customer_ref: 'id' } } };
  const toNotes = { manual_configuration: { remote_table: note, column_mapping: { id: 'customer_ref' } } };
  expectResponse(await run('create_object_relationship', { table: note, name: 'customer', using: toCustomer }), 200, ok);
  expectResponse(await run('create_array_relationship', { table: customer, name: 'notes', using: toNotes }), 200, ok);
  expect(await tableEntry('note')).toEqual({ table: note, object_relationships: [{ name: 'customer', using: toCustomer }] });
});

test(
  covers(['op.create_object_relationship', 'err.constraint-error.no-foreign-key'], 'a column without a foreign key cannot carry an object relationship'),
  async () => {
    expectResponse(await run('create_object_relationship', { table: orders, name: 'by_total', using: { foreign_key_constraint_on: 'total' } }), 400, {
      path: '$.args',
      error: 'no foreign constraint exists on the given column',
      code: 'constraint-error',
    });
  },
);

test(
  covers(['op.create_array_relationship', 'err.constraint-error.several-foreign-keys'], 'several foreign keys on the same column are ambiguous'),
  async () => {
    await target.sql('alter table shop.orders add constraint orders_customer_again foreign key (customer_id) references shop.customer (id)');
    await run('reload_metadata', {});
    try {
      expectResponse(await run('create_array_relationship', { table: customer, name: 'orders', using: ordersOf }), 400, {
        path: '$.args',
        error: 'more than one foreign key constraint exists on the given column',
        code: 'constraint-error',
      });
    } finally {
      await target.sql('alter table shop.orders drop constraint orders_customer_again');
      await run('reload_metadata', {});
    }
  },
);

test(covers(['op.create_object_relationship', 'err.not-exists.column'], 'the foreign key column must exist'), async () => {
  expectResponse(await run('create_object_relationship', { table: orders, name: 'x', using: { foreign_key_constraint_on: 'nope' } }), 400, {
    path: '$.args',
    error: '"nope" does not exist',
    code: 'not-exists',
  });
});

test(
  covers(['op.create_object_relationship', 'err.already-exists.column-or-relationship'], 'a relationship may not take the name of a column or relationship'),
  async () => {
    const conflict = { path: '$.args', error: 'column/relationship of table "shop.orders" already exists', code: 'already-exists' };
    expectResponse(await run('create_object_relationship', { table: orders, name: 'total', using: customerOf }), 400, conflict);
    await run('create_object_relationship', { table: orders, name: 'customer', using: customerOf });
    expectResponse(await run('create_object_relationship', { table: orders, name: 'customer', using: customerOf }), 400, conflict);
  },
);

test(
  covers(
    ['op.create_object_relationship', 'op.create_array_relationship', 'err.not-exists.table-in-postgres', 'err.not-exists.column'],
    'a manual relationship names a table the database has, and its columns on both sides',
  ),
  async () => {
    const nowhere = { schema: 'shop', name: 'nowhere' };
    expectResponse(
      await run('create_object_relationship', {
        table: note,
        name: 'lost',
        using: { manual_configuration: { remote_table: nowhere, column_mapping: { customer_ref: 'id' } } },
      }),
      400,
      { path: '$.args', error: 'no such table/view exists in postgres : "shop.nowhere"', code: 'not-exists' },
    );
    expectResponse(
      await run('create_array_relationship', {
        table: customer,
        name: 'notes',
        using: { manual_configuration: { remote_table: note, column_mapping: { id: 'nope' } } },
      }),
      400,
      { path: '$.args', error: '"nope" does not exist', code: 'not-exists' },
    );
    expectResponse(
      await run('create_array_relationship', {
        table: customer,
        name: 'notes',
        using: { manual_configuration: { remote_table: note, column_mapping: { nope: 'customer_ref' } } },
      }),
      400,
      { path: '$.args', error: '"nope" does not exist', code: 'not-exists' },
    );
    expect(await tableEntry('note')).toEqual({ table: note });
    expect(await tableEntry('customer')).toEqual({ table: customer });
  },
);

test(covers(['op.create_object_relationship', 'err.not-exists.table'], 'relationships belong to, and lead to, tracked tables'), async () => {
  await run('untrack_table', { table: customer });
  expectResponse(await run('create_object_relationship', { table: orders, name: 'customer', using: customerOf }), 400, {
    path: '$.args',
    error: 'table "shop.customer" does not exist',
    code: 'not-exists',
  });
  expectResponse(await run('create_array_relationship', { table: customer, name: 'orders', using: ordersOf }), 400, {
    path: '$.args',
    error: 'table "shop.customer" does not exist',
    code: 'not-exists',
  });
});

test(covers(['op.drop_relationship', 'op.rename_relationship', 'op.set_relationship_comment'], 'rename, comment and drop a relationship'), async () => {
  await run('create_object_relationship', { table: orders, name: 'customer', using: customerOf });
  expectResponse(await run('rename_relationship', { table: orders, name: 'customer', new_name: 'buyer' }), 200, ok);
  expectResponse(await run('set_relationship_comment', { table: orders, name: 'buyer', comment: 'who pays' }), 200, ok);
  expect(await tableEntry('orders')).toEqual({ table: orders, object_relationships: [{ name: 'buyer', using: customerOf, comment: 'who pays' }] });
  expectResponse(await run('set_relationship_comment', { table: orders, name: 'buyer', comment: null }), 200, ok);
  expect(await tableEntry('orders')).toEqual({ table: orders, object_relationships: [{ name: 'buyer', using: customerOf }] });
  expectResponse(await run('drop_relationship', { table: orders, relationship: 'buyer' }), 200, ok);
  expect(await tableEntry('orders')).toEqual({ table: orders });
});

test(covers(['op.drop_relationship', 'err.not-exists.field'], 'dropping a relationship that does not exist is refused'), async () => {
  expectResponse(await run('drop_relationship', { table: orders, relationship: 'ghost' }), 400, {
    path: '$.args',
    error: 'relationship "ghost" does not exist',
    code: 'not-exists',
  });
});

test(covers(['dec.run_sql.tracked-tables', 'err.dependency-error.drop'], 'run_sql dropping a column a relationship uses needs cascade'), async () => {
  await target.sql('alter table shop.note add column if not exists customer_id2 int references shop.customer (id)');
  await run('reload_metadata', {});
  await run('create_object_relationship', { table: note, name: 'customer2', using: { foreign_key_constraint_on: 'customer_id2' } });
  const drop = { type: 'run_sql', args: { sql: 'alter table shop.note drop column customer_id2' } };
  expectResponse(await target.metadata(drop, { endpoint: '/v2/query' }), 400, {
    path: '$.args',
    error: 'cannot drop due to the following dependent objects : relationship shop.note.customer2',
    code: 'dependency-error',
  });
  expect(await tableEntry('note')).toEqual({
    table: note,
    object_relationships: [{ name: 'customer2', using: { foreign_key_constraint_on: 'customer_id2' } }],
  });
  expectResponse(await target.metadata({ type: 'run_sql', args: { ...drop.args, cascade: true } }, { endpoint: '/v2/query' }), 200, {
    result_type: 'CommandOk',
    result: null,
  });
  expect(await tableEntry('note')).toEqual({ table: note });
});

test(
  covers(['rule.availability.inconsistent', 'op.get_inconsistent_metadata'], 'a relationship the database no longer supports is reported inconsistent'),
  async () => {
    await target.sql('alter table shop.note add column if not exists customer_id3 int references shop.customer (id)');
    await run('reload_metadata', {});
    await run('create_object_relationship', { table: note, name: 'customer3', using: { foreign_key_constraint_on: 'customer_id3' } });
    await target.sql('alter table shop.note drop column customer_id3');
    const r = await run('reload_metadata', {});
    expectResponse(r, 200, {
      message: 'success',
      is_consistent: false,
      inconsistent_objects: [
        {
          type: 'object_relation',
          name: 'object_relation customer3 in table shop.note in source default',
          reason: 'Inconsistent object: in table "shop.note": in relationship "customer3": "customer_id3" does not exist',
          definition: { table: note, name: 'customer3', using: { foreign_key_constraint_on: 'customer_id3' } },
        },
      ],
    });
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect(await tableEntry('note')).toEqual({ table: note });
  },
);

test(
  covers(['err.parse-failed.empty-name'], 'an empty relationship name is refused when the arguments are parsed, even on a table that does not exist'),
  async () => {
    const nowhere = { schema: 'shop', name: 'no_such_table' };
    const empty = (path: string) => ({ path, error: 'empty string not allowed', code: 'parse-failed' });
    expectResponse(await run('create_object_relationship', { table: nowhere, name: '', using: customerOf }), 400, empty('$.args.name'));
    expectResponse(await run('create_array_relationship', { table: nowhere, name: '', using: ordersOf }), 400, empty('$.args.name'));
    expectResponse(await run('drop_relationship', { table: nowhere, relationship: '' }), 400, empty('$.args.relationship'));
    expectResponse(await run('rename_relationship', { table: orders, name: 'customer', new_name: '' }), 400, empty('$.args.new_name'));
    expectResponse(
      await run('replace_metadata', { version: 2, tables: [{ table: orders, object_relationships: [{ name: '', using: customerOf }] }] }),
      400,
      empty('$.args.tables[0].object_relationships[0].name'),
    );
  },
);

test(
  covers(
    ['err.already-exists.column-or-relationship', 'op.set_table_customization'],
    "a relationship and a column may not share a field name, whichever comes first and whether the column's name is its own or a custom one",
  ),
  async () => {
    const clash = { path: '$.args', error: 'column/relationship of table "shop.customer" already exists', code: 'already-exists' };
    expectResponse(await run('set_table_customization', { table: customer, configuration: { custom_column_names: { email: 'mail' } } }), 200, ok);
    expectResponse(await run('create_array_relationship', { table: customer, name: 'mail', using: ordersOf }), 400, clash);
    expectResponse(await run('create_array_relationship', { table: customer, name: 'email', using: ordersOf }), 400, clash);
    expectResponse(await run('create_array_relationship', { table: customer, name: 'orders', using: ordersOf }), 200, ok);
    expectResponse(await run('rename_relationship', { table: customer, name: 'orders', new_name: 'mail' }), 400, clash);
    expectResponse(await run('set_table_customization', { table: customer, configuration: { custom_column_names: { name: 'orders' } } }), 400, clash);
    expect(await tableEntry('customer')).toEqual({
      table: customer,
      configuration: { custom_column_names: { email: 'mail' } },
      array_relationships: [{ name: 'orders', using: ordersOf }],
    });
  },
);

test(covers(['err.validation-failed.graphql-name'], 'a relationship may not be named like an operator of boolean expressions'), async () => {
  for (const name of ['_and', '_or', '_not', '_exists']) {
    expectResponse(await run('create_object_relationship', { table: orders, name, using: customerOf }), 400, {
      path: '$.args.name',
      error: `"${name}" (relationship name: _and, _or, _not and _exists are operators of boolean expressions) is not a valid GraphQL name`,
      code: 'validation-failed',
    });
  }
  expectResponse(await run('replace_metadata', { version: 2, tables: [{ table: orders, object_relationships: [{ name: '_or', using: customerOf }] }] }), 400, {
    path: '$.args',
    error: '"_or" (relationship name: _and, _or, _not and _exists are operators of boolean expressions) is not a valid GraphQL name',
    code: 'validation-failed',
  });
  // Filters through relationships keep working for every role.
  expectResponse(await run('create_object_relationship', { table: orders, name: 'customer', using: customerOf }), 200, ok);
  const r = await target.graphql('{ shop_orders(where: {_or: [{customer: {id: {_eq: 1}}}]}) { id } }');
  expect((r.body as { errors?: unknown }).errors).toBeUndefined();
});

test(
  covers(
    ['op.rename_relationship', 'op.set_relationship_comment', 'op.drop_relationship', 'err.not-exists.field', 'err.already-exists.column-or-relationship'],
    'rename, comment and drop touch the named relationship only, of either kind',
  ),
  async () => {
    const placedBy = { foreign_key_constraint_on: 'placed_by' };
    const placedOf = { foreign_key_constraint_on: { table: orders, column: 'placed_by' } };
    expectResponse(
      await run('bulk', [
        { type: 'create_object_relationship', args: { table: orders, name: 'customer', using: customerOf } },
        { type: 'create_object_relationship', args: { table: orders, name: 'placer', using: placedBy, comment: 'who placed it' } },
        { type: 'create_array_relationship', args: { table: customer, name: 'orders', using: ordersOf } },
        { type: 'create_array_relationship', args: { table: customer, name: 'placed', using: placedOf } },
      ]),
      200,
      [ok, ok, ok, ok],
    );
    expectResponse(await run('rename_relationship', { table: orders, name: 'customer', new_name: 'buyer' }), 200, ok);
    expectResponse(await run('rename_relationship', { table: customer, name: 'placed', new_name: 'placements' }), 200, ok);
    expectResponse(await run('set_relationship_comment', { table: orders, name: 'buyer', comment: 'who pays' }), 200, ok);
    expectResponse(await run('set_relationship_comment', { table: customer, name: 'orders', comment: 'bought' }), 200, ok);
    expect(await tableEntry('orders')).toEqual({
      table: orders,
      object_relationships: [
        { name: 'buyer', using: customerOf, comment: 'who pays' },
        { name: 'placer', using: placedBy, comment: 'who placed it' },
      ],
    });
    expect(await tableEntry('customer')).toEqual({
      table: customer,
      array_relationships: [
        { name: 'orders', using: ordersOf, comment: 'bought' },
        { name: 'placements', using: placedOf },
      ],
    });
    // Refused: a name taken by the other relationship, a name that is no GraphQL name, relationships that do not exist.
    const missing = (name: string) => ({ path: '$.args', error: `relationship "${name}" does not exist`, code: 'not-exists' });
    expectResponse(await run('rename_relationship', { table: orders, name: 'buyer', new_name: 'placer' }), 400, {
      path: '$.args',
      error: 'column/relationship of table "shop.orders" already exists',
      code: 'already-exists',
    });
    for (const bad of ['1st', 'with-dash', '__typename']) {
      expectResponse(await run('rename_relationship', { table: orders, name: 'buyer', new_name: bad }), 400, {
        path: '$.args.new_name',
        error: `"${bad}" (relationship name) is not a valid GraphQL name`,
        code: 'validation-failed',
      });
    }
    expectResponse(await run('rename_relationship', { table: orders, name: 'customer', new_name: 'client' }), 400, missing('customer'));
    expectResponse(await run('set_relationship_comment', { table: orders, name: 'orders', comment: 'x' }), 400, missing('orders'));
    expectResponse(await run('drop_relationship', { table: customer, relationship: 'placer' }), 400, missing('placer'));
    // Dropping one of two keeps the other, with its comment; the renamed ones answer under their new names.
    expectResponse(await run('drop_relationship', { table: orders, relationship: 'buyer' }), 200, ok);
    expectResponse(await run('drop_relationship', { table: customer, relationship: 'orders' }), 200, ok);
    expect(await tableEntry('orders')).toEqual({ table: orders, object_relationships: [{ name: 'placer', using: placedBy, comment: 'who placed it' }] });
    expect(await tableEntry('customer')).toEqual({ table: customer, array_relationships: [{ name: 'placements', using: placedOf }] });
    await target.sql(
      "delete from shop.orders; delete from shop.customer; insert into shop.customer (id, name) values (1, 'Ann'), (2, 'Bob'); insert into shop.orders (id, customer_id, placed_by) values (1, 1, 2)",
    );
    expectResponse(await target.graphql('{ shop_orders { placer { name } } shop_customer(order_by: {id: asc}) { name placements { id } } }'), 200, {
      data: {
        shop_orders: [{ placer: { name: 'Bob' } }],
        shop_customer: [
          { name: 'Ann', placements: [] },
          { name: 'Bob', placements: [{ id: 1 }] },
        ],
      },
    });
  },
);

test(
  covers(
    ['op.create_array_relationship', 'op.create_object_relationship', 'err.constraint-error.no-foreign-key'],
    "a foreign key must lead to this very table (not one of the same name in another schema), and a multi-column key's columns pair up in its own order",
  ),
  async () => {
    await target.sql(`
      drop schema if exists relx cascade;
      create schema relx;
      create table relx.customer (id int primary key);
      insert into relx.customer values (1);
      create table relx.link (
        id int primary key,
        shop_customer int references shop.customer (id),
        relx_customer int references relx.customer (id),
        note_id int references shop.note (id)
      );
      create table relx.pair (a int, b int, label text, primary key (a, b));
      insert into relx.pair values (1, 2, 'one-two'), (2, 1, 'two-one');
      create table relx.pair_ref (id int primary key, pa int, pb int, foreign key (pa, pb) references relx.pair (a, b));
      insert into relx.pair_ref values (10, 1, 2);
    `);
    const link = { schema: 'relx', name: 'link' };
    const pair = { schema: 'relx', name: 'pair' };
    const pairRef = { schema: 'relx', name: 'pair_ref' };
    await run('reload_metadata', {});
    try {
      for (const table of [{ schema: 'relx', name: 'customer' }, link, pair, pairRef]) expectResponse(await run('track_table', { table }), 200, ok);
      const noKey = { path: '$.args', error: 'no foreign constraint exists on the given column', code: 'constraint-error' };
      for (const column of ['relx_customer', 'note_id']) {
        expectResponse(
          await run('create_array_relationship', { table: customer, name: 'links', using: { foreign_key_constraint_on: { table: link, column } } }),
          400,
          noKey,
        );
      }
      const byShopCustomer = { foreign_key_constraint_on: { table: link, column: 'shop_customer' } };
      expectResponse(await run('create_array_relationship', { table: customer, name: 'links', using: byShopCustomer }), 200, ok);
      for (const columns of [['pa'], ['pa', 'id'], ['pa', 'pb', 'id']]) {
        expectResponse(await run('create_object_relationship', { table: pairRef, name: 'half', using: { foreign_key_constraint_on: columns } }), 400, noKey);
      }
      const byPair = { foreign_key_constraint_on: ['pb', 'pa'] };
      expectResponse(await run('create_object_relationship', { table: pairRef, name: 'pair', using: byPair }), 200, ok);
      const refsOf = { foreign_key_constraint_on: { table: pairRef, columns: ['pa', 'pb'] } };
      expectResponse(await run('create_array_relationship', { table: pair, name: 'refs', using: refsOf }), 200, ok);
      expect(await tableEntry('pair_ref')).toEqual({ table: pairRef, object_relationships: [{ name: 'pair', using: byPair }] });
      expect(await tableEntry('customer', 'shop')).toEqual({ table: customer, array_relationships: [{ name: 'links', using: byShopCustomer }] });
      expectResponse(await target.graphql('{ relx_pair_ref { id pair { label } } relx_pair(order_by: {a: asc}) { label refs { id } } }'), 200, {
        data: {
          relx_pair_ref: [{ id: 10, pair: { label: 'one-two' } }],
          relx_pair: [
            { label: 'one-two', refs: [{ id: 10 }] },
            { label: 'two-one', refs: [] },
          ],
        },
      });
    } finally {
      await target.reset();
      await target.sql('drop schema relx cascade');
      await run('reload_metadata', {});
    }
  },
);
