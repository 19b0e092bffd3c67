// The logs of a target's catalog across a run, against a real server: the user's event triggers
// (one paused), cron trigger and one-off event keep their history; what the run's triggers, events
// and actions left in the logs is gone.
import { Client } from 'pg';
import type { RunningServer } from '../../reference/src/server';
import { createDatabase, dropDatabase } from '../harness/database';
import { CLUSTER_URL_VARIABLE } from '../harness/environment';
import { startOwnServer } from '../harness/ownServer';
import { until } from '../harness/wait';
import { startWebhook, type Webhook } from '../harness/webhook';
import { CATALOG_LOGS } from './catalogLogs';
import { readTargetState, restoreTarget, type TargetConnection } from './targetState';

const headers = { 'x-engine-admin-secret': 'logs-secret' };
let database: { name: string; url: string };
let server: RunningServer;
let hook: Webhook;
let db: Client;
let connection: TargetConnection;

const metadata = async (type: string, args: unknown) => {
  const r = await fetch(`${server.url}/v1/metadata`, {
    method: 'POST',
    body: JSON.stringify({ type, args }),
    headers: { ...headers, 'content-type': 'application/json' },
  });
  const body = (await r.json()) as unknown;
  expect({ type, status: r.status }).toEqual({ type, status: 200 });
  return body;
};

/** Every row of the reference's log tables, in an order that does not depend on the table's. */
const logRows = async () => {
  const out: Record<string, string[]> = {};
  for (const table of CATALOG_LOGS[0]!.tables) {
    out[table] = (await db.query<{ row: string }>(`select to_jsonb(t)::text as row from engine_catalog.${table} t`)).rows.map((r) => r.row).sort();
  }
  return out;
};
const events = async (name: string, status = 'all') => (await metadata('get_event_logs', { name, status })) as { state: string }[];

beforeAll(async () => {
  database = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
  hook = await startWebhook(0);
  server = await startOwnServer(database.url, { ENGINE_GRAPHQL_ADMIN_SECRET: 'logs-secret' });
  db = new Client({ connectionString: database.url });
  await db.connect();
  connection = { target: server.url, database: database.url, headers };
});
afterAll(async () => {
  await db.end();
  await server.close();
  await hook.close();
  await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, database.name);
});

test("the user's events (delivered, and pending under a pause), cron and one-off invocations are as they were after a run; the run's rows are gone", async () => {
  // The user's: a table with two event triggers, one paused, a yearly cron trigger and a one-off event far ahead.
  await db.query('create table public.orders (id int primary key)');
  const orders = { schema: 'public', name: 'orders' };
  await metadata('track_table', { table: orders });
  await metadata('create_event_trigger', { name: 'user_orders', table: orders, webhook: `${hook.url}/orders`, insert: { columns: '*' } });
  await metadata('create_event_trigger', { name: 'user_paused', table: orders, webhook: `${hook.url}/paused`, insert: { columns: '*' } });
  await metadata('pause_event_trigger', { name: 'user_paused' });
  await metadata('create_cron_trigger', { name: 'user_yearly', webhook: `${hook.url}/yearly`, schedule: '0 0 1 1 *', include_in_metadata: true });
  await metadata('create_scheduled_event', { webhook: `${hook.url}/later`, schedule_at: '2999-01-01T00:00:00Z' });
  await db.query('insert into public.orders values (1), (2)');
  await hook.waitFor('/orders', 2);
  expect(
    (
      await until(
        () => events('user_orders', 'processed'),
        (e) => e.length === 2,
      )
    ).length,
  ).toBe(2);
  expect(
    (
      await until(
        () => metadata('get_scheduled_events', { type: 'cron', trigger_name: 'user_yearly' }) as Promise<{ events: unknown[] }>,
        (r) => r.events.length === 1,
      )
    ).events,
  ).toHaveLength(1);
  const before = await readTargetState(connection);
  const rowsBefore = await logRows();

  // What a run does: the metadata cleared, triggers, events and an action of its own.
  await metadata('clear_metadata', {});
  await db.query('create schema run_logs; create table run_logs.item (id int primary key)');
  const item = { schema: 'run_logs', name: 'item' };
  await metadata('track_table', { table: item });
  await metadata('create_event_trigger', { name: 'run_items', table: item, webhook: `${hook.url}/run`, insert: { columns: '*' } });
  await db.query('insert into run_logs.item values (1), (2), (3)');
  await metadata('create_scheduled_event', { webhook: `${hook.url}/run-once`, schedule_at: new Date().toISOString() });
  await metadata('create_cron_trigger', { name: 'run_minutely', webhook: `${hook.url}/run-cron`, schedule: '* * * * *', include_in_metadata: true });
  await hook.waitFor('/run', 3);
  await hook.waitFor('/run-once', 1);
  expect(
    (
      await until(
        () => events('run_items', 'processed'),
        (e) => e.length === 3,
      )
    ).length,
  ).toBe(3);
  // The user's events are archived by now: their trigger went with the metadata.
  expect((await logRows()).event_log).not.toEqual(rowsBefore.event_log);

  const said = await restoreTarget(connection, before);
  expect(said).toMatch(
    /^the target is as it was found: its metadata \(1 table, 1 cron trigger\) restored, the objects the cases made dropped, its catalog's logs as they were \(\d+ rows of the run removed, \d+ put back\)$/,
  );
  expect(await logRows()).toEqual(rowsBefore);
  expect((await events('user_orders')).map((e) => e.state)).toEqual(['delivered', 'delivered']);
  expect((await events('user_paused')).map((e) => e.state)).toEqual(['pending', 'pending']);
});
