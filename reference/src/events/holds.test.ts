// What a living server holds stays its own while it delivers: a claim (its own or another server's)
// never takes an event that is still in flight, also when the hold has run out while the delivery
// waits (a loaded machine, a settle queued behind others); each beat renews the hold.
import { httpRequest } from '../../../conformance/harness/client';
import type { MetadataDocument } from '../../../spec';
import { useWorkerDatabase } from '../../test-support/workerDatabase';
import { createLogger } from '../log';
import { startServer } from '../server';
import * as q from '../sql';
import { EventWorker } from './worker';

const fixture = useWorkerDatabase('holds', 'create schema holds; create table holds.item (id integer primary key)');
const { db, config, secret: SECRET } = fixture;
const settings = { ...config.events, fetchIntervalMs: 200, lockMarginSeconds: 1 };
const logger = createLogger('silent');
let document: MetadataDocument;
const running: EventWorker[] = [];

beforeAll(async () => {
  const server = await startServer(config, db.url, logger);
  try {
    for (const [type, args] of [
      ['track_table', { table: { schema: 'holds', name: 'item' } }],
      [
        'create_event_trigger',
        {
          name: 'slow',
          table: { schema: 'holds', name: 'item' },
          webhook: `${fixture.hook().url}/slow`,
          insert: { columns: '*' },
          retry_conf: { num_retries: 0, interval_sec: 1, timeout_sec: 10 },
        },
      ],
    ] as const) {
      const r = await httpRequest(server.url, 'POST', '/v1/metadata', { body: { type, args }, headers: { 'x-engine-admin-secret': SECRET } });
      expect({ type, status: r.status }).toEqual({ type, status: 200 });
    }
  } finally {
    await server.close();
  }
  const [stored] = await q.run<{ metadata: MetadataDocument }>(db.client, q.readMetadata);
  document = stored!.metadata;
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop(1000)));
  await db.client.query('truncate holds.item; delete from engine_catalog.event_log; delete from engine_catalog.event_invocation_log');
});

const worker = () => {
  const w = new EventWorker(fixture.pool(), settings, () => ({ document, resourceVersion: Number.MAX_SAFE_INTEGER }), logger);
  running.push(w);
  w.start();
  return w;
};

/** The one event of holds.item and its hold, seconds from now (negative: ran out). */
async function holdOf(): Promise<{ id: string; locked_by: string | null; left: number }> {
  const { rows } = await db.client.query(
    `select id::text, locked_by, extract(epoch from locked_until - clock_timestamp())::float8 as left from engine_catalog.event_log`,
  );
  expect(rows).toHaveLength(1);
  return rows[0];
}

test('SQL: a claim skips what the claimer has in flight even when its hold ran out; a renewal extends only the holder’s listed events', async () => {
  await db.client.query('insert into holds.item values (1), (2)');
  const taken = await q.run<{ id: string }>(db.client, q.claimEvents(10, 5, 'a', []));
  const [one, two] = taken.map((r) => r.id).sort();
  await q.run(db.client, q.heartbeat('a'));
  await db.client.query(`update engine_catalog.event_log set locked_until = clock_timestamp() - interval '1 second'`);
  // `a` itself: only what it does not have in flight.
  expect((await q.run<{ id: string }>(db.client, q.claimEvents(10, 5, 'a', [one!]))).map((r) => r.id)).toEqual([two]);
  await db.client.query(`update engine_catalog.event_log set locked_by = 'a', locked_until = clock_timestamp() + interval '1 second'`);
  // A renewal by another instance, or of an event not listed, changes nothing.
  await q.run(db.client, q.keepEventHolds('b', [one!, two!], 60));
  await q.run(db.client, q.keepEventHolds('a', [one!], 60));
  const { rows } = await db.client.query(
    `select id::text, locked_by, round(extract(epoch from locked_until - clock_timestamp()))::int as left from engine_catalog.event_log order by id`,
  );
  expect(rows).toEqual(
    [
      { id: one, locked_by: 'a', left: 60 },
      { id: two, locked_by: 'a', left: 1 },
    ].sort((x, y) => x.id!.localeCompare(y.id!)),
  );
  // A renewal never shortens a hold.
  await q.run(db.client, q.keepEventHolds('a', [one!], 5));
  expect(
    (
      await db.client.query(`select round(extract(epoch from locked_until - clock_timestamp()))::int as left from engine_catalog.event_log where id = $1`, [
        one,
      ])
    ).rows,
  ).toEqual([{ left: 60 }]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Two events this server holds, the higher id written first (a scan meets it first).
const LOW = '00000000-0000-0000-0000-000000000001';
const HIGH = '00000000-0000-0000-0000-000000000002';
const delivered = (eventId: string): q.Settlement => ({
  invocation: { eventId, trigger: 'slow', attempt: 1, status: 200, request: {}, response: {}, durationMs: 1 },
  outcome: { state: 'delivered' },
  error: null,
});

/**
 * `other` locks LOW in a transaction, as a statement that locks in id order does first; `second`
 * starts and waits on LOW; then `other` runs `third`, which needs HIGH too. A `second` that locked
 * HIGH before it waited would deadlock with it (and PostgreSQL would fail one of them).
 */
async function interleave(second: () => Promise<unknown>, third: Parameters<typeof q.run>[1]): Promise<void> {
  await db.client.query(
    `insert into engine_catalog.event_log (id, trigger_name, schema_name, table_name, op, data, locked_by, locked_until)
     select id::uuid, 'slow', 'holds', 'item', 'INSERT', '{}', 'a', clock_timestamp() + interval '1 minute' from unnest($1::text[]) id`,
    [[HIGH, LOW]],
  );
  const other = await fixture.pool().connect();
  try {
    await other.query('begin');
    await other.query('select 1 from engine_catalog.event_log where id = $1 for update', [LOW]);
    const waiting = second().then(
      () => 'done',
      (error: unknown) => String(error),
    );
    const blocked = async () =>
      (await other.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n;
    for (let tries = 0; (await blocked()) === 0 && tries < 100; tries++) await sleep(20);
    const thirdOutcome = await q.run(other, third).then(
      () => 'done',
      (error: unknown) => String(error),
    );
    await other.query('commit');
    expect({ second: await waiting, third: thirdOutcome }).toEqual({ second: 'done', third: 'done' });
  } finally {
    other.release();
  }
}

test('SQL: a beat renewing holds while a batch of the same events settles waits for it rather than deadlock', async () => {
  await interleave(() => q.run(db.client, q.keepEventHolds('a', [HIGH, LOW], 60)), q.settleEvents([delivered(HIGH), delivered(LOW)], 'a'));
  const { rows } = await db.client.query(`select id::text, state, locked_by from engine_catalog.event_log order by id`);
  expect(rows).toEqual([
    { id: LOW, state: 'delivered', locked_by: null },
    { id: HIGH, state: 'delivered', locked_by: null },
  ]);
});

test('SQL: a batch settling while a beat renews the same holds waits for it rather than deadlock', async () => {
  await interleave(() => q.run(db.client, q.settleEvents([delivered(HIGH), delivered(LOW)], 'a')), q.keepEventHolds('a', [LOW, HIGH], 60));
  const { rows } = await db.client.query(`select id::text, state, tries, locked_by from engine_catalog.event_log order by id`);
  expect(rows).toEqual([
    { id: LOW, state: 'delivered', tries: 1, locked_by: null },
    { id: HIGH, state: 'delivered', tries: 1, locked_by: null },
  ]);
});

/** The event settled once, by one attempt. */
async function settledOnce(): Promise<void> {
  const { rows } = await db.client.query(
    `select e.state, e.tries, (select count(*)::int from engine_catalog.event_invocation_log i where i.event_id = e.id) as attempts from engine_catalog.event_log e`,
  );
  expect(rows).toEqual([{ state: 'delivered', tries: 1, attempts: 1 }]);
}

test('a hold about to run out while the delivery waits is renewed by the holder’s beat: another server does not take the event', async () => {
  fixture.hook().on('/slow', () => ({ status: 200, delayMs: 4000 }));
  const before = fixture.hook().callsTo('/slow').length;
  worker();
  await db.client.query('insert into holds.item values (1)');
  await fixture.hook().waitFor('/slow', before + 1, 10_000);
  // The hold (timeout_sec 10 + margin 1) as if time had passed while the answer is awaited.
  await db.client.query(`update engine_catalog.event_log set locked_until = clock_timestamp() + interval '2.5 seconds'`);
  worker();
  await sleep(1500);
  const during = await holdOf();
  expect([during.locked_by === null, during.left > 5]).toEqual([false, true]);
  // Past the hold that was set: still one call; then the answer comes and the event is settled once.
  await sleep(3500);
  expect(fixture.hook().callsTo('/slow')).toHaveLength(before + 1);
  await settledOnce();
});

test('a hold that ran out while the delivery waits: the holder does not take its own event again', async () => {
  fixture.hook().on('/slow', () => ({ status: 200, delayMs: 2500 }));
  const before = fixture.hook().callsTo('/slow').length;
  worker();
  await db.client.query('insert into holds.item values (1)');
  await fixture.hook().waitFor('/slow', before + 1, 10_000);
  await db.client.query(`update engine_catalog.event_log set locked_until = clock_timestamp() - interval '1 second'`);
  await sleep(3000);
  expect(fixture.hook().callsTo('/slow')).toHaveLength(before + 1);
  await settledOnce();
});
