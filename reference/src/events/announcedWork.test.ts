// New work is announced by the database on commit (sql/work.ts): a worker takes it at once, however
// long its fetch interval. Here the interval is a minute, so only the announcement can deliver in time.
import { Client } from 'pg';
import { useDatabase } from '../../../conformance/harness/database';
import { startWebhook, type Webhook } from '../../../conformance/harness/webhook';
import { httpRequest } from '../../../conformance/harness/client';
import { loadConfig } from '../config';
import * as q from '../sql';
import { createLogger } from '../log';
import { startServer, type RunningServer } from '../server';

const db = useDatabase('all');
let hook: Webhook;
let server: RunningServer;
const SECRET = 'announced-work';
const metadata = async (type: string, args: unknown) => {
  const r = await httpRequest(server.url, 'POST', '/v1/metadata', { body: { type, args }, headers: { 'x-engine-admin-secret': SECRET } });
  expect({ type, status: r.status }).toEqual({ type, status: 200 });
  return r.body;
};

beforeAll(async () => {
  hook = await startWebhook();
  await db.client.query('create schema announced; create table announced.item (id integer primary key)');
  const config = loadConfig({
    ENGINE_GRAPHQL_SERVER_PORT: '0',
    ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
    ENGINE_GRAPHQL_PG_CONNECTIONS: '4',
    ENGINE_GRAPHQL_ADMIN_SECRET: SECRET,
    ENGINE_GRAPHQL_EVENTS_FETCH_INTERVAL: '60000',
  });
  server = await startServer(config, db.url, createLogger('silent'));
  // The workers' first look, at start, finds nothing: the next is a minute away.
  await new Promise((resolve) => setTimeout(resolve, 300));
});
afterAll(async () => {
  await server?.close();
  await hook?.close();
});

test('a row captured by SQL outside the server is delivered at once, not at the next fetch interval', async () => {
  await metadata('track_table', { table: { schema: 'announced', name: 'item' } });
  await metadata('create_event_trigger', {
    name: 'item_added',
    table: { schema: 'announced', name: 'item' },
    webhook: `${hook.url}/event`,
    insert: { columns: '*' },
  });
  await db.client.query('insert into announced.item values (1), (2)');
  const calls = await hook.waitFor('/event', 2, 5000);
  expect(calls.map((c) => (c.body as { event: { data: { new: { id: number } } } }).event.data.new.id).sort()).toEqual([1, 2]);
});

test('a scheduled event due now is delivered at once', async () => {
  await metadata('create_scheduled_event', { webhook: `${hook.url}/once`, schedule_at: new Date().toISOString(), payload: { n: 7 } });
  const [call] = await hook.waitFor('/once', 1, 5000);
  expect((call!.body as { payload: unknown }).payload).toEqual({ n: 7 });
});

/** A connection of the case's own that listens for announced work and keeps what it hears. */
async function listening(): Promise<{ heard: string[]; close: () => Promise<void> }> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  const heard: string[] = [];
  client.on('notification', (n) => {
    if (q.isWorkChannel(n.channel)) heard.push(n.payload ?? '');
  });
  await q.run(client, q.listenForWork);
  return { heard, close: () => client.end() };
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const addedIds = (calls: { body: unknown }[]) => calls.map((c) => (c.body as { event: { data: { new: { id: number } } } }).event.data.new.id);

test('captures in quick succession are announced at most once in 50 ms, and each is delivered at once all the same', async () => {
  const listener = await listening();
  await pause(60);
  const started = Date.now();
  for (let id = 100; id < 200; id++) await db.client.query('insert into announced.item values ($1)', [id]);
  const elapsed = Date.now() - started;
  const calls = await hook.waitFor('/event', 102, 5000);
  expect(
    addedIds(calls)
      .filter((id) => id >= 100)
      .sort((a, b) => a - b),
  ).toEqual(Array.from({ length: 100 }, (_, n) => 100 + n));
  await pause(100);
  await listener.close();
  const announced = listener.heard.filter((kind) => kind === 'events').length;
  expect(announced).toBeGreaterThanOrEqual(1);
  // One for the first capture, then at most one per 50 ms that the hundred took (and one for a clock tick's edge).
  expect(announced).toBeLessThanOrEqual(Math.floor(elapsed / 50) + 2);
  expect(announced).toBeLessThan(100);
});

test('each kind of work has its own window: an event and a scheduled event captured in one transaction are both announced', async () => {
  const listener = await listening();
  await pause(60);
  await db.client.query('begin');
  await db.client.query('insert into announced.item values (300)');
  await db.client.query(
    `insert into engine_catalog.scheduled_event (kind, scheduled_time, next_attempt_at, webhook, payload, retry_conf)
     values ('one_off', now() + interval '1 hour', now() + interval '1 hour', 'http://127.0.0.1:9/later', '{}', '{"num_retries": 0}')`,
  );
  await db.client.query('commit');
  await pause(100);
  await listener.close();
  expect([...listener.heard].sort()).toEqual(['events', 'scheduled']);
  const calls = await hook.waitFor('/event', 103, 5000);
  expect(addedIds(calls)).toContain(300);
});

test('a role that may write captured rows but has no rights on the catalog’s other objects still captures, and it is announced', async () => {
  const role = `announced_writer_${process.pid}`;
  await db.client.query(`create role ${role}`);
  try {
    await db.client.query(`grant usage on schema announced, engine_catalog to ${role}`);
    await db.client.query(`grant insert on announced.item, engine_catalog.event_log to ${role}`);
    const listener = await listening();
    await pause(60);
    await db.client.query(`set role ${role}`);
    try {
      await db.client.query('insert into announced.item values (400)');
    } finally {
      await db.client.query('reset role');
    }
    await pause(100);
    await listener.close();
    expect(listener.heard).toEqual(['events']);
    const calls = await hook.waitFor('/event', 104, 5000);
    expect(addedIds(calls)).toContain(400);
  } finally {
    await db.client.query(`drop owned by ${role}; drop role ${role}`);
  }
});

test('a capture in the window of an announcement, committed after the look it brought, is taken by the look that follows soon after', async () => {
  await pause(60);
  const other = new Client({ connectionString: db.url });
  await other.connect();
  try {
    await db.client.query('insert into announced.item values (500)');
    // Captured within 50 ms of the one before, so not announced itself; committed once the worker has
    // delivered that one and found nothing more.
    await other.query('begin');
    await other.query('insert into announced.item values (501)');
    const before = await hook.waitFor('/event', 105, 5000);
    expect(addedIds(before)).toContain(500);
    await pause(50);
    await other.query('commit');
    const after = await hook.waitFor('/event', 106, 3000);
    expect(addedIds(after)).toContain(501);
  } finally {
    await other.end();
  }
});

test('an insert into the event log made by no trigger (as the server logs an event invoked by hand) is announced by the log’s own trigger', async () => {
  const listener = await listening();
  await pause(60);
  await q.run(db.client, q.manualEvent('item_added', { schema: 'announced', name: 'item' }, { n: 3 }, { 'x-engine-role': 'admin' }));
  await pause(100);
  await listener.close();
  expect(listener.heard).toEqual(['events']);
  const calls = await hook.waitFor('/event', 107, 5000);
  expect(calls.map((c) => (c.body as { event: { data: unknown } }).event.data)).toContainEqual({ old: null, new: { n: 3 } });
});
