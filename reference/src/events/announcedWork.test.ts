// New work is announced by the database on commit (sql/work.ts): a worker takes it at once, however
// long its fetch interval. Here the interval is a minute, so only the announcement can deliver in time.
import { useDatabase } from '../../../conformance/harness/database';
import { startWebhook, type Webhook } from '../../../conformance/harness/webhook';
import { httpRequest } from '../../../conformance/harness/client';
import { loadConfig } from '../config';
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
