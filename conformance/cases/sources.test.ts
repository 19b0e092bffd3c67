// Sources besides the server's own database (decision dec.source.forms): pg_add_source,
// pg_update_source, rename_source and pg_drop_source, their place in the export and in
// replace_metadata, a source that cannot be reached, and run_sql on a source's database.
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { makeDatabase, makesDatabases, REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

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
    const replaced = connection({ isolation_level: 'serializable' });
    expectResponse(await run('pg_add_source', { name: 'archive', configuration: replaced, replace_configuration: true }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('archive', replaced)] });
    expectResponse(await run('rename_source', { name: 'archive', new_name: 'vault' }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('vault', replaced)] });
    expectResponse(await run('rename_source', { name: 'archive', new_name: 'other' }), 400, {
      path: '$.args',
      error: 'source with name "archive" does not exist',
      code: 'not-exists',
    });
    const updated = connection({ use_prepared_statements: true });
    expectResponse(await run('pg_update_source', { name: 'vault', configuration: updated }), 200, ok);
    expectResponse(await run('pg_add_source', { name: 'annex', configuration: connection() }), 200, ok);
    expectResponse(await run('rename_source', { name: 'annex', new_name: 'vault' }), 400, {
      path: '$.args',
      error: 'source with name "vault" already exists',
      code: 'already-exists',
    });
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('vault', updated), entry('annex', connection())] });
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
    expect(await exported()).toEqual({ version: 2, tables: [], sources: [entry('ledger', connection({ isolation_level: 'repeatable-read' }))] });
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
