// Where an operation asks for relationships to tables of sources: one statement per stage and
// source (the server's own database being one), each join's values under its position, and a join
// under a joined field a stage later. What a join's SQL is belongs to sourceJoin.test.ts: here it
// is replaced by a value naming the join.
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import type { Models } from '../schema/model';
import { collectFields } from '../sql/graphql/fields';
import { isSourceJoinGroup, remoteJoinsOf, type SourceJoinGroup } from './remoteJoinPlan';

jest.mock('../sql/graphql/sourceJoin', () => {
  const { sql } = jest.requireActual<typeof import('../sql/graphql/context')>('../sql/graphql/context');
  return {
    sourceJoinJson: (keys: { joinKeys: string }, _env: unknown, rel: { name: string }, target: { name: string }, aggregate: boolean) =>
      sql.value(`${keys.joinKeys.replace(/\u0001/g, '|')} ${rel.name}→${target.name}${aggregate ? ' aggregate' : ''}`),
  };
});

const schema = buildSchema(`
  type Query { t: [T!]! }
  type T { id: Int!, n: Int!, label_aggregate: Int, reviews: [R!]!, reviews_aggregate: RA!, label: L, scene: S, maker: A }
  type A { id: Int!, label: L }
  type R { id: Int! }
  type RA { count: Int! }
  type L { x: Int }
  type S { x: Int }
`);
const toSource = (name: string, kind: 'object' | 'array', targetKey: string, source: string | undefined, mapping: [string, string][] = [['id', 'id']]) => ({
  name,
  kind,
  targetKey,
  ...(source === undefined ? {} : { source }),
  mapping,
});
const models = new Map([
  [
    't',
    {
      name: 'T',
      remoteRelationships: [],
      sourceRelationships: [
        toSource('reviews', 'array', 'books.r', 'books'),
        toSource('label', 'object', 'books.l', 'books'),
        toSource('scene', 'object', 'other.s', 'other', [
          ['id', 'x'],
          ['n', 'y'],
        ]),
        toSource('maker', 'object', 'a', undefined),
      ],
    },
  ],
  ['a', { name: 'A', remoteRelationships: [], sourceRelationships: [toSource('label', 'object', 'books.l', 'books')] }],
  ['books.r', { name: 'R', remoteRelationships: [], sourceRelationships: [] }],
  ['books.l', { name: 'L', remoteRelationships: [], sourceRelationships: [] }],
  ['other.s', { name: 'S', remoteRelationships: [], sourceRelationships: [] }],
]) as unknown as Models;

function plan(text: string, bounded?: boolean) {
  const operation = parse(text).definitions[0] as OperationDefinitionNode;
  const fields = { fragments: {}, variables: {} };
  const root = schema.getQueryType()!;
  const env = { models, allModels: models, sessionVariables: {}, schema, fields };
  const roots = collectFields(fields, root, operation.selectionSet);
  return (
    bounded === undefined ? remoteJoinsOf(env, operation, root, roots, {}) : remoteJoinsOf(env, operation, root, roots, {}, new Map(), bounded)
  ) as SourceJoinGroup[];
}
const summary = (groups: SourceJoinGroup[]) =>
  groups.map((g) => ({
    stage: g.stage,
    source: 'source' in g ? g.source : 'own',
    joins: g.joins.map((j) => [j.path.join('.'), j.lhs.join(','), j.keys.joinKeys.replace(/\u0001/g, '|')]),
    statement: [g.plan.statements[0]!.text, g.plan.statements[0]!.values],
    bounded: g.plan.bounded,
    // A read of its own: one statement whose data is the answer's, nothing else to order or bind.
    plan: [g.plan.kind, g.plan.operation, g.plan.statements.length, g.plan.statements[0]!.alias, g.plan.literals.size, g.plan.order],
  }));

test('one statement per stage and source; the own database apart; a join under a joined field a stage later', () => {
  const groups = plan('{ t { id label_aggregate reviews { id } reviews_aggregate { count } scene { x } label { x } maker { id label { x } } } }');
  expect(summary(groups)).toEqual([
    {
      stage: 0,
      source: 'books',
      joins: [
        ['t.reviews', 'id', '0|books|0'],
        ['t.reviews_aggregate', 'id', '0|books|1'],
        ['t.label', 'id', '0|books|2'],
      ],
      statement: [
        "select json_build_object('0', $1, '1', $2, '2', $3)::text as data",
        ['0|books|0 reviews→R', '0|books|1 reviews→R aggregate', '0|books|2 label→L'],
      ],
      bounded: false,
      plan: ['query', 'query', 1, '', 0, []],
    },
    {
      stage: 0,
      source: 'other',
      joins: [['t.scene', 'id,n', '0|other|0']],
      statement: ["select json_build_object('0', $1)::text as data", ['0|other|0 scene→S']],
      bounded: false,
      plan: ['query', 'query', 1, '', 0, []],
    },
    {
      stage: 0,
      source: 'own',
      joins: [['t.maker', 'id', '0||0']],
      statement: ["select json_build_object('0', $1)::text as data", ['0||0 maker→A']],
      bounded: false,
      plan: ['query', 'query', 1, '', 0, []],
    },
    {
      stage: 1,
      source: 'books',
      joins: [['t.maker.label', 'id', '1|books|0']],
      statement: ["select json_build_object('0', $1)::text as data", ['1|books|0 label→L']],
      bounded: false,
      plan: ['query', 'query', 1, '', 0, []],
    },
  ]);
});

test("a bounded request's statements are bounded; a field that is not a relationship asks for none", () => {
  expect(summary(plan('{ t { scene { x } } }', true)).map((g) => g.bounded)).toEqual([true]);
  expect(plan('{ t { id n } }')).toEqual([]);
  expect(plan('{ t { scene { x } } }').map(isSourceJoinGroup)).toEqual([true]);
});
