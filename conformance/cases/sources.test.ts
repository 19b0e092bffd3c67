// Sources besides the server's own database (decision dec.source.forms): pg_add_source,
// pg_update_source, rename_source and pg_drop_source, their place in the export and in
// replace_metadata, a source that cannot be reached, and run_sql on a source's database.
import { branded } from '../harness/brand';
import { caseNeeding } from '../harness/cases';
import { Client } from 'pg';
import { expectResponse } from '../harness/client';
import { makeDatabase, makesDatabases, REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';
import { openSocket } from '../harness/websocket';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const connection = (extra: Record<string, unknown> = {}) => ({ connection_info: { database_url: second.url, ...extra } });
const entry = (name: string, configuration: unknown) => ({ name, kind: 'postgres', configuration, tables: [] });
const defaultRefused = {
  path: '$.args',
  error: 'the source "default" is the server\'s own database: it cannot be added, dropped, renamed or changed',
  code: 'not-supported',
};
// Unreachable on every machine: nothing listens on port 1 of loopback.
const NOWHERE = 'postgres://engine:engine@127.0.0.1:1/nowhere';

afterEach(async () => {
  await target.reset();
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop table if exists public.ledger');
});

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  [
    'dec.source.forms',
    'op.pg_add_source',
    'op.pg_update_source',
    'op.rename_source',
    'op.pg_drop_source',
    'err.already-exists.source',
    'err.not-exists.source',
  ],
  'a source is added, its configuration replaced, renamed and dropped; the export lists it under sources in its form',
  async () => {
    const first = connection({ pool_settings: { max_connections: 5, idle_timeout: 30 } });
    expectResponse(await run('pg_add_source', { name: 'archive', configuration: first }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('archive', first)] });
    expectResponse(await run('pg_add_source', { name: 'archive', configuration: connection() }), 400, {
      path: '$.args',
      error: 'source with name "archive" already exists',
      code: 'already-exists',
    });
    // A second source: what is done to one leaves the other as it is.
    expectResponse(await run('pg_add_source', { name: 'annex', configuration: connection() }), 200, ok);
    const replaced = connection({ isolation_level: 'serializable' });
    expectResponse(await run('pg_add_source', { name: 'archive', configuration: replaced, replace_configuration: true }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('annex', connection()), entry('archive', replaced)] });
    expectResponse(await run('rename_source', { name: 'archive', new_name: 'vault' }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('annex', connection()), entry('vault', replaced)] });
    expectResponse(await run('rename_source', { name: 'vault', new_name: 'vault' }), 400, {
      path: '$.args',
      error: 'source with name "vault" already exists',
      code: 'already-exists',
    });
    // Without a configuration pg_update_source changes nothing.
    expectResponse(await run('pg_update_source', { name: 'vault' }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('annex', connection()), entry('vault', replaced)] });
    expectResponse(await run('rename_source', { name: 'archive', new_name: 'other' }), 400, {
      path: '$.args',
      error: 'source with name "archive" does not exist',
      code: 'not-exists',
    });
    const updated = connection({ use_prepared_statements: true });
    expectResponse(await run('pg_update_source', { name: 'vault', configuration: updated }), 200, ok);
    expectResponse(await run('rename_source', { name: 'annex', new_name: 'vault' }), 400, {
      path: '$.args',
      error: 'source with name "vault" already exists',
      code: 'already-exists',
    });
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('annex', connection()), entry('vault', updated)] });
    expectResponse(await run('pg_drop_source', { name: 'vault' }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('annex', connection())] });
    expectResponse(await run('pg_drop_source', { name: 'vault' }), 400, {
      path: '$.args',
      error: 'source with name "vault" does not exist',
      code: 'not-exists',
    });
    // clear_metadata leaves only the server's own database.
    await target.reset();
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'op.pg_drop_source', 'op.rename_source', 'op.pg_update_source', 'err.not-supported.default-source'],
  "the default source is the server's own database: it is not added, dropped, renamed or changed, nor listed under sources",
  async () => {
    expectResponse(await run('pg_add_source', { name: 'default', configuration: connection() }), 400, defaultRefused);
    expectResponse(await run('pg_drop_source', { name: 'default' }), 400, defaultRefused);
    expectResponse(await run('rename_source', { name: 'default', new_name: 'main' }), 400, defaultRefused);
    expectResponse(await run('pg_update_source', { name: 'default', configuration: connection() }), 400, defaultRefused);
    expectResponse(await run('pg_add_source', { name: 'archive', configuration: connection() }), 200, ok);
    expectResponse(await run('rename_source', { name: 'archive', new_name: 'default' }), 400, defaultRefused);
    expectResponse(await run('replace_metadata', { version: 2, tables: [], sources: [entry('default', connection())] }), 400, {
      path: '$.args.sources[0].name',
      error: 'the source "default" is the server\'s own database: it cannot be added, dropped, renamed or changed',
      code: 'not-supported',
    });
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('archive', connection())] });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'err.invalid-configuration.source-connection', 'op.pg_update_source'],
  'a source that cannot be reached is refused with the connection error, also in a bulk, and nothing changes',
  async () => {
    const refusal = await run('pg_add_source', { name: 'lost', configuration: { connection_info: { database_url: NOWHERE } } });
    expectResponse(refusal, 400, {
      path: '$.args',
      error: 'Inconsistent object: connection error',
      code: 'invalid-configuration',
      internal: [{ type: 'source', name: 'source lost', definition: 'lost', reason: 'Inconsistent object: connection error', message: expect.any(String) }],
    });
    // What the connection answered, never the address it was given with its password.
    const message = (refusal.body as { internal: { message: string }[] }).internal[0]!.message;
    expect(message).not.toBe('');
    expect(message).not.toContain('engine:engine');
    expectResponse(
      await run('pg_add_source', { name: 'lost', configuration: { connection_info: { database_url: { from_env: 'ENGINE_CONFORMANCE_NO_SUCH_URL' } } } }),
      400,
      {
        path: '$.args',
        error: 'Inconsistent object: connection error',
        code: 'invalid-configuration',
        internal: [
          {
            type: 'source',
            name: 'source lost',
            definition: 'lost',
            reason: 'Inconsistent object: connection error',
            message: 'environment variable "ENGINE_CONFORMANCE_NO_SUCH_URL" is not set',
          },
        ],
      },
    );
    expectResponse(await run('pg_add_source', { name: 'archive', configuration: connection() }), 200, ok);
    const bulk = await target.metadata({
      type: 'bulk',
      args: [
        { type: 'pg_update_source', args: { name: 'archive', configuration: { connection_info: { database_url: NOWHERE } } } },
        { type: 'pg_add_source', args: { name: 'annex', configuration: connection() } },
      ],
    });
    expect([bulk.status, (bulk.body as { code: string }).code]).toEqual([400, 'invalid-configuration']);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('archive', connection())] });
  },
);

caseNeeding(
  { met: makesDatabases, needs: 'a run that makes its own databases (a managed run)' },
  ['dec.source.forms', 'op.pg_add_source', 'op.get_inconsistent_metadata', 'op.drop_inconsistent_metadata', 'op.replace_metadata.v2'],
  'a source whose database goes away is an inconsistent object; the rest is served; drop_inconsistent_metadata drops it; replace_metadata refuses it unless allowed',
  async () => {
    const doomed = await makeDatabase();
    expectResponse(await run('pg_add_source', { name: 'doomed', configuration: { connection_info: { database_url: doomed.url } } }), 200, ok);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    // The server's pool holds connections to it: the drop ends them.
    await doomed.drop();
    const object = {
      type: 'source',
      name: 'source doomed',
      definition: 'doomed',
      reason: 'Inconsistent object: connection error',
      message: expect.any(String),
    };
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [object]);
    expect((await target.graphql('{ __typename }')).body).toEqual({ data: { __typename: 'query_root' } });
    // Only what a change connects anew must answer: another source can be added meanwhile.
    expectResponse(await run('pg_add_source', { name: 'spare', configuration: connection() }), 200, ok);
    expectResponse(await run('pg_drop_source', { name: 'spare' }), 200, ok);
    const withDoomed = await exported();
    expectResponse(await run('replace_metadata', { metadata: withDoomed }), 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [object],
    });
    expectResponse(await run('replace_metadata', { metadata: withDoomed, allow_inconsistent_metadata: true }), 200, {
      is_consistent: false,
      inconsistent_objects: [object],
    });
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'op.replace_metadata.v2', 'dec.metadata.older-forms'],
  'replace_metadata takes sources in version 2 form and version 3 form; the export gives them back in version 2 form',
  async () => {
    expectResponse(await run('replace_metadata', { version: 2, tables: [], sources: [entry('archive', connection())] }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('archive', connection())] });
    const v3 = {
      version: 3,
      sources: [
        { name: 'ledger', kind: 'postgres', configuration: connection({ isolation_level: 'repeatable-read' }), tables: [] },
        { name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' } } }, tables: [] },
      ],
    };
    expectResponse(await run('replace_metadata', { metadata: v3 }), 200, { is_consistent: true, inconsistent_objects: [] });
    // The default source's configuration is kept (decision dec.metadata.default-source).
    expect(await exported()).toEqual({
      version: 2,
      tables: [],
      default_source: { configuration: { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' } } } },
      sources: [entry('ledger', connection({ isolation_level: 'repeatable-read' }))],
    });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'op.run_sql', 'dec.metadata.source-prefixed', 'err.not-exists.source'],
  "run_sql with a source runs on that source's database, committed with the request; a source that is none is refused",
  async () => {
    expectResponse(await run('pg_add_source', { name: 'archive', configuration: connection() }), 200, ok);
    const sql = (text: string, extra: Record<string, unknown> = {}) =>
      target.metadata({ type: 'run_sql', args: { source: 'archive', sql: text, ...extra } }, { endpoint: '/v2/query' });
    expectResponse(await sql("create table public.ledger (id int primary key, note text); insert into public.ledger values (1, 'kept')"), 200, {
      result_type: 'CommandOk',
      result: null,
    });
    expect(await second.sql('select id, note from public.ledger')).toEqual([{ id: 1, note: 'kept' }]);
    expect(await target.sql("select to_regclass('public.ledger') is null as absent")).toEqual([{ absent: true }]);
    expectResponse(await sql('select note from public.ledger'), 200, { result_type: 'TuplesOk', result: [['note'], ['kept']] });
    // read_only: a change is refused by PostgreSQL.
    const readOnly = await sql("insert into public.ledger values (2, 'no')", { read_only: true });
    expect([readOnly.status, (readOnly.body as { code: string }).code]).toEqual([400, 'postgres-error']);
    // A bulk that fails after the source's SQL leaves the source's database unchanged.
    const bulk = await target.metadata(
      {
        type: 'bulk',
        args: [
          { type: 'run_sql', args: { source: 'archive', sql: "insert into public.ledger values (3, 'rolled back')" } },
          { type: 'run_sql', args: { sql: 'select * from no_such_table_anywhere' } },
        ],
      },
      { endpoint: '/v2/query' },
    );
    expect(bulk.status).toBe(400);
    expect(await second.sql('select id from public.ledger order by id')).toEqual([{ id: 1 }]);
    expectResponse(await run('pg_track_table', { source: 'vault', table: 'ledger' }), 400, {
      path: '$.args',
      error: 'source with name "vault" does not exist',
      code: 'not-exists',
    });
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('archive', connection())] });
  },
);

/** Tables of the second database: a ledger of accounts and their entries. */
const LEDGER_SQL = `
  create table public.account (id int primary key, owner text not null);
  create table public.entry (id int primary key, account_id int not null references public.account (id), amount int not null);
  insert into public.account values (1, 'ada'), (2, 'bob');
  insert into public.entry values (10, 1, 5), (11, 1, 7), (12, 2, 3);
  create view public.stamp as select statement_timestamp()::text as at;
  create function public.rich_accounts() returns setof public.account as $$ select * from public.account where id > 1 $$ language sql stable;
`;
const DROP_LEDGER_SQL = 'drop function if exists public.rich_accounts(); drop view if exists public.stamp; drop table if exists public.entry, public.account';

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  [
    'dec.source.forms',
    'op.pg_add_source',
    'dec.metadata.source-prefixed',
    'op.track_table.v2',
    'op.create_object_relationship',
    'op.create_array_relationship',
    'op.create_select_permission',
    'op.untrack_table',
  ],
  "tables of a source are tracked with their source, with relationships and permissions; the export lists them under it; GraphQL answers them from the source's database beside the server's own",
  async () => {
    await second.sql(LEDGER_SQL);
    await target.sql('create table public.plain_local (id int primary key); insert into public.plain_local values (42)');
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      const steps: [string, unknown][] = [
        ['pg_track_table', { source: 'books', table: 'account' }],
        ['pg_track_table', { source: 'books', table: { schema: 'public', name: 'entry' } }],
        ['pg_create_object_relationship', { source: 'books', table: 'entry', name: 'account', using: { foreign_key_constraint_on: 'account_id' } }],
        [
          'pg_create_array_relationship',
          { source: 'books', table: 'account', name: 'entries', using: { foreign_key_constraint_on: { table: 'entry', column: 'account_id' } } },
        ],
        [
          'pg_create_select_permission',
          { source: 'books', table: 'account', role: 'owner', permission: { columns: ['id', 'owner'], filter: { owner: { _eq: 'X-Engine-User-Id' } } } },
        ],
        ['pg_track_table', { table: 'plain_local' }],
        ['pg_track_function', { source: 'books', function: 'rich_accounts' }],
      ];
      for (const [type, args] of steps) expectResponse(await run(type, args), 200, ok);
      expect(await exported()).toEqual(
        branded({
          version: 2,
          tables: [{ table: { schema: 'public', name: 'plain_local' } }],
          sources: [
            {
              name: 'books',
              kind: 'postgres',
              configuration: connection(),
              tables: [
                {
                  table: { schema: 'public', name: 'account' },
                  array_relationships: [
                    { name: 'entries', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'entry' }, column: 'account_id' } } },
                  ],
                  select_permissions: [{ role: 'owner', permission: { columns: ['id', 'owner'], filter: { owner: { _eq: 'X-Engine-User-Id' } } } }],
                },
                {
                  table: { schema: 'public', name: 'entry' },
                  object_relationships: [{ name: 'account', using: { foreign_key_constraint_on: 'account_id' } }],
                },
              ],
              functions: [{ function: { schema: 'public', name: 'rich_accounts' } }],
            },
          ],
        }),
      );
      const answer = await target.graphql(
        '{ plain_local { id } account(order_by: {id: asc}) { owner entries(order_by: {id: asc}) { amount } } entry_by_pk(id: 12) { account { owner } } rich_accounts { owner } }',
      );
      expect(answer.body).toEqual({
        data: {
          plain_local: [{ id: 42 }],
          account: [
            { owner: 'ada', entries: [{ amount: 5 }, { amount: 7 }] },
            { owner: 'bob', entries: [{ amount: 3 }] },
          ],
          entry_by_pk: { account: { owner: 'bob' } },
          rich_accounts: [{ owner: 'bob' }],
        },
      });
      const asOwner = await target.graphql('{ account { id owner } }', undefined, {
        headers: { ...target.adminHeaders(), 'x-engine-role': 'owner', 'x-engine-user-id': 'bob' },
      });
      expect(asOwner.body).toEqual({ data: { account: [{ id: 2, owner: 'bob' }] } });
      // The source's table is untracked with its source; the server's own is not touched.
      expectResponse(await run('pg_untrack_table', { source: 'books', table: 'entry', cascade: true }), 200, ok);
      expect(((await exported()).sources as { tables: unknown[] }[])[0]!.tables).toHaveLength(1);
      expect((await target.graphql('{ plain_local { id } }')).body).toEqual({ data: { plain_local: [{ id: 42 }] } });
    } finally {
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
      await target.sql('drop table if exists public.plain_local');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'err.already-exists.graphql-name', 'op.track_table.v2'],
  'root fields of two sources may not share a name; one statement answers all root fields of a source; a mutation runs on its source, and one across two sources is refused',
  async () => {
    await second.sql(LEDGER_SQL);
    await target.sql(
      'create table public.account (id int primary key, owner text); insert into public.account values (9, $$local$$); create view public.stamp as select statement_timestamp()::text as at',
    );
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      expectResponse(await run('pg_track_table', { table: 'account' }), 200, ok);
      const before = await exported();
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 400, {
        path: '$.args',
        error: 'the GraphQL name "account" of table "account" of the source "books" conflicts with table "account"',
        code: 'already-exists',
      });
      expect(await exported()).toEqual(before);
      // A custom name keeps them apart.
      const custom = { custom_name: 'books_account', custom_root_fields: {}, column_config: {} };
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account', configuration: custom }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'stamp', configuration: { custom_name: 'books_stamp' } }), 200, ok);
      expectResponse(await run('pg_track_table', { table: 'stamp' }), 200, ok);
      const answer = (
        await target.graphql(
          '{ account { owner } books_account(order_by: {id: asc}) { owner } first: books_stamp { at } second: books_stamp { at } stamp { at } }',
        )
      ).body as { data: { first: { at: string }[]; second: { at: string }[]; stamp: { at: string }[] } };
      expect({ ...answer.data, first: undefined, second: undefined, stamp: undefined }).toEqual({
        account: [{ owner: 'local' }],
        books_account: [{ owner: 'ada' }, { owner: 'bob' }],
        first: undefined,
        second: undefined,
        stamp: undefined,
      });
      // Both root fields of the source were read by one statement: one statement time.
      expect(answer.data.first[0]!.at).toBe(answer.data.second[0]!.at);
      expect(answer.data.stamp).toHaveLength(1);
      expectResponse(await target.graphql('mutation { insert_books_account_one(object: {id: 3, owner: "cy"}) { id owner } }'), 200, {
        data: { insert_books_account_one: { id: 3, owner: 'cy' } },
      });
      expect(await second.sql('select owner from public.account where id = 3')).toEqual([{ owner: 'cy' }]);
      expect(await target.sql('select count(*)::int as n from public.account')).toEqual([{ n: 1 }]);
      const across = await target.graphql(
        'mutation { insert_books_account_one(object: {id: 4, owner: "di"}) { id } insert_account_one(object: {id: 4, owner: "di"}) { id } }',
      );
      expect(across.body).toEqual({
        errors: [{ message: 'mutations on tables of more than one source in one request are not supported', extensions: { path: '$', code: 'not-supported' } }],
      });
      expect(await second.sql('select count(*)::int as n from public.account where id = 4')).toEqual([{ n: 0 }]);
    } finally {
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
      await target.sql('drop view if exists public.stamp; drop table if exists public.account');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  [
    'dec.source.forms',
    'op.pg_add_source',
    'op.replace_metadata.v2',
    'op.get_inconsistent_metadata',
    'op.drop_inconsistent_metadata',
    'dec.metadata.older-forms',
  ],
  "replace_metadata takes a source's tables in version 3 form; one its database lacks is an inconsistent table of that source, dropped by drop_inconsistent_metadata",
  async () => {
    await second.sql(LEDGER_SQL);
    try {
      const account = {
        table: { schema: 'public', name: 'account' },
        configuration: { custom_name: 'ledger_account', custom_root_fields: {}, column_config: {} },
      };
      const ghost = { table: { schema: 'public', name: 'ghost' } };
      // The export leaves out the empty parts of a configuration.
      const accountExported = { table: account.table, configuration: { custom_name: 'ledger_account' } };
      const v3 = (tables: unknown[]) => ({ version: 3, sources: [{ name: 'books', kind: 'postgres', configuration: connection(), tables }] });
      expectResponse(await run('replace_metadata', { metadata: v3([account]) }), 200, { is_consistent: true, inconsistent_objects: [] });
      expect(await exported()).toEqual({ version: 2, tables: [], sources: [{ ...entry('books', connection()), tables: [accountExported] }] });
      expect((await target.graphql('{ ledger_account(order_by: {id: asc}) { owner } }')).body).toEqual({
        data: { ledger_account: [{ owner: 'ada' }, { owner: 'bob' }] },
      });
      const missing = {
        type: 'table',
        name: 'table ghost in source books',
        reason: 'Inconsistent object: no such table/view exists in postgres : "ghost"',
        definition: 'ghost',
        source: 'books',
      };
      expectResponse(await run('replace_metadata', { metadata: v3([account, ghost]) }), 400, {
        path: '$.args',
        error: 'cannot continue due to inconsistent metadata',
        code: 'unexpected',
        internal: [missing],
      });
      expectResponse(await run('replace_metadata', { metadata: v3([account, ghost]), allow_inconsistent_metadata: true }), 200, {
        is_consistent: false,
        inconsistent_objects: [missing],
      });
      expectResponse(await run('get_inconsistent_metadata', {}), 200, [missing]);
      expect((await target.graphql('{ ledger_account(where: {id: {_eq: 2}}) { owner } }')).body).toEqual({ data: { ledger_account: [{ owner: 'bob' }] } });
      expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
      expect(await exported()).toEqual({ version: 2, tables: [], sources: [{ ...entry('books', connection()), tables: [accountExported] }] });
    } finally {
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'dec.graphql.subscriptions'],
  "subscriptions to two different queries of a source's tables each follow their own rows",
  async () => {
    await second.sql(LEDGER_SQL);
    const socket = openSocket(target);
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'entry' }), 200, ok);
      const accounts = socket.start('subscription { account(order_by: {id: asc}) { owner } }');
      const entries = socket.start('subscription { entry(where: {amount: {_gt: 4}}, order_by: {id: asc}) { id } }');
      expect(await accounts.take()).toEqual({ type: 'next', payload: { data: { account: [{ owner: 'ada' }, { owner: 'bob' }] } } });
      expect(await entries.take()).toEqual({ type: 'next', payload: { data: { entry: [{ id: 10 }, { id: 11 }] } } });
      await second.sql("insert into public.account values (3, 'cy')");
      expect(await accounts.take(10_000)).toEqual({ type: 'next', payload: { data: { account: [{ owner: 'ada' }, { owner: 'bob' }, { owner: 'cy' }] } } });
      await second.sql('insert into public.entry values (13, 3, 9), (14, 3, 1)');
      expect(await entries.take(10_000)).toEqual({ type: 'next', payload: { data: { entry: [{ id: 10 }, { id: 11 }, { id: 13 }] } } });
      // Each got its own rows only, never the other's.
      expect([...(await accounts.drain(1_500)), ...(await entries.drain(0))]).toEqual([]);
      accounts.stop();
      entries.stop();
    } finally {
      await socket.close();
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'dec.graphql.subscriptions', 'rule.perm.select.filter'],
  "a role's subscriptions to a source's table follow each session's permission, as its rows change",
  async () => {
    await second.sql(LEDGER_SQL);
    const holder = (owner: string) => openSocket(target, { ...target.adminHeaders(), 'x-engine-role': 'holder', 'x-engine-user-id': owner });
    const [ada, bob] = [holder('ada'), holder('bob')];
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 200, ok);
      expectResponse(
        await run('pg_create_select_permission', {
          source: 'books',
          table: 'account',
          role: 'holder',
          permission: { columns: ['id', 'owner'], filter: { owner: { _eq: 'X-Engine-User-Id' } } },
        }),
        200,
        ok,
      );
      const document = 'subscription { account(order_by: {id: asc}) { id owner } }';
      const [mine, theirs] = [ada.start(document), bob.start(document)];
      expect([await mine.take(), await theirs.take()]).toEqual([
        { type: 'next', payload: { data: { account: [{ id: 1, owner: 'ada' }] } } },
        { type: 'next', payload: { data: { account: [{ id: 2, owner: 'bob' }] } } },
      ]);
      await second.sql("insert into public.account values (3, 'bob')");
      expect(await theirs.take(10_000)).toEqual({
        type: 'next',
        payload: {
          data: {
            account: [
              { id: 2, owner: 'bob' },
              { id: 3, owner: 'bob' },
            ],
          },
        },
      });
      // Ada's rows did not change: nothing is sent to her.
      expect(await mine.drain(1_500)).toEqual([]);
      mine.stop();
      theirs.stop();
    } finally {
      await Promise.all([ada.close(), bob.close()]);
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'op.replace_metadata.v2'],
  "a source's table keeps the server's rules: a missing table, an unknown relationship column and clashing names are refused with their paths",
  async () => {
    await second.sql(LEDGER_SQL);
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'nowhere' }), 400, {
        path: '$.args',
        error: 'no such table/view exists in postgres : "nowhere"',
        code: 'not-exists',
      });
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 400, {
        path: '$.args',
        error: 'view/table already tracked : "account"',
        code: 'already-tracked',
      });
      const twice = { name: 'books', kind: 'postgres', configuration: connection(), tables: [{ table: { schema: 'public', name: 'account' } }] };
      const other = { ...twice, name: 'annex' };
      expectResponse(await run('replace_metadata', { version: 2, tables: [], sources: [twice, other] }), 400, {
        path: '$.args',
        error: 'the GraphQL name "account" of table "account" of the source "annex" conflicts with table "account" of the source "books"',
        code: 'already-exists',
      });
      expect(((await exported()).sources as unknown[]).length).toBe(1);
    } finally {
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
    }
  },
);

caseNeeding(
  { met: makesDatabases, needs: 'a run that makes its own databases (a managed run)' },
  ['dec.source.forms', 'op.pg_add_source', 'dec.graphql.subscriptions'],
  "with read_replicas a source's queries and subscriptions read a replica, its mutations write the primary",
  async () => {
    // The "replica" is another database with the same tables and other rows: what is read tells where.
    const replica = await makeDatabase();
    const onReplica = new Client({ connectionString: replica.url });
    await onReplica.connect();
    await second.sql(LEDGER_SQL);
    await onReplica.query(LEDGER_SQL);
    await onReplica.query("update public.account set owner = owner || ' (replica)'");
    const socket = openSocket(target);
    try {
      const configuration = { connection_info: { database_url: second.url }, read_replicas: [{ database_url: replica.url }] };
      expectResponse(await run('pg_add_source', { name: 'books', configuration }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 200, ok);
      expect((await exported()).sources).toEqual([
        { name: 'books', kind: 'postgres', configuration, tables: [{ table: { schema: 'public', name: 'account' } }] },
      ]);
      expect((await target.graphql('{ account(order_by: {id: asc}) { owner } }')).body).toEqual({
        data: { account: [{ owner: 'ada (replica)' }, { owner: 'bob (replica)' }] },
      });
      expect((await target.graphql('mutation { insert_account_one(object: {id: 3, owner: "cy"}) { owner } }')).body).toEqual({
        data: { insert_account_one: { owner: 'cy' } },
      });
      expect(await second.sql('select owner from public.account where id = 3')).toEqual([{ owner: 'cy' }]);
      expect((await onReplica.query('select count(*)::int as n from public.account where id = 3')).rows).toEqual([{ n: 0 }]);
      const live = socket.start('subscription { account_aggregate { aggregate { count } } }');
      expect(await live.take()).toEqual({ type: 'next', payload: { data: { account_aggregate: { aggregate: { count: 2 } } } } });
      live.stop();
    } finally {
      await socket.close();
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
      await onReplica.end();
      await replica.drop();
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'op.run_sql', 'op.bulk'],
  'a table made by run_sql and tracked in one bulk of a source with a single connection: the tracking sees the table the bulk made',
  async () => {
    try {
      const single = connection({ pool_settings: { max_connections: 1 } });
      expectResponse(await run('pg_add_source', { name: 'narrow', configuration: single }), 200, ok);
      const made = "create table public.ledger (id int primary key, note text); insert into public.ledger values (1, 'kept')";
      const bulk = await target.metadata(
        {
          type: 'bulk',
          args: [
            { type: 'run_sql', args: { source: 'narrow', sql: made } },
            { type: 'track_table', args: { source: 'narrow', table: 'ledger' } },
          ],
        },
        { endpoint: '/v1/query' },
      );
      expectResponse(bulk, 200, [{ result_type: 'CommandOk', result: null }, ok]);
      expect((await target.graphql('{ ledger { id note } }')).body).toEqual({ data: { ledger: [{ id: 1, note: 'kept' }] } });
      // A document bringing such a source with its table: its single connection is not waited for twice.
      const narrow = { name: 'narrow', kind: 'postgres', configuration: single, tables: [{ table: { schema: 'public', name: 'ledger' } }] };
      expectResponse(await run('replace_metadata', { version: 2, tables: [], sources: [{ ...narrow, name: 'narrower' }] }), 200, ok);
      expect((await exported()).sources).toEqual([{ ...narrow, name: 'narrower' }]);
    } finally {
      await target.reset();
      await second.sql('drop table if exists public.ledger');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.pg_add_source', 'op.set_table_customization'],
  "a custom name of the server's own table that a source's table has in GraphQL is refused with the clash, changing nothing",
  async () => {
    await second.sql(LEDGER_SQL);
    await target.sql('create table public.ledger_old (id int primary key)');
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 200, ok);
      expectResponse(await run('pg_track_table', { table: 'ledger_old' }), 200, ok);
      const before = await exported();
      const renamed = await run('set_table_customization', { table: 'ledger_old', configuration: { custom_name: 'account' } });
      expectResponse(renamed, 400, {
        path: '$.args',
        error: 'cannot continue due to inconsistent metadata',
        code: 'unexpected',
        internal: [
          {
            type: 'table',
            name: 'table account in source books',
            reason: 'Inconsistent object: the GraphQL name "account" of table "account" of the source "books" conflicts with table "ledger_old"',
            definition: { schema: 'public', name: 'account' },
            source: 'books',
          },
        ],
      });
      expect(await exported()).toEqual(before);
    } finally {
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
      await target.sql('drop table if exists public.ledger_old');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.select', 'op.insert', 'op.count', 'dec.dml.roles'],
  "the legacy DML takes a source: admin's and a role's (under its permissions) run on that source's database; one request over two sources is refused for a role",
  async () => {
    await second.sql(LEDGER_SQL);
    await target.sql('create table public.plain_local (id int primary key); insert into public.plain_local values (42)');
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account' }), 200, ok);
      expectResponse(await run('pg_track_table', { table: 'plain_local' }), 200, ok);
      const own = { owner: { _eq: 'X-Engine-User-Id' } };
      expectResponse(
        await run('pg_create_select_permission', { source: 'books', table: 'account', role: 'owner', permission: { columns: ['id', 'owner'], filter: own } }),
        200,
        ok,
      );
      const dml = (type: string, args: Record<string, unknown>, headers = target.adminHeaders()) =>
        target.metadata({ type, args }, { endpoint: '/v2/query', headers });
      expectResponse(await dml('insert', { source: 'books', table: 'account', objects: [{ id: 3, owner: 'bob' }], returning: ['id'] }), 200, {
        affected_rows: 1,
        returning: [{ id: 3 }],
      });
      expect(await second.sql('select owner from public.account where id = 3')).toEqual([{ owner: 'bob' }]);
      expectResponse(await dml('select', { source: 'books', table: 'account', columns: ['id', 'owner'], order_by: 'id' }), 200, [
        { id: 1, owner: 'ada' },
        { id: 2, owner: 'bob' },
        { id: 3, owner: 'bob' },
      ]);
      const asBob = { ...target.adminHeaders(), 'x-engine-role': 'owner', 'x-engine-user-id': 'bob' };
      expectResponse(await dml('count', { source: 'books', table: 'account' }, asBob), 200, { count: 2 });
      expectResponse(await dml('select', { source: 'books', table: 'account', columns: ['id'], order_by: 'id' }, asBob), 200, [{ id: 2 }, { id: 3 }]);
      // Without a source, the server's own table of that name: none is tracked.
      expectResponse(await dml('count', { table: 'account' }, asBob), 400, {
        path: '$.args.table',
        error: 'table "account" does not exist',
        code: 'not-exists',
      });
      expectResponse(
        await target.metadata(
          {
            type: 'bulk',
            args: [
              { type: 'count', args: { source: 'books', table: 'account' } },
              { type: 'count', args: { table: 'plain_local' } },
            ],
          },
          { endpoint: '/v1/query', headers: asBob },
        ),
        400,
        { path: '$.args', error: 'legacy DML on tables of more than one source in one request is not supported by this server yet', code: 'not-supported' },
      );
      expectResponse(await dml('count', { source: 'nowhere', table: 'account' }, asBob), 400, {
        path: '$.args',
        error: 'source with name "nowhere" does not exist',
        code: 'not-exists',
      });
    } finally {
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
      await target.sql('drop table if exists public.plain_local');
    }
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.forms', 'op.track_function.v2', 'err.already-exists.graphql-name'],
  "a function of a source whose root field another source's table has is refused with the clash, by track_function and by replace_metadata",
  async () => {
    await second.sql(LEDGER_SQL);
    await target.sql('create table public.rich_accounts (id int primary key)');
    try {
      expectResponse(await run('pg_add_source', { name: 'books', configuration: connection() }), 200, ok);
      expectResponse(await run('pg_track_table', { source: 'books', table: 'account', configuration: { custom_name: 'books_account' } }), 200, ok);
      expectResponse(await run('pg_track_table', { table: 'rich_accounts' }), 200, ok);
      const before = await exported();
      expectResponse(await run('pg_track_function', { source: 'books', function: 'rich_accounts' }), 400, {
        path: '$.args',
        error: 'the GraphQL name "rich_accounts" of function "rich_accounts" of the source "books" conflicts with table "rich_accounts"',
        code: 'already-exists',
      });
      expect(await exported()).toEqual(before);
      const sources = (before.sources as Record<string, unknown>[]).map((s) => ({
        ...s,
        functions: [{ function: { schema: 'public', name: 'rich_accounts' } }],
      }));
      // A document with it is refused the same way, also when inconsistencies are allowed: names are checked before.
      expectResponse(await run('replace_metadata', { metadata: { ...before, sources }, allow_inconsistent_metadata: true }), 400, {
        path: '$.args',
        error: 'the GraphQL name "rich_accounts" of function "rich_accounts" of the source "books" conflicts with table "rich_accounts"',
        code: 'already-exists',
      });
      expect(await exported()).toEqual(before);
      // The server's own table is served; the function is not.
      expect((await target.graphql('{ rich_accounts { id } }')).body).toEqual({ data: { rich_accounts: [] } });
    } finally {
      await target.reset();
      await second.sql(DROP_LEDGER_SQL);
      await target.sql('drop table if exists public.rich_accounts');
    }
  },
);
