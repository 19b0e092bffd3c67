// runPlan on pools that record what they are sent and answer as told: which pool a plan runs on,
// the statements of a mutation in one transaction, the answer made of their data, and how a
// failure of the database reaches the caller.
import { DatabaseError, type Pool } from 'pg';
import { Abandon } from './abandonment';
import { CheckFailed, ConnectionLost, QueryTooCostly, StatementRefused, StatementTimedOut, TimeLimitExceeded } from './answers';
import type { CompiledPlan, PlanStatement } from './plan';
import { StatementGenerations } from './preparedStatements';
import { guarded, runPlan, type PlanCaller, type PlanPools } from './runPlan';

interface Sent {
  name?: string;
  text: string;
  values?: unknown[];
}
type Answer = (sent: Sent) => unknown[] | Promise<unknown[]>;

/** A pool of one connection: everything sent on either is in `sent`, with the pool's name. */
function fakePool(label: string, log: string[], answer: Answer = () => [], withProcessID = true) {
  const sent: Sent[] = [];
  const released: (boolean | undefined)[] = [];
  const query = async (config: Sent) => {
    sent.push(config);
    log.push(`${label}: ${config.text.trim().split(/\s+/).slice(0, 2).join(' ')}`);
    return { rows: await answer(config) };
  };
  const client = { ...(withProcessID ? { processID: 42 } : {}), query, release: (destroy?: boolean) => void released.push(destroy) };
  return { pool: { connect: async () => client, query } as unknown as Pool, sent, released };
}

const databaseError = (code: string, severity = 'ERROR') => Object.assign(new DatabaseError('refused', 0, 'error'), { code, severity });

/** Pools whose roles' and admin's GraphQL connections answer `answer`. */
function poolsOf(answer: Answer, parts: Partial<PlanPools> = {}, withProcessID = true) {
  const log: string[] = [];
  const roles = fakePool('roles', log, answer, withProcessID);
  const adminGraphql = fakePool('adminGraphql', log, answer);
  const admin = fakePool('admin', log);
  const entered: string[] = [];
  const pools: PlanPools = {
    admin: admin.pool,
    adminGraphql: adminGraphql.pool,
    roles: roles.pool,
    gate: {
      enter: async (share: string) => {
        entered.push(share);
        return () => void log.push(`left ${share}`);
      },
    } as unknown as PlanPools['gate'],
    statementTimeoutMs: 1000,
    adminStatementTimeoutMs: 2000,
    maxQueryCost: 0,
    statements: new StatementGenerations(),
    ...parts,
  };
  return { pools, log, roles, adminGraphql, admin, entered };
}

const statement = (alias: string, parts: Partial<PlanStatement> = {}): PlanStatement => ({
  alias,
  name: `s_${alias}`,
  text: `select ${alias}`,
  values: [1],
  ...parts,
});
const query = (parts: Partial<CompiledPlan> = {}): CompiledPlan => ({
  kind: 'query',
  bounded: true,
  operation: 'query',
  statements: [statement('a')],
  literals: new Map(),
  order: ['a'],
  ...parts,
});
const mutation = (statements: PlanStatement[], parts: Partial<CompiledPlan> = {}): CompiledPlan =>
  query({ kind: 'mutation', operation: 'mutation', statements, order: [...new Set(statements.map((s) => s.alias))], ...parts });
const caller: PlanCaller = { session: { role: 'user', share: 'team', variables: {} }, headers: {} };

describe('a query', () => {
  test("a role's runs on the roles' pool within its share, prepared, and answers its statement's data", async () => {
    const { pools, log, roles, entered } = poolsOf(() => [{ data: '{"a":[1]}' }]);
    expect(await runPlan(pools, query(), caller)).toBe('{"data":{"a":[1]}}');
    expect(roles.sent).toEqual([{ name: 's_a', text: 'select a', values: [1] }]);
    expect(roles.released).toEqual([false]);
    expect(entered).toEqual(['team']);
    expect(log).toEqual(['roles: select a', 'left team']);
  });

  test("admin's runs on admin's GraphQL pool, outside the gate; unnamed when the source prepares nothing", async () => {
    const { pools, log, adminGraphql, entered } = poolsOf(() => [{ data: '{"a":2}' }], { preparedStatements: false });
    expect(await runPlan(pools, query({ bounded: false }))).toBe('{"data":{"a":2}}');
    expect(adminGraphql.sent).toEqual([{ text: 'select a', values: [1] }]);
    expect([entered, log]).toEqual([[], ['adminGraphql: select a']]);
  });

  test('literals spliced in among the fields by the order of the plan', async () => {
    const { pools } = poolsOf(() => [{ data: '{"a":[1]}' }]);
    const plan = query({ literals: new Map([['t', '"query_root"']]), order: ['t', 'a'] });
    expect(await runPlan(pools, plan, caller)).toBe('{"data":{"t":"query_root","a":[1]}}');
  });

  test('only literals: no connection is taken', async () => {
    const { pools, log } = poolsOf(() => []);
    const plan = query({ statements: [], literals: new Map([['t', '"query_root"']]), order: ['t', 'gone'] });
    expect(await runPlan(pools, plan, caller)).toBe('{"data":{"t":"query_root","gone":null}}');
    expect(log).toEqual([]);
  });

  test('each statement logged with its values when SQL is logged', async () => {
    const logged: unknown[] = [];
    const { pools } = poolsOf(() => [{ data: '{"a":1}' }], { logSql: (s) => logged.push(s) });
    await runPlan(pools, query(), caller);
    expect(logged).toEqual([{ text: 'select a', values: [1] }]);
  });
});

describe('a mutation', () => {
  test('its statements in order in one transaction with the session variables; elements listed, steps read by later ones', async () => {
    const data: Record<string, string> = { step: '{"id":1}', el: '{"n":1}', b: '{"ok":true}', after: '{"after":1}' };
    let elements = 0;
    const { pools, roles } = poolsOf((sent) => {
      if (!sent.name) return [];
      const alias = sent.name.slice(2);
      return [{ data: alias === 'el' ? `{"n":${++elements}}` : data[alias], ok: true }];
    });
    const plan = mutation(
      [
        statement('step', { part: 'step' }),
        statement('el', { part: 'element' }),
        statement('el', { part: 'element', reads: [{ value: 1, from: [0, 1] }], values: [1, null] }),
        statement('b'),
        // A step after: its data is no root field's, whatever its alias.
        statement('b', { part: 'step', name: 's_after' }),
      ],
      { sessionVariables: { 'x-engine-role': 'user' }, order: ['el', 'b'] },
    );
    expect(await runPlan(pools, plan, caller)).toBe('{"data":{"el":[{"n":1},{"n":2}],"b":{"ok":true}}}');
    expect(roles.sent.map((s) => [s.name ?? s.text, s.values])).toEqual([
      ['begin', []],
      ["select set_config('engine.session_variables', $1, true)", ['{"x-engine-role":"user"}']],
      ['s_step', [1]],
      ['s_el', [1]],
      ['s_el', [1, '[{"id":1},{"n":1}]']],
      ['s_b', [1]],
      ['s_after', [1]],
      ['commit', []],
    ]);
    expect(roles.released).toEqual([false]);
  });

  test('the fields under a namespace, each by its own key, and null for one that has none', async () => {
    const { pools } = poolsOf((sent) => (sent.name ? [{ data: '1', ok: true }] : []));
    const plan = mutation([statement('ns\u0000x')], { order: ['ns'], nested: new Map([['ns', ['x', 'y']]]) });
    expect(await runPlan(pools, plan, caller)).toBe('{"data":{"ns":{"x":1,"y":null}}}');
  });

  test.each([
    ['a check that failed', { data: '[]', ok: false }, {}, CheckFailed],
    [
      'a step that inserted nothing',
      { data: '[]', ok: true },
      { refusedWhenEmpty: { message: 'nothing inserted', code: 'constraint-violation' } },
      StatementRefused,
    ],
  ] as const)('%s: undone, the rest not sent', async (_, row, parts, error) => {
    const { pools, roles } = poolsOf((sent) => (sent.name ? [row] : []));
    const refused = runPlan(pools, mutation([statement('a', parts), statement('b')]), caller);
    await expect(refused).rejects.toBeInstanceOf(error);
    expect(roles.sent.map((s) => s.name ?? s.text)).toEqual(['begin', 's_a', 'rollback']);
  });

  test('the refusal of a step says what and why', async () => {
    const { pools } = poolsOf((sent) => (sent.name ? [{ data: '[]', ok: true }] : []));
    const plan = mutation([statement('a', { refusedWhenEmpty: { message: 'nothing inserted', code: 'constraint-violation' } })]);
    await expect(runPlan(pools, plan, caller)).rejects.toMatchObject({ message: 'nothing inserted', code: 'constraint-violation' });
  });

  test('a step whose data is not empty goes on', async () => {
    const { pools } = poolsOf((sent) => (sent.name ? [{ data: '[1]', ok: true }] : []));
    const plan = mutation([statement('a', { refusedWhenEmpty: { message: 'nothing inserted', code: 'x' } })]);
    expect(await runPlan(pools, plan, caller)).toBe('{"data":{"a":[1]}}');
  });
});

describe("the database's failures as the answers know them", () => {
  const failing = (error: unknown) => () => Promise.reject(error);

  test("a statement cancelled: the statement timeout of the caller's kind", async () => {
    await expect(runPlan(poolsOf(failing(databaseError('57014'))).pools, query(), caller)).rejects.toMatchObject({ constructor: StatementTimedOut, ms: 1000 });
    const admin = runPlan(poolsOf(failing(databaseError('57014'))).pools, query({ bounded: false }));
    await expect(admin).rejects.toMatchObject({ constructor: StatementTimedOut, ms: 2000 });
  });

  test("a role's time limit below the statement timeout: the time limit, once it ran out", async () => {
    const { pools, log } = poolsOf(() => new Promise((_, reject) => setTimeout(() => reject(databaseError('57014')), 50)));
    await expect(runPlan(pools, query({ timeLimitMs: 10 }), caller)).rejects.toMatchObject({ constructor: TimeLimitExceeded, seconds: 0.01 });
    // The limit cancels the statement through admin's pool, and the connection is not used again.
    expect(log).toEqual(['roles: select a', 'admin: select pg_cancel_backend($1)', 'left team']);
    const noTimeout = poolsOf(() => new Promise((_, reject) => setTimeout(() => reject(databaseError('57014')), 50)), { statementTimeoutMs: 0 });
    await expect(runPlan(noTimeout.pools, query({ timeLimitMs: 10 }), caller)).rejects.toBeInstanceOf(TimeLimitExceeded);
    expect(noTimeout.roles.released).toEqual([true]);
  });

  test('a time limit run out, and the statement failing for another reason: that reason', async () => {
    const duplicate = databaseError('23505');
    const { pools } = poolsOf(() => new Promise((_, reject) => setTimeout(() => reject(duplicate), 50)));
    await expect(runPlan(pools, query({ timeLimitMs: 10 }), caller)).rejects.toBe(duplicate);
  });

  test("a time limit run out, and a failure that only looks like PostgreSQL's cancel: not the time limit", async () => {
    const lookalike = { code: '57014', message: 'canceling statement' };
    const { pools } = poolsOf(() => new Promise((_, reject) => setTimeout(() => reject(lookalike), 50)));
    await expect(runPlan(pools, query({ timeLimitMs: 10 }), caller)).rejects.toBeInstanceOf(ConnectionLost);
  });

  test('a time limit equal to the statement timeout, or above it: the statement timeout cancels, not the limit', async () => {
    const late = () => new Promise<unknown[]>((_, reject) => setTimeout(() => reject(databaseError('57014')), 60));
    for (const timeLimitMs of [20, 30]) {
      const { pools, admin } = poolsOf(late, { statementTimeoutMs: 20 });
      await expect(runPlan(pools, query({ timeLimitMs }), caller)).rejects.toMatchObject({ constructor: StatementTimedOut, ms: 20 });
      expect(admin.sent).toEqual([]);
    }
  });

  test('without a time limit nothing is cancelled, also without a statement timeout', async () => {
    const { pools, admin, roles } = poolsOf(() => new Promise((resolve) => setTimeout(() => resolve([{ data: '1' }]), 20)), { statementTimeoutMs: 0 });
    expect(await runPlan(pools, query(), caller)).toBe('{"data":1}');
    expect([admin.sent, roles.released]).toEqual([[], [false]]);
  });

  test('a time limit above the statement timeout, or not run out: the statement timeout', async () => {
    const { pools } = poolsOf(() => new Promise((_, reject) => setTimeout(() => reject(databaseError('57014')), 50)));
    await expect(runPlan(pools, query({ timeLimitMs: 5000 }), caller)).rejects.toMatchObject({ constructor: StatementTimedOut, ms: 1000 });
    await expect(runPlan(poolsOf(failing(databaseError('57014'))).pools, query({ timeLimitMs: 900 }), caller)).rejects.toBeInstanceOf(StatementTimedOut);
    const adminPlan = poolsOf(() => new Promise((_, reject) => setTimeout(() => reject(databaseError('57014')), 50)));
    await expect(runPlan(adminPlan.pools, query({ bounded: false, timeLimitMs: 10 }))).rejects.toMatchObject({ constructor: StatementTimedOut, ms: 2000 });
  });

  test('a lost connection or a socket error: the connection lost; a bug or a refusal of the statement: itself', async () => {
    for (const lost of [databaseError('57P01', 'FATAL'), Object.assign(Object.create(null) as object, { code: 'ECONNRESET' })])
      await expect(runPlan(poolsOf(failing(lost)).pools, query(), caller)).rejects.toBeInstanceOf(ConnectionLost);
    for (const own of [databaseError('23505'), new TypeError('bug'), new RangeError('bug'), new SyntaxError('bug'), 'text'])
      await expect(runPlan(poolsOf(failing(own)).pools, query(), caller)).rejects.toBe(own);
    const refused = new StatementRefused('no', 'x');
    await expect(runPlan(poolsOf(failing(refused)).pools, query(), caller)).rejects.toBe(refused);
  });

  test('a client gone: its statement cancelled through admin, the connection closed', async () => {
    const gone = new Abandon();
    const { pools, log, roles } = poolsOf(async () => {
      gone.abandon('gone');
      return [{ data: '1' }];
    });
    await runPlan(pools, query(), { ...caller, gone });
    expect(log).toEqual(['roles: select a', 'admin: select pg_cancel_backend($1)', 'left team']);
    expect(roles.released).toEqual([true]);
    const already = poolsOf(() => [{ data: '1' }]);
    await runPlan(already.pools, query({ bounded: false }), { ...caller, gone });
    expect(already.admin.sent).toEqual([{ text: 'select pg_cancel_backend($1)', values: [42] }]);
    expect(already.adminGraphql.released).toEqual([true]);
  });

  test('a connection whose process is not known: nothing to cancel, the connection closed still', async () => {
    const gone = new Abandon();
    gone.abandon('gone');
    const { pools, admin, roles } = poolsOf(() => [{ data: '1' }], {}, false);
    await runPlan(pools, query(), { ...caller, gone });
    expect([admin.sent, roles.released]).toEqual([[], [true]]);
  });

  test('any other object thrown is a socket error of another realm: the connection lost; nothing thrown at all is itself', async () => {
    await expect(runPlan(poolsOf(failing({ message: 'socket hang up' })).pools, query(), caller)).rejects.toBeInstanceOf(ConnectionLost);
    await expect(runPlan(poolsOf(failing(null)).pools, query(), caller)).rejects.toBeNull();
  });

  test('a client that stays: nothing cancelled, its listener let go', async () => {
    const gone = new Abandon();
    const { pools, admin, roles } = poolsOf(() => [{ data: '1' }]);
    await runPlan(pools, query(), { ...caller, gone });
    expect([admin.sent, roles.released, gone.listening]).toEqual([[], [false], 0]);
  });
});

describe('the query cost limit', () => {
  const explained = (cost: number) => [{ 'QUERY PLAN': [{ Plan: { 'Node Type': 'Result', 'Total Cost': cost } }] }];

  test("a role's plan estimated once, refused above the limit", async () => {
    const { pools, roles } = poolsOf((sent) => (sent.text.startsWith('explain') ? explained(30) : [{ data: '1' }]), { maxQueryCost: 50 });
    const plan = query({ statements: [statement('a'), statement('b')] });
    await expect(runPlan(pools, plan, caller)).rejects.toMatchObject({ constructor: QueryTooCostly, cost: 60, limit: 50 });
    expect(plan.estimatedCost).toBe(60);
    expect(roles.sent.map((s) => s.text)).toEqual(['explain (format json, verbose) select a', 'explain (format json, verbose) select b']);
    await expect(runPlan(pools, plan, caller)).rejects.toBeInstanceOf(QueryTooCostly);
    expect(roles.sent).toHaveLength(2);
  });

  test("tables never analyzed are analyzed first, on the server's own connections, and the plan estimated again", async () => {
    const scanned = [
      { 'QUERY PLAN': [{ Plan: { 'Total Cost': 900, Schema: 'public', 'Relation Name': 'big', Plans: [{ Schema: 'public', 'Relation Name': 'small' }] } }] },
    ];
    let estimates = 0;
    const { pools, roles } = poolsOf((sent) => (sent.text.startsWith('explain') ? (estimates++ ? explained(40) : scanned) : [{ data: '1' }]), {
      maxQueryCost: 50,
    });
    const analyzed: string[] = [];
    (pools.admin as unknown as { query: (c: Sent) => Promise<unknown> }).query = async (c: Sent) => {
      analyzed.push(c.text.trim().split(/\s+/)[0]!);
      return { rows: c.text.includes('reltuples') ? [{ schema: 'public', name: 'big' }] : [] };
    };
    expect(await runPlan(pools, query(), caller)).toBe('{"data":1}');
    expect(analyzed).toEqual(['select', 'analyze']);
    expect(roles.sent.map((s) => s.text.split(' ')[0])).toEqual(['explain', 'explain', 'select']);
  });

  test('at the limit, or for admin, or without a limit: run', async () => {
    const answer: Answer = (sent) => (sent.text.startsWith('explain') ? explained(50) : [{ data: '1' }]);
    expect(await runPlan(poolsOf(answer, { maxQueryCost: 50 }).pools, query(), caller)).toBe('{"data":1}');
    const admin = poolsOf(answer, { maxQueryCost: 10 });
    expect(await runPlan(admin.pools, query({ bounded: false }))).toBe('{"data":1}');
    expect(admin.adminGraphql.sent.map((s) => s.text)).toEqual(['select a']);
    const none = poolsOf(answer);
    await runPlan(none.pools, query(), caller);
    expect(none.roles.sent.map((s) => s.text)).toEqual(['select a']);
  });
});

test('guarded leaves the gate also when the work fails, and gives the work the pool of the kind', async () => {
  const { pools, log, roles } = poolsOf(() => []);
  await expect(guarded(pools, query(), undefined, async (pool) => Promise.reject(Object.assign(new TypeError('x'), { pool })))).rejects.toMatchObject({
    pool: roles.pool,
  });
  expect(log).toEqual(['left ']);
});
