// A source's customization (decision dec.source.customization): root field prefixes and suffixes,
// the namespace field its root fields move under, in the schema and in answers, kept in the export;
// names that are not GraphQL names and conventions the engine does not know are refused.
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
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop table if exists public.ledger');
  await target.sql('drop table if exists public.archive');
});

/** The names of a type's fields, sorted. */
async function rootFieldNames(root: string): Promise<string[]> {
  const answer = await target.graphql(`{ __type(name: "${root}") { fields { name } } }`);
  const fields = (answer.body as { data: { __type: { fields: { name: string }[] } } }).data.__type.fields;
  return fields.map((f) => f.name).sort();
}

async function ledgerSource(customization: unknown) {
  await second.sql('create table public.ledger (id serial primary key, amount int not null); insert into public.ledger (amount) values (5), (7)');
  expectResponse(await run('pg_add_source', { name: 'archive', configuration: connection(), customization }), 200, ok);
  expectResponse(await run('pg_track_table', { source: 'archive', table: 'ledger' }), 200, ok);
}

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source', 'op.pg_update_source', 'op.replace_metadata.v2', 'dec.metadata.older-forms'],
  "a source's root fields take its prefix and suffix, custom names too; the export keeps the customization as given, and replace_metadata takes it back",
  async () => {
    await ledgerSource({ root_fields: { prefix: 'old_', suffix: '_v1' }, naming_convention: 'hasura-default' });
    expect(await rootFieldNames('query_root')).toEqual(['old_ledger_aggregate_v1', 'old_ledger_by_pk_v1', 'old_ledger_v1']);
    expect(await rootFieldNames('mutation_root')).toEqual([
      'old_delete_ledger_by_pk_v1',
      'old_delete_ledger_v1',
      'old_insert_ledger_one_v1',
      'old_insert_ledger_v1',
      'old_update_ledger_by_pk_v1',
      'old_update_ledger_many_v1',
      'old_update_ledger_v1',
    ]);
    expect((await target.graphql('{ old_ledger_v1(order_by: {id: asc}) { amount } old_ledger_aggregate_v1 { aggregate { count } } }')).body).toEqual({
      data: { old_ledger_v1: [{ amount: 5 }, { amount: 7 }], old_ledger_aggregate_v1: { aggregate: { count: 2 } } },
    });
    expect((await target.graphql('mutation { old_insert_ledger_one_v1(object: {amount: 9}) { amount } }')).body).toEqual({
      data: { old_insert_ledger_one_v1: { amount: 9 } },
    });
    expect(await second.sql('select amount from public.ledger order by id')).toEqual([{ amount: 5 }, { amount: 7 }, { amount: 9 }]);
    expect((await exported()).sources).toEqual([
      {
        name: 'archive',
        kind: 'postgres',
        configuration: connection(),
        tables: [{ table: { schema: 'public', name: 'ledger' } }],
        customization: { root_fields: { prefix: 'old_', suffix: '_v1' }, naming_convention: 'hasura-default' },
      },
    ]);
    // A custom root field name is customized too; pg_update_source replaces the customization.
    expectResponse(
      await run('pg_set_table_customization', { source: 'archive', table: 'ledger', configuration: { custom_root_fields: { select: 'entries' } } }),
      200,
      ok,
    );
    expect(await rootFieldNames('query_root')).toEqual(['old_entries_v1', 'old_ledger_aggregate_v1', 'old_ledger_by_pk_v1']);
    expectResponse(await run('pg_update_source', { name: 'archive', customization: { root_fields: { suffix: '_x' } } }), 200, ok);
    expect(await rootFieldNames('query_root')).toEqual(['entries_x', 'ledger_aggregate_x', 'ledger_by_pk_x']);
    expect(((await exported()).sources as { customization?: unknown }[])[0]!.customization).toEqual({ root_fields: { suffix: '_x' } });
    // replace_metadata takes it in version 3 form too; the default source's description is kept as given (dec.metadata.default-source).
    const customization = { root_fields: { namespace: 'old', prefix: 'p_' }, naming_convention: 'hasura-default' };
    const v3 = {
      version: 3,
      sources: [
        { name: 'default', kind: 'postgres', configuration: connection(), tables: [], customization: { naming_convention: 'hasura-default' } },
        { name: 'archive', kind: 'postgres', configuration: connection(), tables: [{ table: { schema: 'public', name: 'ledger' } }], customization },
      ],
    };
    expectResponse(await run('replace_metadata', { metadata: v3 }), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await exported()).toEqual({
      version: 2,
      tables: [],
      default_source: { configuration: connection(), customization: { naming_convention: 'hasura-default' } },
      sources: [{ name: 'archive', kind: 'postgres', configuration: connection(), tables: [{ table: { schema: 'public', name: 'ledger' } }], customization }],
    });
    expect((await target.graphql('{ old { p_ledger_aggregate { aggregate { count } } } }')).body).toEqual({
      data: { old: { p_ledger_aggregate: { aggregate: { count: 3 } } } },
    });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source'],
  "with a namespace the source's root fields are under one non-null field of each root; queries and mutations through it answer under its alias",
  async () => {
    await ledgerSource({ root_fields: { namespace: 'archive' } });
    expect(await rootFieldNames('query_root')).toEqual(['archive']);
    const typeOf = async (root: string) =>
      (
        (await target.graphql(`{ __type(name: "${root}") { fields { name type { kind ofType { name kind } } } } }`)).body as {
          data: { __type: { fields: unknown[] } };
        }
      ).data.__type.fields;
    expect(await typeOf('query_root')).toEqual([{ name: 'archive', type: { kind: 'NON_NULL', ofType: { name: 'archive_query', kind: 'OBJECT' } } }]);
    expect(await typeOf('mutation_root')).toEqual([
      { name: 'archive', type: { kind: 'NON_NULL', ofType: { name: 'archive_mutation_frontend', kind: 'OBJECT' } } },
    ]);
    expect(await typeOf('subscription_root')).toEqual([
      { name: 'archive', type: { kind: 'NON_NULL', ofType: { name: 'archive_subscription', kind: 'OBJECT' } } },
    ]);
    expect(await rootFieldNames('archive_query')).toEqual(['ledger', 'ledger_aggregate', 'ledger_by_pk']);
    expect(await rootFieldNames('archive_subscription')).toEqual(['ledger', 'ledger_aggregate', 'ledger_by_pk', 'ledger_stream']);
    expect((await target.graphql('{ a: archive { __typename rows: ledger(order_by: {id: asc}) { amount } ledger_by_pk(id: 2) { amount } } }')).body).toEqual({
      data: { a: { __typename: 'archive_query', rows: [{ amount: 5 }, { amount: 7 }], ledger_by_pk: { amount: 7 } } },
    });
    const mutation = 'mutation { archive { __typename insert_ledger(objects: [{amount: 1}]) { affected_rows } gone: delete_ledger_by_pk(id: 1) { amount } } }';
    expect((await target.graphql(mutation)).body).toEqual({
      data: { archive: { __typename: 'archive_mutation_frontend', insert_ledger: { affected_rows: 1 }, gone: { amount: 5 } } },
    });
    expect(await second.sql('select amount from public.ledger order by id')).toEqual([{ amount: 7 }, { amount: 1 }]);
    // Outside the namespace the fields are unknown.
    expect((await target.graphql('{ ledger { amount } }')).body).toEqual({
      errors: [{ message: 'Cannot query field "ledger" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }],
    });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source', 'op.pg_update_source'],
  "a namespace is a root field: one another source's root field has is refused, and the names under it clash with none",
  async () => {
    await target.sql('create table public.archive (id int primary key)');
    expectResponse(await run('pg_track_table', { table: 'archive' }), 200, ok);
    // Under the namespace, ledger's root fields may be named as the server's own tables' are.
    await target.sql('create table public.entries (id int primary key)');
    try {
      expectResponse(await run('pg_track_table', { table: 'entries', configuration: { custom_root_fields: { select_by_pk: 'ledger_by_pk' } } }), 200, ok);
      await ledgerSource({ root_fields: { namespace: 'books' } });
      expect(await rootFieldNames('query_root')).toEqual([
        'archive',
        'archive_aggregate',
        'archive_by_pk',
        'books',
        'entries',
        'entries_aggregate',
        'ledger_by_pk',
      ]);
      expect((await target.graphql('{ ledger_by_pk(id: 2) { id } books { ledger_by_pk(id: 2) { amount } } }')).body).toEqual({
        data: { ledger_by_pk: null, books: { ledger_by_pk: { amount: 7 } } },
      });
      const clash = await run('pg_update_source', { name: 'archive', customization: { root_fields: { namespace: 'archive' } } });
      // As any change that leaves an object inconsistent: refused, with the object and why.
      expectResponse(clash, 400, {
        path: '$.args',
        error: 'cannot continue due to inconsistent metadata',
        code: 'unexpected',
        internal: [
          {
            type: 'table',
            name: 'table ledger in source archive',
            reason: 'Inconsistent object: the GraphQL name "archive" of the namespace of the source "archive" conflicts with table "archive"',
            definition: { schema: 'public', name: 'ledger' },
            source: 'archive',
          },
        ],
      });
      expect(((await exported()).sources as { customization?: unknown }[])[0]!.customization).toEqual({ root_fields: { namespace: 'books' } });
    } finally {
      await target.sql('drop table if exists public.entries');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source', 'op.pg_update_source'],
  'a customization with a name that is not a GraphQL name, or a naming convention the engine does not know, is refused and nothing changes',
  async () => {
    const add = (customization: unknown) => run('pg_add_source', { name: 'archive', configuration: connection(), customization });
    expectResponse(await add({ root_fields: { prefix: '1st_' } }), 400, {
      path: '$.args.customization.root_fields.prefix',
      error: '"1st_" is not a GraphQL name',
      code: 'parse-failed',
    });
    expectResponse(await add({ root_fields: { namespace: 'has space' } }), 400, {
      path: '$.args.customization.root_fields.namespace',
      error: '"has space" is not a GraphQL name',
      code: 'parse-failed',
    });
    expectResponse(await add({ naming_convention: 'kebab-case' }), 400, {
      path: '$.args.customization.naming_convention',
      error: 'naming_convention can either be "hasura-default" or "graphql-default"',
      code: 'parse-failed',
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
    expectResponse(await add({ root_fields: { prefix: 'old_' } }), 200, ok);
    expectResponse(await run('pg_update_source', { name: 'archive', customization: { root_fields: { suffix: '-x' } } }), 400, {
      path: '$.args.customization.root_fields.suffix',
      error: '"-x" is not a GraphQL name',
      code: 'parse-failed',
    });
    expectResponse(
      await run('replace_metadata', {
        version: 2,
        tables: [],
        sources: [{ name: 'archive', kind: 'postgres', configuration: connection(), tables: [], customization: { naming_convention: 'snake' } }],
      }),
      400,
      {
        path: '$.args.sources[0].customization.naming_convention',
        error: 'naming_convention can either be "hasura-default" or "graphql-default"',
        code: 'parse-failed',
      },
    );
    expect((await exported()).sources).toEqual([
      { name: 'archive', kind: 'postgres', configuration: connection(), tables: [], customization: { root_fields: { prefix: 'old_' } } },
    ]);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'op.pg_add_source', 'dec.graphql.subscriptions'],
  'a role reads through the namespace as its permission allows; a live subscription follows the rows under it, and so does a stream, alone under it',
  async () => {
    await ledgerSource({ root_fields: { namespace: 'books', prefix: 'b_' } });
    const permission = { columns: ['id', 'amount'], filter: { amount: { _gt: 6 } } };
    expectResponse(await run('pg_create_select_permission', { source: 'archive', table: 'ledger', role: 'clerk', permission }), 200, ok);
    const clerk = { headers: { ...target.adminHeaders(), 'x-engine-role': 'clerk' } };
    expect((await target.graphql('{ books { __typename b_ledger { amount } } }', undefined, clerk)).body).toEqual({
      data: { books: { __typename: 'books_query', b_ledger: [{ amount: 7 }] } },
    });
    // Without a mutation of its own, the role has no namespace field in mutation_root (nor a mutation_root).
    expect((await target.graphql('mutation { books { b_insert_ledger(objects: []) { affected_rows } } }', undefined, clerk)).body).toEqual({
      errors: [{ message: 'the schema is not configured for mutation operations', extensions: { path: '$', code: 'validation-failed' } }],
    });
    const socket = openSocket(target);
    try {
      const live = socket.start('subscription { books { __typename b_ledger(order_by: {id: asc}) { amount } } }');
      expect(await live.take()).toEqual({
        type: 'next',
        payload: { data: { books: { __typename: 'books_subscription', b_ledger: [{ amount: 5 }, { amount: 7 }] } } },
      });
      await second.sql('insert into public.ledger (amount) values (11)');
      expect(await live.take(10_000)).toEqual({
        type: 'next',
        payload: { data: { books: { __typename: 'books_subscription', b_ledger: [{ amount: 5 }, { amount: 7 }, { amount: 11 }] } } },
      });
      live.stop();
      // Batch by batch, under the namespace field's alias; the namespace's __typename beside it.
      const stream = socket.start('subscription { b: books { t: __typename s: b_ledger_stream(batch_size: 2, cursor: {initial_value: {id: 0}}) { amount } } }');
      expect(await stream.take()).toEqual({ type: 'next', payload: { data: { b: { t: 'books_subscription', s: [{ amount: 5 }, { amount: 7 }] } } } });
      expect(await stream.take()).toEqual({ type: 'next', payload: { data: { b: { t: 'books_subscription', s: [{ amount: 11 }] } } } });
      await second.sql('insert into public.ledger (amount) values (13)');
      expect(await stream.take(10_000)).toEqual({ type: 'next', payload: { data: { b: { t: 'books_subscription', s: [{ amount: 13 }] } } } });
      stream.stop();
      // A stream is the one field of its subscription, under a namespace too.
      const mixed = socket.start('subscription { books { b_ledger { id } b_ledger_stream(batch_size: 1, cursor: {initial_value: {id: 0}}) { amount } } }');
      expect(await mixed.take()).toEqual({
        type: 'error',
        errors: [{ message: 'exactly one root field is allowed for streaming subscriptions', extensions: { path: '$', code: 'not-supported' } }],
      });
    } finally {
      await socket.close();
    }
  },
);
