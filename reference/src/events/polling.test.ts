// The polling loop on its own: when it looks, when it beats, what it logs while the database is away,
// how it stops, and which metadata decides a delivery. The database is a scripted stand-in and the
// clock is jest's, so each rule is checked to the millisecond.
import type { Pool } from 'pg';
import { DatabaseError } from 'pg';
import type { MetadataDocument } from '../../../spec';
import type { EventSettings } from '../config';
import type { Logger } from '../log';

type Level = Parameters<Logger['log']>[0];
import { PollingWorker } from './polling';

const SETTINGS: EventSettings = { fetchIntervalMs: 1000, httpPoolSize: 3, lockMarginSeconds: 30, retentionSeconds: 0, backoff: 'fixed' };
const MINE: MetadataDocument = { version: 2, tables: [] };
const STORED: MetadataDocument = { version: 2, tables: [{ table: { schema: 'public', name: 'stored' } }] };

/** What one statement was: told apart by the catalog statement's own words. */
function kind(text: string): string {
  if (text.includes('heartbeat_at = clock_timestamp()')) return 'beat';
  if (text.includes("interval '1 hour'")) return 'prune';
  if (/^delete from .* where id = \$1$/s.test(text.trim())) return 'forget';
  if (text.includes('select metadata, resource_version')) return 'read-metadata';
  if (text.includes('select resource_version')) return 'read-version';
  return `other: ${text}`;
}

const connectionLost = () =>
  Object.assign(new DatabaseError('terminating connection due to administrator command', 0, 'error'), { code: '57P01', severity: 'FATAL' });

class ScriptedWorker extends PollingWorker {
  protected readonly name = 'scripted';
  readonly looks: number[] = [];
  /** What each look answers: a number taken, or an error thrown; after the script, 0. */
  script: (number | Error)[] = [];
  released = 0;
  constructor(pool: Pool, logger: Logger, settings: EventSettings = SETTINGS) {
    super(pool, settings, () => ({ document: MINE, resourceVersion: 5 }), logger);
  }
  protected async poll(): Promise<number> {
    this.looks.push(Date.now());
    const next = this.script.shift() ?? 0;
    if (next instanceof Error) throw next;
    return next;
  }
  protected async release(): Promise<void> {
    this.released++;
  }
  readonly kept: { ids: readonly string[]; seconds: number }[] = [];
  protected async keepHolds(ids: readonly string[], seconds: number): Promise<void> {
    this.kept.push({ ids, seconds });
  }
  hold(id: string, delivery: Promise<void>, seconds = 0): void {
    this.holding(seconds);
    this.track(id, delivery);
  }
  heldNow(): string[] {
    return this.held;
  }
  freeNow(): number {
    return this.free;
  }
  latest(): Promise<MetadataDocument> {
    return this.currentDocument();
  }
}

function setup(rows: Partial<Record<string, unknown[]>> = {}, failing: Set<string> = new Set()) {
  const statements: { kind: string; at: number }[] = [];
  const pool = {
    query: jest.fn(async ({ text }: { text: string }) => {
      const k = kind(text);
      statements.push({ kind: k, at: Date.now() });
      if (failing.has(k)) throw connectionLost();
      return { rows: rows[k] ?? [] };
    }),
  } as unknown as Pool;
  const logged: { level: Level; type: string; detail: Record<string, unknown> }[] = [];
  const logger: Logger = { log: (level, type, detail) => logged.push({ level, type, detail }) };
  return { pool, statements, logged, logger };
}

let start: number;
beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-11-24T12:00:00Z') });
  start = Date.now();
});
afterEach(() => {
  jest.useRealTimers();
});

const at = (times: number[]) => times.map((t) => t - start);

test('it looks at once, again at once while it finds work, and otherwise every fetch interval', async () => {
  const { pool, logger, statements } = setup();
  const worker = new ScriptedWorker(pool, logger);
  worker.script = [2, 1, 0, 0];
  worker.start();
  await jest.advanceTimersByTimeAsync(2500);
  // "At once" from inside a look is a timer of 0 ms, which jest's clock fires 1 ms later.
  expect(at(worker.looks)).toEqual([0, 1, 2, 1002, 2002]);
  // The quick looks share one heartbeat.
  expect(statements.filter((s) => s.kind === 'beat').map((s) => s.at - start)).toEqual([0, 1002, 2002]);
  await worker.stop(0);
});

test('a wake looks now instead of at the interval; a wake during a look means one more look after it, not two', async () => {
  const { pool, logger } = setup();
  const worker = new ScriptedWorker(pool, logger);
  worker.start();
  await jest.advanceTimersByTimeAsync(300);
  worker.wake();
  await jest.advanceTimersByTimeAsync(0);
  expect(at(worker.looks)).toEqual([0, 300]);
  // Wakes while a look is under way: the look is held open by a slow poll.
  let finish!: () => void;
  const slow = new Promise<void>((resolve) => (finish = resolve));
  const poll = worker['poll'].bind(worker);
  worker['poll'] = async () => {
    const n = await poll();
    await slow;
    return n;
  };
  await jest.advanceTimersByTimeAsync(1000);
  expect(at(worker.looks)).toEqual([0, 300, 1300]);
  worker.wake();
  worker.wake();
  worker['poll'] = poll;
  finish();
  await jest.advanceTimersByTimeAsync(0);
  expect(at(worker.looks)).toEqual([0, 300, 1300, 1300]);
  // And then the interval again.
  await jest.advanceTimersByTimeAsync(999);
  expect(worker.looks).toHaveLength(4);
  await jest.advanceTimersByTimeAsync(1);
  expect(at(worker.looks)).toEqual([0, 300, 1300, 1300, 2300]);
  await worker.stop(0);
});

test('announced work brings a look at once and, after the first look that finds nothing, one more a quarter second later', async () => {
  const { pool, logger } = setup();
  const worker = new ScriptedWorker(pool, logger, { ...SETTINGS, fetchIntervalMs: 60_000 });
  worker.start();
  await jest.advanceTimersByTimeAsync(300);
  worker.script = [2, 0, 0];
  worker.announced();
  await jest.advanceTimersByTimeAsync(10);
  expect(at(worker.looks)).toEqual([0, 300, 301]);
  await jest.advanceTimersByTimeAsync(240);
  expect(worker.looks).toHaveLength(3);
  await jest.advanceTimersByTimeAsync(1);
  expect(at(worker.looks)).toEqual([0, 300, 301, 551]);
  // Once only: then the fetch interval again.
  await jest.advanceTimersByTimeAsync(59_999);
  expect(worker.looks).toHaveLength(4);
  await jest.advanceTimersByTimeAsync(1);
  expect(at(worker.looks)).toEqual([0, 300, 301, 551, 60_551]);
  // A wake that announces nothing (places free again) brings no second look.
  worker.wake();
  await jest.advanceTimersByTimeAsync(1000);
  expect(at(worker.looks)).toEqual([0, 300, 301, 551, 60_551, 60_551]);
  await worker.stop(0);
});

test('it beats before it looks, at most once a second, and prunes long-gone holders at most once a minute', async () => {
  const { pool, logger, statements } = setup();
  const worker = new ScriptedWorker(pool, logger);
  worker.script = Array<number>(20).fill(0);
  worker.start();
  await jest.advanceTimersByTimeAsync(2500);
  expect(statements.map((s) => [s.kind, s.at - start])).toEqual([
    ['beat', 0],
    ['prune', 0],
    ['beat', 1000],
    ['beat', 2000],
  ]);
  await jest.advanceTimersByTimeAsync(60_000);
  const prunes = statements.filter((s) => s.kind === 'prune').map((s) => s.at - start);
  expect(prunes).toEqual([0, 61_000]);
  await worker.stop(0);
});

test('while deliveries are in flight it looks (and beats) at least every heartbeat, however long the fetch interval', async () => {
  const { pool, logger } = setup();
  const worker = new ScriptedWorker(pool, logger, { ...SETTINGS, fetchIntervalMs: 60_000 });
  let settle!: () => void;
  worker.hold('e1', new Promise<void>((resolve) => (settle = resolve)));
  expect(worker.freeNow()).toBe(2);
  worker.start();
  await jest.advanceTimersByTimeAsync(2500);
  expect(at(worker.looks)).toEqual([0, 1000, 2000]);
  settle();
  await jest.advanceTimersByTimeAsync(3000);
  expect(worker.freeNow()).toBe(3);
  expect(at(worker.looks)).toEqual([0, 1000, 2000, 3000]);
  await worker.stop(0);
});

test('a worker left full by its look looks again as soon as a tenth of its places is free, not at its next look', async () => {
  const { pool, logger } = setup();
  const worker = new ScriptedWorker(pool, logger, { ...SETTINGS, fetchIntervalMs: 60_000, httpPoolSize: 20 });
  const settle: (() => void)[] = [];
  for (let i = 0; i < 20; i++) worker.hold(`e${i}`, new Promise<void>((resolve) => settle.push(resolve)));
  worker.start();
  await jest.advanceTimersByTimeAsync(100);
  expect(at(worker.looks)).toEqual([0]);
  // One place free of twenty: not yet.
  settle[0]!();
  await jest.advanceTimersByTimeAsync(200);
  expect(at(worker.looks)).toEqual([0]);
  // Two: a look at once.
  settle[1]!();
  await jest.advanceTimersByTimeAsync(0);
  expect(at(worker.looks)).toEqual([0, 300]);
  // That look left places free: the next delivery that ends brings no look of its own.
  settle[2]!();
  settle[3]!();
  await jest.advanceTimersByTimeAsync(500);
  expect(at(worker.looks)).toEqual([0, 300]);
  // A look that fills the worker again (it takes the four places): the same once two are free.
  worker.script = [4];
  for (let i = 20; i < 24; i++) worker.hold(`e${i}`, new Promise<void>((resolve) => settle.push(resolve)));
  await jest.advanceTimersByTimeAsync(501);
  expect(at(worker.looks)).toEqual([0, 300, 1300, 1301]);
  settle[4]!();
  settle[5]!();
  await jest.advanceTimersByTimeAsync(0);
  expect(at(worker.looks)).toEqual([0, 300, 1300, 1301, 1301]);
  for (const done of settle) done();
  await jest.advanceTimersByTimeAsync(0);
  await worker.stop(0);
});

test('each beat renews the hold of what is still in flight, and of nothing else; a claim is told what is in flight', async () => {
  const { pool, logger, statements } = setup();
  const worker = new ScriptedWorker(pool, logger, { ...SETTINGS, fetchIntervalMs: 60_000 });
  const settles: Record<string, () => void> = {};
  worker.hold('e1', new Promise<void>((resolve) => (settles.e1 = resolve)), 32);
  worker.hold('e2', new Promise<void>((resolve) => (settles.e2 = resolve)), 32);
  expect(worker.heldNow()).toEqual(['e1', 'e2']);
  worker.start();
  await jest.advanceTimersByTimeAsync(0);
  expect(worker.kept).toEqual([{ ids: ['e1', 'e2'], seconds: 32 }]);
  settles.e1!();
  await jest.advanceTimersByTimeAsync(1000);
  expect(worker.kept).toEqual([
    { ids: ['e1', 'e2'], seconds: 32 },
    { ids: ['e2'], seconds: 32 },
  ]);
  expect(worker.heldNow()).toEqual(['e2']);
  settles.e2!();
  await jest.advanceTimersByTimeAsync(3000);
  expect(worker.kept).toHaveLength(2);
  expect(worker.heldNow()).toEqual([]);
  // The beat at 2000 ms (the last look while something was in flight) renewed nothing.
  expect(statements.filter((s) => s.kind === 'beat').map((s) => s.at - start)).toEqual([0, 1000, 2000]);
  await worker.stop(0);
});

test('while the database is away: one warning, a look every two seconds, and one line when it answers again', async () => {
  const failing = new Set<string>();
  const { pool, logger, logged } = setup({}, failing);
  const worker = new ScriptedWorker(pool, logger);
  worker.start();
  await jest.advanceTimersByTimeAsync(0);
  failing.add('beat');
  await jest.advanceTimersByTimeAsync(1000);
  await jest.advanceTimersByTimeAsync(6000);
  expect(at(worker.looks)).toEqual([0]);
  expect(logged).toEqual([
    {
      level: 'warn',
      type: 'scripted',
      detail: {
        error: 'error: terminating connection due to administrator command',
        message: 'the database does not answer; looking again every few seconds',
      },
    },
  ]);
  failing.delete('beat');
  await jest.advanceTimersByTimeAsync(2000);
  expect(at(worker.looks)).toEqual([0, 9000]);
  expect(logged.slice(1)).toEqual([{ level: 'info', type: 'scripted', detail: { message: 'the database answers again after 8000 ms' } }]);
  // Back to the fetch interval.
  await jest.advanceTimersByTimeAsync(1000);
  expect(at(worker.looks)).toEqual([0, 9000, 10_000]);
  await worker.stop(0);
});

test('any other failure is a warning each time, and the loop goes on at the fetch interval', async () => {
  const { pool, logger, logged } = setup();
  const worker = new ScriptedWorker(pool, logger);
  worker.script = [new Error('boom'), new Error('boom again'), 0];
  worker.start();
  await jest.advanceTimersByTimeAsync(2000);
  expect(at(worker.looks)).toEqual([0, 1000, 2000]);
  expect(logged).toEqual([
    { level: 'warn', type: 'scripted', detail: { error: 'Error: boom' } },
    { level: 'warn', type: 'scripted', detail: { error: 'Error: boom again' } },
  ]);
});

test('a delivery that fails is logged as an error with what it held', async () => {
  const { pool, logger, logged } = setup();
  const worker = new ScriptedWorker(pool, logger);
  worker.hold('e1', Promise.reject(new Error('socket hang up')));
  await jest.advanceTimersByTimeAsync(0);
  expect(logged).toEqual([{ level: 'error', type: 'scripted', detail: { event_id: 'e1', error: 'Error: socket hang up' } }]);
  expect(worker.freeNow()).toBe(3);
});

test('stop: no look after it, deliveries in flight get the grace time, then what is held is given back and the holder forgotten', async () => {
  const { pool, logger, statements } = setup();
  const worker = new ScriptedWorker(pool, logger);
  worker.start();
  await jest.advanceTimersByTimeAsync(0);
  worker.hold('e1', new Promise<void>(() => {}));
  let stopped = false;
  void worker.stop(5000).then(() => (stopped = true));
  await jest.advanceTimersByTimeAsync(4999);
  expect([stopped, worker.released]).toEqual([false, 0]);
  await jest.advanceTimersByTimeAsync(1);
  expect([stopped, worker.released]).toEqual([true, 1]);
  expect(statements.map((s) => s.kind).slice(-1)).toEqual(['forget']);
  worker.wake();
  await jest.advanceTimersByTimeAsync(10_000);
  expect(at(worker.looks)).toEqual([0]);
});

test('stop during a look: the look ends without a warning for its failure, and no other look follows', async () => {
  const { pool, logger, logged } = setup();
  const worker = new ScriptedWorker(pool, logger);
  let fail!: (e: Error) => void;
  const poll = worker['poll'].bind(worker);
  worker['poll'] = async () => {
    await poll();
    return new Promise<number>((_, reject) => (fail = reject));
  };
  worker.start();
  await jest.advanceTimersByTimeAsync(0);
  const stopping = worker.stop(0);
  fail(new Error('connection closed by stop'));
  await stopping;
  await jest.advanceTimersByTimeAsync(10_000);
  expect(at(worker.looks)).toEqual([0]);
  expect(logged).toEqual([]);
});

test('stop does not wait the grace time when nothing is in flight', async () => {
  const { pool, logger } = setup();
  const worker = new ScriptedWorker(pool, logger);
  worker.start();
  await jest.advanceTimersByTimeAsync(0);
  let stopped = false;
  void worker.stop(5000).then(() => (stopped = true));
  await jest.advanceTimersByTimeAsync(0);
  expect([stopped, worker.released]).toEqual([true, 1]);
});

test("the metadata that decides a delivery: this server's copy unless the stored one is newer", async () => {
  const newer = setup({ 'read-version': [{ resource_version: 6 }], 'read-metadata': [{ metadata: STORED, resource_version: 6 }] });
  expect(await new ScriptedWorker(newer.pool, newer.logger).latest()).toBe(STORED);
  expect(newer.statements.map((s) => s.kind)).toEqual(['read-version', 'read-metadata']);
  const same = setup({ 'read-version': [{ resource_version: 5 }], 'read-metadata': [{ metadata: STORED, resource_version: 5 }] });
  expect(await new ScriptedWorker(same.pool, same.logger).latest()).toBe(MINE);
  expect(same.statements.map((s) => s.kind)).toEqual(['read-version']);
  // This server committed last: its copy is newer than what it read before.
  const older = setup({ 'read-version': [{ resource_version: 4 }], 'read-metadata': [{ metadata: STORED, resource_version: 4 }] });
  expect(await new ScriptedWorker(older.pool, older.logger).latest()).toBe(MINE);
  const empty = setup();
  expect(await new ScriptedWorker(empty.pool, empty.logger).latest()).toBe(MINE);
  const vanished = setup({ 'read-version': [{ resource_version: 9 }] });
  expect(await new ScriptedWorker(vanished.pool, vanished.logger).latest()).toBe(MINE);
});
