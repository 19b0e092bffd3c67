// Computed fields: SPEC.md §2.3 (definition, naming rule, select permissions' computed_fields) and
// §4.3 (add_computed_field, drop_computed_field with cascade), with the messages recorded for what
// SPEC.md leaves open.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const item = { schema: 'shopfn', name: 'item' };
const note = { schema: 'shopfn', name: 'note' };
const fn = (name: string) => ({ schema: 'shopfn', name });
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const refused = (code: string, error: string) => ({ path: '$.args', error, code });
/** A function that cannot define the field, as the engine frames it (err.constraint-violation.computed-field). */
const unfit = (field: string, reason: string) => refused('constraint-violation', `in table "shopfn.item": in computed field "${field}": ${reason}`);
const exported = async () => (await run('export_metadata', {})).body as { tables: unknown[] };
const gql = async (query: string, headers: Record<string, string> = target.adminHeaders()) => (await target.graphql(query, undefined, { headers })).body;
const asRole = (role: string, userId?: string) => ({ ...target.adminHeaders(), 'x-engine-role': role, ...(userId ? { 'x-engine-user-id': userId } : {}) });
const add = (name: string, definition: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  run('add_computed_field', { table: item, name, definition, ...extra });

beforeEach(async () => {
  await target.reset();
  await target.sql(fixtureSql('shopfn'));
  expectResponse(
    await run('bulk', [
      { type: 'reload_metadata', args: {} },
      { type: 'track_table', args: { table: item } },
    ]),
    200,
  );
});

test(
  covers(['op.add_computed_field', 'dec.computed_fields.graphql'], 'a scalar computed field is a field of the table, usable in where and order_by'),
  async () => {
    expectResponse(await add('label', { function: fn('item_label') }, { comment: 'title and price' }), 200, ok);
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: item, computed_fields: [{ name: 'label', definition: { function: fn('item_label') }, comment: 'title and price' }] }],
    });
    expect(await gql('{ shopfn_item(order_by: {id: asc}, limit: 2) { id label } }')).toEqual({
      data: {
        shopfn_item: [
          { id: 1, label: 'APPLE PIE (3.50)' },
          { id: 2, label: 'APPLE TART (4.00)' },
        ],
      },
    });
    expect(await gql('{ shopfn_item(where: {label: {_like: "APPLE%"}}, order_by: {label: desc}) { id } }')).toEqual({
      data: { shopfn_item: [{ id: 2 }, { id: 1 }] },
    });
    expect(await gql('{ shopfn_item_by_pk(id: 3) { label } }')).toEqual({ data: { shopfn_item_by_pk: { label: 'BANANA BREAD (2.50)' } } });
  },
);

test(
  covers(['op.add_computed_field', 'dec.metadata.source-prefixed'], 'arguments of a computed field, with defaults; the table argument named; the pg_ forms'),
  async () => {
    expectResponse(
      await run('pg_add_computed_field', {
        table: item,
        name: 'taxed',
        definition: { function: fn('price_with_tax'), table_argument: 'i' },
        source: 'default',
      }),
      200,
      ok,
    );
    expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { taxed plain: taxed(args: {rate: 0}) } }')).toEqual({
      data: { shopfn_item: [{ taxed: 4.2, plain: 3.5 }] },
    });
    expect(await gql('{ shopfn_item(where: {taxed: {_gt: 5}}, order_by: {taxed: asc}) { id } }')).toEqual({ data: { shopfn_item: [{ id: 4 }] } });
    expectResponse(await run('pg_drop_computed_field', { table: item, name: 'taxed', source: 'default' }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  },
);

test(covers(['op.add_computed_field', 'dec.computed_fields.graphql'], 'a table-returning computed field takes args, where, order_by and limit'), async () => {
  expectResponse(await add('similar', { function: fn('similar_items') }), 200, ok);
  expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { similar(args: {max_price: 10}, order_by: {id: asc}) { id title } } }')).toEqual({
    data: { shopfn_item: [{ similar: [{ id: 2, title: 'apple tart' }] }] },
  });
  expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { similar(args: {max_price: 3}) { id } } }')).toEqual({ data: { shopfn_item: [{ similar: [] }] } });
  expect(await gql('{ shopfn_item(where: {id: {_eq: 2}}) { similar(args: {max_price: 10}, where: {price: {_lt: 1}}, limit: 1) { id } } }')).toEqual({
    data: { shopfn_item: [{ similar: [] }] },
  });
});

test(
  covers(
    ['op.add_computed_field', 'rule.perm.select.columns', 'err.not-exists.session-argument'],
    'a role reads the computed fields its select permission lists; the session argument gets its session',
  ),
  async () => {
    expectResponse(
      await add('mine', { function: fn('is_mine'), session_argument: 'nope' }),
      400,
      unfit('mine', 'function "shopfn.is_mine" has no argument "nope" of type json or jsonb'),
    );
    expectResponse(
      await run('bulk', [
        { type: 'add_computed_field', args: { table: item, name: 'mine', definition: { function: fn('is_mine'), session_argument: 'engine_session' } } },
        { type: 'add_computed_field', args: { table: item, name: 'label', definition: { function: fn('item_label') } } },
        { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id'], computed_fields: ['mine'], filter: {} } } },
      ]),
      200,
      [ok, ok, ok],
    );
    expect(await gql('{ shopfn_item(order_by: {id: asc}) { id mine } }', asRole('user', '1'))).toEqual({
      data: {
        shopfn_item: [
          { id: 1, mine: true },
          { id: 2, mine: false },
          { id: 3, mine: true },
          { id: 4, mine: false },
        ],
      },
    });
    expect(await gql('{ shopfn_item { label } }', asRole('user', '1'))).toEqual({
      errors: [{ message: expect.stringMatching(/^Cannot query field "label" on type "shopfn_item"\./), extensions: { path: '$', code: 'validation-failed' } }],
    });
    expectResponse(
      await run('create_select_permission', { table: item, role: 'other', permission: { columns: ['id'], computed_fields: ['ghost'], filter: {} } }),
      400,
      {
        path: '$.args',
        error: 'in table "shopfn.item": in permission for role "other": computed field "ghost" does not exist',
        code: 'constraint-violation',
      },
    );
  },
);

test(
  covers(
    [
      'rule.computed_field.name:allowed',
      'rule.computed_field.name:refused',
      'err.constraint-violation.computed-field-name',
      'err.already-exists.computed-field-name',
    ],
    'a computed field may not take the name of a relationship or computed field (constraint-violation; a column: computed-field-refusals), nor a relationship that of a computed field (already-exists)',
  ),
  async () => {
    const message = (name: string) => `the name "${name}" is already used by a column, relationship or computed field of table "shopfn.item"`;
    const taken = (name: string) => refused('constraint-violation', message(name));
    expectResponse(await add('label', { function: fn('item_label') }), 200, ok);
    expectResponse(await add('label', { function: fn('price_with_tax') }), 400, taken('label'));
    await target.sql('alter table shopfn.item add column if not exists note_id integer references shopfn.note (id)');
    await run('bulk', [
      { type: 'reload_metadata', args: {} },
      { type: 'track_table', args: { table: note } },
      { type: 'create_object_relationship', args: { table: item, name: 'attached', using: { foreign_key_constraint_on: 'note_id' } } },
    ]);
    expectResponse(await add('attached', { function: fn('price_with_tax') }), 400, taken('attached'));
    // And the other way round: a relationship cannot take a computed field's name.
    expectResponse(
      await run('create_object_relationship', { table: item, name: 'label', using: { foreign_key_constraint_on: 'note_id' } }),
      400,
      refused('already-exists', message('label')),
    );
    expect((await exported()).tables[0]).toEqual({
      table: item,
      object_relationships: [{ name: 'attached', using: { foreign_key_constraint_on: 'note_id' } }],
      computed_fields: [{ name: 'label', definition: { function: fn('item_label') } }],
    });
  },
);

test(
  covers(
    [
      'op.drop_computed_field',
      'rule.computed_field.drop-cascade:allowed',
      'rule.computed_field.drop-cascade:refused',
      'err.dependency-error.drop',
      'err.not-exists.computed-field',
    ],
    'drop_computed_field needs cascade while permissions list the field, and cascade drops them',
  ),
  async () => {
    expectResponse(
      await run('bulk', [
        { type: 'add_computed_field', args: { table: item, name: 'label', definition: { function: fn('item_label') } } },
        { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id'], computed_fields: ['label'], filter: {} } } },
        { type: 'create_select_permission', args: { table: item, role: 'guest', permission: { columns: ['id'], filter: {} } } },
      ]),
      200,
      [ok, ok, ok],
    );
    expectResponse(
      await run('drop_computed_field', { table: item, name: 'label' }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : permission shopfn.item.user.select'),
    );
    expect((await exported()).tables[0]).toEqual({
      table: item,
      computed_fields: [{ name: 'label', definition: { function: fn('item_label') } }],
      select_permissions: [
        { role: 'guest', permission: { columns: ['id'], filter: {} } },
        { role: 'user', permission: { columns: ['id'], computed_fields: ['label'], filter: {} } },
      ],
    });
    expectResponse(await run('drop_computed_field', { table: item, name: 'label', cascade: true }), 200, ok);
    expect((await exported()).tables[0]).toEqual({ table: item, select_permissions: [{ role: 'guest', permission: { columns: ['id'], filter: {} } }] });
    expectResponse(await run('drop_computed_field', { table: item, name: 'label' }), 400, {
      path: '$.args.name',
      error: 'computed field "label" does not exist',
      code: 'not-exists',
    });
  },
);

test(
  covers(
    [
      'err.not-supported.computed-field-table-argument',
      'err.not-supported.computed-field-return-type',
      'err.not-exists.function-in-postgres',
      'err.not-supported.function-overloaded',
    ],
    'only functions over a row of the table, returning a scalar or rows of a tracked table, define computed fields',
  ),
  async () => {
    expectResponse(
      await add('n', { function: fn('note_label') }),
      400,
      unfit('n', 'function "shopfn.note_label" cannot define a computed field of table "shopfn.item": its first argument does not take its rows'),
    );
    expectResponse(
      await add('n', { function: fn('price_with_tax'), table_argument: 'rate' }),
      400,
      unfit('n', 'function "shopfn.price_with_tax" cannot define a computed field of table "shopfn.item": the argument "rate" does not take its rows'),
    );
    expectResponse(
      await add('n', { function: fn('tags') }),
      400,
      unfit('n', 'function "shopfn.tags" cannot define a computed field: it must return a base type or SETOF a tracked table, but returns SETOF text'),
    );
    expectResponse(await add('n', { function: fn('missing') }), 400, unfit('n', 'no such function exists in postgres : "shopfn.missing"'));
    expectResponse(await add('n', { function: fn('twice') }), 400, unfit('n', 'function "shopfn.twice" is overloaded. Overloaded functions are not supported'));
    expectResponse(await run('add_computed_field', { table: note, name: 'n', definition: { function: fn('note_label') } }), 400, {
      path: '$.args.table',
      error: 'table "shopfn.note" does not exist',
      code: 'not-exists',
    });
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  },
);

test(
  covers(
    ['rule.availability.inconsistent', 'op.replace_metadata.v1'],
    'computed fields round-trip through replace_metadata; one whose function disappears is inconsistent',
  ),
  async () => {
    const document = {
      version: 2,
      tables: [
        {
          table: item,
          computed_fields: [
            { name: 'label', definition: { function: fn('item_label'), table_argument: 'i' }, comment: 'upper case' },
            { name: 'mine', definition: { function: fn('is_mine'), session_argument: 'engine_session' } },
          ],
          select_permissions: [{ role: 'user', permission: { columns: ['id'], computed_fields: ['label', 'mine'], filter: {} } }],
        },
      ],
    };
    expectResponse(await run('replace_metadata', document), 200, ok);
    expect(await exported()).toEqual(document);
    await target.sql('drop function shopfn.item_label(shopfn.item)');
    expectResponse(await run('reload_metadata', {}), 200, {
      message: 'success',
      is_consistent: false,
      inconsistent_objects: [
        {
          type: 'computed_field',
          name: 'computed_field label in table shopfn.item in source default',
          reason: 'Inconsistent object: in table "shopfn.item": in computed field "label": no such function exists in postgres : "shopfn.item_label"',
          definition: { table: item, name: 'label', definition: { function: fn('item_label'), table_argument: 'i' }, comment: 'upper case' },
        },
      ],
    });
    expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { id mine } }', { ...target.adminHeaders(), 'x-engine-user-id': '2' })).toEqual({
      data: { shopfn_item: [{ id: 1, mine: false }] },
    });
  },
);

test(
  covers(
    [
      'op.replace_metadata.v1',
      'op.replace_metadata.v2',
      'err.constraint-violation.computed-field-column',
      'err.constraint-violation.computed-field-custom-column',
    ],
    'a computed field named like a column, by its own name or its custom name, is an inconsistent object: refused, or kept and left out',
  ),
  async () => {
    const withField = (name: string, configuration?: unknown) => ({
      version: 2,
      tables: [{ table: item, ...(configuration ? { configuration } : {}), computed_fields: [{ name, definition: { function: fn('item_label') } }] }],
    });
    const inconsistent = (name: string, reason: string) => ({
      type: 'computed_field',
      name: `computed_field ${name} in table shopfn.item in source default`,
      reason: `Inconsistent object: ${reason}`,
      definition: { table: item, name, definition: { function: fn('item_label') } },
    });
    expectResponse(await run('replace_metadata', withField('label')), 200, ok);
    for (const [document, object] of [
      [withField('title'), inconsistent('title', 'field definition conflicts with postgres column')],
      [
        withField('heading', { custom_column_names: { title: 'heading' } }),
        inconsistent('heading', 'field definition conflicts with custom field name for postgres column "title"'),
      ],
    ] as const) {
      expectResponse(await run('replace_metadata', document), 400, {
        path: '$.args',
        error: 'cannot continue due to inconsistent metadata',
        code: 'unexpected',
        internal: [object],
      });
    }
    expect(await exported()).toEqual(withField('label'));
    // Kept when asked: the column is served, the field is not.
    expectResponse(
      await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: withField('title') } }),
      200,
      {
        is_consistent: false,
        inconsistent_objects: [inconsistent('title', 'field definition conflicts with postgres column')],
      },
    );
    expect(await exported()).toEqual(withField('title'));
    expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { title } }')).toEqual({ data: { shopfn_item: [{ title: 'apple pie' }] } });
  },
);

test(
  covers(['dec.functions.run_sql', 'err.dependency-error.drop'], "run_sql that drops a computed field's function needs cascade, which drops the field"),
  async () => {
    expectResponse(await add('label', { function: fn('item_label') }), 200, ok);
    const before = await exported();
    const drop = (cascade: boolean) =>
      target.metadata({ type: 'run_sql', args: { sql: 'drop function shopfn.item_label(shopfn.item)', cascade } }, { endpoint: '/v2/query' });
    expectResponse(await drop(false), 400, {
      path: '$.args',
      error: 'cannot drop due to the following dependent objects : computed field shopfn.item.label',
      code: 'dependency-error',
    });
    expect(await exported()).toEqual(before);
    expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { label } }')).toEqual({ data: { shopfn_item: [{ label: 'APPLE PIE (3.50)' }] } });
    expectResponse(await drop(true), 200, { result_type: 'CommandOk', result: null });
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
    expect(await gql('{ shopfn_item(where: {id: {_eq: 1}}) { id } }')).toEqual({ data: { shopfn_item: [{ id: 1 }] } });
  },
);

test(
  covers(
    ['dec.computed_fields.permissions', 'err.constraint-violation.computed-field-permission', 'rule.perm.select.filter'],
    'a table-returning computed field is not listed in a select permission: a role sees it where it may read the rows it returns, under their permission',
  ),
  async () => {
    expectResponse(await add('similar', { function: fn('similar_items') }), 200, ok);
    const before = await exported();
    expectResponse(
      await run('create_select_permission', { table: item, role: 'user', permission: { columns: ['id'], computed_fields: ['similar'], filter: {} } }),
      400,
      {
        path: '$.args',
        error:
          'in table "shopfn.item": in permission for role "user": select permissions on computed field "similar" are auto-derived from the permissions on its returning table "shopfn.item" and cannot be specified manually',
        code: 'constraint-violation',
      },
    );
    expect(await exported()).toEqual(before);
    // Without listing it, a role that reads the table sees the field, and the rows it returns go through its filter.
    expectResponse(
      await run('create_select_permission', {
        table: item,
        role: 'user',
        permission: { columns: ['id', 'title'], filter: { owner_id: { _eq: 'X-Engine-User-Id' } } },
      }),
      200,
      ok,
    );
    expect(await gql('{ shopfn_item(order_by: {id: asc}) { id similar(args: {max_price: 10}) { id } } }', asRole('user', '1'))).toEqual({
      // Items of user 1: 1 (apple pie) and 3 (banana bread); apple pie's similar item (2) belongs to user 2.
      data: {
        shopfn_item: [
          { id: 1, similar: [] },
          { id: 3, similar: [] },
        ],
      },
    });
    expect(await gql('{ shopfn_item(order_by: {id: asc}) { id similar(args: {max_price: 10}) { id } } }', asRole('user', '2'))).toEqual({
      data: {
        shopfn_item: [
          { id: 2, similar: [] },
          { id: 4, similar: [] },
        ],
      },
    });
    await target.sql('update shopfn.item set owner_id = 2 where id = 1');
    try {
      expect(await gql('{ shopfn_item(where: {id: {_eq: 2}}) { similar(args: {max_price: 10}) { id title } } }', asRole('user', '2'))).toEqual({
        data: { shopfn_item: [{ similar: [{ id: 1, title: 'apple pie' }] }] },
      });
    } finally {
      await target.sql('update shopfn.item set owner_id = 1 where id = 1');
    }
    // A role without a select permission on the returned table has neither the table nor the field.
    expect(await gql('{ shopfn_item { id } }', asRole('guest'))).toEqual({
      errors: [
        {
          message: expect.stringMatching(/^Cannot query field "shopfn_item" on type "query_root"\./) as unknown as string,
          extensions: { path: '$', code: 'validation-failed' },
        },
      ],
    });
  },
);

test(
  covers(
    ['op.add_computed_field', 'err.not-supported.computed-field-table-argument', 'err.not-supported.computed-field-return-type'],
    "a computed field's function: its row argument by schema and name, the session argument in any place, a single row refused, a table-returning one with a session",
  ),
  async () => {
    await target.sql(`
      create schema if not exists shopfn_twin;
      create table if not exists shopfn_twin.item (id integer primary key);
      create function shopfn.twin_label(i shopfn_twin.item) returns text language sql stable as $$ select 'twin ' || i.id $$;
      create function shopfn.session_first(engine_session json, i shopfn.item) returns boolean
        language sql stable as $$ select i.owner_id = (engine_session ->> 'x-engine-user-id')::integer $$;
      create function shopfn.same_item(i shopfn.item) returns shopfn.item language sql stable as $$ select i $$;
      create function shopfn.owner_items(i shopfn.item, engine_session json) returns setof shopfn.item
        language sql stable as $$ select * from shopfn.item o where o.owner_id = (engine_session ->> 'x-engine-user-id')::integer and o.id <> i.id $$;`);
    // A row of a table of the same name in another schema is not a row of shopfn.item.
    expectResponse(
      await add('twin', { function: fn('twin_label') }),
      400,
      unfit('twin', 'function "shopfn.twin_label" cannot define a computed field of table "shopfn.item": its first argument does not take its rows'),
    );
    // One row of a tracked table is neither a base type nor SETOF.
    expectResponse(
      await add('same', { function: fn('same_item') }),
      400,
      unfit('same', 'function "shopfn.same_item" cannot define a computed field: it must return a base type or SETOF a tracked table, but returns item'),
    );
    expectResponse(
      await run('bulk', [
        { type: 'track_table', args: { table: note } },
        {
          type: 'add_computed_field',
          args: { table: item, name: 'owned', definition: { function: fn('session_first'), table_argument: 'i', session_argument: 'engine_session' } },
        },
        {
          type: 'add_computed_field',
          args: { table: item, name: 'same_owner', definition: { function: fn('owner_items'), session_argument: 'engine_session' } },
        },
      ]),
      200,
      [ok, ok, ok],
    );
    const asUser = { ...target.adminHeaders(), 'x-engine-user-id': '1' };
    expect(await gql('{ shopfn_item(order_by: {id: asc}) { id owned same_owner(order_by: {id: asc}) { id } } }', asUser)).toEqual({
      data: {
        shopfn_item: [
          { id: 1, owned: true, same_owner: [{ id: 3 }] },
          { id: 2, owned: false, same_owner: [{ id: 1 }, { id: 3 }] },
          { id: 3, owned: true, same_owner: [{ id: 1 }] },
          { id: 4, owned: false, same_owner: [{ id: 1 }, { id: 3 }] },
        ],
      },
    });
    expect((await exported()).tables).toEqual([
      {
        table: item,
        computed_fields: [
          { name: 'owned', definition: { function: fn('session_first'), table_argument: 'i', session_argument: 'engine_session' } },
          { name: 'same_owner', definition: { function: fn('owner_items'), session_argument: 'engine_session' } },
        ],
      },
      { table: note },
    ]);
  },
);

test(
  covers(
    ['op.drop_computed_field', 'err.not-exists.computed-field', 'err.dependency-error.drop', 'rule.computed_field.drop-cascade:refused'],
    'drop_computed_field: the one named goes and the others stay; a name not there is refused while others exist; the dependents of a public table named bare, every role',
  ),
  async () => {
    await target.sql(`
      create table if not exists public.cf_item (id integer primary key);
      insert into public.cf_item values (1) on conflict do nothing;
      create or replace function public.cf_double(r public.cf_item) returns integer language sql stable as $$ select r.id * 2 $$;
      create or replace function public.cf_triple(r public.cf_item) returns integer language sql stable as $$ select r.id * 3 $$;`);
    const table = { schema: 'public', name: 'cf_item' };
    const definition = (name: string) => ({ function: { schema: 'public', name } });
    expectResponse(
      await run('bulk', [
        { type: 'track_table', args: { table } },
        { type: 'add_computed_field', args: { table, name: 'double', definition: definition('cf_double'), comment: null } },
        { type: 'add_computed_field', args: { table, name: 'triple', definition: definition('cf_triple') } },
        { type: 'create_select_permission', args: { table, role: 'user', permission: { columns: ['id'], computed_fields: ['double'], filter: {} } } },
        {
          type: 'create_select_permission',
          args: { table, role: 'guest', permission: { columns: ['id'], computed_fields: ['double', 'triple'], filter: {} } },
        },
      ]),
      200,
      [ok, ok, ok, ok, ok],
    );
    expectResponse(await run('drop_computed_field', { table, name: 'ghost' }), 400, {
      path: '$.args.name',
      error: 'computed field "ghost" does not exist',
      code: 'not-exists',
    });
    expectResponse(
      await run('drop_computed_field', { table, name: 'double' }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : permission cf_item.user.select, permission cf_item.guest.select'),
    );
    expectResponse(
      await run('drop_computed_field', { table, name: 'triple' }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : permission cf_item.guest.select'),
    );
    expectResponse(await run('drop_select_permission', { table, role: 'guest' }), 200, ok);
    expectResponse(await run('drop_computed_field', { table, name: 'triple' }), 200, ok);
    // A null comment is no comment; the field not dropped and its permission stay.
    expect((await exported()).tables).toEqual([
      {
        table,
        computed_fields: [{ name: 'double', definition: definition('cf_double') }],
        select_permissions: [{ role: 'user', permission: { columns: ['id'], computed_fields: ['double'], filter: {} } }],
      },
      { table: item },
    ]);
    expect(await gql('{ cf_item { id double } }', asRole('user'))).toEqual({ data: { cf_item: [{ id: 1, double: 2 }] } });
  },
);
