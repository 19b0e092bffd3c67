// A cohort's statement runs once per batch of distinct rows (a request's session and variables as the
// statement reads them), each bound as a row; the rows come back in any order and are split by row,
// each batch's as soon as it is back; a failed statement ends only its batch. A request's row holds
// only what its plan reads.
import type { PlanPools } from './runPlan';
import { StatementGenerations } from './preparedStatements';
import type { CompiledPlan } from './plan';
import { cohortAnswers, cohortRow, statementsKey, type CohortAnswer } from './cohorts';

const plan: CompiledPlan = {
  kind: 'query',
  bounded: false,
  operation: 'subscription',
  statements: [{ alias: '', name: 'engine_x', text: 'select cohort', values: ['shared', '[{"i":0,"session":{}}]', 7] }],
  literals: new Map([['__typename', '"subscription_root"']]),
  order: ['__typename', 'mine'],
  cohort: { value: 1, session: true, variables: {} },
};

/** A pool that answers each row with its session's user id (rows reversed), and fails a batch holding user `bad`. */
function recordingPools() {
  const sent: unknown[][] = [];
  const client = {
    release: () => {},
    query: async ({ values }: { values: unknown[] }) => {
      sent.push(values);
      const rows = JSON.parse(values[1] as string) as { i: number; session: Record<string, string> }[];
      if (rows.some((r) => r.session['x-engine-user-id'] === 'bad')) throw new Error('statement failed');
      return { rows: rows.map((r) => ({ i: r.i, data: JSON.stringify({ mine: { user: r.session['x-engine-user-id'] } }) })).reverse() };
    },
  };
  const pool = { connect: async () => client };
  const pools = {
    admin: pool,
    adminGraphql: pool,
    roles: pool,
    statementTimeoutMs: 1000,
    adminStatementTimeoutMs: 1000,
    maxQueryCost: 0,
    statements: new StatementGenerations(),
  } as unknown as PlanPools;
  return { pools, sent };
}

const sessions = (...users: string[]) =>
  new Map(
    users.map((u) => [`key-${u}`, { key: `key-${u}`, session: { 'x-engine-role': 'user', 'x-engine-user-id': u }, variables: u === '5' ? { id: 5 } : {} }]),
  );

test('one statement per batch of sessions, each bound as a row of the one JSON value; answers split by session', async () => {
  const { pools, sent } = recordingPools();
  const batches: string[][] = [];
  const answers = new Map<string, CohortAnswer>();
  await cohortAnswers(pools, plan, sessions('1', '2', '3', '4', '5'), 2, (batch) => {
    batches.push([...batch.keys()]);
    for (const [key, answer] of batch) answers.set(key, answer);
  });
  expect(batches.sort()).toEqual([['key-1', 'key-2'], ['key-3', 'key-4'], ['key-5']]);
  expect(sent).toEqual([
    [
      'shared',
      '[{"i":0,"session":{"x-engine-role":"user","x-engine-user-id":"1"},"variables":{}},{"i":1,"session":{"x-engine-role":"user","x-engine-user-id":"2"},"variables":{}}]',
      7,
    ],
    [
      'shared',
      '[{"i":0,"session":{"x-engine-role":"user","x-engine-user-id":"3"},"variables":{}},{"i":1,"session":{"x-engine-role":"user","x-engine-user-id":"4"},"variables":{}}]',
      7,
    ],
    ['shared', '[{"i":0,"session":{"x-engine-role":"user","x-engine-user-id":"5"},"variables":{"id":5}}]', 7],
  ]);
  expect(Object.fromEntries(answers)).toEqual({
    'key-1': { text: '{"data":{"__typename":"subscription_root","mine":{"user":"1"}}}', final: false },
    'key-2': { text: '{"data":{"__typename":"subscription_root","mine":{"user":"2"}}}', final: false },
    'key-3': { text: '{"data":{"__typename":"subscription_root","mine":{"user":"3"}}}', final: false },
    'key-4': { text: '{"data":{"__typename":"subscription_root","mine":{"user":"4"}}}', final: false },
    'key-5': { text: '{"data":{"__typename":"subscription_root","mine":{"user":"5"}}}', final: false },
  });
});

test('sessions that fill their batches make no statement more; each statement is logged with its cohort at log level debug', async () => {
  const { pools, sent } = recordingPools();
  const logged: unknown[] = [];
  await cohortAnswers({ ...pools, logSql: (statement) => logged.push(statement) }, plan, sessions('1', '2', '3', '4'), 2, () => {});
  expect(sent).toHaveLength(2);
  expect(logged).toEqual(sent.map((values) => ({ text: 'select cohort', values })));
});

test('a batch whose statement fails gets the error as a final answer; the other batches are answered', async () => {
  const { pools } = recordingPools();
  const answers = new Map<string, CohortAnswer>();
  await cohortAnswers(pools, plan, sessions('1', 'bad', '3'), 2, (batch) => batch.forEach((answer, key) => answers.set(key, answer)));
  expect([answers.get('key-1')!.final, answers.get('key-bad')!.final, answers.get('key-3')!.final]).toEqual([true, true, false]);
  expect(answers.get('key-1')!.text).toBe(answers.get('key-bad')!.text);
  expect(JSON.parse(answers.get('key-1')!.text)).toHaveProperty('errors');
  expect(answers.get('key-3')!.text).toBe('{"data":{"__typename":"subscription_root","mine":{"user":"3"}}}');
});

test('plans alike but for the session they were compiled for have one key', () => {
  const other = { ...plan, statements: [{ ...plan.statements[0]!, values: ['shared', '[{"i":0,"session":{"x":"y"}}]', 7] }] };
  const different = { ...plan, statements: [{ ...plan.statements[0]!, values: ['other', '[{"i":0,"session":{}}]', 7] }] };
  expect(JSON.stringify(statementsKey(other))).toBe(JSON.stringify(statementsKey(plan)));
  expect(JSON.stringify(statementsKey(different))).not.toBe(JSON.stringify(statementsKey(plan)));
});

test("a request's row holds its session only when the plan reads it, and the variables the plan reads; rows alike have one key", () => {
  const session = (id: string) => ({ role: 'user', variables: { 'x-engine-role': 'user', 'x-engine-user-id': id } }) as Parameters<typeof cohortRow>[0];
  const reads = (sessionRead: boolean, variables: Record<string, unknown>) => ({ session: sessionRead, variables });
  expect(cohortRow(session('1'), reads(true, { id: 3 }))).toEqual({
    key: '[{"x-engine-role":"user","x-engine-user-id":"1"},{"id":3}]',
    session: { 'x-engine-role': 'user', 'x-engine-user-id': '1' },
    variables: { id: 3 },
  });
  // The session unread: requests of any session with the same variables are one row.
  expect(cohortRow(session('1'), reads(false, { id: 3 }))).toEqual({ key: '[{},{"id":3}]', session: {}, variables: { id: 3 } });
  expect(cohortRow(session('2'), reads(false, { id: 3 })).key).toBe(cohortRow(session('1'), reads(false, { id: 3 })).key);
  expect(cohortRow(session('1'), reads(false, { id: 4 })).key).not.toBe(cohortRow(session('1'), reads(false, { id: 3 })).key);
});
