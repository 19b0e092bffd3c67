// What a change takes as it was: it is refused for the inconsistent objects it brings, never for
// those the metadata already had (decision dec.inconsistency.report): a table dropped outside, a
// remote schema that stopped answering; and a remote schema stays as introspected until it is
// reloaded. allow_inconsistent_metadata keeps what a change brings, a source that does not answer
// included (rule replace_metadata.2). The remote servers are msw handlers on loopback.
import { HttpResponse, http } from 'msw';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { useTarget } from '../harness/target';

const target = useTarget();
const remote = useMockServer();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as { tables: unknown[] };
const t = (name: string) => ({ schema: 'chg', name });
const missingTable = (name: string) => ({
  type: 'table',
  name: `table chg.${name} in source default`,
  reason: `Inconsistent object: no such table/view exists in postgres : "chg.${name}"`,
  definition: `chg.${name}`,
});

beforeEach(async () => {
  await target.reset();
  await target.sql(`drop schema if exists chg cascade; create schema chg;
    create table chg.kept (id int primary key); create table chg.gone (id int primary key); create table chg.later (id int primary key);`);
  expectResponse(
    await run('bulk', [
      { type: 'track_table', args: { table: t('kept') } },
      { type: 'track_table', args: { table: t('gone') } },
    ]),
    200,
  );
});

test(
  covers(
    ['dec.inconsistency.report', 'op.track_table.v1', 'op.replace_metadata.v2', 'rule.replace_metadata.1'],
    'with a table dropped outside, other changes are accepted; replace_metadata is refused for every inconsistency of its document',
  ),
  async () => {
    await target.sql('drop table chg.gone');
    expectResponse(await run('reload_metadata', {}), 200, { ...ok, is_consistent: false, inconsistent_objects: [missingTable('gone')] });
    expectResponse(await run('track_table', { table: t('later') }), 200, ok);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [missingTable('gone')]);
    const document = await exported();
    expect(document).toEqual({ version: 2, tables: [{ table: t('gone') }, { table: t('kept') }, { table: t('later') }] });
    // replace_metadata stands for the whole document: refused for every inconsistency it has, as the engine refuses it.
    expectResponse(await run('replace_metadata', { ...document, tables: [...document.tables, { table: t('ghost') }] }), 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [missingTable('gone'), missingTable('ghost')],
    });
    expect(await exported()).toEqual(document);
  },
);

test(
  covers(
    ['dec.inconsistency.report', 'op.reload_metadata', 'op.track_table.v1', 'op.add_remote_schema'],
    'with a remote schema that stopped answering, other changes are accepted and the remote stays reported',
  ),
  async () => {
    remote.use(graphQLServer('/sky', 'type Query { sky: String }', { sky: () => 'clear' }));
    const url = `${remote.url}/sky`;
    expectResponse(await run('add_remote_schema', { name: 'sky', definition: { url } }), 200, ok);
    remote.use(http.post('/sky', () => new HttpResponse('down for maintenance', { status: 503 })));
    const skyRemote = {
      type: 'remote_schema',
      name: 'remote_schema sky',
      reason: 'Inconsistent object: the remote schema "sky" cannot be used: it answered 503 with a body that is not JSON',
      definition: { name: 'sky', definition: { url, forward_client_headers: false, timeout_seconds: 60 } },
    };
    expectResponse(await run('reload_metadata', { reload_remote_schemas: true }), 200, { ...ok, is_consistent: false, inconsistent_objects: [skyRemote] });
    expectResponse(await run('track_table', { table: t('later') }), 200, ok);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [skyRemote]);
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: t('gone') }, { table: t('kept') }, { table: t('later') }],
      remote_schemas: [{ name: 'sky', definition: { url, forward_client_headers: false, timeout_seconds: 60 } }],
    });
  },
);

test(
  covers(
    ['dec.source.connection-failure', 'op.replace_metadata.v2', 'rule.replace_metadata.2'],
    'allow_inconsistent_metadata keeps a source that does not answer, reported as the connection refusal reports it',
  ),
  async () => {
    // Nothing listens on port 1 of loopback.
    const lost = { name: 'lost', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://engine:pw@127.0.0.1:1/db' } }, tables: [] };
    const document = { version: 2, tables: [{ table: t('kept') }], sources: [lost] };
    const lostSource = {
      type: 'source',
      name: 'source lost',
      definition: 'lost',
      reason: 'Inconsistent object: connection error',
      message: 'could not connect to the database',
    };
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: document } }), 200, {
      is_consistent: false,
      inconsistent_objects: [lostSource],
    });
    expect(await exported()).toEqual(document);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [lostSource]);
    // Without it, the same document is refused and nothing changes.
    await target.reset();
    expectResponse(await run('replace_metadata', document), 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [lostSource],
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

test(
  covers(
    ['op.add_remote_schema', 'op.reload_remote_schema', 'op.track_table.v1'],
    'a change elsewhere keeps a remote schema as it was introspected: only a reload takes what the remote has now',
  ),
  async () => {
    remote.use(graphQLServer('/grows', 'type Query { one: Int }', { one: () => 1 }));
    expectResponse(await run('add_remote_schema', { name: 'grows', definition: { url: `${remote.url}/grows` } }), 200, ok);
    remote.use(graphQLServer('/grows', 'type Query { one: Int, two: Int }', { one: () => 1, two: () => 2 }));
    expectResponse(await run('track_table', { table: t('later') }), 200, ok);
    expectResponse(await target.graphql('{ two }'), 200, {
      errors: [{ message: 'Cannot query field "two" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expectResponse(await run('reload_remote_schema', { name: 'grows' }), 200, ok);
    expectResponse(await target.graphql('{ one two }'), 200, { data: { one: 1, two: 2 } });
  },
);
