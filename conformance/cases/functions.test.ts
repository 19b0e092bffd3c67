// Tracked SQL functions: SPEC.md §2.3 (FunctionConfiguration), §4.3 (track_function v1/v2 and its
// rules 1-4, untrack_function), §4.4 (function permissions and their rules), §2.2 (functions in the
// metadata document), and the messages recorded for what SPEC.md leaves open.
import { caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget, type Target } from '../harness/target';

const target = useTarget({ profiles: ['no-function-inference'] });
const item = { schema: 'shopfn', name: 'item' };
const note = { schema: 'shopfn', name: 'note' };
const fn = (name: string) => ({ schema: 'shopfn', name });
const ok = { message: 'success' };
const run = (type: string, args: unknown, on: Pick<Target, 'metadata'> = target) => on.metadata({ type, args });
const refused = (code: string, error: string) => ({ path: '$.args', error, code });
const exported = async (on: Pick<Target, 'metadata'> = target) => (await run('export_metadata', {}, on)).body;
const gql = async (query: string, headers: Record<string, string> = target.adminHeaders(), on: Pick<Target, 'graphql'> = target) =>
  (await on.graphql(query, undefined, { headers })).body;
const asRole = (role: string, userId?: string) => ({ ...target.adminHeaders(), 'x-engine-role': role, ...(userId ? { 'x-engine-user-id': userId } : {}) });
// The field is not in the schema (graphql-js may add "Did you mean …" after the sentence).
const unknownField = (field: string, type = 'query_root') => ({
  errors: [
    { message: expect.stringMatching(new RegExp(`^Cannot query field "${field}" on type "${type}"\\.`)), extensions: { path: '$', code: 'validation-failed' } },
  ],
});

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

test(covers(['op.track_function.v1', 'op.untrack_function'], 'track_function v1 takes schema and name; untrack_function takes it away again'), async () => {
  expectResponse(await target.metadata({ type: 'track_function', args: { schema: 'shopfn', name: 'search_items' } }, { endpoint: '/v1/query' }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: item }], functions: [{ function: fn('search_items') }] });
  expect(await gql('{ shopfn_search_items(args: {search: "apple"}, order_by: {id: desc}) { id title } }')).toEqual({
    data: {
      shopfn_search_items: [
        { id: 2, title: 'apple tart' },
        { id: 1, title: 'apple pie' },
      ],
    },
  });
  expectResponse(await target.metadata({ type: 'untrack_function', args: { schema: 'shopfn', name: 'search_items' } }, { endpoint: '/v1/query' }), 200, ok);
  expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  expect(await gql('{ shopfn_search_items(args: {search: "apple"}) { id } }')).toEqual(unknownField('shopfn_search_items'));
});

test(
  covers(
    ['op.track_function.v2', 'dec.metadata.source-prefixed', 'dec.functions.graphql'],
    'track_function v2 with a configuration, and pg_track_function / pg_untrack_function at /v1/metadata',
  ),
  async () => {
    expectResponse(await run('pg_track_function', { function: fn('search_items'), configuration: { custom_name: 'find_items' }, source: 'default' }), 200, ok);
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: item }],
      functions: [{ function: fn('search_items'), configuration: { custom_name: 'find_items' } }],
    });
    // Defaults are honoured; where, order_by, limit and the aggregate apply to the function's rows.
    expect(await gql('{ a: find_items(args: {search: "a", max_price: 3}) { id } b: find_items(args: {search: "cake"}) { id } }')).toEqual({
      data: { a: [{ id: 3 }], b: [{ id: 4 }] },
    });
    expect(await gql('{ find_items(args: {search: "a"}, where: {price: {_gt: 3}}, order_by: {price: asc}, limit: 2, offset: 0) { id price } }')).toEqual({
      data: {
        find_items: [
          { id: 1, price: 3.5 },
          { id: 2, price: 4 },
        ],
      },
    });
    expect(await gql('{ find_items_aggregate(args: {search: "apple"}) { aggregate { count } nodes { id } } }')).toEqual({
      data: { find_items_aggregate: { aggregate: { count: 2 }, nodes: [{ id: 1 }, { id: 2 }] } },
    });
    expect(await gql('{ find_items { id } }')).toEqual({
      errors: [
        {
          message: 'Field "find_items" argument "args" of type "find_items_args!" is required, but it was not provided.',
          extensions: { path: '$', code: 'validation-failed' },
        },
      ],
    });
    expectResponse(await run('pg_untrack_function', { function: fn('search_items'), source: 'default' }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  },
);

test(covers(['rule.track_function.1'], 'without exposed_as, a VOLATILE function is a mutation and a STABLE one a query'), async () => {
  expectResponse(
    await run('bulk', [
      { type: 'track_function', args: { function: fn('add_item') } },
      { type: 'track_function', args: { function: fn('search_items') } },
    ]),
    200,
    [ok, ok],
  );
  expect(await gql('mutation { shopfn_add_item(args: {new_title: "date loaf", new_price: 6}) { id title } }')).toEqual({
    data: { shopfn_add_item: [{ id: 5, title: 'date loaf' }] },
  });
  expect(await target.sql('select id, title from shopfn.item where id > 4')).toEqual([{ id: 5, title: 'date loaf' }]);
  expect(await gql('{ shopfn_add_item(args: {new_title: "x", new_price: 1}) { id } }')).toEqual(unknownField('shopfn_add_item'));
  expect(await gql('mutation { shopfn_search_items(args: {search: "a"}) { id } }')).toEqual(unknownField('shopfn_search_items', 'mutation_root'));
  expect(await target.sql('select count(*)::int as n from shopfn.item')).toEqual([{ n: 5 }]);
});

test(
  covers(
    ['rule.track_function.2:allowed', 'rule.track_function.2:refused', 'err.not-supported.function-volatility'],
    'a STABLE or IMMUTABLE function cannot be exposed as a mutation, only as a query',
  ),
  async () => {
    expectResponse(
      await run('track_function', { function: fn('search_items'), configuration: { exposed_as: 'mutation' } }),
      400,
      refused('not-supported', 'function "shopfn.search_items" is STABLE and can only be exposed as a query'),
    );
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
    expectResponse(await run('track_function', { function: fn('search_items'), configuration: { exposed_as: 'query' } }), 200, ok);
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: item }],
      functions: [{ function: fn('search_items'), configuration: { exposed_as: 'query' } }],
    });
    expect(await gql('{ shopfn_search_items(args: {search: "apple"}, order_by: {id: asc}) { id } }')).toEqual({
      data: { shopfn_search_items: [{ id: 1 }, { id: 2 }] },
    });
  },
);

test(covers(['rule.track_function.3'], "a VOLATILE function may be exposed as a query, on the caller's word that it changes nothing"), async () => {
  expectResponse(await run('track_function', { function: fn('all_items'), configuration: { exposed_as: 'query' } }), 200, ok);
  expect(await gql('{ shopfn_all_items(order_by: {id: asc}) { id } }')).toEqual({ data: { shopfn_all_items: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] } });
  expect(await exported()).toEqual({
    version: 2,
    tables: [{ table: item }],
    functions: [{ function: fn('all_items'), configuration: { exposed_as: 'query' } }],
  });
});

test(
  covers(
    [
      'rule.track_function.4:allowed',
      'rule.track_function.4:refused',
      'err.not-supported.function-return-type',
      'err.not-supported.function-untracked-table',
      'err.not-supported.function-arguments',
    ],
    'only functions returning rows of a tracked table, with IN arguments only, can be tracked',
  ),
  async () => {
    expectResponse(
      await run('track_function', { function: fn('item_count') }),
      400,
      refused('not-supported', 'function "shopfn.item_count" cannot be tracked: it must return rows of a table (SETOF table or table), but returns int4'),
    );
    expectResponse(
      await run('track_function', { function: fn('notes') }),
      400,
      refused('not-supported', 'function "shopfn.notes" cannot be tracked: the table "shopfn.note" it returns is not tracked'),
    );
    expectResponse(
      await run('track_function', { function: fn('pairs') }),
      400,
      refused('not-supported', 'function "shopfn.pairs" cannot be tracked: all its arguments must be IN arguments'),
    );
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
    // A function returning one row of the table is fine, and so is tracking the table first in a bulk.
    expectResponse(
      await run('bulk', [
        { type: 'track_function', args: { function: fn('cheapest') } },
        { type: 'track_table', args: { table: note } },
        { type: 'track_function', args: { function: fn('notes') } },
      ]),
      200,
      [ok, ok, ok],
    );
    expect(await gql('{ shopfn_cheapest { id } shopfn_notes { id } }')).toEqual({ data: { shopfn_cheapest: [{ id: 3 }], shopfn_notes: [] } });
  },
);

test(
  covers(
    ['err.not-exists.function-in-postgres', 'err.not-supported.function-overloaded', 'err.already-tracked.function', 'err.not-exists.function'],
    'missing, overloaded, already tracked and untracked functions are refused',
  ),
  async () => {
    expectResponse(
      await run('track_function', { function: fn('missing') }),
      400,
      refused('not-exists', 'no such function exists in postgres : "shopfn.missing"'),
    );
    expectResponse(
      await run('track_function', { function: fn('twice') }),
      400,
      refused('not-supported', 'function "shopfn.twice" is overloaded. Overloaded functions are not supported'),
    );
    expectResponse(await run('track_function', { function: fn('search_items') }), 200, ok);
    expectResponse(
      await run('track_function', { function: fn('search_items'), configuration: { custom_name: 'again' } }),
      400,
      refused('already-tracked', 'function already tracked : "shopfn.search_items"'),
    );
    expectResponse(await run('untrack_function', { function: fn('cheapest') }), 400, refused('not-exists', 'function "shopfn.cheapest" is not tracked'));
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }], functions: [{ function: fn('search_items') }] });
  },
);

test(
  covers(
    ['op.track_function.v2', 'err.not-exists.session-argument', 'dec.functions.graphql'],
    'the session argument receives the session variables and is not a GraphQL argument',
  ),
  async () => {
    expectResponse(
      await run('track_function', { function: fn('my_items'), configuration: { session_argument: 'nope' } }),
      400,
      refused('not-exists', 'function "shopfn.my_items" has no argument "nope" of type json or jsonb'),
    );
    expectResponse(
      await run('bulk', [
        { type: 'track_function', args: { function: fn('my_items'), configuration: { session_argument: 'engine_session' } } },
        { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id', 'title'], filter: {} } } },
      ]),
      200,
      [ok, ok],
    );
    expect(await gql('{ shopfn_my_items(order_by: {id: asc}) { id } }', asRole('user', '2'))).toEqual({ data: { shopfn_my_items: [{ id: 2 }, { id: 4 }] } });
    expect(await gql('{ shopfn_my_items(order_by: {id: asc}) { id } }', { ...target.adminHeaders(), 'x-engine-user-id': '1' })).toEqual({
      data: { shopfn_my_items: [{ id: 1 }, { id: 3 }] },
    });
    expect(await gql('{ shopfn_my_items(args: {engine_session: "{}"}) { id } }')).toEqual({
      errors: [{ message: 'Unknown argument "args" on field "query_root.shopfn_my_items".', extensions: { path: '$', code: 'validation-failed' } }],
    });
  },
);

test(
  covers(
    ['op.track_function.v2', 'rule.perm.select.filter', 'rule.perm.select.columns', 'rule.availability.tracked'],
    "a role gets a function's rows through its select permission on the table, and no function without one",
  ),
  async () => {
    expectResponse(
      await run('bulk', [
        { type: 'track_function', args: { function: fn('search_items') } },
        {
          type: 'create_select_permission',
          args: {
            table: item,
            role: 'user',
            permission: { columns: ['id', 'title'], filter: { owner_id: { _eq: 'X-Engine-User-Id' } }, allow_aggregations: true },
          },
        },
      ]),
      200,
      [ok, ok],
    );
    expect(
      await gql(
        '{ shopfn_search_items(args: {search: "a"}, order_by: {id: asc}) { id title } shopfn_search_items_aggregate(args: {search: "a"}) { aggregate { count } } }',
        asRole('user', '1'),
      ),
    ).toEqual({
      data: {
        shopfn_search_items: [
          { id: 1, title: 'apple pie' },
          { id: 3, title: 'banana bread' },
        ],
        shopfn_search_items_aggregate: { aggregate: { count: 2 } },
      },
    });
    expect(await gql('{ shopfn_search_items(args: {search: "a"}) { price } }', asRole('user', '1'))).toEqual({
      errors: [{ message: 'Cannot query field "price" on type "shopfn_item".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expect(await gql('{ shopfn_search_items(args: {search: "a"}) { id } }', asRole('guest'))).toEqual(unknownField('shopfn_search_items'));
  },
);

test(covers(['err.already-exists.graphql-name'], 'a function and a table cannot share a GraphQL name, whichever comes first'), async () => {
  expectResponse(
    await run('track_function', { function: fn('search_items'), configuration: { custom_name: 'shopfn_item' } }),
    400,
    refused('already-exists', 'the GraphQL name "shopfn_item" of function "shopfn.search_items" conflicts with table "shopfn.item"'),
  );
  expectResponse(await run('track_function', { function: fn('search_items'), configuration: { custom_name: 'shopfn_note' } }), 200, ok);
  expectResponse(
    await run('track_table', { table: note }),
    400,
    refused('already-exists', 'the GraphQL name "shopfn_note" of function "shopfn.search_items" conflicts with table "shopfn.note"'),
  );
  expect(await exported()).toEqual({
    version: 2,
    tables: [{ table: item }],
    functions: [{ function: fn('search_items'), configuration: { custom_name: 'shopfn_note' } }],
  });
});

test(
  covers(['err.dependency-error.drop', 'op.untrack_table'], 'untracking the table a function returns needs cascade, which untracks the function'),
  async () => {
    await run('track_function', { function: fn('search_items') });
    expectResponse(
      await run('untrack_table', { table: item }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : function shopfn.search_items'),
    );
    expectResponse(await run('untrack_table', { table: item, cascade: true }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

test(
  covers(
    ['rule.availability.inconsistent', 'op.get_inconsistent_metadata', 'err.not-exists.function-in-postgres'],
    'a function that disappears from the database is an inconsistent object, and drop_inconsistent_metadata untracks it',
  ),
  async () => {
    await run('track_function', { function: fn('search_items') });
    await target.sql('drop function shopfn.search_items(text, numeric)');
    expectResponse(await run('reload_metadata', {}), 200, {
      message: 'success',
      is_consistent: false,
      inconsistent_objects: [
        {
          type: 'function',
          name: 'function shopfn.search_items in source default',
          reason: 'Inconsistent object: no such function exists in postgres : "shopfn.search_items"',
          definition: { function: fn('search_items') },
        },
      ],
    });
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  },
);

test(
  covers(
    ['dec.functions.run_sql', 'err.dependency-error.drop', 'err.not-supported.function-overloaded', 'op.run_sql'],
    'run_sql that drops, renames or overloads a tracked function is refused naming it, and undone; with cascade the function is untracked',
  ),
  async () => {
    await run('track_function', { function: fn('cheapest') });
    const before = await exported();
    const runSql = (sql: string, cascade?: boolean) =>
      target.metadata({ type: 'run_sql', args: { sql, ...(cascade === undefined ? {} : { cascade }) } }, { endpoint: '/v2/query' });
    const refusedDrop = { path: '$.args', error: 'cannot drop due to the following dependent objects : function shopfn.cheapest', code: 'dependency-error' };
    expectResponse(await runSql('drop function shopfn.cheapest()'), 400, refusedDrop);
    expectResponse(await runSql('alter function shopfn.cheapest() rename to cheapest_item'), 400, refusedDrop);
    expectResponse(
      await runSql('create function shopfn.cheapest(n integer) returns shopfn.item language sql stable as $$ select * from shopfn.item where id = n $$'),
      400,
      { path: '$.args', error: 'function "shopfn.cheapest" is overloaded. Overloaded functions are not supported', code: 'not-supported' },
    );
    // Nothing of it stayed: the function is there once, under its name, still tracked and served.
    expect(await target.sql("select count(*)::int as n from pg_proc where proname in ('cheapest', 'cheapest_item')")).toEqual([{ n: 1 }]);
    expect(await exported()).toEqual(before);
    expect(await gql('{ shopfn_cheapest { id } }')).toEqual({ data: { shopfn_cheapest: [{ id: 3 }] } });
    // With cascade the SQL stays and the function is untracked.
    expectResponse(await runSql('drop function shopfn.cheapest()', true), 200, { result_type: 'CommandOk', result: null });
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  },
);

test(
  covers(['op.replace_metadata.v1', 'op.export_metadata.v1'], 'functions with their configuration and permissions round-trip through replace_metadata'),
  async () => {
    const document = {
      version: 2,
      tables: [{ table: item, select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: {} } }] }],
      functions: [
        { function: fn('by_owner') },
        { function: fn('my_items'), configuration: { session_argument: 'engine_session', exposed_as: 'query' } },
        { function: fn('search_items'), configuration: { custom_name: 'find_items' }, permissions: [{ role: 'user' }] },
      ],
    };
    expectResponse(await run('replace_metadata', document), 200, ok);
    expect(await exported()).toEqual(document);
    expect(await gql('{ by_owner: shopfn_by_owner(args: {arg_1: 2}, order_by: {id: asc}) { id } }')).toEqual({ data: { by_owner: [{ id: 2 }, { id: 4 }] } });
    expectResponse(await run('replace_metadata', { ...document, functions: [{ function: fn('twice') }] }), 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [
        {
          type: 'function',
          name: 'function shopfn.twice in source default',
          reason: 'Inconsistent object: function "shopfn.twice" is overloaded. Overloaded functions are not supported',
          definition: { function: fn('twice') },
        },
      ],
    });
    expect(await exported()).toEqual(document);
  },
);

test(
  covers(
    ['rule.function_permission.inference-disabled:refused', 'err.not-supported.function-permissions-inferred'],
    'function permissions are refused while the engine infers them (the default)',
  ),
  async () => {
    await run('track_function', { function: fn('search_items') });
    await run('create_select_permission', { table: item, role: 'user', permission: { columns: ['id'], filter: {} } });
    expectResponse(
      await run('pg_create_function_permission', { function: fn('search_items'), role: 'user' }),
      400,
      refused('not-supported', 'function permissions can only be added when ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS is false'),
    );
    expect(((await exported()) as { functions: unknown }).functions).toEqual([{ function: fn('search_items') }]);
  },
);

caseWithProfile(
  'no-function-inference',
  [
    'op.pg_create_function_permission',
    'op.pg_drop_function_permission',
    'rule.function_permission.inference-disabled:allowed',
    'rule.function_permission.select-permission:allowed',
    'rule.function_permission.select-permission:refused',
    'err.not-supported.function-permission-select',
    'err.already-exists.function-permission',
    'err.not-exists.function-permission',
  ],
  'without inference a role sees a function only through a function permission, which needs its select permission',
  async () => {
    const strict = target.profileTarget('no-function-inference')!;
    const query = '{ shopfn_search_items(args: {search: "apple"}, order_by: {id: asc}) { id } }';
    expectResponse(
      await run(
        'bulk',
        [
          { type: 'track_function', args: { function: fn('search_items') } },
          { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id'], filter: {} } } },
          { type: 'create_select_permission', args: { table: item, role: 'other', permission: { columns: ['id'], filter: {} } } },
        ],
        strict,
      ),
      200,
      [ok, ok, ok],
    );
    expect(await gql(query, asRole('user'), strict)).toEqual(unknownField('shopfn_search_items'));
    expectResponse(
      await run('pg_create_function_permission', { function: fn('search_items'), role: 'guest' }, strict),
      400,
      refused(
        'not-supported',
        'function permission can only be added when the function\'s return table "shopfn.item" has select permission configured for role: "guest"',
      ),
    );
    expectResponse(await run('pg_create_function_permission', { function: fn('search_items'), role: 'user', source: 'default' }, strict), 200, ok);
    expectResponse(
      await run('pg_create_function_permission', { function: fn('search_items'), role: 'user' }, strict),
      400,
      refused('already-exists', 'permission of role "user" already exists for function "shopfn.search_items" in source: "default"'),
    );
    expect(((await exported(strict)) as { functions: unknown }).functions).toEqual([{ function: fn('search_items'), permissions: [{ role: 'user' }] }]);
    expect(await gql(query, asRole('user'), strict)).toEqual({ data: { shopfn_search_items: [{ id: 1 }, { id: 2 }] } });
    // Another role that may read the table still has no permission of its own on the function.
    expect(await gql(query, asRole('other'), strict)).toEqual(unknownField('shopfn_search_items'));
    expectResponse(await run('pg_drop_function_permission', { function: fn('search_items'), role: 'user' }, strict), 200, ok);
    expectResponse(
      await run('pg_drop_function_permission', { function: fn('search_items'), role: 'user' }, strict),
      400,
      refused('not-exists', 'permission of role "user" does not exist for function "shopfn.search_items" in source: "default"'),
    );
    expect(((await exported(strict)) as { functions: unknown }).functions).toEqual([{ function: fn('search_items') }]);
    expect(await gql(query, asRole('user'), strict)).toEqual(unknownField('shopfn_search_items'));
  },
);

caseWithProfile(
  'no-function-inference',
  ['dec.function_permission.replace-metadata', 'rule.function_permission.select-permission:refused', 'err.already-exists.function-permission'],
  'replace_metadata keeps a function permission of a role that may not select: the function stays hidden until the role may',
  async () => {
    const strict = target.profileTarget('no-function-inference')!;
    const query = '{ shopfn_search_items(args: {search: "apple"}, order_by: {id: asc}) { id } }';
    const document = {
      version: 2,
      tables: [{ table: item, select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: {} } }] }],
      functions: [{ function: fn('search_items'), permissions: [{ role: 'guest' }, { role: 'user' }] }],
    };
    expectResponse(await run('replace_metadata', document, strict), 200, ok);
    expect(await exported(strict)).toEqual(document);
    expectResponse(await run('get_inconsistent_metadata', {}, strict), 200, []);
    expect(await gql(query, asRole('guest'), strict)).toEqual(unknownField('shopfn_search_items'));
    expect(await gql(query, asRole('user'), strict)).toEqual({ data: { shopfn_search_items: [{ id: 1 }, { id: 2 }] } });
    // The permission that is there is named before the missing select permission.
    expectResponse(
      await run('pg_create_function_permission', { function: fn('search_items'), role: 'guest' }, strict),
      400,
      refused('already-exists', 'permission of role "guest" already exists for function "shopfn.search_items" in source: "default"'),
    );
    expectResponse(
      await run('create_select_permission', { table: item, role: 'guest', permission: { columns: ['id'], filter: { id: { _eq: 2 } } } }, strict),
      200,
      ok,
    );
    expect(await gql(query, asRole('guest'), strict)).toEqual({ data: { shopfn_search_items: [{ id: 2 }] } });
  },
);

caseWithProfile(
  'no-function-inference',
  ['op.pg_create_function_permission', 'op.pg_drop_function_permission', 'rule.function_permission.select-permission:allowed'],
  "each function permission is its function's and its role's alone: others of the function and of other functions stay",
  async () => {
    const strict = target.profileTarget('no-function-inference')!;
    const selectIds = { columns: ['id'], filter: {} };
    expectResponse(
      await run(
        'bulk',
        [
          { type: 'track_function', args: { function: fn('search_items') } },
          { type: 'track_function', args: { function: fn('all_items') } },
          { type: 'create_select_permission', args: { table: item, role: 'user', permission: selectIds } },
          { type: 'create_select_permission', args: { table: item, role: 'other', permission: selectIds } },
          { type: 'pg_create_function_permission', args: { function: fn('search_items'), role: 'user' } },
          { type: 'pg_create_function_permission', args: { function: fn('search_items'), role: 'other' } },
          { type: 'pg_create_function_permission', args: { function: fn('all_items'), role: 'other' } },
        ],
        strict,
      ),
      200,
      [ok, ok, ok, ok, ok, ok, ok],
    );
    const functions = async () => ((await exported(strict)) as { functions: unknown }).functions;
    expect(await functions()).toEqual([
      { function: fn('all_items'), permissions: [{ role: 'other' }] },
      { function: fn('search_items'), permissions: [{ role: 'user' }, { role: 'other' }] },
    ]);
    expectResponse(await run('pg_drop_function_permission', { function: fn('search_items'), role: 'user' }, strict), 200, ok);
    expect(await functions()).toEqual([
      { function: fn('all_items'), permissions: [{ role: 'other' }] },
      { function: fn('search_items'), permissions: [{ role: 'other' }] },
    ]);
    expectResponse(
      await run('pg_drop_function_permission', { function: fn('all_items'), role: 'user' }, strict),
      400,
      refused('not-exists', 'permission of role "user" does not exist for function "shopfn.all_items" in source: "default"'),
    );
    const search = '{ shopfn_search_items(args: {search: "apple"}, order_by: {id: asc}) { id } }';
    expect(await gql(search, asRole('user'), strict)).toEqual(unknownField('shopfn_search_items'));
    expect(await gql(search, asRole('other'), strict)).toEqual({ data: { shopfn_search_items: [{ id: 1 }, { id: 2 }] } });
  },
);

test(
  covers(
    ['op.track_function.v2', 'dec.graphql.composite-scalars'],
    'a function over a row of a tracked table: its argument is a scalar of its own, given as the row in text',
  ),
  async () => {
    await target.sql(`drop table if exists public.fn_row cascade;
      create table public.fn_row (id integer primary key, owner integer not null);
      insert into public.fn_row values (1, 10), (2, 10), (3, 20);
      create function public.fn_row_siblings(r public.fn_row) returns setof public.fn_row
        language sql stable as $$ select * from public.fn_row where owner = r.owner and id <> r.id $$;`);
    expectResponse(await run('track_table', { table: 'fn_row' }), 200, ok);
    expectResponse(await run('track_function', { function: 'fn_row_siblings' }), 200, ok);
    expect(await gql('{ __typename }')).toEqual({ data: { __typename: 'query_root' } });
    expect(await gql('{ fn_row_siblings(args: {r: "(1,10)"}) { id owner } }')).toEqual({ data: { fn_row_siblings: [{ id: 2, owner: 10 }] } });
    expect(await gql('{ __type(name: "fn_row_siblings_args") { inputFields { name type { kind name ofType { kind name } } } } }')).toEqual({
      data: { __type: { inputFields: [{ name: 'r', type: { kind: 'SCALAR', name: 'fn_row_scalar', ofType: null } }] } },
    });
    expect(await gql('{ __type(name: "fn_row") { kind } }')).toEqual({ data: { __type: { kind: 'OBJECT' } } });
    await target.sql('drop table public.fn_row cascade');
  },
);

test(
  covers(
    ['dec.function.bare-name', 'op.track_function.v1', 'op.untrack_function'],
    'a function named by a bare string: as the whole args, and as "function", also inside a bulk',
  ),
  async () => {
    await target.sql(`drop function if exists public.fn_bare(); drop table if exists public.fn_bare_t cascade;
      create table public.fn_bare_t (id int primary key); insert into public.fn_bare_t values (1);
      create function public.fn_bare() returns setof public.fn_bare_t language sql stable as $$ select * from public.fn_bare_t $$;`);
    expectResponse(
      await run('bulk', [
        { type: 'track_table', args: { table: 'fn_bare_t' } },
        { type: 'track_function', args: 'fn_bare' },
      ]),
      200,
      [ok, ok],
    );
    expect(((await exported()) as { functions: unknown }).functions).toEqual([{ function: { schema: 'public', name: 'fn_bare' } }]);
    expect(await gql('{ fn_bare { id } }')).toEqual({ data: { fn_bare: [{ id: 1 }] } });
    expectResponse(await run('untrack_function', 'fn_bare'), 200, ok);
    expect(((await exported()) as { functions?: unknown }).functions).toBeUndefined();
    expectResponse(await run('track_function', { function: 'fn_bare' }), 200, ok);
    expectResponse(await run('untrack_function', { function: 'fn_bare' }), 200, ok);
    expectResponse(await run('track_function', ''), 400, { path: '$.args', error: "function name can't be empty", code: 'parse-failed' });
    await target.sql('drop function public.fn_bare(); drop table public.fn_bare_t cascade');
  },
);

test(
  covers(
    ['dec.function.bare-name', 'op.track_function.v1', 'op.untrack_function'],
    'a bare function name at the legacy query endpoint, in a bulk there, and as the function of the pg_ forms',
  ),
  async () => {
    await target.sql(`drop function if exists public.fn_bare2(); drop table if exists public.fn_bare2_t cascade;
      create table public.fn_bare2_t (id int primary key); insert into public.fn_bare2_t values (7);
      create function public.fn_bare2() returns setof public.fn_bare2_t language sql stable as $$ select * from public.fn_bare2_t $$;`);
    const query = (type: string, args: unknown) => target.metadata({ type, args }, { endpoint: '/v1/query' });
    expectResponse(
      await query('bulk', [
        { type: 'track_table', args: { table: 'fn_bare2_t' } },
        { type: 'track_function', args: 'fn_bare2' },
      ]),
      200,
      [ok, ok],
    );
    expect(((await exported()) as { functions: unknown }).functions).toEqual([{ function: { schema: 'public', name: 'fn_bare2' } }]);
    expect(await gql('{ fn_bare2 { id } }')).toEqual({ data: { fn_bare2: [{ id: 7 }] } });
    expectResponse(await query('untrack_function', 'fn_bare2'), 200, ok);
    expect(((await exported()) as { functions?: unknown }).functions).toBeUndefined();
    expect(await gql('{ fn_bare2 { id } }')).toEqual(unknownField('fn_bare2'));
    expectResponse(await run('pg_track_function', { source: 'default', function: 'fn_bare2' }), 200, ok);
    expect(((await exported()) as { functions: unknown }).functions).toEqual([{ function: { schema: 'public', name: 'fn_bare2' } }]);
    expectResponse(await run('pg_untrack_function', { source: 'default', function: 'fn_bare2' }), 200, ok);
    expectResponse(await query('untrack_function', 'fn_bare2'), 400, {
      path: '$.args',
      error: 'function "fn_bare2" is not tracked',
      code: 'not-exists',
    });
    await target.sql('drop function public.fn_bare2(); drop table public.fn_bare2_t cascade');
  },
);

caseWithProfile(
  'no-function-inference',
  ['err.not-supported.function-permission-select', 'rule.function_permission.select-permission:refused'],
  "in a bulk, a function permission for a role that may select only another table is refused at its place and the bulk's table and select permission are not kept",
  async () => {
    const strict = target.profileTarget('no-function-inference')!;
    expectResponse(await run('track_function', { function: fn('search_items') }, strict), 200, ok);
    const before = await exported(strict);
    const r = await run(
      'bulk',
      [
        { type: 'track_table', args: { table: note } },
        { type: 'create_select_permission', args: { table: note, role: 'editor', permission: { columns: '*', filter: {} } } },
        { type: 'pg_create_function_permission', args: { function: fn('search_items'), role: 'editor' } },
      ],
      strict,
    );
    expectResponse(r, 400, {
      path: '$.args[2].args',
      error: 'function permission can only be added when the function\'s return table "shopfn.item" has select permission configured for role: "editor"',
      code: 'not-supported',
    });
    expect(await exported(strict)).toEqual(before);
    expect(await gql('{ shopfn_search_items(args: {search: "apple"}) { id } }', asRole('editor'), strict)).toEqual(unknownField('shopfn_search_items'));
  },
);

test(
  covers(
    ['dec.function.customization', 'op.set_function_customization', 'op.track_function.v2'],
    'custom_root_fields name the function and aggregate root fields; custom_name names them otherwise and the args type always',
  ),
  async () => {
    expectResponse(
      await run('track_function', {
        function: fn('search_items'),
        configuration: { custom_name: 'find_items', custom_root_fields: { function: 'FindItems', function_aggregate: 'FindItemsAggregate' } },
      }),
      200,
      ok,
    );
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: item }],
      functions: [
        {
          function: fn('search_items'),
          configuration: { custom_name: 'find_items', custom_root_fields: { function: 'FindItems', function_aggregate: 'FindItemsAggregate' } },
        },
      ],
    });
    expect(await gql('{ FindItems(args: {search: "apple"}) { id } FindItemsAggregate(args: {search: "apple"}) { aggregate { count } } }')).toEqual({
      data: { FindItems: [{ id: 1 }, { id: 2 }], FindItemsAggregate: { aggregate: { count: 2 } } },
    });
    expect(await gql('{ find_items(args: {search: "apple"}) { id } }')).toEqual(unknownField('find_items'));
    expect(await gql('{ __type(name: "find_items_args") { inputFields { name } } }')).toEqual({
      data: { __type: { inputFields: [{ name: 'search' }, { name: 'max_price' }] } },
    });

    // set_function_customization replaces the whole configuration; only the aggregate renamed now.
    expectResponse(
      await run('pg_set_function_customization', {
        function: fn('search_items'),
        configuration: { custom_root_fields: { function_aggregate: 'itemStats' } },
        source: 'default',
      }),
      200,
      ok,
    );
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: item }],
      functions: [{ function: fn('search_items'), configuration: { custom_root_fields: { function_aggregate: 'itemStats' } } }],
    });
    expect(await gql('{ shopfn_search_items(args: {search: "cake"}) { id } itemStats(args: {search: "cake"}) { aggregate { count } } }')).toEqual({
      data: { shopfn_search_items: [{ id: 4 }], itemStats: { aggregate: { count: 1 } } },
    });
    expect(await gql('{ shopfn_search_items_aggregate(args: {search: "a"}) { aggregate { count } } }')).toEqual(unknownField('shopfn_search_items_aggregate'));

    // An empty configuration takes every customization away.
    expectResponse(await run('set_function_customization', { function: fn('search_items'), configuration: {} }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }], functions: [{ function: fn('search_items') }] });
    expect(await gql('{ shopfn_search_items_aggregate(args: {search: "a"}) { aggregate { count } } }')).toEqual({
      data: { shopfn_search_items_aggregate: { aggregate: { count: 4 } } },
    });
  },
);

test(
  covers(
    [
      'dec.function.customization',
      'op.set_function_customization',
      'err.not-exists.function',
      'err.already-exists.graphql-name',
      'err.validation-failed.graphql-name',
    ],
    'set_function_customization refuses an untracked function, a clashing root field and a name GraphQL cannot carry, and changes nothing',
  ),
  async () => {
    expectResponse(await run('track_function', { function: fn('search_items') }), 200, ok);
    const before = await exported();
    expectResponse(
      await run('set_function_customization', { function: fn('cheapest'), configuration: { custom_name: 'x' } }),
      400,
      refused('not-exists', 'function "shopfn.cheapest" is not tracked'),
    );
    expectResponse(
      await run('set_function_customization', { function: fn('search_items'), configuration: { custom_root_fields: { function: 'shopfn_item' } } }),
      400,
      refused('already-exists', 'the GraphQL name "shopfn_item" of function "shopfn.search_items" conflicts with table "shopfn.item"'),
    );
    expectResponse(
      await run('set_function_customization', { function: fn('search_items'), configuration: { custom_root_fields: { function_aggregate: 'not valid' } } }),
      400,
      refused('validation-failed', expect.stringContaining('"not valid"') as unknown as string),
    );
    expectResponse(
      await run('set_function_customization', {
        function: fn('search_items'),
        configuration: { custom_root_fields: { function: 'same', function_aggregate: 'same' } },
      }),
      400,
      refused(
        'already-exists',
        'the GraphQL name "same" of root field function_aggregate of function "shopfn.search_items" conflicts with root field function',
      ),
    );
    expectResponse(
      await run('track_function', { function: fn('cheapest'), configuration: { custom_root_fields: { function: 'shopfn_search_items_aggregate' } } }),
      400,
      refused('already-exists', 'the GraphQL name "shopfn_search_items_aggregate" of function "shopfn.cheapest" conflicts with function "shopfn.search_items"'),
    );
    expect(await exported()).toEqual(before);
  },
);

test(
  covers(
    [
      'rule.track_function.1',
      'rule.track_function.2:allowed',
      'rule.track_function.2:refused',
      'rule.track_function.3',
      'rule.track_function.4:allowed',
      'rule.track_function.4:refused',
    ],
    'functions brought by replace_metadata follow the same rules: the volatility chooses the root, a STABLE one is no mutation, only rows of a tracked table',
  ),
  async () => {
    const replace = (functions: unknown[]) => run('replace_metadata', { version: 2, tables: [{ table: item }], functions });
    expectResponse(
      await replace([
        { function: fn('add_item') },
        { function: fn('search_items') },
        { function: fn('all_items'), configuration: { exposed_as: 'query' } },
        { function: fn('cheapest') },
      ]),
      200,
    );
    expect(
      await gql(
        '{ shopfn_search_items(args: {search: "apple"}, order_by: {id: asc}) { id } shopfn_all_items(order_by: {id: asc}) { id } shopfn_cheapest { id } }',
      ),
    ).toEqual({
      data: { shopfn_search_items: [{ id: 1 }, { id: 2 }], shopfn_all_items: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }], shopfn_cheapest: [{ id: 3 }] },
    });
    expect(await gql('mutation { shopfn_add_item(args: {new_title: "date loaf", new_price: 6}) { id } }')).toEqual({ data: { shopfn_add_item: [{ id: 5 }] } });
    expect(await gql('{ shopfn_add_item(args: {new_title: "x", new_price: 1}) { id } }')).toEqual(unknownField('shopfn_add_item'));
    const before = await exported();
    // Each is an inconsistency of the document, refused with its reason, and nothing changes.
    for (const [definition, name, reason] of [
      [
        { function: fn('search_items'), configuration: { exposed_as: 'mutation' } },
        'function shopfn.search_items in source default',
        'function "shopfn.search_items" is STABLE and can only be exposed as a query',
      ],
      [
        { function: fn('item_count') },
        'function shopfn.item_count in source default',
        'function "shopfn.item_count" cannot be tracked: it must return rows of a table (SETOF table or table), but returns int4',
      ],
      [
        { function: fn('notes') },
        'function shopfn.notes in source default',
        'function "shopfn.notes" cannot be tracked: the table "shopfn.note" it returns is not tracked',
      ],
      [
        { function: fn('pairs') },
        'function shopfn.pairs in source default',
        'function "shopfn.pairs" cannot be tracked: all its arguments must be IN arguments',
      ],
    ] as const) {
      expectResponse(await replace([definition]), 400, {
        path: '$.args',
        error: 'cannot continue due to inconsistent metadata',
        code: 'unexpected',
        internal: [{ type: 'function', name, reason: `Inconsistent object: ${reason}`, definition }],
      });
      expect(await exported()).toEqual(before);
    }
  },
);

caseWithProfile(
  'no-function-inference',
  [
    'op.pg_create_function_permission',
    'op.pg_drop_function_permission',
    'rule.function_permission.select-permission:allowed',
    'err.already-exists.function-permission',
    'err.not-exists.function-permission',
  ],
  'function permissions brought by replace_metadata serve the role; changed in bulks, a refused member keeps nothing',
  async () => {
    const strict = target.profileTarget('no-function-inference')!;
    const query = '{ shopfn_search_items(args: {search: "apple"}, order_by: {id: asc}) { id } }';
    const userSelect = { role: 'user', permission: { columns: ['id'], filter: {} } };
    const document = (roles: string[]) => ({
      version: 2,
      tables: [{ table: item, select_permissions: [userSelect] }],
      functions: [{ function: fn('search_items'), permissions: roles.map((role) => ({ role })) }],
    });
    expectResponse(await run('replace_metadata', document(['user']), strict), 200);
    expect(await gql(query, asRole('user'), strict)).toEqual({ data: { shopfn_search_items: [{ id: 1 }, { id: 2 }] } });
    const accepted = await exported(strict);
    expect(accepted).toEqual(document(['user']));
    expectResponse(
      await run(
        'bulk',
        [
          { type: 'pg_drop_function_permission', args: { function: fn('search_items'), role: 'user' } },
          { type: 'pg_create_function_permission', args: { function: fn('search_items'), role: 'user' } },
          { type: 'pg_create_function_permission', args: { function: fn('search_items'), role: 'user' } },
        ],
        strict,
      ),
      400,
      {
        path: '$.args[2].args',
        error: 'permission of role "user" already exists for function "shopfn.search_items" in source: "default"',
        code: 'already-exists',
      },
    );
    expect(await exported(strict)).toEqual(accepted);
    expectResponse(
      await run(
        'bulk',
        [
          { type: 'pg_drop_function_permission', args: { function: fn('search_items'), role: 'user' } },
          { type: 'pg_drop_function_permission', args: { function: fn('search_items'), role: 'user' } },
        ],
        strict,
      ),
      400,
      { path: '$.args[1].args', error: 'permission of role "user" does not exist for function "shopfn.search_items" in source: "default"', code: 'not-exists' },
    );
    expect(await exported(strict)).toEqual(accepted);
    expect(await gql(query, asRole('user'), strict)).toEqual({ data: { shopfn_search_items: [{ id: 1 }, { id: 2 }] } });
  },
);

test(
  covers(
    ['op.track_function.v2', 'err.validation-failed.graphql-name'],
    'a function whose GraphQL names are no GraphQL names is refused, naming where each came from',
  ),
  async () => {
    await target.sql(`create function shopfn."odd-items"() returns setof shopfn.item language sql stable as 'select * from shopfn.item'`);
    const odd = fn('odd-items');
    const attempts: [Record<string, unknown> | undefined, string][] = [
      [undefined, '"shopfn_odd-items" (of function "shopfn.odd-items"; give it a custom_name) is not a valid GraphQL name'],
      [{ custom_name: 'odd items' }, '"odd items" (the custom_name of function "shopfn.odd-items") is not a valid GraphQL name'],
      // The root field renamed, the aggregate field still takes the function's own name.
      [
        { custom_root_fields: { function: 'odd_list' } },
        '"shopfn_odd-items_aggregate" (of function "shopfn.odd-items"; give it a custom_name) is not a valid GraphQL name',
      ],
      [
        { custom_name: 'odd_items', custom_root_fields: { function: 'odd-list' } },
        '"odd-list" (the custom_root_fields.function of function "shopfn.odd-items") is not a valid GraphQL name',
      ],
      [
        { custom_name: 'odd_items', custom_root_fields: { function_aggregate: 'odd-total' } },
        '"odd-total" (the custom_root_fields.function_aggregate of function "shopfn.odd-items") is not a valid GraphQL name',
      ],
    ];
    for (const [configuration, error] of attempts) {
      const r = await run('track_function', { function: odd, ...(configuration ? { configuration } : {}) });
      expect([configuration, r.status, r.body]).toEqual([configuration, 400, refused('validation-failed', error)]);
    }
    expect((await exported()) as { functions?: unknown }).not.toHaveProperty('functions');
    expectResponse(await run('track_function', { function: odd, configuration: { custom_name: 'odd_items' } }), 200, ok);
    expect(await gql('{ odd_items(order_by: {id: asc}, limit: 1) { id } }')).toEqual({ data: { odd_items: [{ id: 1 }] } });
  },
);
