// Event triggers on tables of other sources (decision dec.source.forms): created with their
// source, exported under it, capturing the source's changes with the session that made them and
// delivered like any other event; their logs, manual invocation and deletion take the source too.
import { branded } from '../harness/brand';
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';
import { startWebhook, type Webhook } from '../harness/webhook';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const ticket = { schema: 'public', name: 'ticket' };
let hook: Webhook;

beforeAll(async () => {
  hook = await startWebhook();
});
afterAll(async () => {
  await hook.close();
});
beforeEach(async () => {
  await target.reset();
  if (!REQUIRES_SOURCE_DATABASE.met) return;
  await second.sql('drop table if exists public.ticket; create table public.ticket (id int primary key, note text, owner text)');
  expectResponse(await run('pg_add_source', { name: 'desk', configuration: { connection_info: { database_url: second.url } } }), 200, ok);
  expectResponse(await run('pg_track_table', { source: 'desk', table: 'ticket' }), 200, ok);
});
afterEach(async () => {
  await target.reset();
});

/** The triggers PostgreSQL has on the source's table. */
const databaseTriggers = async () =>
  (await second.sql("select tgname from pg_trigger where tgrelid = 'public.ticket'::regclass and not tgisinternal order by tgname")).map((r) => r.tgname);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  [
    'dec.source.forms',
    'op.create_event_trigger',
    'rule.events.1',
    'dec.events.payload',
    'op.get_event_logs',
    'op.invoke_event_trigger',
    'op.delete_event_trigger',
  ],
  "an event trigger on a source's table: its changes, made in GraphQL and by run_sql on the source, reach the webhook with the session; logs, manual invocation and deletion take the source",
  async () => {
    const definition = {
      name: 'desk_tickets',
      source: 'desk',
      table: 'ticket',
      webhook: `${hook.url}/tickets`,
      insert: { columns: '*' },
      update: { columns: ['note'] },
      delete: { columns: '*' },
      enable_manual: true,
    };
    expectResponse(await run('pg_create_event_trigger', definition), 200, ok);
    expect(await databaseTriggers()).toEqual(['engine_evt_desk_tickets_delete', 'engine_evt_desk_tickets_insert', 'engine_evt_desk_tickets_update']);
    const exported = (await run('export_metadata', {})).body as { sources: { tables: { event_triggers?: { name: string }[] }[] }[] };
    expect(exported.sources[0]!.tables[0]!.event_triggers!.map((t) => t.name)).toEqual(['desk_tickets']);
    // One namespace of names over the sources.
    await target.sql('create table if not exists public.local_ticket (id int primary key)');
    expectResponse(await run('pg_track_table', { table: 'local_ticket' }), 200, ok);
    expectResponse(await run('create_event_trigger', { ...definition, source: undefined, table: 'local_ticket' }), 400, {
      path: '$.args',
      error: 'event trigger with name "desk_tickets" already exists',
      code: 'already-exists',
    });
    expectResponse(
      await run('pg_create_insert_permission', {
        source: 'desk',
        table: 'ticket',
        role: 'clerk',
        permission: { columns: ['id', 'note'], check: {}, set: { owner: 'X-Engine-User-Id' } },
      }),
      200,
      ok,
    );
    expectResponse(
      await run('pg_create_select_permission', { source: 'desk', table: 'ticket', role: 'clerk', permission: { columns: ['id'], filter: {} } }),
      200,
      ok,
    );
    const asClerk = { ...target.adminHeaders(), 'x-engine-role': 'clerk', 'x-engine-user-id': 'kim' };
    expect((await target.graphql('mutation { insert_ticket_one(object: {id: 1, note: "jammed"}) { id } }', undefined, { headers: asClerk })).body).toEqual({
      data: { insert_ticket_one: { id: 1 } },
    });
    const sql = (text: string) => target.metadata({ type: 'run_sql', args: { source: 'desk', sql: text } }, { endpoint: '/v2/query' });
    expectResponse(await sql("update public.ticket set owner = 'lee' where id = 1; update public.ticket set note = 'fixed' where id = 1"), 200);
    const deleted = await sql('delete from public.ticket where id = 1');
    expectResponse(deleted, 200);
    const calls = await hook.waitFor('/tickets', 3, { timeoutMs: 15_000, after: `the insert by GraphQL, the updates, then:\n  ${deleted.curl}` });
    const events = calls
      .map((c) => c.body as { trigger: unknown; table: unknown; event: { op: string; data: unknown; session_variables: unknown } })
      .sort((a, b) => ['INSERT', 'UPDATE', 'DELETE'].indexOf(a.event.op) - ['INSERT', 'UPDATE', 'DELETE'].indexOf(b.event.op));
    const row = (note: string, owner: string) => ({ id: 1, note, owner });
    expect(events.map((e) => [e.trigger, e.table, e.event])).toEqual([
      [
        { name: 'desk_tickets' },
        ticket,
        { op: 'INSERT', data: { old: null, new: row('jammed', 'kim') }, session_variables: branded({ 'x-engine-role': 'clerk', 'x-engine-user-id': 'kim' }) },
      ],
      [{ name: 'desk_tickets' }, ticket, { op: 'UPDATE', data: { old: row('jammed', 'lee'), new: row('fixed', 'lee') }, session_variables: null }],
      [{ name: 'desk_tickets' }, ticket, { op: 'DELETE', data: { old: row('fixed', 'lee'), new: null }, session_variables: null }],
    ]);
    // run_sql's changes carry no session, as on the server's own database; the update of a column the trigger does not list made no event.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.callsTo('/tickets')).toHaveLength(3);
    const logs = (await run('get_event_logs', { name: 'desk_tickets', source: 'desk' })).body as { op: string }[];
    expect(logs.map((l) => l.op).sort()).toEqual(['DELETE', 'INSERT', 'UPDATE']);
    const invoked = await run('invoke_event_trigger', { name: 'desk_tickets', source: 'desk', payload: { id: 9 } });
    expect(invoked.status).toBe(200);
    const [manual] = (await hook.waitFor('/tickets', 4, { timeoutMs: 15_000, after: invoked })).slice(3);
    expect((manual!.body as { event: unknown }).event).toEqual({
      op: 'MANUAL',
      data: { old: null, new: { id: 9 } },
      session_variables: branded({ 'x-engine-role': 'admin' }),
    });
    // replace_metadata takes the export back as it is.
    const document = (await run('export_metadata', {})).body;
    expectResponse(await run('replace_metadata', { metadata: document }), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await databaseTriggers()).toEqual(['engine_evt_desk_tickets_delete', 'engine_evt_desk_tickets_insert', 'engine_evt_desk_tickets_update']);
    // Dropping the source takes its triggers out of its database.
    expectResponse(await run('pg_drop_source', { name: 'desk', cascade: true }), 200, ok);
    expect(await databaseTriggers()).toEqual([]);
    expectResponse(await run('replace_metadata', { metadata: document }), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await databaseTriggers()).toEqual(['engine_evt_desk_tickets_delete', 'engine_evt_desk_tickets_insert', 'engine_evt_desk_tickets_update']);
    expectResponse(await run('pg_delete_event_trigger', { name: 'desk_tickets', source: 'desk' }), 200, ok);
    expect(await databaseTriggers()).toEqual([]);
    expectResponse(await run('get_event_logs', { name: 'desk_tickets', source: 'desk' }), 400, {
      path: '$.args',
      error: 'event trigger with name "desk_tickets" does not exist',
      code: 'not-exists',
    });
    await target.sql('drop table if exists public.local_ticket');
  },
);
