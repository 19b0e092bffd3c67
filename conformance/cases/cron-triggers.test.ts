// Cron triggers and one-off scheduled events: SPEC.md §2.5 (the trigger's fields), §6 rules 4 and 5
// (invocation on schedule with payload and retry_conf; include_in_metadata false keeps a trigger
// out of the export); the operations take the engine's forms.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';
import { scaled, until } from '../harness/wait';
import { startWebhook, type Webhook } from '../harness/webhook';

jest.setTimeout(scaled(120_000));
const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });
const DEFAULT_RETRY = { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 };
let hook: Webhook;

type Scheduled = { id: string; trigger_name: string | null; scheduled_time: string; state: string; tries: number; last_error: string | null };
const scheduled = async (type: 'cron' | 'one_off', extra: Record<string, unknown> = {}) =>
  ((await run('get_scheduled_events', { type, ...extra })).body as { events: Scheduled[] }).events;

beforeAll(async () => {
  hook = await startWebhook();
});
afterAll(async () => {
  await hook.close();
});
beforeEach(async () => {
  await target.reset();
  hook.calls.length = 0;
});

test(
  covers(
    ['op.create_cron_trigger', 'op.get_scheduled_events', 'dec.cron.form'],
    'a cron trigger is stored with the retry defaults, and its invocations are scheduled at the minutes its schedule names, in UTC',
  ),
  async () => {
    expectResponse(
      await run('create_cron_trigger', {
        name: 'every_ten',
        webhook: `${hook.url}/ten`,
        schedule: '*/10 * * * *',
        payload: { k: 1 },
        comment: 'ten',
        include_in_metadata: true,
      }),
      200,
      ok,
    );
    expect(((await run('export_metadata', {})).body as { cron_triggers: unknown }).cron_triggers).toEqual([
      {
        name: 'every_ten',
        webhook: `${hook.url}/ten`,
        schedule: '*/10 * * * *',
        include_in_metadata: true,
        payload: { k: 1 },
        retry_conf: DEFAULT_RETRY,
        comment: 'ten',
      },
    ]);
    const events = await until(
      () => scheduled('cron', { trigger_name: 'every_ten' }),
      (e) => e.length > 0,
      5000,
    );
    expect(events.length).toBeGreaterThanOrEqual(1);
    for (const e of events) {
      const t = new Date(e.scheduled_time);
      expect([t.getUTCMinutes() % 10, t.getUTCSeconds(), t.getUTCMilliseconds(), e.state, e.trigger_name]).toEqual([0, 0, 0, 'scheduled', 'every_ten']);
      expect(t.getTime()).toBeLessThanOrEqual(Date.now() + 11 * 60_000);
    }
    expectResponse(await run('delete_cron_trigger', { name: 'every_ten' }), 200, ok);
    expect(await scheduled('cron', { trigger_name: 'every_ten' })).toEqual([]);
  },
);

test(
  covers(
    ['rule.events.4', 'dec.cron.payload', 'dec.events.removed'],
    "a cron trigger invokes its webhook on schedule with its payload; a delivery answered after the trigger was removed and made again is not the new one's",
  ),
  async () => {
    // The first call is answered only once the trigger is gone and made again under its name.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    hook.on('/minute', (n) => (n === 0 ? { status: 200, hold: answered } : { status: 200 }));
    const created = await run('create_cron_trigger', {
      name: 'every_minute',
      webhook: `${hook.url}/minute`,
      schedule: '* * * * *',
      payload: { hello: 'world' },
      include_in_metadata: true,
      headers: [{ name: 'X-Cron', value: 'yes' }],
    });
    expectResponse(created, 200, ok);
    const [call] = await hook.waitFor('/minute', 1, { timeoutMs: 75_000, after: created });
    const body = call!.body as { id: string; name: string; scheduled_time: string; payload: unknown };
    expect({ ...body, id: typeof body.id, scheduled_time: new Date(body.scheduled_time).getUTCSeconds() }).toEqual({
      id: 'string',
      name: 'every_minute',
      scheduled_time: 0,
      payload: { hello: 'world' },
    });
    expect(call!.headers['x-cron']).toBe('yes');
    expect(Math.abs(call!.at - Date.parse(body.scheduled_time))).toBeLessThan(scaled(5000));
    expectResponse(await run('delete_cron_trigger', { name: 'every_minute' }), 200, ok);
    // A new trigger of the same name starts afresh: the old one's invocations are not its own.
    expectResponse(
      await run('create_cron_trigger', { name: 'every_minute', webhook: `${hook.url}/minute`, schedule: '0 0 1 1 *', include_in_metadata: true }),
      200,
      ok,
    );
    answer();
    const again = await until(
      () => scheduled('cron', { trigger_name: 'every_minute' }),
      (e) => e.length > 0,
      5000,
    );
    expect(
      again.map((e) => [new Date(e.scheduled_time).getUTCMonth(), new Date(e.scheduled_time).getUTCDate(), new Date(e.scheduled_time).getUTCHours(), e.state]),
    ).toEqual(again.map(() => [0, 1, 0, 'scheduled']));
    // The engine settles the held delivery when its answer comes, unseen from here: the new
    // trigger's list is watched for a while for it, and must never show it.
    const late = await until(
      () => scheduled('cron', { trigger_name: 'every_minute' }),
      (e) => e.some((x) => x.id === body.id || x.state !== 'scheduled'),
      2000,
    );
    expect(late.map((e) => [e.id === body.id ? 'the held invocation' : 'its own', e.state])).toEqual(late.map(() => ['its own', 'scheduled']));
    expectResponse(await run('delete_cron_trigger', { name: 'every_minute' }), 200, ok);
  },
  // A minute for the schedule to come round, and the waits after it.
  scaled(150_000),
);

test(
  covers(
    ['op.create_scheduled_event', 'rule.events.4', 'dec.cron.tolerance'],
    'a one-off event is delivered at its time, retried by its retry_conf, and dead when it comes later than its tolerance',
  ),
  async () => {
    hook.on('/once', (n) => ({ status: n === 0 ? 500 : 200 }));
    const created = await run('create_scheduled_event', {
      webhook: `${hook.url}/once`,
      schedule_at: new Date().toISOString(),
      payload: { n: 1 },
      comment: 'c',
      retry_conf: { num_retries: 1, retry_interval_seconds: 1 },
    });
    expect(created.status).toBe(200);
    const id = (created.body as { event_id: string }).event_id;
    const calls = await hook.waitFor('/once', 2, { timeoutMs: 10_000, after: created });
    expect(calls.map((c) => (c.body as { id: string; payload: unknown; comment: string }).payload)).toEqual([{ n: 1 }, { n: 1 }]);
    expect((calls[0]!.body as { id: string }).id).toBe(id);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(900);
    // One-off events outlive metadata changes: on a shared target, earlier runs' events are listed too.
    const mine = async () => (await scheduled('one_off')).filter((e) => e.id === id);
    expect((await until(mine, (e) => e[0]?.state === 'delivered')).map((e) => [e.id, e.state, e.tries])).toEqual([[id, 'delivered', 2]]);
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const late = (await run('create_scheduled_event', { webhook: `${hook.url}/late`, schedule_at: hourAgo, retry_conf: { tolerance_seconds: 60 } })).body as {
      event_id: string;
    };
    const keeping = await run('create_scheduled_event', { webhook: `${hook.url}/kept`, schedule_at: hourAgo });
    const kept = keeping.body as { event_id: string };
    await hook.waitFor('/kept', 1, { timeoutMs: 10_000, after: keeping });
    const settled = await until(
      () => scheduled('one_off'),
      (e) => e.find((x) => x.id === late.event_id)?.state === 'dead' && e.find((x) => x.id === kept.event_id)?.state !== 'scheduled',
    );
    expect(settled.find((x) => x.id === late.event_id)).toEqual(
      expect.objectContaining({ state: 'dead', tries: 0, last_error: expect.stringMatching(/ s late, past its tolerance of 60 s$/) }),
    );
    expect(settled.find((x) => x.id === kept.event_id)?.state).toBe('delivered');
    expect(hook.callsTo('/late')).toEqual([]);
  },
);

test(
  covers(
    ['rule.events.5', 'op.get_cron_triggers', 'dec.cron.hidden'],
    'include_in_metadata false keeps a trigger out of the export, through replace and clear, while it keeps running',
  ),
  async () => {
    await run('create_cron_trigger', { name: 'hidden', webhook: `${hook.url}/hidden`, schedule: '0 * * * *', include_in_metadata: false });
    await run('create_cron_trigger', { name: 'shown', webhook: `${hook.url}/shown`, schedule: '0 * * * *', include_in_metadata: true });
    const exported = (await run('export_metadata', {})).body as { cron_triggers: { name: string }[] };
    expect(exported.cron_triggers.map((t) => t.name)).toEqual(['shown']);
    expectResponse(await run('replace_metadata', { version: 2, tables: [] }), 200, ok);
    expectResponse(await run('clear_metadata', {}), 200, ok);
    expect(
      ((await run('get_cron_triggers', {})).body as { cron_triggers: { name: string; include_in_metadata: boolean }[] }).cron_triggers.map((t) => [
        t.name,
        t.include_in_metadata,
      ]),
    ).toEqual([['hidden', false]]);
    expect(await run('export_metadata', {}).then((r) => r.body)).toEqual({ version: 2, tables: [] });
    expect(
      (
        await until(
          () => scheduled('cron', { trigger_name: 'hidden' }),
          (e) => e.length > 0,
          5000,
        )
      ).length,
    ).toBeGreaterThan(0);
    expectResponse(await run('delete_cron_trigger', { name: 'hidden' }), 200, ok);
  },
);

test(
  covers(
    [
      'op.create_cron_trigger',
      'op.delete_cron_trigger',
      'op.delete_scheduled_event',
      'err.parse-failed.cron-schedule',
      'err.already-exists.cron-trigger',
      'err.not-exists.cron-trigger',
      'err.parse-failed.schedule-at',
      'err.not-exists.scheduled-event',
    ],
    'refusals: a schedule that is not five cron fields, a name in use without replace, unknown names and times',
  ),
  async () => {
    const make = (extra: Record<string, unknown>) =>
      run('create_cron_trigger', { name: 'c', webhook: `${hook.url}/c`, schedule: '0 0 * * *', include_in_metadata: true, ...extra });
    expectResponse(
      await make({ schedule: '0 0 * *' }),
      400,
      refused('parse-failed', 'invalid cron schedule "0 0 * *": five fields are expected, not 4', '$.args.schedule'),
    );
    expectResponse(
      await make({ schedule: '61 * * * *' }),
      400,
      refused('parse-failed', 'invalid cron schedule "61 * * * *": 61 is outside 0-59', '$.args.schedule'),
    );
    // Every field at its least and its greatest value is a schedule; one past either end is not.
    for (const schedule of ['0 0 1 1 0', '59 23 31 12 6', '59 23 31 12 7', '0-59 0-23 1-31 1-12 0-7']) {
      expectResponse(await make({ name: 'bounds', schedule, replace: true }), 200, ok);
    }
    for (const [schedule, reason] of [
      ['60 * * * *', '60 is outside 0-59'],
      ['* 24 * * *', '24 is outside 0-23'],
      ['* * 0 * *', '0 is outside 1-31'],
      ['* * 32 * *', '32 is outside 1-31'],
      ['* * * 0 *', '0 is outside 1-12'],
      ['* * * 13 *', '13 is outside 1-12'],
      ['* * * * 8', '8 is outside 0-7'],
    ] as const) {
      expectResponse(
        await make({ name: 'bounds', schedule, replace: true }),
        400,
        refused('parse-failed', `invalid cron schedule "${schedule}": ${reason}`, '$.args.schedule'),
      );
    }
    expectResponse(await run('delete_cron_trigger', { name: 'bounds' }), 200, ok);
    expectResponse(await make({}), 200, ok);
    expectResponse(await make({ schedule: '5 0 * * *' }), 400, refused('already-exists', 'cron trigger with name "c" already exists'));
    expectResponse(await make({ schedule: '5 0 * * *', replace: true }), 200, ok);
    expect(((await run('export_metadata', {})).body as { cron_triggers: { schedule: string }[] }).cron_triggers.map((t) => t.schedule)).toEqual(['5 0 * * *']);
    expectResponse(await run('delete_cron_trigger', { name: 'nope' }), 400, refused('not-exists', 'cron trigger with name "nope" does not exist'));
    expectResponse(
      await run('create_scheduled_event', { webhook: `${hook.url}/x`, schedule_at: 'tomorrow' }),
      400,
      refused('parse-failed', 'schedule_at "tomorrow" is not an ISO 8601 time with a time zone', '$.args.schedule_at'),
    );
    const future = (await run('create_scheduled_event', { webhook: `${hook.url}/x`, schedule_at: '2999-01-01T00:00:00Z' })).body as { event_id: string };
    expectResponse(await run('delete_scheduled_event', { type: 'one_off', event_id: future.event_id }), 200, ok);
    expectResponse(
      await run('delete_scheduled_event', { type: 'one_off', event_id: future.event_id }),
      400,
      refused('not-exists', `scheduled event "${future.event_id}" does not exist or has happened`),
    );
    expectResponse(
      await run('replace_metadata', { version: 2, tables: [], cron_triggers: [{ name: 'r', webhook: 'http://127.0.0.1:1/', schedule: 'every day' }] }),
      400,
      refused('parse-failed', 'invalid cron schedule "every day": five fields are expected, not 2', '$.args.cron_triggers[0].schedule'),
    );
    await run('delete_cron_trigger', { name: 'c' });
  },
);

test(
  covers(
    ['op.get_cron_triggers', 'op.create_scheduled_event', 'op.get_scheduled_events', 'op.delete_scheduled_event', 'dec.cron.form'],
    'triggers made in one bulk are listed with their form, hidden or not; one-off events far ahead are listed and deleted one by one',
  ),
  async () => {
    const make = (name: string, include: boolean) => ({
      type: 'create_cron_trigger',
      args: { name, webhook: `${hook.url}/${name}`, schedule: '0 0 1 1 *', include_in_metadata: include, payload: { name } },
    });
    expectResponse(await run('bulk', [make('yearly_shown', true), make('yearly_hidden', false)]), 200, [ok, ok]);
    const listed = ((await run('get_cron_triggers', {})).body as { cron_triggers: Record<string, unknown>[] }).cron_triggers;
    expect(listed.map((t) => [t.name, t.schedule, t.include_in_metadata, t.payload, t.retry_conf]).sort()).toEqual([
      ['yearly_hidden', '0 0 1 1 *', false, { name: 'yearly_hidden' }, DEFAULT_RETRY],
      ['yearly_shown', '0 0 1 1 *', true, { name: 'yearly_shown' }, DEFAULT_RETRY],
    ]);
    const later = (await run('create_scheduled_event', { webhook: `${hook.url}/later`, schedule_at: '2999-06-01T00:00:00Z', payload: { n: 2 } })).body as {
      event_id: string;
    };
    const sooner = (await run('create_scheduled_event', { webhook: `${hook.url}/sooner`, schedule_at: '2999-01-01T00:00:00Z', payload: { n: 1 } })).body as {
      event_id: string;
    };
    // Only these two: events of the cases before stay listed (they are no metadata).
    const mine = async () =>
      (await scheduled('one_off'))
        .filter((e) => e.id === sooner.event_id || e.id === later.event_id)
        .sort((a, b) => Date.parse(a.scheduled_time) - Date.parse(b.scheduled_time));
    expect((await mine()).map((e) => [e.id, new Date(e.scheduled_time).toISOString(), e.state, e.tries])).toEqual([
      [sooner.event_id, '2999-01-01T00:00:00.000Z', 'scheduled', 0],
      [later.event_id, '2999-06-01T00:00:00.000Z', 'scheduled', 0],
    ]);
    expectResponse(await run('delete_scheduled_event', { type: 'one_off', event_id: sooner.event_id }), 200, ok);
    expect((await mine()).map((e) => e.id)).toEqual([later.event_id]);
    expectResponse(await run('delete_scheduled_event', { type: 'one_off', event_id: later.event_id }), 200, ok);
    expect(await mine()).toEqual([]);
    expectResponse(
      await run('bulk', [
        { type: 'delete_cron_trigger', args: { name: 'yearly_shown' } },
        { type: 'delete_cron_trigger', args: { name: 'yearly_hidden' } },
      ]),
      200,
      [ok, ok],
    );
    expect(((await run('get_cron_triggers', {})).body as { cron_triggers: unknown[] }).cron_triggers).toEqual([]);
  },
);
