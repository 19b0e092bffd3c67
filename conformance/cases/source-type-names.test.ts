// A source's type name prefix and suffix (decision dec.source.customization): every type generated
// for its tables and functions takes them, in the schema and in answers (__typename, variables),
// while the types every source shares (scalars, order_by, <scalar>_comparison_exp) keep their names.
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';
import { openSocket } from '../harness/websocket';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const connection = () => ({ connection_info: { database_url: second.url } });

afterEach(async () => {
  await target.reset();
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop table if exists public.ledger, public.kind');
  await target.sql('drop table if exists public.old_ledger_v1');
});

/** The names of the schema's types that are not introspection's, sorted. */
async function typeNames(): Promise<string[]> {
  const answer = await target.graphql('{ __schema { types { name } } }');
  const types = (answer.body as { data: { __schema: { types: { name: string }[] } } }).data.__schema.types;
  return types
    .map((t) => t.name)
    .filter((n) => !n.startsWith('__'))
    .sort();
}

async function ledgerSource(customization: unknown) {
  await second.sql(
    "create table public.kind (value text primary key); insert into public.kind values ('cash'), ('card');" +
      'create table public.ledger (id serial primary key, amount int not null, kind text not null references public.kind);' +
      "insert into public.ledger (amount, kind) values (5, 'cash'), (7, 'card')",
  );
  expectResponse(await run('pg_add_source', { name: 'archive', configuration: connection(), customization }), 200, ok);
  expectResponse(await run('pg_track_table', { source: 'archive', table: 'kind', is_enum: true }), 200, ok);
  expectResponse(await run('pg_track_table', { source: 'archive', table: 'ledger' }), 200, ok);
}

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source'],
  "every type generated for a source's tables takes its type prefix and suffix; the scalars, order_by and the comparison types of scalars do not",
  async () => {
    await ledgerSource({ type_names: { prefix: 'Old_', suffix: '_v1' } });
    expect(await typeNames()).toEqual([
      'Boolean',
      'Float',
      'Int',
      'Int_comparison_exp',
      'Old_cursor_ordering_v1',
      'Old_kind_aggregate_fields_v1',
      'Old_kind_aggregate_v1',
      'Old_kind_bool_exp_v1',
      'Old_kind_constraint_v1',
      // A comparison type is named after the type it compares, as the engine names them.
      'Old_kind_enum_v1',
      'Old_kind_enum_v1_comparison_exp',
      'Old_kind_insert_input_v1',
      'Old_kind_max_fields_v1',
      'Old_kind_min_fields_v1',
      'Old_kind_mutation_response_v1',
      'Old_kind_on_conflict_v1',
      'Old_kind_order_by_v1',
      'Old_kind_pk_columns_input_v1',
      'Old_kind_select_column_v1',
      'Old_kind_set_input_v1',
      'Old_kind_stream_cursor_input_v1',
      'Old_kind_stream_cursor_value_input_v1',
      'Old_kind_update_column_v1',
      'Old_kind_updates_v1',
      'Old_kind_v1',
      'Old_ledger_aggregate_fields_v1',
      'Old_ledger_aggregate_v1',
      'Old_ledger_avg_fields_v1',
      'Old_ledger_bool_exp_v1',
      'Old_ledger_constraint_v1',
      'Old_ledger_inc_input_v1',
      'Old_ledger_insert_input_v1',
      'Old_ledger_max_fields_v1',
      'Old_ledger_min_fields_v1',
      'Old_ledger_mutation_response_v1',
      'Old_ledger_on_conflict_v1',
      'Old_ledger_order_by_v1',
      'Old_ledger_pk_columns_input_v1',
      'Old_ledger_select_column_v1',
      'Old_ledger_set_input_v1',
      'Old_ledger_stddev_fields_v1',
      'Old_ledger_stddev_pop_fields_v1',
      'Old_ledger_stddev_samp_fields_v1',
      'Old_ledger_stream_cursor_input_v1',
      'Old_ledger_stream_cursor_value_input_v1',
      'Old_ledger_sum_fields_v1',
      'Old_ledger_update_column_v1',
      'Old_ledger_updates_v1',
      'Old_ledger_v1',
      'Old_ledger_var_pop_fields_v1',
      'Old_ledger_var_samp_fields_v1',
      'Old_ledger_variance_fields_v1',
      'String',
      'String_comparison_exp',
      'mutation_root',
      'order_by',
      'query_root',
      'subscription_root',
    ]);
    expect((await exported()).sources).toEqual([
      {
        name: 'archive',
        kind: 'postgres',
        configuration: connection(),
        tables: [{ table: { schema: 'public', name: 'kind' }, is_enum: true }, { table: { schema: 'public', name: 'ledger' } }],
        customization: { type_names: { prefix: 'Old_', suffix: '_v1' } },
      },
    ]);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_update_source'],
  'queries, mutations and subscriptions answer __typename with the customized names, and take variables of the customized types',
  async () => {
    await ledgerSource({ type_names: { prefix: 'Old_' } });
    const query =
      'query ($w: Old_ledger_bool_exp, $o: [Old_ledger_order_by!], $k: Old_kind_enum) { ledger(where: $w, order_by: $o) { __typename amount kind } ' +
      'ledger_aggregate(where: {kind: {_eq: $k}}) { __typename aggregate { __typename count sum { __typename amount } } } }';
    expect((await target.graphql(query, { w: { amount: { _gt: 1 } }, o: [{ id: 'desc' }], k: 'cash' })).body).toEqual({
      data: {
        ledger: [
          { __typename: 'Old_ledger', amount: 7, kind: 'card' },
          { __typename: 'Old_ledger', amount: 5, kind: 'cash' },
        ],
        ledger_aggregate: {
          __typename: 'Old_ledger_aggregate',
          aggregate: { __typename: 'Old_ledger_aggregate_fields', count: 1, sum: { __typename: 'Old_ledger_sum_fields', amount: 5 } },
        },
      },
    });
    const insert = 'mutation ($rows: [Old_ledger_insert_input!]!) { insert_ledger(objects: $rows) { __typename returning { __typename amount } } }';
    expect((await target.graphql(insert, { rows: [{ amount: 9, kind: 'card' }] })).body).toEqual({
      data: { insert_ledger: { __typename: 'Old_ledger_mutation_response', returning: [{ __typename: 'Old_ledger', amount: 9 }] } },
    });
    expect(await second.sql('select amount, kind from public.ledger order by id')).toEqual([
      { amount: 5, kind: 'cash' },
      { amount: 7, kind: 'card' },
      { amount: 9, kind: 'card' },
    ]);
    // The old names are no types of the schema.
    expect((await target.graphql('query ($w: ledger_bool_exp) { ledger(where: $w) { amount } }', { w: {} })).body).toEqual({
      errors: [
        {
          message: 'Unknown type "ledger_bool_exp". Did you mean "Old_ledger_bool_exp" or "Old_kind_bool_exp"?',
          extensions: { path: '$', code: 'validation-failed' },
        },
      ],
    });
    const socket = openSocket(target);
    try {
      const stream = socket.start('subscription ($c: Old_ledger_stream_cursor_input) { ledger_stream(batch_size: 2, cursor: [$c]) { __typename amount } }', {
        // The rows after the initial value: ids 2 and 3.
        c: { initial_value: { id: 1 }, ordering: 'ASC' },
      });
      expect(await stream.take()).toEqual({
        type: 'next',
        payload: {
          data: {
            ledger_stream: [
              { __typename: 'Old_ledger', amount: 7 },
              { __typename: 'Old_ledger', amount: 9 },
            ],
          },
        },
      });
      stream.stop();
    } finally {
      await socket.close();
    }
    // pg_update_source replaces the customization; the types follow.
    expectResponse(await run('pg_update_source', { name: 'archive', customization: { type_names: { suffix: '_x' } } }), 200, ok);
    expect((await target.graphql('{ ledger_by_pk(id: 2) { __typename amount } }')).body).toEqual({
      data: { ledger_by_pk: { __typename: 'ledger_x', amount: 7 } },
    });
    expect(((await exported()).sources as { customization?: unknown }[])[0]!.customization).toEqual({ type_names: { suffix: '_x' } });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source', 'op.replace_metadata.v2'],
  "a type name another source's table has is refused, nothing changed; a namespace's types take the prefix and suffix too",
  async () => {
    await target.sql('create table public.old_ledger_v1 (id int primary key)');
    expectResponse(await run('pg_track_table', { table: 'old_ledger_v1' }), 200, ok);
    await second.sql('create table public.ledger (id serial primary key, amount int not null)');
    const add = (customization: unknown) => run('pg_add_source', { name: 'archive', configuration: connection(), customization });
    expectResponse(await add({ type_names: { prefix: 'old_', suffix: '_v1' } }), 200, ok);
    expectResponse(await run('pg_track_table', { source: 'archive', table: 'ledger' }), 400, {
      path: '$.args',
      error: 'the GraphQL name "old_ledger_v1" of table "ledger" of the source "archive" conflicts with table "old_ledger_v1"',
      code: 'already-exists',
    });
    expect(((await exported()).sources as { tables: unknown[] }[])[0]!.tables).toEqual([]);
    // A document with the clash: the source's table is left out, inconsistent.
    const v3 = (customization: unknown) => ({
      version: 3,
      sources: [
        { name: 'default', kind: 'postgres', tables: [{ table: { schema: 'public', name: 'old_ledger_v1' } }], configuration: connection() },
        { name: 'archive', kind: 'postgres', configuration: connection(), tables: [{ table: { schema: 'public', name: 'ledger' } }], customization },
      ],
    });
    const named = { root_fields: { namespace: 'books' }, type_names: { prefix: 'B_', suffix: '_z' } };
    expectResponse(await run('replace_metadata', { metadata: v3(named) }), 200, { is_consistent: true, inconsistent_objects: [] });
    const root = await target.graphql('{ __type(name: "query_root") { fields { name type { ofType { name } } } } }');
    expect((root.body as { data: { __type: { fields: unknown[] } } }).data.__type.fields).toContainEqual({
      name: 'books',
      type: { ofType: { name: 'B_books_query_z' } },
    });
    expect((await target.graphql('{ books { __typename ledger { __typename } } }')).body).toEqual({
      data: { books: { __typename: 'B_books_query_z', ledger: [] } },
    });
    expect(((await exported()).sources as { customization?: unknown }[])[0]!.customization).toEqual(named);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source'],
  'a type prefix or suffix that is not a GraphQL name is refused and nothing changes',
  async () => {
    const add = (customization: unknown) => run('pg_add_source', { name: 'archive', configuration: connection(), customization });
    expectResponse(await add({ type_names: { prefix: '1st_' } }), 400, {
      path: '$.args.customization.type_names.prefix',
      error: '"1st_" is not a GraphQL name',
      code: 'parse-failed',
    });
    expectResponse(await add({ type_names: { suffix: '-x' } }), 400, {
      path: '$.args.customization.type_names.suffix',
      error: '"-x" is not a GraphQL name',
      code: 'parse-failed',
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);
