// A metadata request's transactions on other sources (sourceTransactions.ts), over a pool and
// connections that record what is sent and answer as told: the statements in their order, the
// connection given back or closed, and the refusals of a source that cannot be reached, word for
// word. The same paths against PostgreSQL: sourceConnections.test.ts, sourceGuard.test.ts.
import type { Pool, PoolClient } from 'pg';
import * as sql from 'pg-sql2';
import { DatabaseError } from 'pg';
import * as q from '../sql';
import { SourceTransactions } from './sourceTransactions';

const text = (fragment: sql.SQLQuery) => sql.compile(fragment).text;
const BEGIN = text(q.beginReadWrite);
const STARTED = text(q.transactionStart);
const HAS_GUARD = text(q.hasSourceGuard);
const ROLLBACK = text(q.rollback);
const RESET = text(q.resetSession);

interface Fake {
  pool: Pool;
  sent: string[];
  /** What `release` was called with, once per call. */
  released: (boolean | undefined)[];
  connects: number;
}

/**
 * A pool of one connection. `answer` gives the rows of a statement (or throws); by default the
 * transaction's start is 'T1', the guard is there, and everything else has no rows.
 */
function fakePool(answer: (text: string) => unknown[] | undefined = () => undefined): Fake {
  const fake: Fake = { pool: undefined as unknown as Pool, sent: [], released: [], connects: 0 };
  const client = {
    query: async ({ text: t }: { text: string }) => {
      fake.sent.push(t);
      const rows = answer(t) ?? (t === STARTED ? [{ started: 'T1' }] : t === HAS_GUARD ? [{ present: true }] : []);
      return { rows };
    },
    release: (destroy?: boolean) => {
      fake.released.push(destroy);
    },
  } as unknown as PoolClient;
  fake.pool = {
    connect: async () => {
      fake.connects++;
      return client;
    },
  } as unknown as Pool;
  return fake;
}

const databaseError = (code: string) => Object.assign(new DatabaseError('refused', 0, 'error'), { code });

test('a source with a problem is refused before its pool is asked, with the source named', async () => {
  const tx = new SourceTransactions();
  const refusal = {
    id: 'err.invalid-configuration.source-connection',
    path: '$.args',
    internal: [{ type: 'source', name: 'source far', message: 'no route' }],
  };
  await expect(tx.client('far', () => ({ problem: 'no route' }))).rejects.toMatchObject(refusal);
  await expect(SourceTransactions.readOnly({ problem: 'no route' }, 'far', async () => 1)).rejects.toMatchObject(refusal);
});

test('a pool that cannot connect is a connection error with its message, whatever was thrown', async () => {
  const failing = (thrown: unknown) => ({ connect: () => Promise.reject(thrown) }) as unknown as Pool;
  await expect(new SourceTransactions().client('far', () => failing(new Error('refused here')))).rejects.toMatchObject({
    id: 'err.postgres-error.connection',
    path: '$',
    internal: { message: 'refused here' },
  });
  await expect(SourceTransactions.readOnly(failing('plain text'), 'far', async () => 1)).rejects.toMatchObject({
    id: 'err.postgres-error.connection',
    internal: { message: 'plain text' },
  });
});

test('one transaction per source: begun once, on one connection, held from that pool only', async () => {
  const fake = fakePool();
  const other = fakePool();
  const tx = new SourceTransactions();
  expect(tx.holds('near', fake.pool)).toBe(false);
  const first = await tx.client('near', () => fake.pool);
  expect(await tx.client('near', () => other.pool)).toBe(first);
  expect(fake.connects).toBe(1);
  expect(other.connects).toBe(0);
  expect(fake.sent).toEqual([BEGIN, STARTED]);
  expect(tx.holds('near', fake.pool)).toBe(true);
  expect(tx.holds('near', other.pool)).toBe(false);
  expect(tx.holds('far', fake.pool)).toBe(false);
  // Nothing ran through `run`: no guard, and given back as it is after its rollback.
  expect(tx.participants()).toEqual([{ name: 'near', client: first, ranSql: false }]);
  expect(tx.participants()).toEqual([]);
});

test('a transaction that cannot begin closes its connection, and the next use begins one again', async () => {
  let refuse = true;
  const fake = fakePool((t) => {
    if (t === BEGIN && refuse) throw databaseError('57P01');
    return undefined;
  });
  const tx = new SourceTransactions();
  await expect(tx.client('near', () => fake.pool)).rejects.toMatchObject({ code: '57P01' });
  expect(fake.released).toEqual([true]);
  refuse = false;
  await tx.client('near', () => fake.pool);
  expect(fake.connects).toBe(2);
  expect(fake.released).toEqual([true]);
});

test('SQL run through the transaction arms the guard once, and a transaction that is no longer the same one is refused', async () => {
  let started = 'T1';
  const fake = fakePool((t) => (t === STARTED ? [{ started }] : undefined));
  const tx = new SourceTransactions();
  expect(
    await tx.run(
      'near',
      () => fake.pool,
      async () => 'first',
    ),
  ).toBe('first');
  expect(
    await tx.run(
      'near',
      () => fake.pool,
      async () => 'second',
    ),
  ).toBe('second');
  expect(fake.sent.filter((t) => t === HAS_GUARD)).toHaveLength(1);
  // The guard is there: nothing is made (a user who may not make it could not arm it otherwise).
  expect(fake.sent.filter((t) => t.startsWith('create') || t.startsWith('savepoint'))).toEqual([]);
  expect(fake.sent.filter((t) => t.startsWith('insert into'))).toHaveLength(1);
  started = 'T2';
  await expect(
    tx.run(
      'near',
      () => fake.pool,
      async () => 'third',
    ),
  ).rejects.toMatchObject({
    id: 'err.bad-request.transaction-control',
    path: '$.args.sql',
    message: 'run_sql runs inside the transaction of its request and may not end it: ROLLBACK',
  });
  const [participant] = tx.participants();
  expect(participant).toMatchObject({
    name: 'near',
    ranSql: true,
    guard: { token: expect.stringMatching(/^[0-9a-f]{64}$/), hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
  });
});

test('a database without the guard gets it made first; one whose user may not make it runs without; any other failure is thrown', async () => {
  const made = fakePool((t) => (t === HAS_GUARD ? [{ present: false }] : undefined));
  const tx = new SourceTransactions();
  await tx.run(
    'near',
    () => made.pool,
    async () => null,
  );
  expect(made.sent.some((t) => t.startsWith('create table if not exists'))).toBe(true);
  expect(made.sent.some((t) => t.startsWith('rollback to savepoint'))).toBe(false);
  expect(tx.participants()[0]!.guard).toBeDefined();

  for (const [code, outcome] of [
    ['42501', 'without'],
    ['53100', 'thrown'],
  ] as const) {
    const fake = fakePool((t) => {
      if (t === HAS_GUARD) return [{ present: false }];
      if (t.startsWith('create schema')) throw databaseError(code);
      return undefined;
    });
    const other = new SourceTransactions();
    const running = other.run(
      'near',
      () => fake.pool,
      async () => 'ran',
    );
    if (outcome === 'thrown') {
      await expect(running).rejects.toMatchObject({ code });
      continue;
    }
    expect(await running).toBe('ran');
    expect(fake.sent.some((t) => t.startsWith('rollback to savepoint'))).toBe(true);
    expect(fake.sent.some((t) => t.startsWith('insert into'))).toBe(false);
    expect(other.participants()).toEqual([{ name: 'near', client: expect.anything(), ranSql: true }]);
  }
  // Not a database's refusal at all: thrown too.
  const broken = fakePool((t) => {
    if (t === HAS_GUARD) return [{ present: false }];
    if (t.startsWith('create schema')) throw new Error('socket');
    return undefined;
  });
  await expect(
    new SourceTransactions().run(
      'near',
      () => broken.pool,
      async () => 1,
    ),
  ).rejects.toThrow('socket');
});

test('rolling back ends every transaction and gives the connection back, reset when SQL ran through it', async () => {
  const quiet = fakePool();
  const used = fakePool();
  const tx = new SourceTransactions();
  await tx.client('quiet', () => quiet.pool);
  await tx.run(
    'used',
    () => used.pool,
    async () => 1,
  );
  await tx.rollback();
  expect(quiet.sent.slice(-1)).toEqual([ROLLBACK]);
  expect(quiet.released).toEqual([undefined]);
  expect(used.sent.slice(-2)).toEqual([ROLLBACK, RESET]);
  expect(used.released).toEqual([undefined]);
  expect(tx.participants()).toEqual([]);
});

test('a read-only run: read only by default and begun so, rolled back after the work, the connection reset; closed when the rollback fails', async () => {
  const fake = fakePool();
  expect(await SourceTransactions.readOnly(fake.pool, 'near', async (db) => (await db.query({ text: 'select 1' })).rows)).toEqual([]);
  expect(fake.sent).toEqual([text(q.defaultReadOnly), text(q.beginReadOnly), 'select 1', ROLLBACK, RESET]);
  expect(fake.released).toEqual([undefined]);

  const failing = fakePool();
  await expect(SourceTransactions.readOnly(failing.pool, 'near', () => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
  expect(failing.sent.slice(-2)).toEqual([ROLLBACK, RESET]);
  expect(failing.released).toEqual([undefined]);

  const lost = fakePool((t) => {
    if (t === ROLLBACK) throw new Error('connection lost');
    return undefined;
  });
  await expect(SourceTransactions.readOnly(lost.pool, 'near', async () => 1)).rejects.toThrow('connection lost');
  expect(lost.sent).not.toContain(RESET);
  expect(lost.released).toEqual([true]);
});
