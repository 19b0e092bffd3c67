// The event worker on a real database: how it takes events from the event log, what it POSTs,
// and how it settles each one (delivered, retried, dead; a trigger that is gone, a webhook it
// cannot resolve), how long it holds what it took, and the retention of delivered events.
import type { MetadataDocument } from '../../../spec';
import { countingPool, secondsHeld, useCatalogWorkers, useWorkerDatabase, workRows } from '../../test-support/workerDatabase';
import * as sql from 'pg-sql2';
import * as q from '../sql';
import { EventWorker } from './worker';

const fixture = useWorkerDatabase('delivery', 'select 1');
const { db, config } = fixture;
const { logger, lines, running, logged } = useCatalogWorkers<EventWorker>(
  fixture,
  'delete from engine_catalog.event_log; delete from engine_catalog.event_invocation_log',
);
const settings = { ...config.events, fetchIntervalMs: 50, lockMarginSeconds: 7, retentionSeconds: 0 };

const trigger = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  definition: { enable_manual: false, insert: { columns: '*' } },
  retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
  webhook: `${fixture.hook().url}/${name}`,
  ...extra,
});

function start(
  triggers: ReturnType<typeof trigger>[],
  options: {
    env?: NodeJS.ProcessEnv;
    retentionSeconds?: number;
    snapshot?: () => { document: MetadataDocument; resourceVersion: number };
    pool?: ReturnType<typeof fixture.pool>;
  } = {},
): EventWorker {
  const document = {
    version: 3,
    sources: [],
    tables: [{ table: { schema: 'shop', name: 'item' }, event_triggers: triggers }],
  } as unknown as MetadataDocument;
  const worker = new EventWorker(
    options.pool ?? fixture.pool(),
    { ...settings, retentionSeconds: options.retentionSeconds ?? 0 },
    options.snapshot ?? (() => ({ document, resourceVersion: 1e9 })),
    logger,
    options.env ?? {},
  );
  running.push(worker);
  worker.start();
  return worker;
}

/** An event as the capture function writes it. */
async function event(triggerName: string, columns: Record<string, string> = {}): Promise<string> {
  const names = Object.keys(columns);
  const r = await db.client.query<{ id: string }>(
    `insert into engine_catalog.event_log (trigger_name, schema_name, table_name, op, data, session_variables${names.map((n) => `, ${n}`).join('')})
     values ($1, 'shop', 'item', 'UPDATE', '{"old": {"id": 1, "name": "a"}, "new": {"id": 1, "name": "b"}}', '{"x-engine-role": "clerk"}'${names.map((n) => `, ${columns[n]}`).join('')})
     returning id::text`,
    [triggerName],
  );
  return r.rows[0]!.id;
}

const { until } = workRows(() => db.client, 'event_log');

const attemptsOf = async (id: string) =>
  (
    await db.client.query<{ trigger_name: string; attempt: number; status: number | null; request: unknown; response: unknown; duration_ms: number }>(
      'select trigger_name, attempt, status, request, response, duration_ms from engine_catalog.event_invocation_log where event_id = $1 order by attempt',
      [id],
    )
  ).rows;

const sentHeaders = { 'content-type': 'application/json', 'user-agent': 'engine-reference-events' };

test("an event due is POSTed in the engine's shape with the trigger's headers, logged, and delivered", async () => {
  start(
    [
      trigger('sent', {
        headers: [
          { name: 'X-Fixed', value: 'v' },
          { name: 'X-Env', value_from_env: 'HOOK_TOKEN' },
        ],
        retry_conf: { num_retries: 2, interval_sec: 10, timeout_sec: 60 },
      }),
    ],
    {
      env: { HOOK_TOKEN: 'secret-token' },
    },
  );
  const id = await event('sent');
  const done = await until(id, (r) => r.state !== 'pending');
  expect({ ...done, next_in: undefined }).toEqual({ state: 'delivered', tries: 1, last_error: null, delivered: true, locked_by: null, next_in: undefined });
  const [call] = fixture.hook().callsTo('/sent');
  const payload = {
    id,
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    trigger: { name: 'sent' },
    table: { schema: 'shop', name: 'item' },
    event: { op: 'UPDATE', data: { old: { id: 1, name: 'a' }, new: { id: 1, name: 'b' } }, session_variables: { 'x-engine-role': 'clerk' } },
    delivery_info: { max_retries: 2, current_retry: 0 },
  };
  expect(call!.body).toEqual(payload);
  expect(call!.headers).toMatchObject({ ...sentHeaders, 'x-fixed': 'v', 'x-env': 'secret-token' });
  const [logged1] = await attemptsOf(id);
  expect(logged1).toEqual({
    trigger_name: 'sent',
    attempt: 1,
    status: 200,
    request: { url: `${fixture.hook().url}/sent`, headers: { ...sentHeaders, 'x-fixed': 'v', 'x-env': 'secret-token' }, payload: call!.body },
    response: { status: 200, headers: expect.objectContaining({ 'content-type': 'application/json' }), body: '{"received":true}', error: null },
    duration_ms: expect.any(Number),
  });
  await logged(1);
  expect(lines).toEqual([
    {
      level: 'info',
      type: 'event-delivery',
      detail: { event_id: id, trigger: 'sent', attempt: 1, status: 200, duration_ms: expect.any(Number), outcome: 'delivered' },
    },
  ]);
});

test('a failed attempt is retried interval_sec later with current_retry counted, and dead after num_retries retries', async () => {
  fixture.hook().on('/failing', () => ({ status: 500 }));
  start([trigger('failing', { retry_conf: { num_retries: 1, interval_sec: 10, timeout_sec: 60 } })]);
  const id = await event('failing');
  const first = await until(id, (r) => r.tries === 1);
  expect({ ...first, next_in: undefined }).toEqual({
    state: 'pending',
    tries: 1,
    last_error: 'the webhook answered 500',
    delivered: false,
    locked_by: null,
    next_in: undefined,
  });
  expect(first.next_in).toBeGreaterThan(8);
  expect(first.next_in).toBeLessThanOrEqual(10);
  await logged(1);
  expect(lines[0]).toEqual({
    level: 'warn',
    type: 'event-delivery',
    detail: {
      event_id: id,
      trigger: 'failing',
      attempt: 1,
      status: 500,
      duration_ms: expect.any(Number),
      outcome: 'retry in 10 s',
      error: 'the webhook answered 500',
    },
  });
  // Its time come: the second attempt is the last one.
  await db.client.query('update engine_catalog.event_log set next_attempt_at = clock_timestamp() where id = $1', [id]);
  const second = await until(id, (r) => r.tries === 2);
  expect({ ...second, next_in: undefined }).toEqual({
    state: 'dead',
    tries: 2,
    last_error: 'the webhook answered 500',
    delivered: false,
    locked_by: null,
    next_in: undefined,
  });
  const calls = fixture.hook().callsTo('/failing');
  expect(calls.map((c) => (c.body as { delivery_info: unknown }).delivery_info)).toEqual([
    { max_retries: 1, current_retry: 0 },
    { max_retries: 1, current_retry: 1 },
  ]);
  expect((await attemptsOf(id)).map((a) => [a.attempt, a.status])).toEqual([
    [1, 500],
    [2, 500],
  ]);
  await logged(2);
  expect(lines[1]!.detail).toMatchObject({ attempt: 2, status: 500, outcome: 'dead' });
});

test("the webhook's Retry-After decides when the next attempt is", async () => {
  fixture.hook().on('/later', () => ({ status: 503, headers: { 'retry-after': '3' } }));
  start([trigger('later', { retry_conf: { num_retries: 3, interval_sec: 60, timeout_sec: 60 } })]);
  const id = await event('later');
  const first = await until(id, (r) => r.tries === 1);
  expect([first.state, first.last_error]).toEqual(['pending', 'the webhook answered 503']);
  expect(first.next_in).toBeGreaterThan(1);
  expect(first.next_in).toBeLessThanOrEqual(3);
});

test('an event whose trigger is gone is dead, named, with nothing sent or logged as an attempt', async () => {
  start([trigger('kept')]);
  const id = await event('gone');
  const done = await until(id, (r) => r.state !== 'pending');
  expect({ ...done, next_in: undefined }).toEqual({
    state: 'dead',
    tries: 0,
    last_error: 'the event trigger "gone" no longer exists',
    delivered: false,
    locked_by: null,
    next_in: undefined,
  });
  expect(fixture.hook().callsTo('/gone')).toEqual([]);
  expect(await attemptsOf(id)).toEqual([]);
});

test('a webhook it cannot resolve is a failed attempt, logged with the reason and nothing sent', async () => {
  start([{ ...trigger('unresolved'), webhook: undefined, webhook_from_env: 'NO_SUCH_HOOK' } as unknown as ReturnType<typeof trigger>]);
  const id = await event('unresolved');
  const done = await until(id, (r) => r.state !== 'pending');
  const reason = 'the environment variable NO_SUCH_HOOK (webhook_from_env) is not set';
  expect({ ...done, next_in: undefined }).toEqual({ state: 'dead', tries: 1, last_error: reason, delivered: false, locked_by: null, next_in: undefined });
  expect(await attemptsOf(id)).toEqual([
    {
      trigger_name: 'unresolved',
      attempt: 1,
      status: null,
      request: { url: null, headers: {}, payload: expect.objectContaining({ id, trigger: { name: 'unresolved' } }) },
      response: { status: null, headers: {}, body: '', error: reason },
      duration_ms: 0,
    },
  ]);
  await logged(1);
  expect(lines[0]).toEqual({
    level: 'warn',
    type: 'event-delivery',
    detail: { event_id: id, trigger: 'unresolved', attempt: 1, status: null, duration_ms: 0, outcome: 'dead', error: reason },
  });
});

test("what it takes is held for the longest trigger's timeout plus the margin, and let go when settled", async () => {
  fixture.hook().on('/held', () => ({ status: 200, delayMs: 1500 }));
  start([
    trigger('held', { retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 40 } }),
    trigger('other', { retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 100 } }),
  ]);
  const id = await event('held');
  const left = await secondsHeld(db.client, 'event_log', id);
  expect(left).toBeGreaterThan(100 + 7 - 3);
  expect(left).toBeLessThanOrEqual(100 + 7);
  const done = await until(id, (r) => r.state !== 'pending');
  expect([done.state, done.locked_by]).toEqual(['delivered', null]);
});

test('attempts that end together are settled together, each as its own outcome says, every one logged', async () => {
  // The webhook answers every call at the same moment, a second after the first one came.
  let answerAt = 0;
  const together = (status: number) => () => {
    answerAt ||= Date.now() + 1000;
    return { status, delayMs: Math.max(1, answerAt - Date.now()) };
  };
  fixture.hook().on('/ok', together(200));
  fixture.hook().on('/again', together(500));
  fixture.hook().on('/dead', together(500));
  const ids: Record<string, string[]> = { ok: [], again: [], dead: [] };
  for (let n = 0; n < 6; n++) for (const name of Object.keys(ids)) ids[name]!.push(await event(name));
  const { pool, count } = countingPool(fixture.pool());
  start([trigger('ok'), trigger('again', { retry_conf: { num_retries: 2, interval_sec: 10, timeout_sec: 60 } }), trigger('dead')], { pool });
  const rows = async (name: string) => {
    const found = [];
    for (const id of ids[name]!) found.push(await until(id, (r) => r.tries === 1));
    return found;
  };
  const outcome = (r: Awaited<ReturnType<typeof until>>) => ({
    state: r.state,
    tries: r.tries,
    last_error: r.last_error,
    delivered: r.delivered,
    locked_by: r.locked_by,
  });
  expect((await rows('ok')).map(outcome)).toEqual(Array(6).fill({ state: 'delivered', tries: 1, last_error: null, delivered: true, locked_by: null }));
  const again = await rows('again');
  expect(again.map(outcome)).toEqual(Array(6).fill({ state: 'pending', tries: 1, last_error: 'the webhook answered 500', delivered: false, locked_by: null }));
  for (const r of again) expect([r.next_in > 8, r.next_in <= 10]).toEqual([true, true]);
  expect((await rows('dead')).map(outcome)).toEqual(
    Array(6).fill({ state: 'dead', tries: 1, last_error: 'the webhook answered 500', delivered: false, locked_by: null }),
  );
  for (const [name, status] of [
    ['ok', 200],
    ['again', 500],
    ['dead', 500],
  ] as const)
    for (const id of ids[name]!) expect((await attemptsOf(id)).map((a) => [a.trigger_name, a.attempt, a.status])).toEqual([[name, 1, status]]);
  await logged(18);
  // Eighteen attempts ended at once: the first settles alone, the others together (not one statement each).
  expect(count(q.settleEvents([], 'x'))).toBeGreaterThanOrEqual(1);
  expect(count(q.settleEvents([], 'x'))).toBeLessThanOrEqual(4);
});

test('SQL: a settlement changes only the events its instance holds, and logs every attempt', async () => {
  const mine = await event('held-here');
  const theirs = await event('held-there');
  await db.client.query("update engine_catalog.event_log set locked_by = 'here', locked_until = clock_timestamp() + interval '1 minute' where id = $1", [mine]);
  await db.client.query("update engine_catalog.event_log set locked_by = 'there', locked_until = clock_timestamp() + interval '1 minute' where id = $1", [
    theirs,
  ]);
  const settlement = (eventId: string, trigger: string): q.Settlement => ({
    invocation: { eventId, trigger, attempt: 1, status: 200, request: { payload: trigger }, response: { status: 200 }, durationMs: 5 },
    outcome: { state: 'delivered' },
    error: null,
  });
  await q.run(db.client, q.settleEvents([settlement(mine, 'held-here'), settlement(theirs, 'held-there')], 'here'));
  expect(outcome(await until(mine, () => true))).toEqual({ state: 'delivered', tries: 1, locked_by: null });
  expect(outcome(await until(theirs, () => true))).toEqual({ state: 'pending', tries: 0, locked_by: 'there' });
  expect((await attemptsOf(mine)).map((a) => [a.trigger_name, a.request, a.response, a.duration_ms])).toEqual([
    ['held-here', { payload: 'held-here' }, { status: 200 }, 5],
  ]);
  expect((await attemptsOf(theirs)).map((a) => [a.trigger_name, a.request])).toEqual([['held-there', { payload: 'held-there' }]]);
  function outcome(r: Awaited<ReturnType<typeof until>>) {
    return { state: r.state, tries: r.tries, locked_by: r.locked_by };
  }
});

/** Rows PostgreSQL read from the event log to run `fragment` (from its EXPLAIN ANALYZE, in a transaction undone after). */
async function eventLogRowsRead(fragment: Parameters<typeof q.run>[1]): Promise<number> {
  const { text, values } = sql.compile(fragment);
  await db.client.query('begin');
  try {
    const [row] = (await db.client.query<{ 'QUERY PLAN': unknown }>({ text: `explain (analyze, format json) ${text}`, values })).rows;
    const read = (node: Record<string, unknown>): number =>
      (node['Relation Name'] === 'event_log'
        ? ((node['Actual Rows'] as number) + ((node['Rows Removed by Filter'] as number) ?? 0)) * (node['Actual Loops'] as number)
        : 0) + ((node['Plans'] as Record<string, unknown>[] | undefined) ?? []).reduce((sum, child) => sum + read(child), 0);
    return read((row!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
  } finally {
    await db.client.query('rollback');
  }
}

test("SQL: a claim takes the earliest due events of triggers not paused, and never reads a paused trigger's backlog", async () => {
  await db.client.query(
    `insert into engine_catalog.event_log (trigger_name, schema_name, table_name, op, data, next_attempt_at)
     select 'stopped', 'shop', 'item', 'INSERT', '{}', clock_timestamp() - interval '1 hour' from generate_series(1, 5000)`,
  );
  await db.client.query("insert into engine_catalog.event_trigger_pauses (trigger_name) values ('stopped')");
  const due = async (name: string, minutesAgo: number) =>
    (
      await db.client.query<{ id: string }>(
        `insert into engine_catalog.event_log (trigger_name, schema_name, table_name, op, data, next_attempt_at)
         values ($1, 'shop', 'item', 'INSERT', '{}', clock_timestamp() - make_interval(mins => $2)) returning id::text`,
        [name, minutesAgo],
      )
    ).rows[0]!.id;
  const a3 = await due('a', 3);
  const b5 = await due('b', 5);
  await due('a', 1);
  const b2 = await due('b', 2);
  await db.client.query(
    "insert into engine_catalog.event_log (trigger_name, schema_name, table_name, op, data, next_attempt_at) values ('a', 'shop', 'item', 'INSERT', '{}', clock_timestamp() + interval '1 hour')",
  );
  await db.client.query('analyze engine_catalog.event_log');
  try {
    const rowsRead = await eventLogRowsRead(q.claimEvents(3, 60, 'claimer', []));
    expect(rowsRead).toBeLessThan(100);
    const taken = await q.run<q.EventRow>(db.client, q.claimEvents(3, 60, 'claimer', []));
    expect(taken.map((r) => r.id).sort()).toEqual([a3, b5, b2].sort());
  } finally {
    await db.client.query("delete from engine_catalog.event_trigger_pauses where trigger_name = 'stopped'");
  }
});

test('with a retention, delivered events older than it go with their attempts; newer ones, and ones not delivered, stay', async () => {
  const old = await event('kept', { state: "'delivered'", tries: '1', delivered_at: "clock_timestamp() - interval '2 hours'" });
  const recent = await event('kept', { state: "'delivered'", tries: '1', delivered_at: "clock_timestamp() - interval '10 minutes'" });
  const dead = await event('kept', { state: "'dead'", tries: '1', created_at: "clock_timestamp() - interval '2 hours'" });
  for (const id of [old, recent]) {
    await db.client.query(
      `insert into engine_catalog.event_invocation_log (event_id, trigger_name, attempt, status, request, response, duration_ms) values ($1, 'kept', 1, 200, '{}', '{}', 1)`,
      [id],
    );
  }
  start([trigger('kept')], { retentionSeconds: 3600 });
  const deadline = Date.now() + 10_000;
  let left: string[] = [];
  do {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = (await db.client.query<{ id: string }>('select id::text from engine_catalog.event_log order by created_at')).rows.map((r) => r.id);
  } while (left.length === 3 && Date.now() < deadline);
  expect(left.sort()).toEqual([recent, dead].sort());
  const attempts = (await db.client.query<{ event_id: string }>('select event_id::text from engine_catalog.event_invocation_log')).rows.map((r) => r.event_id);
  expect(attempts).toEqual([recent]);
});

const eventIds = async () => (await db.client.query<{ id: string }>('select id::text from engine_catalog.event_log order by id')).rows.map((r) => r.id);

test('without a retention, delivered events stay however old they are', async () => {
  const old = await event('kept', { state: "'delivered'", tries: '1', delivered_at: "clock_timestamp() - interval '30 days'" });
  start([trigger('kept')]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  // A look after those: the new event is delivered, the old one is still there.
  const fresh = await event('kept');
  await until(fresh, (r) => r.state === 'delivered');
  expect(await eventIds()).toEqual([old, fresh].sort());
});

test('the retention is applied when the worker starts and then once a minute, not at every look', async () => {
  const soon = await event('kept', { state: "'delivered'", tries: '1', delivered_at: "clock_timestamp() - interval '0.5 seconds'" });
  start([trigger('kept')], { retentionSeconds: 1 });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  // Older than the retention by now, but the next cleanup is a minute after the first.
  const fresh = await event('kept');
  await until(fresh, (r) => r.state === 'delivered');
  expect(await eventIds()).toEqual([soon, fresh].sort());
});

test("a look that fails is a warning in the event worker's name, and the loop goes on", async () => {
  start([], {
    snapshot: () => {
      throw new Error('no metadata');
    },
  });
  await logged(2);
  const warning = { level: 'warn', type: 'event-delivery', detail: { error: 'Error: no metadata' } };
  expect(lines.slice(0, 2)).toEqual([warning, warning]);
});
