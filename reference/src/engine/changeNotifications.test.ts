// Other servers on the database are told of a change (engine/clusterSync.ts), and only of a change:
// a request that changed neither the metadata nor the database wakes no one.
import { Client } from 'pg';
import { useTarget } from '../../../conformance/harness/target';
import * as q from '../sql';

const target = useTarget();
let listener: Client;
const heard: string[] = [];

beforeAll(async () => {
  listener = new Client({ connectionString: target.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => {
    if (q.isChangesChannel(n.channel)) heard.push(n.payload ?? '');
  });
  await q.run(listener, q.listenForChanges);
});
afterAll(async () => {
  await listener.end();
});
beforeEach(async () => {
  await target.reset();
  await target.sql('drop table if exists public.told; create table public.told (id int primary key)');
});
afterEach(async () => {
  await target.reset();
  await target.sql('drop table if exists public.told');
});

/** What the listener heard while `work` ran, once a query of its own has come back after it. */
async function heardDuring(work: () => Promise<void>): Promise<{ database_changed: boolean }[]> {
  // What was told before (the reset of beforeEach) is delivered by the answer of a query of the listener's own.
  await listener.query('select 1');
  heard.length = 0;
  await work();
  // A notification sent before this query's answer has been delivered by then.
  await listener.query('select 1');
  return heard.map((p) => {
    const { database_changed } = JSON.parse(p) as { database_changed: boolean };
    return { database_changed };
  });
}

test('a read-only run_sql and a change refused tell no one; a change tells once', async () => {
  const runSql = (sql: string) => target.metadata({ type: 'run_sql', args: { sql, read_only: true } }, { endpoint: '/v2/query' });
  expect(
    await heardDuring(async () => {
      expect((await runSql('select 1 as one')).status).toBe(200);
      expect((await target.metadata({ type: 'track_table', args: { table: { schema: 'public', name: 'no_such_table' } } })).status).toBe(400);
    }),
  ).toEqual([]);
  expect(
    await heardDuring(async () => {
      expect((await target.metadata({ type: 'track_table', args: { table: { schema: 'public', name: 'told' } } })).status).toBe(200);
    }),
  ).toEqual([{ database_changed: false }]);
});
