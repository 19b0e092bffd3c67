// A cron trigger removed (and made again under its name) while the scheduler works on it: an
// invocation whose delivery settles in that moment, and invocations computed from the metadata
// just before the change, never belong to the new trigger. Each race is made to happen in one
// order, with row locks held by the case and the waiting statements seen in pg_stat_activity.
import { Client } from 'pg';
import type { MetadataDocument } from '../../../spec';
import { countingPool, useCatalogWorkers, useWorkerDatabase } from '../../test-support/workerDatabase';
import * as q from '../sql';
import { Scheduler } from './scheduler';

const fixture = useWorkerDatabase('cron-removal', 'select 1');
const { db, config } = fixture;
const { logger, running } = useCatalogWorkers<Scheduler>(
  fixture,
  'delete from engine_catalog.scheduled_event; delete from engine_catalog.scheduled_invocation_log',
);
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end()));
});

async function connection(): Promise<Client> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  clients.push(client);
  return client;
}

const cron = (name: string, schedule: string) => ({
  name,
  webhook: `${fixture.hook().url}/cron/${name}`,
  schedule,
  payload: {},
  headers: [],
  retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 },
  include_in_metadata: true,
});

const storedVersion = async () => (await q.run<{ resource_version: number }>(db.client, q.readResourceVersion))[0]!.resource_version;

/** A scheduler whose copy of the metadata holds these triggers, read at `resourceVersion`. */
function start(triggers: ReturnType<typeof cron>[], resourceVersion: number) {
  const counting = countingPool(fixture.pool());
  const document = { version: 3, sources: [], tables: [], cron_triggers: triggers } as unknown as MetadataDocument;
  const worker = new Scheduler(counting.pool, { ...config.events, fetchIntervalMs: 50 }, () => ({ document, resourceVersion }), logger, {});
  running.push(worker);
  worker.start();
  return counting;
}

/** Wait until `n` statements of this database wait for a lock (at least `n`, and the backend `pid` among them when given). */
async function waitingForLocks(n: number, pid?: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await db.client.query<{ n: number; own: boolean }>(
      "select count(*)::int as n, coalesce(bool_or(pid = $1), false) as own from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      [pid ?? null],
    );
    if (pid === undefined ? rows[0]!.n === n : rows[0]!.n >= n && rows[0]!.own) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.n} statements wait for a lock, ${n} expected${pid === undefined ? '' : ` with backend ${pid}'s`}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const rowOf = async (id: string) =>
  (await db.client.query('select state, archived, locked_by from engine_catalog.scheduled_event where id = $1', [id])).rows[0] as Record<string, unknown>;
const listed = async (trigger: string) =>
  (await q.run<{ events: { id: string }[] }>(db.client, q.scheduledEvents('cron', trigger, 'all', 100, 0)))[0]!.events.map((e) => e.id);

test('an invocation whose delivery settles while its trigger is removed is archived with the others, and never listed again', async () => {
  let answer!: () => void;
  fixture.hook().on('/cron/racing', () => ({ status: 200, hold: new Promise<void>((resolve) => (answer = resolve)) }));
  start([cron('racing', '0 0 1 1 *')], await storedVersion());
  await q.run(db.client, q.insertCronInvocations('racing', [new Date(Date.now() - 1000)]));
  const [call] = await fixture.hook().waitFor('/cron/racing', 1, 10_000);
  const id = (call!.body as { id: string }).id;
  // The case holds the row: the settlement waits for it first, the removal second.
  const holder = await connection();
  await holder.query('begin');
  await holder.query('select 1 from engine_catalog.scheduled_event where id = $1 for update', [id]);
  answer();
  await waitingForLocks(1);
  const remover = await connection();
  const removerPid = (await remover.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  await remover.query('begin');
  const removal = (async () => {
    for (const step of q.removeCronInvocations(['racing'])) await q.run(remover, step);
    await remover.query('commit');
  })();
  // The removal waits too (the scheduler's next look may wait beside it).
  await waitingForLocks(2, removerPid);
  await holder.query('rollback');
  await removal;
  expect(await rowOf(id)).toEqual({ state: 'delivered', archived: true, locked_by: null });
  expect(await listed('racing')).toEqual([]);
});

test('invocations computed from a copy of the metadata that a change commits over meanwhile are not written', async () => {
  const version = await storedVersion();
  // A metadata change under way: it has written the stored row and holds it until it commits.
  const change = await connection();
  await change.query('begin');
  await change.query('update engine_catalog.engine_metadata set resource_version = resource_version + 1 where id = 1');
  const { count } = start([cron('fenced', '* * * * *')], version);
  await waitingForLocks(1);
  await change.query('commit');
  // The scheduler's next look began: the write that waited has ended.
  const deadline = Date.now() + 10_000;
  while (count(q.readResourceVersion) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(count(q.readResourceVersion)).toBeGreaterThanOrEqual(2);
  expect(await listed('fenced')).toEqual([]);
});

test('a copy of the metadata as new as the stored one writes its invocations', async () => {
  start([cron('current', '* * * * *')], await storedVersion());
  const deadline = Date.now() + 10_000;
  while ((await listed('current')).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(await listed('current')).toHaveLength(10);
});
