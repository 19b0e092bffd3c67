// The scheduler on a real database: the cron invocations it writes ahead, and how it delivers and
// settles one-off events and cron invocations (delivered, retried, dead when late, when the trigger
// is gone or when the webhook cannot be resolved).
import { until as waitUntil } from '../../../conformance/harness/wait';
import type { MetadataDocument } from '../../../spec';
import { countingPool, secondsHeld, useCatalogWorkers, useWorkerDatabase, workRows } from '../../test-support/workerDatabase';
import * as q from '../sql';
import { Scheduler } from './scheduler';

const fixture = useWorkerDatabase('scheduler', 'select 1');
const { db, config } = fixture;
const { logger, lines, running, logged } = useCatalogWorkers<Scheduler>(
  fixture,
  'delete from engine_catalog.scheduled_event; delete from engine_catalog.scheduled_invocation_log',
);

const retry = (r: Partial<{ num_retries: number; retry_interval_seconds: number; timeout_seconds: number; tolerance_seconds: number }> = {}) => ({
  num_retries: 0,
  retry_interval_seconds: 10,
  timeout_seconds: 60,
  tolerance_seconds: 21600,
  ...r,
});

const cron = (name: string, schedule: string, extra: Record<string, unknown> = {}) => ({
  name,
  webhook: `${fixture.hook().url}/cron/${name}`,
  schedule,
  payload: { from: name },
  headers: [{ name: 'X-Trigger', value: name }],
  retry_conf: retry(),
  include_in_metadata: true,
  ...extra,
});

function start(cronTriggers: ReturnType<typeof cron>[] = [], env: NodeJS.ProcessEnv = {}): Scheduler {
  const document = { version: 3, sources: [], tables: [], cron_triggers: cronTriggers } as unknown as MetadataDocument;
  const worker = new Scheduler(fixture.pool(), config.events, () => ({ document, resourceVersion: 1e9 }), logger, env);
  running.push(worker);
  worker.start();
  return worker;
}

async function oneOff(e: {
  webhook: string;
  secondsAgo: number;
  retryConf?: unknown;
  comment?: string | null;
  headers?: unknown;
  payload?: unknown;
}): Promise<string> {
  const at = new Date(Date.now() - e.secondsAgo * 1000).toISOString();
  const [row] = await q.run<{ event_id: string }>(
    db.client,
    q.insertOneOff({
      webhook: e.webhook,
      scheduleAt: at,
      payload: 'payload' in e ? e.payload : { k: 1 },
      headers: e.headers ?? [],
      retryConf: e.retryConf ?? retry(),
      comment: e.comment ?? null,
    }),
  );
  return row!.event_id;
}

const { row, until } = workRows(() => db.client, 'scheduled_event');

const attemptsOf = async (id: string) =>
  (
    await db.client.query<{ attempt: number; status: number | null; request: unknown; error: string | null }>(
      "select attempt, status, request, response->>'error' as error from engine_catalog.scheduled_invocation_log where event_id = $1 order by attempt",
      [id],
    )
  ).rows;

test('a one-off event due is POSTed with its payload, comment and headers, logged, and delivered', async () => {
  start();
  const id = await oneOff({ webhook: `${fixture.hook().url}/one`, secondsAgo: 1, comment: 'note', headers: [{ name: 'X-Mine', value: 'v' }] });
  const done = await until(id, (r) => r.state !== 'scheduled');
  expect({ ...done, next_in: undefined }).toEqual({ state: 'delivered', tries: 1, last_error: null, delivered: true, locked_by: null, next_in: undefined });
  const [call] = fixture.hook().callsTo('/one');
  const body = call!.body as { id: string; scheduled_time: string };
  expect(body).toEqual({ id, scheduled_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/), payload: { k: 1 }, comment: 'note' });
  expect(call!.headers['x-mine']).toBe('v');
  expect(await attemptsOf(id)).toEqual([{ attempt: 1, status: 200, request: { url: `${fixture.hook().url}/one`, payload: body }, error: null }]);
  await logged(1);
  expect(lines).toContainEqual({
    level: 'info',
    type: 'scheduled-delivery',
    detail: { event_id: id, trigger: null, attempt: 1, status: 200, outcome: 'delivered' },
  });
});

test('a failed attempt is retried after retry_interval_seconds while retries are left, then the event is dead', async () => {
  fixture.hook().on('/down', () => ({ status: 500 }));
  start();
  const id = await oneOff({ webhook: `${fixture.hook().url}/down`, secondsAgo: 1, retryConf: retry({ num_retries: 1, retry_interval_seconds: 100 }) });
  const first = await until(id, (r) => r.tries === 1 && r.locked_by === null);
  expect(first).toMatchObject({ state: 'scheduled', tries: 1, last_error: 'the webhook answered 500', delivered: false });
  expect(first.next_in).toBeGreaterThan(90);
  expect(first.next_in).toBeLessThanOrEqual(100);
  await db.client.query('update engine_catalog.scheduled_event set next_attempt_at = clock_timestamp() where id = $1', [id]);
  const last = await until(id, (r) => r.state !== 'scheduled');
  expect(last).toMatchObject({ state: 'dead', tries: 2, last_error: 'the webhook answered 500', delivered: false, locked_by: null });
  expect((await attemptsOf(id)).map((a) => [a.attempt, a.status])).toEqual([
    [1, 500],
    [2, 500],
  ]);
  await logged(2);
  expect(lines.find((l) => l.type === 'scheduled-delivery')!.detail).toEqual({
    event_id: id,
    trigger: null,
    attempt: 1,
    status: 500,
    outcome: 'retry in 100 s',
    error: 'the webhook answered 500',
  });
  expect(lines.filter((l) => l.type === 'scheduled-delivery').map((l) => [l.level, l.detail.outcome])).toEqual([
    ['warn', 'retry in 100 s'],
    ['warn', 'dead'],
  ]);
});

test('an event found later than its tolerance is dead without being sent', async () => {
  start();
  const id = await oneOff({ webhook: `${fixture.hook().url}/late`, secondsAgo: 120, retryConf: retry({ tolerance_seconds: 60 }) });
  const done = await until(id, (r) => r.state !== 'scheduled');
  expect(done).toMatchObject({ state: 'dead', tries: 0, delivered: false });
  expect(done.last_error).toMatch(/^the invocation is 12[01] s late, past its tolerance of 60 s$/);
  expect(fixture.hook().callsTo('/late')).toEqual([]);
  expect(await attemptsOf(id)).toEqual([]);
  await logged(1);
  expect(lines).toContainEqual({
    level: 'warn',
    type: 'scheduled-delivery',
    detail: { event_id: id, trigger: null, outcome: 'dead', error: done.last_error },
  });
});

test('an event just within its tolerance is sent', async () => {
  start();
  const id = await oneOff({ webhook: `${fixture.hook().url}/in-time`, secondsAgo: 50, retryConf: retry({ tolerance_seconds: 60 }) });
  expect((await until(id, (r) => r.state !== 'scheduled')).state).toBe('delivered');
});

test('a webhook whose environment variable is not set: the attempt is logged with the reason, the event dead', async () => {
  start([], { HOOK_BASE: fixture.hook().url });
  const ok = await oneOff({ webhook: '{{HOOK_BASE}}/from-env', secondsAgo: 1 });
  const id = await oneOff({ webhook: '{{NOT_SET_ANYWHERE}}/x', secondsAgo: 1 });
  expect((await until(ok, (r) => r.state !== 'scheduled')).state).toBe('delivered');
  const done = await until(id, (r) => r.state !== 'scheduled');
  expect(done).toMatchObject({ state: 'dead', tries: 1, last_error: 'the environment variable NOT_SET_ANYWHERE is not set' });
  expect(await attemptsOf(id)).toEqual([
    {
      attempt: 1,
      status: null,
      request: { url: null, payload: expect.objectContaining({ id }) },
      error: 'the environment variable NOT_SET_ANYWHERE is not set',
    },
  ]);
  const logged = await db.client.query('select response from engine_catalog.scheduled_invocation_log where event_id = $1', [id]);
  expect(logged.rows[0].response).toEqual({ status: null, headers: {}, body: '', error: 'the environment variable NOT_SET_ANYWHERE is not set' });
});

test('a header whose environment variable is not set keeps the event from being sent', async () => {
  start();
  const id = await oneOff({ webhook: `${fixture.hook().url}/no-header`, secondsAgo: 1, headers: [{ name: 'X-Key', value_from_env: 'NOT_SET_KEY' }] });
  const done = await until(id, (r) => r.state !== 'scheduled');
  expect(done.state).toBe('dead');
  expect(done.last_error).toContain('NOT_SET_KEY');
  expect(fixture.hook().callsTo('/no-header')).toEqual([]);
});

test("a cron invocation is sent with its trigger's name, payload and headers", async () => {
  start([cron('hourly', '0 * * * *')]);
  const [made] = await q
    .run<{ id: string }>(db.client, q.insertCronInvocations('hourly', [new Date(Date.now() - 1000)]))
    .then(async () => (await db.client.query<{ id: string }>('select id::text as id from engine_catalog.scheduled_event where scheduled_time < now()')).rows);
  const done = await until(made!.id, (r) => r.state !== 'scheduled');
  expect(done.state).toBe('delivered');
  const [call] = fixture.hook().callsTo('/cron/hourly');
  expect(call!.body).toEqual({ id: made!.id, name: 'hourly', scheduled_time: expect.any(String), payload: { from: 'hourly' } });
  expect(call!.headers['x-trigger']).toBe('hourly');
});

test('an invocation of a cron trigger that no longer exists is dead, not sent', async () => {
  start([]);
  await q.run(db.client, q.insertCronInvocations('gone', [new Date(Date.now() - 1000)]));
  const [made] = (await db.client.query<{ id: string }>("select id::text as id from engine_catalog.scheduled_event where trigger_name = 'gone'")).rows;
  const done = await until(made!.id, (r) => r.state !== 'scheduled');
  expect(done).toMatchObject({ state: 'dead', tries: 0, last_error: 'the cron trigger "gone" no longer exists' });
  expect(await attemptsOf(made!.id)).toEqual([]);
});

async function invocations(trigger: string): Promise<Date[]> {
  const r = await db.client.query<{ t: Date }>(
    'select scheduled_time as t from engine_catalog.scheduled_event where trigger_name = $1 order by scheduled_time',
    [trigger],
  );
  return r.rows.map((x) => x.t);
}

async function written(trigger: string): Promise<Date[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await invocations(trigger);
    if (found.length > 0) return found;
    if (Date.now() > deadline) throw new Error(`no invocation of ${trigger} written`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test('invocations are written ten minutes ahead; a trigger further off gets its next one', async () => {
  const before = Date.now();
  start([cron('every-minute', '* * * * *'), cron('new-year', '0 0 1 1 *')]);
  const minutes = await written('every-minute');
  expect(minutes).toHaveLength(10);
  expect(minutes[0]!.getTime()).toBeGreaterThan(before);
  expect(minutes[9]!.getTime()).toBeLessThanOrEqual(before + 10 * 60_000 + 2000);
  expect(minutes.every((t) => t.getUTCSeconds() === 0 && t.getUTCMilliseconds() === 0)).toBe(true);
  const year = await written('new-year');
  expect(year).toHaveLength(1);
  expect([year[0]!.getUTCMonth(), year[0]!.getUTCDate(), year[0]!.getUTCHours()]).toEqual([0, 1, 0]);
});

test('after a pause, the invocations missed within the tolerance are written too; none older', async () => {
  const now = Date.now();
  // The last invocation two hours ago; a tolerance of half an hour.
  await q.run(db.client, q.insertCronInvocations('paused', [new Date(Math.floor((now - 2 * 3600_000) / 600_000) * 600_000)]));
  await db.client.query("update engine_catalog.scheduled_event set state = 'delivered' where trigger_name = 'paused'");
  fixture.hook().on('/cron/paused', () => ({ status: 200 }));
  start([cron('paused', '*/10 * * * *', { retry_conf: retry({ tolerance_seconds: 1800 }) })]);
  const deadline = Date.now() + 10_000;
  let times = await invocations('paused');
  while (times.length < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    times = await invocations('paused');
  }
  const missed = times.filter((t) => t.getTime() > now - 2 * 3600_000 + 60_000 && t.getTime() <= now);
  expect(missed).toHaveLength(3);
  expect(missed.every((t) => t.getTime() > now - 1800_000)).toBe(true);
  const ahead = times.filter((t) => t.getTime() > now);
  expect(ahead).toHaveLength(1);
});

test('a retried event is sent however late its scheduled time: the tolerance holds for the first attempt only', async () => {
  fixture.hook().on('/retried', (n) => ({ status: n === 0 ? 500 : 200 }));
  start();
  const id = await oneOff({ webhook: `${fixture.hook().url}/retried`, secondsAgo: 50, retryConf: retry({ num_retries: 1, tolerance_seconds: 60 }) });
  await until(id, (r) => r.tries === 1 && r.locked_by === null);
  // The retry comes when the scheduled time is past the tolerance.
  await db.client.query(
    "update engine_catalog.scheduled_event set scheduled_time = scheduled_time - interval '1 hour', next_attempt_at = clock_timestamp() where id = $1",
    [id],
  );
  expect(await until(id, (r) => r.state !== 'scheduled')).toMatchObject({ state: 'delivered', tries: 2, last_error: null });
});

test('a one-off event without payload, comment or full retry_conf: payload null, no comment, the defaults for the rest', async () => {
  start();
  const id = await oneOff({ webhook: `${fixture.hook().url}/bare`, secondsAgo: 3600, payload: null, retryConf: { num_retries: 0 } });
  expect((await until(id, (r) => r.state !== 'scheduled')).state).toBe('delivered');
  const [call] = fixture.hook().callsTo('/bare');
  expect(call!.body).toEqual({ id, scheduled_time: expect.any(String), payload: null });
  // Past the default tolerance of 21,600 s.
  const old = await oneOff({ webhook: `${fixture.hook().url}/bare`, secondsAgo: 30_000, retryConf: { num_retries: 0 } });
  expect(await until(old, (r) => r.state !== 'scheduled')).toMatchObject({
    state: 'dead',
    last_error: expect.stringMatching(/^the invocation is 3000\d s late, past its tolerance of 21600 s$/),
  });
});

const heldFor = (id: string) => secondsHeld(db.client, 'scheduled_event', id);

test("an event is held for the longest cron trigger's timeout (at least the default 60 s) and the margin, renewed while in flight, given back on stop", async () => {
  fixture.hook().on('/held', () => ({ status: 200, delayMs: 2500 }));
  const margin = config.events.lockMarginSeconds;
  const worker = start([cron('slow-one', '0 0 1 1 *', { retry_conf: retry({ timeout_seconds: 100 }) })]);
  const id = await oneOff({ webhook: `${fixture.hook().url}/held`, secondsAgo: 1 });
  const long = await heldFor(id);
  expect(long).toBeGreaterThan(100 + margin - 5);
  expect(long).toBeLessThanOrEqual(100 + margin);
  await fixture.hook().waitFor('/held', 1, 10_000);
  await db.client.query("update engine_catalog.scheduled_event set locked_until = clock_timestamp() + interval '3 seconds' where id = $1", [id]);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await heldFor(id)).toBeGreaterThan(100 + margin - 5);
  await worker.stop(100);
  expect(await row(id)).toMatchObject({ state: 'scheduled', tries: 0, locked_by: null });

  start([]);
  const other = await oneOff({ webhook: `${fixture.hook().url}/held`, secondsAgo: 1 });
  const short = await heldFor(other);
  expect(short).toBeGreaterThan(60 + margin - 5);
  expect(short).toBeLessThanOrEqual(60 + margin);
});

test("a look that fails is a warning in the scheduler's name, and the loop goes on", async () => {
  const worker = new Scheduler(
    fixture.pool(),
    { ...config.events, fetchIntervalMs: 50 },
    () => {
      throw new Error('no metadata');
    },
    logger,
    {},
  );
  running.push(worker);
  worker.start();
  await logged(2);
  const warning = { level: 'warn', type: 'scheduled-delivery', detail: { error: 'Error: no metadata' } };
  expect(lines.slice(0, 2)).toEqual([warning, warning]);
});

const claims = [q.claimScheduled(1, 1, 'x', []), q.claimScheduled(1, 1, 'x', ['00000000-0000-0000-0000-000000000000'])];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startCounting(cronTriggers: ReturnType<typeof cron>[], settings: Partial<typeof config.events> = {}) {
  const counting = countingPool(fixture.pool());
  const document = { version: 3, sources: [], tables: [], cron_triggers: cronTriggers } as unknown as MetadataDocument;
  const worker = new Scheduler(counting.pool, { ...config.events, fetchIntervalMs: 50, ...settings }, () => ({ document, resourceVersion: 1e9 }), logger, {});
  running.push(worker);
  worker.start();
  return counting;
}

test('without cron triggers and with nothing due, a look only claims: it reads no invocations and no metadata', async () => {
  const { count } = startCounting([]);
  // Ten looks, however long a busy machine takes for them; none of them read more than the claim.
  expect(
    await waitUntil(
      async () => count(...claims),
      (n) => n >= 10,
    ),
  ).toBeGreaterThanOrEqual(10);
  expect({ latest: count(q.latestCronInvocations), version: count(q.readResourceVersion) }).toEqual({ latest: 0, version: 0 });
});

test('invocations are written once ten minutes ahead, looked for once a second, and not written again while they are there', async () => {
  // A yearly trigger whose last invocation is past: nothing of it falls in the next ten minutes.
  await q.run(db.client, q.insertCronInvocations('new-year', [new Date(Date.now() - 3600_000)]));
  await db.client.query("update engine_catalog.scheduled_event set state = 'delivered' where trigger_name = 'new-year'");
  // Each minute that begins brings one more minute within the ten ahead: the case runs within one minute.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 54_000) await pause(60_000 - intoMinute + 100);
  const { count } = startCounting([cron('every-minute', '* * * * *'), cron('new-year', '0 0 1 1 *')]);
  await written('every-minute');
  await pause(2300);
  // Generations at the start, after one second and after two (polls come every 50 ms).
  expect(count(q.latestCronInvocations)).toBeGreaterThanOrEqual(2);
  expect(count(q.latestCronInvocations)).toBeLessThanOrEqual(4);
  expect(count(q.insertCronInvocations('every-minute', []))).toBe(1);
  expect(await invocations('every-minute')).toHaveLength(10);
  expect(await invocations('new-year')).toHaveLength(1);
});

test('a scheduler whose deliveries fill its HTTP pool claims nothing more until one ends', async () => {
  fixture.hook().on('/busy', () => ({ status: 200, delayMs: 1500 }));
  const { count, reset } = startCounting([], { httpPoolSize: 1 });
  const first = await oneOff({ webhook: `${fixture.hook().url}/busy`, secondsAgo: 1 });
  const second = await oneOff({ webhook: `${fixture.hook().url}/busy`, secondsAgo: 1 });
  await fixture.hook().waitFor('/busy', 1, 10_000);
  reset();
  await pause(600);
  expect(count(...claims)).toBe(0);
  expect(await until(first, (r) => r.state !== 'scheduled')).toMatchObject({ state: 'delivered' });
  expect(await until(second, (r) => r.state !== 'scheduled')).toMatchObject({ state: 'delivered' });
  expect(count(...claims)).toBeGreaterThan(0);
});
