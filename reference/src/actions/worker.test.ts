// The action worker on a real database: what it settles each logged request with, how long it
// holds one, and what it gives back when it stops.
import type { MetadataDocument } from '../../../spec';
import { secondsHeld, useCatalogWorkers, useWorkerDatabase } from '../../test-support/workerDatabase';
import * as q from '../sql';
import { ActionWorker } from './worker';

const fixture = useWorkerDatabase('action-worker', 'select 1');
const { db, config } = fixture;
const { logger, lines, running, logged } = useCatalogWorkers<ActionWorker>(fixture, 'delete from engine_catalog.action_log');

const action = (name: string, path: string, timeout = 30) => ({
  name,
  definition: { kind: 'asynchronous', type: 'mutation', arguments: [], output_type: 'Moved', handler: `${fixture.hook().url}${path}`, timeout },
});

/** A worker serving `actions`, its copy of the metadata newer than the stored one. */
function start(actions: ReturnType<typeof action>[]): ActionWorker {
  const document = { version: 3, sources: [], tables: [], actions } as unknown as MetadataDocument;
  const worker = new ActionWorker(fixture.pool(), config.events, () => ({ document, resourceVersion: 1e9 }), logger);
  running.push(worker);
  worker.start();
  return worker;
}

async function request(name: string): Promise<string> {
  const [row] = await q.run<{ id: string }>(
    db.client,
    q.insertActionRequest({ name, input: { n: 1 }, sessionVariables: { 'x-engine-role': 'user', 'x-engine-user-id': '7' }, query: 'mutation { go }' }),
  );
  return row!.id;
}

interface Row {
  state: string;
  output: unknown;
  errors: unknown;
  locked_by: string | null;
  locked_until: Date | null;
}

async function row(id: string): Promise<Row> {
  const r = await db.client.query<Row>('select state, output, errors, locked_by, locked_until from engine_catalog.action_log where id = $1', [id]);
  return r.rows[0]!;
}

async function settled(id: string): Promise<Row> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await row(id);
    if (found.state !== 'created') return found;
    if (Date.now() > deadline) throw new Error(`request ${id} not settled: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test("a handler's 2xx answer is the output; the handler gets the action, input, session and query; the delivery is logged", async () => {
  start([action('go', '/ok')]);
  const id = await request('go');
  expect(await settled(id)).toEqual({ state: 'completed', output: { received: true }, errors: null, locked_by: null, locked_until: null });
  const [call] = fixture.hook().callsTo('/ok');
  expect(call!.body).toEqual({
    action: { name: 'go' },
    input: { n: 1 },
    session_variables: { 'x-engine-role': 'user', 'x-engine-user-id': '7' },
    request_query: 'mutation { go }',
  });
  await logged(1);
  expect(lines).toContainEqual({ level: 'info', type: 'action-delivery', detail: { id, action: 'go', outcome: 'completed' } });
});

test("a handler's 4xx answer is the request's errors", async () => {
  fixture.hook().on('/refuses', () => ({ status: 422 }));
  start([action('go', '/refuses')]);
  const id = await request('go');
  expect(await settled(id)).toEqual({
    state: 'error',
    output: null,
    errors: { message: 'the handler answered 422', extensions: { path: '$', code: 'unexpected' } },
    locked_by: null,
    locked_until: null,
  });
  await logged(1);
  expect(lines).toContainEqual({ level: 'info', type: 'action-delivery', detail: { id, action: 'go', outcome: 'error' } });
});

test('a handler that fails (5xx) settles the request with the failure as its error', async () => {
  fixture.hook().on('/fails', () => ({ status: 503 }));
  start([action('go', '/fails')]);
  const id = await request('go');
  expect(await settled(id)).toMatchObject({
    state: 'error',
    output: null,
    errors: { message: expect.stringContaining('it answered 503'), extensions: { path: '$', code: 'unexpected' } },
  });
});

test('a request for an action that no longer exists is settled with not-exists, and no handler is called', async () => {
  start([action('go', '/never')]);
  const id = await request('gone');
  expect(await settled(id)).toEqual({
    state: 'error',
    output: null,
    errors: { message: 'the action "gone" no longer exists', extensions: { path: '$', code: 'not-exists' } },
    locked_by: null,
    locked_until: null,
  });
  expect(fixture.hook().callsTo('/never')).toEqual([]);
});

const heldFor = (id: string) => secondsHeld(db.client, 'action_log', id);

test("a request is held for the longest action's timeout (at least 30 s) and the margin", async () => {
  fixture.hook().on('/slow', () => ({ status: 200, delayMs: 2000 }));
  const margin = config.events.lockMarginSeconds;
  start([action('go', '/slow', 5), action('long', '/slow', 100)]);
  const long = await heldFor(await request('go'));
  expect(long).toBeGreaterThan(100 + margin - 5);
  expect(long).toBeLessThanOrEqual(100 + margin);
  await Promise.all(running.splice(0).map((w) => w.stop(100)));

  start([action('go', '/slow', 5)]);
  const short = await heldFor(await request('go'));
  expect(short).toBeGreaterThan(30 + margin - 5);
  expect(short).toBeLessThanOrEqual(30 + margin);
});

test('stopping gives back what is still held (free for another server to take), and the late answer changes nothing', async () => {
  fixture.hook().on('/slower', () => ({ status: 200, delayMs: 1500 }));
  const worker = start([action('go', '/slower')]);
  const id = await request('go');
  await fixture.hook().waitFor('/slower', 1, 10_000);
  await worker.stop(100);
  expect(await row(id)).toEqual({ state: 'created', output: null, errors: null, locked_by: null, locked_until: null });
  // The first answer arrives after the stop: the request stays given back.
  await new Promise((resolve) => setTimeout(resolve, 1800));
  expect((await row(id)).state).toBe('created');
});

test('a request still in flight has its hold renewed by the next beat', async () => {
  fixture.hook().on('/takes-long', () => ({ status: 200, delayMs: 2500 }));
  const margin = config.events.lockMarginSeconds;
  start([action('go', '/takes-long')]);
  const id = await request('go');
  await fixture.hook().waitFor('/takes-long', 1, 10_000);
  // The hold about to run out, as if the delivery had taken almost all of it.
  await db.client.query("update engine_catalog.action_log set locked_until = clock_timestamp() + interval '3 seconds' where id = $1", [id]);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const left = await heldFor(id);
  expect(left).toBeGreaterThan(30 + margin - 5);
  expect((await settled(id)).state).toBe('completed');
});

test('a request the worker cannot read is left held and logged as a failed delivery, not settled with a made-up error', async () => {
  start([action('go', '/never-called')]);
  // A session that is no object: the handler's request cannot be made from it.
  const [made] = await q.run<{ id: string }>(
    db.client,
    q.insertActionRequest({ name: 'go', input: {}, sessionVariables: 'not an object', query: 'mutation { go }' }),
  );
  const deadline = Date.now() + 10_000;
  while (!lines.some((l) => l.level === 'error') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(lines).toContainEqual({ level: 'error', type: 'action-delivery', detail: { event_id: made!.id, error: expect.stringContaining('TypeError') } });
  expect(await row(made!.id)).toMatchObject({ state: 'created', output: null, errors: null });
  expect(fixture.hook().callsTo('/never-called')).toEqual([]);
});
