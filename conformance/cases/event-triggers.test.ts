// Event triggers: SPEC.md §2.6 (the trigger and its metadata file form), §4.3 (create_event_trigger)
// and §6 rules 1-3 (what invokes the webhook, retries and timeouts, headers), against a webhook the
// harness serves on loopback; with the decisions recorded where SPEC.md leaves things open (the
// event body, what counts as success, manual invocation, dead letters). Against another engine, the
// environment-variable cases need ENGINE_CONFORMANCE_HOOK_SECRET=s3cret and
// ENGINE_CONFORMANCE_HOOK_URL=<the webhook's url>/env in that engine's environment
// (ENGINE_WEBHOOK_PORT fixes the port).
import { branded } from '../harness/brand';
import { caseNeeding, caseWithProfile, covers } from '../harness/cases';
import { psqlLine } from '../harness/psqlLine';
import { expectResponse } from '../harness/client';
import { REQUIRES_HOOK_ENVIRONMENT, useTarget } from '../harness/target';
import { scaled, until } from '../harness/wait';
import { startWebhook, type Webhook } from '../harness/webhook';

// A second server on the same database (any profile would do): both deliver events.
const target = useTarget({ profiles: ['no-function-inference'] });
const item = { schema: 'evt', name: 'item' };
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });
const gql = async (query: string, headers: Record<string, string> = target.adminHeaders()) => (await target.graphql(query, undefined, { headers })).body;
const DEFAULT_RETRY = { num_retries: 0, interval_sec: 10, timeout_sec: 60 };
let hook: Webhook;

const trigger = (name: string, path: string, extra: Record<string, unknown> = {}) => ({ name, table: item, webhook: `${hook.url}${path}`, ...extra });
/** Rows changed on the target's database: the line that changes them by hand, shown by a wait for the calls they should cause. */
const changeRows = async (text: string) => {
  await target.sql(text);
  return psqlLine(text);
};
const eventsOf = async (name: string, status = 'all', limit?: number) =>
  (await run('get_event_logs', { name, status, ...(limit ? { limit } : {}) })).body as {
    id: string;
    op: string;
    state: string;
    tries: number;
    data: unknown;
  }[];
const invocationsOf = async (name: string) =>
  (await run('get_event_invocation_logs', { name })).body as { event_id: string; attempt: number; status: number | null; response: { error: string | null } }[];

beforeAll(async () => {
  hook = await startWebhook();
  process.env.ENGINE_CONFORMANCE_HOOK_SECRET ??= 's3cret';
  process.env.ENGINE_CONFORMANCE_HOOK_URL ??= `${hook.url}/env`;
  await target.sql(`drop schema if exists evt cascade; create schema evt;
    create table evt.item (id integer primary key, name text not null, price integer, note text);`);
});
afterAll(async () => {
  await hook.close();
});
beforeEach(async () => {
  await target.reset();
  await target.sql('delete from evt.item');
  expectResponse(
    await run('bulk', [
      { type: 'reload_metadata', args: {} },
      { type: 'track_table', args: { table: item } },
    ]),
    200,
  );
  hook.calls.length = 0;
});

test(
  covers(
    ['op.create_event_trigger', 'dec.events.form'],
    'create_event_trigger takes the §2.6 fields and exports the metadata file form, with the retry defaults',
  ),
  async () => {
    expectResponse(
      await run(
        'create_event_trigger',
        trigger('items_changed', '/form', { insert: { columns: '*' }, update: { columns: ['price'] }, delete: { columns: '*' } }),
      ),
      200,
      ok,
    );
    expectResponse(
      await run('pg_create_event_trigger', {
        ...trigger('manual_only', '/form', { enable_manual: true, retry_conf: { num_retries: 3 } }),
        source: 'default',
        headers: [
          { name: 'X-Static', value: 'v' },
          { name: 'X-Env', value_from_env: 'ENGINE_CONFORMANCE_HOOK_SECRET' },
        ],
      }),
      200,
      ok,
    );
    expect(((await run('export_metadata', {})).body as { tables: unknown[] }).tables).toEqual([
      {
        table: item,
        event_triggers: [
          {
            name: 'items_changed',
            definition: { enable_manual: false, insert: { columns: '*' }, update: { columns: ['price'] }, delete: { columns: '*' } },
            retry_conf: DEFAULT_RETRY,
            webhook: `${hook.url}/form`,
          },
          {
            name: 'manual_only',
            definition: { enable_manual: true },
            retry_conf: { num_retries: 3, interval_sec: 10, timeout_sec: 60 },
            webhook: `${hook.url}/form`,
            headers: [
              { name: 'X-Static', value: 'v' },
              { name: 'X-Env', value_from_env: 'ENGINE_CONFORMANCE_HOOK_SECRET' },
            ],
          },
        ],
      },
    ]);
  },
);

test(
  covers(
    ['rule.events.1', 'dec.events.payload', 'dec.events.success'],
    'inserts, updates of a listed column and deletes invoke the webhook with the change and the session of whoever made it',
  ),
  async () => {
    expectResponse(
      await run('bulk', [
        {
          type: 'create_event_trigger',
          args: trigger('items_changed', '/changes', { insert: { columns: '*' }, update: { columns: ['price'] }, delete: { columns: '*' } }),
        },
        { type: 'create_insert_permission', args: { table: item, role: 'user', permission: { columns: ['id', 'name', 'price'], check: {} } } },
        { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id'], filter: {} } } },
      ]),
      200,
      [ok, ok, ok],
    );
    expect(
      await gql('mutation { insert_evt_item_one(object: {id: 1, name: "pen", price: 3}) { id } }', {
        ...target.adminHeaders(),
        'x-engine-role': 'user',
        'x-engine-user-id': '7',
      }),
    ).toEqual({ data: { insert_evt_item_one: { id: 1 } } });
    const changed = await target.metadata(
      {
        type: 'run_sql',
        args: { sql: "update evt.item set note = 'no event' where id = 1; update evt.item set price = 4 where id = 1; delete from evt.item where id = 1;" },
      },
      { endpoint: '/v2/query' },
    );
    const calls = await hook.waitFor('/changes', 3, { after: `the insert by GraphQL, then:\n  ${changed.curl}` });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hook.callsTo('/changes')).toHaveLength(3);
    const bodies = calls
      .map((c) => c.body as Record<string, unknown>)
      .sort(
        (a, b) =>
          ['INSERT', 'UPDATE', 'DELETE'].indexOf((a.event as { op: string }).op) - ['INSERT', 'UPDATE', 'DELETE'].indexOf((b.event as { op: string }).op),
      );
    const row = (price: number, note: string | null) => ({ id: 1, name: 'pen', price, note });
    expect(bodies.map((b) => ({ ...b, id: typeof b.id, created_at: typeof b.created_at }))).toEqual([
      {
        id: 'string',
        created_at: 'string',
        trigger: { name: 'items_changed' },
        table: item,
        delivery_info: { max_retries: 0, current_retry: 0 },
        event: { op: 'INSERT', data: { old: null, new: row(3, null) }, session_variables: branded({ 'x-engine-role': 'user', 'x-engine-user-id': '7' }) },
      },
      {
        id: 'string',
        created_at: 'string',
        trigger: { name: 'items_changed' },
        table: item,
        delivery_info: { max_retries: 0, current_retry: 0 },
        event: { op: 'UPDATE', data: { old: row(3, 'no event'), new: row(4, 'no event') }, session_variables: null },
      },
      {
        id: 'string',
        created_at: 'string',
        trigger: { name: 'items_changed' },
        table: item,
        delivery_info: { max_retries: 0, current_retry: 0 },
        event: { op: 'DELETE', data: { old: row(4, 'no event'), new: null }, session_variables: null },
      },
    ]);
    expect(calls.every((c) => c.headers['content-type'] === 'application/json')).toBe(true);
    const events = await until(
      () => eventsOf('items_changed'),
      (e) => e.every((x) => x.state === 'delivered'),
    );
    expect(events.map((e) => [e.op, e.state, e.tries]).sort()).toEqual([
      ['DELETE', 'delivered', 1],
      ['INSERT', 'delivered', 1],
      ['UPDATE', 'delivered', 1],
    ]);
  },
);

test(covers(['rule.events.1'], 'a change that is rolled back invokes nothing'), async () => {
  await run('create_event_trigger', trigger('rolled_back', '/rollback', { insert: { columns: '*' } }));
  const r = await target.metadata(
    { type: 'run_sql', args: { sql: "insert into evt.item (id, name) values (2, 'x'); select 1 / 0;" } },
    { endpoint: '/v2/query' },
  );
  expect(r.status).toBe(400);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(hook.callsTo('/rollback')).toEqual([]);
  expect(await eventsOf('rolled_back')).toEqual([]);
});

caseNeeding(
  REQUIRES_HOOK_ENVIRONMENT,
  ['rule.events.3'],
  "webhook requests carry the static headers and those taken from the engine's environment; the webhook itself may come from there",
  async () => {
    await run('create_event_trigger', {
      name: 'with_headers',
      table: item,
      webhook_from_env: 'ENGINE_CONFORMANCE_HOOK_URL',
      insert: { columns: '*' },
      headers: [
        { name: 'X-Static', value: 'plain' },
        { name: 'X-Secret', value_from_env: 'ENGINE_CONFORMANCE_HOOK_SECRET' },
      ],
    });
    const made = await changeRows("insert into evt.item (id, name) values (3, 'h')");
    const [call] = await hook.waitFor('/env', 1, { after: made });
    expect([call!.headers['x-static'], call!.headers['x-secret']]).toEqual(['plain', 's3cret']);
  },
);

test(
  covers(
    ['rule.events.2', 'dec.events.dead-letter', 'op.get_event_logs', 'op.get_event_invocation_logs'],
    'a failing webhook is tried num_retries more times, interval_sec apart; then the event is dead',
  ),
  async () => {
    hook.on('/fail', () => ({ status: 500 }));
    await run(
      'create_event_trigger',
      trigger('failing', '/fail', { insert: { columns: '*' }, retry_conf: { num_retries: 2, interval_sec: 1, timeout_sec: 5 } }),
    );
    const made = await changeRows("insert into evt.item (id, name) values (4, 'f')");
    const calls = await hook.waitFor('/fail', 3, { after: made });
    // interval_sec (1 s) apart, not the default 10 s: a loaded machine may stretch a gap, never below the interval.
    const gaps = [calls[1]!.at - calls[0]!.at, calls[2]!.at - calls[1]!.at];
    expect(gaps.filter((g) => g < 900 || g >= Math.min(scaled(3000), 9000))).toEqual([]);
    expect(calls.map((c) => (c.body as { delivery_info: unknown }).delivery_info)).toEqual([0, 1, 2].map((n) => ({ max_retries: 2, current_retry: n })));
    const [event] = await until(
      () => eventsOf('failing', 'dead'),
      (e) => e.length === 1,
    );
    expect(event).toEqual(expect.objectContaining({ op: 'INSERT', state: 'dead', tries: 3 }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.callsTo('/fail')).toHaveLength(3);
    const invocations = await invocationsOf('failing');
    expect(invocations.map((i) => [i.attempt, i.status, i.response.error])).toEqual([3, 2, 1].map((a) => [a, 500, 'the webhook answered 500']));
  },
);

test(covers(['rule.events.2'], 'timeout_sec ends an attempt the webhook does not answer in time'), async () => {
  // The webhook answers only after the case has seen the event dead: only the timeout can end the attempt.
  let answer: (() => void) | undefined;
  hook.on('/slow', () => ({ status: 200, hold: new Promise<void>((resolve) => (answer = resolve)) }));
  await run('create_event_trigger', trigger('slow', '/slow', { insert: { columns: '*' }, retry_conf: { num_retries: 0, interval_sec: 1, timeout_sec: 1 } }));
  await target.sql("insert into evt.item (id, name) values (5, 's')");
  try {
    const [event] = await until(
      () => eventsOf('slow', 'dead'),
      (e) => e.length === 1,
      10_000,
    );
    expect(event?.state).toBe('dead');
    const [invocation] = await invocationsOf('slow');
    expect([invocation!.status, invocation!.response.error]).toEqual([null, 'no answer within 1 s']);
  } finally {
    answer?.();
  }
});

test(covers(['rule.events.2', 'dec.events.retry-after'], "a webhook's Retry-After sets when the next attempt comes"), async () => {
  hook.on('/busy', (n) => (n === 0 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 }));
  await run('create_event_trigger', trigger('busy', '/busy', { insert: { columns: '*' }, retry_conf: { num_retries: 1, interval_sec: 60, timeout_sec: 5 } }));
  const made = await changeRows("insert into evt.item (id, name) values (6, 'b')");
  const calls = await hook.waitFor('/busy', 2, { timeoutMs: 10_000, after: made });
  expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(900);
  // Retry-After's 1 s, not interval_sec's 60 (a loaded machine may stretch the second).
  expect(calls[1]!.at - calls[0]!.at).toBeLessThan(scaled(5000));
  expect(
    (
      await until(
        () => eventsOf('busy'),
        (e) => e[0]?.state === 'delivered',
      )
    ).map((e) => [e.state, e.tries]),
  ).toEqual([['delivered', 2]]);
});

test(
  covers(
    ['dec.events.manual', 'op.invoke_event_trigger', 'op.redeliver_event', 'err.not-supported.manual-invocation', 'err.not-exists.event'],
    'a trigger with enable_manual is invoked by hand; a dead event can be delivered again',
  ),
  async () => {
    hook.on('/manual', (n) => ({ status: n === 0 ? 500 : 200 }));
    await run('create_event_trigger', trigger('by_hand', '/manual', { enable_manual: true }));
    await run('create_event_trigger', trigger('automatic', '/manual', { insert: { columns: '*' } }));
    const invoked = await run('invoke_event_trigger', { name: 'by_hand', payload: { reason: 'test' } });
    expect(invoked.status).toBe(200);
    const eventId = (invoked.body as { event_id: string }).event_id;
    const [first] = await hook.waitFor('/manual', 1, { after: invoked });
    expect((first!.body as { id: string; event: unknown }).id).toBe(eventId);
    expect((first!.body as { event: unknown }).event).toEqual({
      op: 'MANUAL',
      data: { old: null, new: { reason: 'test' } },
      session_variables: branded({ 'x-engine-role': 'admin' }),
    });
    await until(
      () => eventsOf('by_hand', 'dead'),
      (e) => e.length === 1,
    );
    const redelivered = await run('redeliver_event', { event_id: eventId });
    expectResponse(redelivered, 200, ok);
    await hook.waitFor('/manual', 2, { after: redelivered });
    expect(
      (
        await until(
          () => eventsOf('by_hand'),
          (e) => e[0]?.state === 'delivered',
        )
      ).map((e) => [e.id, e.state]),
    ).toEqual([[eventId, 'delivered']]);
    expectResponse(
      await run('invoke_event_trigger', { name: 'automatic', payload: {} }),
      400,
      refused('not-supported', 'event trigger "automatic" cannot be invoked by hand: enable_manual is false'),
    );
    expectResponse(
      await run('redeliver_event', { event_id: '00000000-0000-0000-0000-000000000000' }),
      400,
      refused('not-exists', 'event "00000000-0000-0000-0000-000000000000" does not exist'),
    );
  },
);

test(
  covers(
    [
      'op.create_event_trigger',
      'op.delete_event_trigger',
      'err.already-exists.event-trigger',
      'err.not-exists.event-trigger',
      'err.parse-failed.event-trigger-name',
      'err.parse-failed.event-trigger-operations',
      'err.not-exists.column',
      'dec.events.replace',
    ],
    'names are unique unless replace is set; refusals change nothing; a deleted trigger invokes nothing',
  ),
  async () => {
    await run('create_event_trigger', trigger('one', '/one', { insert: { columns: '*' } }));
    expectResponse(
      await run('create_event_trigger', trigger('one', '/two', { delete: { columns: '*' } })),
      400,
      refused('already-exists', 'event trigger with name "one" already exists'),
    );
    expectResponse(
      await run('create_event_trigger', trigger('bad name!', '/x', { insert: { columns: '*' } })),
      400,
      refused('parse-failed', 'event trigger name "bad name!" must be 1 to 42 letters, digits, _ or -'),
    );
    expectResponse(
      await run('create_event_trigger', trigger('nothing', '/x')),
      400,
      refused('parse-failed', 'event trigger "nothing" has no operation: give insert, update, delete or enable_manual'),
    );
    expectResponse(
      await run('create_event_trigger', trigger('cols', '/x', { update: { columns: ['price', 'ghost'] } })),
      400,
      refused('not-exists', '"ghost" does not exist', '$.args.update.columns'),
    );
    expectResponse(
      await run('create_event_trigger', { ...trigger('both', '/x', { insert: { columns: '*' } }), webhook_from_env: 'X' }),
      400,
      refused('parse-failed', 'exactly one of "webhook" and "webhook_from_env" is expected'),
    );
    expectResponse(
      await run('create_event_trigger', { ...trigger('t', '/x', { insert: { columns: '*' } }), table: { schema: 'evt', name: 'nope' } }),
      400,
      refused('not-exists', 'table "evt.nope" does not exist'),
    );
    expectResponse(await run('create_event_trigger', trigger('one', '/two', { delete: { columns: '*' }, replace: true })), 200, ok);
    expect(((await run('export_metadata', {})).body as { tables: { event_triggers: unknown }[] }).tables[0]!.event_triggers).toEqual([
      { name: 'one', definition: { enable_manual: false, delete: { columns: '*' } }, retry_conf: DEFAULT_RETRY, webhook: `${hook.url}/two` },
    ]);
    const made = await changeRows("insert into evt.item (id, name) values (7, 'a'); delete from evt.item where id = 7");
    await hook.waitFor('/two', 1, { after: made });
    expectResponse(await run('delete_event_trigger', { name: 'one' }), 200, ok);
    expectResponse(await run('delete_event_trigger', { name: 'one' }), 400, refused('not-exists', 'event trigger with name "one" does not exist'));
    expect(await target.sql("select tgname::text from pg_trigger where tgrelid = 'evt.item'::regclass and tgname::text like 'engine_evt_%'")).toEqual([]);
    await target.sql("insert into evt.item (id, name) values (8, 'b'); delete from evt.item where id = 8");
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect([hook.callsTo('/one').length, hook.callsTo('/two').length]).toEqual([0, 1]);
  },
);

test(
  covers(
    ['dec.events.removed', 'op.delete_event_trigger', 'op.get_event_logs', 'op.get_event_invocation_logs', 'err.not-exists.event'],
    "a removed trigger's events are neither retried nor listed, also under a new trigger of the same name",
  ),
  async () => {
    hook.on('/retried', () => ({ status: 500 }));
    await run(
      'create_event_trigger',
      trigger('gone', '/retried', { insert: { columns: '*' }, retry_conf: { num_retries: 5, interval_sec: 1, timeout_sec: 5 } }),
    );
    const made = await changeRows("insert into evt.item (id, name) values (11, 'g')");
    await hook.waitFor('/retried', 1, { after: made });
    const [old] = await until(
      () => eventsOf('gone'),
      (e) => e.length === 1 && e[0]!.tries === 1,
    );
    expectResponse(await run('delete_event_trigger', { name: 'gone' }), 200, ok);
    expectResponse(await run('create_event_trigger', trigger('gone', '/again', { insert: { columns: '*' } })), 200, ok);
    expect([await eventsOf('gone'), await invocationsOf('gone')]).toEqual([[], []]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.callsTo('/retried')).toHaveLength(1);
    expectResponse(await run('redeliver_event', { event_id: old!.id }), 400, refused('not-exists', `event "${old!.id}" does not exist`));
    const again = await changeRows("insert into evt.item (id, name) values (12, 'h')");
    await hook.waitFor('/again', 1, { after: again });
    const events = await until(
      () => eventsOf('gone'),
      (e) => e[0]?.state === 'delivered',
    );
    expect(events.map((e) => [e.op, (e.data as { new: { id: number } }).new.id, e.state])).toEqual([['INSERT', 12, 'delivered']]);
    expectResponse(await run('clear_metadata', {}), 200, ok);
    expectResponse(
      await run('bulk', [
        { type: 'track_table', args: { table: item } },
        { type: 'create_event_trigger', args: trigger('gone', '/again', { insert: { columns: '*' } }) },
      ]),
      200,
      [ok, ok],
    );
    expect([await eventsOf('gone'), await invocationsOf('gone')]).toEqual([[], []]);
  },
);

test(
  covers(
    ['op.replace_metadata.v1', 'dec.events.form', 'op.untrack_table'],
    'event triggers round-trip through replace_metadata and work after it; untracking the table removes them',
  ),
  async () => {
    const document = {
      version: 2,
      tables: [
        {
          table: item,
          event_triggers: [
            {
              name: 'replaced',
              definition: { enable_manual: false, insert: { columns: '*' } },
              retry_conf: { num_retries: 1, interval_sec: 2, timeout_sec: 3 },
              webhook: `${hook.url}/replaced`,
              headers: [{ name: 'X-A', value: 'b' }],
            },
          ],
        },
      ],
    };
    expectResponse(await run('replace_metadata', document), 200, ok);
    expect((await run('export_metadata', {})).body).toEqual(document);
    const made = await changeRows("insert into evt.item (id, name) values (9, 'r')");
    const [call] = await hook.waitFor('/replaced', 1, { after: made });
    expect(call!.headers['x-a']).toBe('b');
    expectResponse(await run('untrack_table', { table: item }), 200, ok);
    expect(await target.sql("select count(*)::int as n from pg_trigger where tgname::text like 'engine_evt_%'")).toEqual([{ n: 0 }]);
  },
);

caseWithProfile(
  'no-function-inference',
  ['rule.events.1', 'dec.events.shared'],
  'two servers on one database share the deliveries: each event reaches the webhook once',
  async () => {
    const other = target.profileTarget('no-function-inference')!;
    await run('create_event_trigger', trigger('shared', '/shared', { insert: { columns: '*' } }));
    // Both servers know the trigger before the rows come.
    await until(
      async () =>
        ((await other.metadata({ type: 'export_metadata', args: {} })).body as { tables: { event_triggers?: unknown[] }[] }).tables[0]?.event_triggers
          ?.length ?? 0,
      (n) => n === 1,
    );
    const made: string[] = [];
    for (let b = 0; b < 10; b++)
      made.push(await changeRows(`insert into evt.item (id, name) select g, 'n' || g from generate_series(${1000 + b * 50}, ${1049 + b * 50}) g`));
    // A loaded machine delivers slowly, not less: the wait goes on while calls come, and should they
    // stop, says where the engine's events are (pending: slow; dead or missing: lost).
    const calls = await hook.waitFor('/shared', 500, { timeoutMs: 30_000, after: made.join('\n  ') }).catch(async (error: Error) => {
      const states = await Promise.all(['pending', 'processed', 'dead'].map(async (status) => `${status} ${(await eventsOf('shared', status, 1000)).length}`));
      throw new Error(`${error.message}\nThe engine lists the trigger's events as: ${states.join(', ')}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = hook.callsTo('/shared').map((c) => (c.body as { event: { data: { new: { id: number } } } }).event.data.new.id);
    expect([ids.length, new Set(ids).size]).toEqual([500, 500]);
    expect(calls.length).toBeGreaterThanOrEqual(500);
    // A delivery is recorded after the webhook answered: wait for the last records.
    const by = await until(
      () =>
        target.sql(
          "select count(distinct locked_by) as holders, count(*)::int as n from engine_catalog.event_log where trigger_name = 'shared' and state = 'delivered'",
        ),
      (rows) => (rows[0] as { n: number }).n >= 500,
    );
    expect(by).toEqual([{ holders: '0', n: 500 }]);
    expect(hook.callsTo('/shared')).toHaveLength(500);
  },
  // Its waits (the other server, the calls, the records) each say what is missing when they run
  // out: together they take longer than jest's limit for a case, the more on a loaded machine.
  scaled(180_000),
);

test(
  covers(
    ['dec.events.pause', 'op.pause_event_trigger', 'op.resume_event_trigger', 'err.not-exists.event-trigger'],
    'a paused trigger captures changes and delivers nothing until it is resumed',
  ),
  async () => {
    expectResponse(await run('create_event_trigger', trigger('paused', '/paused', { insert: { columns: '*' } })), 200, ok);
    const exported = (await run('export_metadata', {})).body;
    expectResponse(await run('pause_event_trigger', { name: 'paused' }), 200, ok);
    expectResponse(await run('pg_pause_event_trigger', { name: 'paused', source: 'default' }), 200, ok);
    await target.sql("insert into evt.item values (1, 'one', 1, null), (2, 'two', 2, null)");
    // Long enough for many fetch intervals of the worker: nothing goes while paused.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.callsTo('/paused')).toEqual([]);
    expect((await eventsOf('paused')).map((e) => [e.op, e.state, e.tries])).toEqual([
      ['INSERT', 'pending', 0],
      ['INSERT', 'pending', 0],
    ]);
    expect((await run('export_metadata', {})).body).toEqual(exported);
    const resumed = await run('resume_event_trigger', { name: 'paused' });
    expectResponse(resumed, 200, ok);
    const calls = await hook.waitFor('/paused', 2, { after: resumed });
    expect(calls.map((c) => (c.body as { event: { data: { new: { id: number } } } }).event.data.new.id).sort()).toEqual([1, 2]);
    expectResponse(await run('resume_event_trigger', { name: 'paused' }), 200, ok);
    for (const type of ['pause_event_trigger', 'resume_event_trigger'])
      expectResponse(await run(type, { name: 'nope' }), 400, refused('not-exists', 'event trigger with name "nope" does not exist'));
  },
);

test(
  covers(['dec.events.pause', 'dec.events.removed', 'op.pause_event_trigger'], 'a pause ends with its trigger: one re-created under the same name delivers'),
  async () => {
    expectResponse(await run('create_event_trigger', trigger('again', '/again', { insert: { columns: '*' } })), 200, ok);
    expectResponse(await run('pause_event_trigger', { name: 'again' }), 200, ok);
    expectResponse(await run('delete_event_trigger', { name: 'again' }), 200, ok);
    expectResponse(await run('create_event_trigger', trigger('again', '/again', { insert: { columns: '*' } })), 200, ok);
    const made = await changeRows("insert into evt.item values (3, 'three', 3, null)");
    expect((await hook.waitFor('/again', 1, { after: made })).map((c) => (c.body as { event: { data: { new: { id: number } } } }).event.data.new.id)).toEqual([
      3,
    ]);
  },
);

test(
  covers(
    ['dec.events.replace', 'rule.events.1', 'op.replace_metadata.v1'],
    'a trigger replaced with other update columns follows the new ones, by create_event_trigger and by replace_metadata',
  ),
  async () => {
    await target.sql("insert into evt.item values (1, 'one', 10, null)");
    expectResponse(await run('create_event_trigger', trigger('cols', '/cols', { update: { columns: ['price'] } })), 200, ok);
    expectResponse(await run('create_event_trigger', trigger('cols', '/cols', { update: { columns: ['name'] }, replace: true })), 200, ok);
    const newNames = () => hook.callsTo('/cols').map((c) => (c.body as { event: { data: { new: { name: string; price: number } } } }).event.data.new);
    await target.sql('update evt.item set price = 11 where id = 1');
    const renamed = await changeRows("update evt.item set name = 'uno' where id = 1");
    await hook.waitFor('/cols', 1, { after: renamed });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Only the change of the column the trigger lists now.
    expect(newNames()).toEqual([{ id: 1, name: 'uno', price: 11, note: null }]);
    // The same through replace_metadata: back to price.
    const exported = (await run('export_metadata', {})).body as { tables: { event_triggers: { definition: Record<string, unknown> }[] }[] };
    exported.tables[0]!.event_triggers[0]!.definition = { enable_manual: false, update: { columns: ['price'] } };
    expectResponse(await run('replace_metadata', exported), 200, ok);
    hook.calls.length = 0;
    await target.sql("update evt.item set name = 'eins' where id = 1");
    const repriced = await changeRows('update evt.item set price = 12 where id = 1');
    await hook.waitFor('/cols', 1, { after: repriced });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(newNames()).toEqual([{ id: 1, name: 'eins', price: 12, note: null }]);
  },
);

test(
  covers(
    ['op.invoke_event_trigger', 'op.resume_event_trigger', 'dec.events.manual', 'dec.events.pause', 'dec.events.success'],
    'a manual trigger brought by replace_metadata: invoked by hand while paused, its event waits, and is delivered once when resumed',
  ),
  async () => {
    hook.on('/replaced-manual', () => ({ status: 200 }));
    const manual = { name: 'replaced_manual', definition: { enable_manual: true }, retry_conf: DEFAULT_RETRY, webhook: `${hook.url}/replaced-manual` };
    expectResponse(await run('replace_metadata', { version: 2, tables: [{ table: item, event_triggers: [manual] }] }), 200);
    expect((await run('export_metadata', {})).body).toEqual({ version: 2, tables: [{ table: item, event_triggers: [manual] }] });
    expectResponse(await run('pg_pause_event_trigger', { name: 'replaced_manual', source: 'default' }), 200, ok);
    const invoked = await run('pg_invoke_event_trigger', { name: 'replaced_manual', source: 'default', payload: { n: 1 } });
    expect(invoked.status).toBe(200);
    const eventId = (invoked.body as { event_id: string }).event_id;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.callsTo('/replaced-manual')).toEqual([]);
    expect((await eventsOf('replaced_manual')).map((e) => [e.id, e.state, e.tries])).toEqual([[eventId, 'pending', 0]]);
    const resumed = await run('resume_event_trigger', { name: 'replaced_manual' });
    expectResponse(resumed, 200, ok);
    const [call] = await hook.waitFor('/replaced-manual', 1, { after: resumed });
    expect((call!.body as { id: string; event: unknown }).id).toBe(eventId);
    expect((call!.body as { event: unknown }).event).toEqual({
      op: 'MANUAL',
      data: { old: null, new: { n: 1 } },
      session_variables: branded({ 'x-engine-role': 'admin' }),
    });
    expect(
      (
        await until(
          () => eventsOf('replaced_manual'),
          (e) => e[0]?.state === 'delivered',
        )
      ).map((e) => [e.id, e.state, e.tries]),
    ).toEqual([[eventId, 'delivered', 1]]);
    expect(hook.callsTo('/replaced-manual')).toHaveLength(1);
  },
);
