// Completing an answer with relationships to tables of sources: the distinct sets of values of each
// join's rows, bound as one statement's values, and every row given the value of its set.
import type { JoinKeys } from '../sql/graphql/sourceJoin';
import type { CompiledPlan, SourceJoinGroup } from './plan';
import { runSourceJoins } from './sourceJoins';

const keysA = { join: 'a' } as unknown as JoinKeys;
const keysB = { join: 'b' } as unknown as JoinKeys;
const groupOf = (source: string | undefined, joins: SourceJoinGroup['joins']): SourceJoinGroup => ({
  stage: 0,
  ...(source === undefined ? {} : { source }),
  joins,
  plan: {
    kind: 'query',
    bounded: true,
    operation: 'query',
    statements: [{ alias: 'j', name: 'j', text: 'select j', values: [keysA, 'kept', keysB] }],
    literals: new Map(),
    order: ['0', '1'],
  },
});

test("one statement for the group: each join's distinct sets, rows of equal values sharing one; a null value matches no row", async () => {
  const data = {
    a: [
      { id: 1, x: { c: 'NO', d: 1 } },
      { id: 2, x: { c: 'NO', d: 1 } },
      { id: 3, x: { c: 'TD', d: 1 } },
      { id: 4, x: { c: null, d: 1 } },
      { id: 5, x: { d: 2 } },
    ],
    b: { y: { c: 'SE' } },
  };
  const asked: [string | undefined, CompiledPlan][] = [];
  const group = groupOf('other', [
    { path: ['a', 'x'], lhs: ['c', 'd'], keys: keysA },
    { path: ['b', 'y'], lhs: ['c'], keys: keysB },
  ]);
  const answer = { data: { 0: [{ n: 'Norway' }, { n: 'Chad' }, null], 1: [{ n: 'Sweden' }] } };
  const found = await runSourceJoins(data, group, async (source, plan) => {
    asked.push([source, plan]);
    plan.estimatedCost = 12;
    return JSON.stringify(answer);
  });
  expect(found).toEqual([]);
  expect(asked.map(([source, plan]) => [source, plan.statements[0]!.values])).toEqual([
    [
      'other',
      [
        JSON.stringify([
          { __i: 0, k0: 'NO', k1: 1 },
          { __i: 1, k0: 'TD', k1: 1 },
          { __i: 2, k0: null, k1: 1 },
          { __i: 3, k0: null, k1: 2 },
        ]),
        'kept',
        JSON.stringify([{ __i: 0, k0: 'SE' }]),
      ],
    ],
  ]);
  expect(data).toEqual({
    a: [
      { id: 1, x: { n: 'Norway' } },
      { id: 2, x: { n: 'Norway' } },
      { id: 3, x: { n: 'Chad' } },
      { id: 4, x: null },
      { id: 5, x: null },
    ],
    b: { y: { n: 'Sweden' } },
  });
  // The group's plan keeps its own values, and the cost the run estimated.
  expect([group.plan.statements[0]!.values, group.plan.estimatedCost]).toEqual([[keysA, 'kept', keysB], 12]);
});

test('no row asks: nothing run', async () => {
  let ran = false;
  const data = { a: [] as unknown[], b: null };
  const group = groupOf(undefined, [
    { path: ['a', 'x'], lhs: ['c'], keys: keysA },
    { path: ['b', 'y'], lhs: ['c'], keys: keysB },
  ]);
  expect(
    await runSourceJoins(data, group, async () => {
      ran = true;
      return '{"data":{}}';
    }),
  ).toEqual([]);
  expect([ran, data]).toEqual([false, { a: [], b: null }]);
});

test("one join with rows, another without: both bound, the server's own database asked; a cost estimated before is kept", async () => {
  const data = { a: [{ x: { c: 1 } }], b: [] as unknown[] };
  const group = groupOf(undefined, [
    { path: ['a', 'x'], lhs: ['c'], keys: keysA },
    { path: ['b', 'y'], lhs: ['c'], keys: keysB },
  ]);
  group.plan.estimatedCost = 5;
  const asked: unknown[] = [];
  await runSourceJoins(data, group, async (source, plan) => {
    asked.push(source, plan.statements[0]!.values);
    plan.estimatedCost = 99;
    return '{"data":{"0":[7],"1":[]}}';
  });
  expect(asked).toEqual([undefined, ['[{"__i":0,"k0":1}]', 'kept', '[]']]);
  expect([data, group.plan.estimatedCost]).toEqual([{ a: [{ x: 7 }], b: [] }, 5]);
});
