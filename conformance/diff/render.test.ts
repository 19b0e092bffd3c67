// A scenario as sent: its SQL, its metadata document and its requests, literally.
import * as sql from 'pg-sql2';
import { changesRows, graphqlDocument, httpCall, metadataDocument, printedSql, rowsQuery, setupStatements } from './render';
import { plantNinKeepingNulls } from './plantedProxy';
import { usable, type Request, type Scenario } from './scenario';

const scenario: Scenario = {
  tables: [true, true, false],
  rows: [[{ n: 1, t: "it's", b: null, j: { a: 1 }, owner: 2 }], [{ n: null, t: 'a', p: 1 }], [{ b: true, t: 'x', owner: 1, p: 1 }]],
  relationships: true,
  permissions: [{ table: 1, role: 'r1', kind: 'select', permission: { columns: ['id', 'p'], filter: { p: { _nin: [2] } } } }],
  rest: [{ table: 0, column: 't' }],
  requests: [],
};

test('the SQL: tables the scenario has, rows with their ids, values as parameters (printed as literals)', () => {
  expect(printedSql(setupStatements(scenario))).toBe(
    [
      'drop schema if exists "engine_diff" cascade;',
      'create schema "engine_diff";',
      'create table "engine_diff"."t0" ("id" integer primary key, "n" integer, "t" text, "b" boolean, "j" jsonb, "owner" integer);',
      `insert into "engine_diff"."t0" ("id", "n", "t", "b", "j", "owner") values (1, 1, 'it''s', null, '{"a":1}'::jsonb, 2);`,
      'create table "engine_diff"."t1" ("id" integer primary key, "n" integer, "t" text, "p" integer);',
      `insert into "engine_diff"."t1" ("id", "n", "t", "p") values (1, null, 'a', 1);`,
    ].join('\n'),
  );
});

test('the metadata: relationships between tables it has, permissions, a REST endpoint over a saved query', () => {
  expect(metadataDocument(scenario)).toEqual({
    version: 2,
    tables: [
      {
        table: { schema: 'engine_diff', name: 't0' },
        array_relationships: [
          { name: 't1s', using: { manual_configuration: { remote_table: { schema: 'engine_diff', name: 't1' }, column_mapping: { id: 'p' } } } },
        ],
      },
      {
        table: { schema: 'engine_diff', name: 't1' },
        object_relationships: [
          { name: 'parent', using: { manual_configuration: { remote_table: { schema: 'engine_diff', name: 't0' }, column_mapping: { p: 'id' } } } },
        ],
        select_permissions: [{ role: 'r1', permission: { columns: ['id', 'p'], filter: { p: { _nin: [2] } } } }],
      },
    ],
    query_collections: [
      {
        name: 'diff',
        definition: { queries: [{ name: 'q0', query: 'query q($v: String) { engine_diff_t0(where: {t: {_eq: $v}}, order_by: {id: asc}) { id t } }' }] },
      },
    ],
    rest_endpoints: [{ name: 'r0', url: 'r0', methods: ['GET'], definition: { query: { query_name: 'q0', collection_name: 'diff' } }, comment: null }],
  });
});

test('requests: GraphQL literals with enums bare and the order ending in id; DML, REST and metadata calls', () => {
  const select: Request = {
    kind: 'select',
    table: 0,
    fields: ['id', 't'],
    where: { t: { _in: ['a"b', 'ä'] } },
    orderBy: [['n', 'desc']],
    limit: 2,
    distinctOn: 'n',
    nested: true,
    role: 'r0',
    userId: '2',
  } as const;
  expect(graphqlDocument(select, scenario)).toBe(
    'query { engine_diff_t0(where: {t: {_in: ["a\\"b", "ä"]}}, order_by: [{n: desc}, {id: asc}], limit: 2, distinct_on: [n]) { id t t1s(order_by: {id: asc}) { id } } }',
  );
  expect(httpCall(select, scenario)).toMatchObject({ method: 'POST', path: '/v1/graphql', as: { role: 'r0', userId: '2' } });
  expect(graphqlDocument({ kind: 'aggregate', table: 1, fn: ['sum', 'n'], role: 'admin', userId: '1' }, scenario)).toBe(
    'query { engine_diff_t1_aggregate { aggregate { count sum { n } } } }',
  );
  expect(graphqlDocument({ kind: 'update', table: 1, where: { p: { _eq: 1 } }, set: { t: null }, role: 'r1', userId: '1' }, scenario)).toBe(
    'mutation { update_engine_diff_t1(where: {p: {_eq: 1}}, _set: {t: null}) { affected_rows } }',
  );
  expect(httpCall({ kind: 'dml-select', table: 1, orderBy: [['t', 'asc']], limit: 1 }, scenario)).toEqual({
    method: 'POST',
    path: '/v1/query',
    as: { role: 'admin' },
    body: {
      type: 'select',
      args: {
        table: { schema: 'engine_diff', name: 't1' },
        columns: ['*'],
        order_by: [
          { column: 't', type: 'asc' },
          { column: 'id', type: 'asc' },
        ],
        limit: 1,
      },
    },
  });
  expect(httpCall({ kind: 'rest', endpoint: 0, value: 'a b&c' }, scenario)).toEqual({ method: 'GET', path: '/api/rest/r0?v=a%20b%26c', as: { role: 'admin' } });
});

test('a scenario keeps only what its tables and relationships allow', () => {
  const s = usable({
    ...scenario,
    relationships: false,
    permissions: [
      ...scenario.permissions,
      { table: 1, role: 'r1', kind: 'select', permission: { columns: ['id'], filter: {} } },
      { table: 2, role: 'r0', kind: 'delete', permission: { filter: {} } },
      { table: 0, role: 'r0', kind: 'delete', permission: { filter: { t1s: { n: { _eq: 1 } } } } },
    ],
    requests: [
      { kind: 'dml-count', table: 2 },
      { kind: 'dml-count', table: 1 },
      { kind: 'rest', endpoint: 1, value: 1 },
      { kind: 'dml-count', table: 0, where: { t1s: { n: { _eq: 1 } } } },
    ],
  });
  expect(s.permissions).toEqual(scenario.permissions);
  expect(s.requests).toEqual([{ kind: 'dml-count', table: 1 }]);
  expect(s.rows[2]).toEqual([]);
});

test('the planted difference: each _nin of a column also keeps NULLs, other keys beside it', () => {
  expect(plantNinKeepingNulls('{ t(where: {n: {_nin: [1]}, t: {_eq: "a"}}) { id } }')).toBe(
    '{\n  t(\n    where: {_and: [{_and: [{n: {}}, {_or: [{n: {_nin: [1]}}, {n: {_is_null: true}}]}]}, {t: {_eq: "a"}}]}\n  ) {\n    id\n  }\n}',
  );
  expect(plantNinKeepingNulls('{ t(where: {n: {_in: [1]}}) { id } }')).toBe('{\n  t(where: {n: {_in: [1]}}) {\n    id\n  }\n}');
});

test('every request form as sent, literally', () => {
  const only0: Scenario = { ...scenario, tables: [true, false, false], rest: [] };
  const role = { role: 'r1', userId: '2' } as const;
  const calls = [
    httpCall({ kind: 'select', table: 1, fields: ['id'], orderBy: [], offset: 3, nested: true, ...role }, scenario),
    httpCall({ kind: 'select', table: 0, fields: ['n'], orderBy: [], nested: true, role: 'admin', userId: '1' }, only0),
    httpCall({ kind: 'select', table: 1, fields: ['n'], orderBy: [], nested: true, ...role }, { ...scenario, relationships: false }),
    httpCall({ kind: 'aggregate', table: 0, where: { n: { _gt: 1 } }, ...role }, scenario),
    httpCall({ kind: 'insert', table: 1, objects: [{ id: 3, n: null, t: 'x', p: 1 }], ...role }, scenario),
    httpCall({ kind: 'delete', table: 1, where: { n: { _is_null: true } }, ...role }, scenario),
    httpCall({ kind: 'dml-select', table: 0, where: { b: { _eq: false } }, orderBy: [] }, scenario),
    httpCall({ kind: 'dml-count', table: 0, where: { n: { _eq: 0 } } }, scenario),
    httpCall({ kind: 'dml-count', table: 1 }, scenario),
    httpCall({ kind: 'metadata', operation: { type: 'pg_untrack_table', args: { table: 't' } } }, scenario),
  ];
  expect(calls).toEqual([
    {
      method: 'POST',
      path: '/v1/graphql',
      as: { role: 'r1', userId: '2' },
      body: { query: 'query { engine_diff_t1(order_by: [{id: asc}], offset: 3) { id parent { id } } }' },
    },
    { method: 'POST', path: '/v1/graphql', as: { role: 'admin' }, body: { query: 'query { engine_diff_t0(order_by: [{id: asc}]) { n } }' } },
    { method: 'POST', path: '/v1/graphql', as: { role: 'r1', userId: '2' }, body: { query: 'query { engine_diff_t1(order_by: [{id: asc}]) { n } }' } },
    {
      method: 'POST',
      path: '/v1/graphql',
      as: { role: 'r1', userId: '2' },
      body: { query: 'query { engine_diff_t0_aggregate(where: {n: {_gt: 1}}) { aggregate { count } } }' },
    },
    {
      method: 'POST',
      path: '/v1/graphql',
      as: { role: 'r1', userId: '2' },
      body: { query: 'mutation { insert_engine_diff_t1(objects: [{id: 3, n: null, t: "x", p: 1}]) { affected_rows } }' },
    },
    {
      method: 'POST',
      path: '/v1/graphql',
      as: { role: 'r1', userId: '2' },
      body: { query: 'mutation { delete_engine_diff_t1(where: {n: {_is_null: true}}) { affected_rows } }' },
    },
    {
      method: 'POST',
      path: '/v1/query',
      as: { role: 'admin' },
      body: {
        type: 'select',
        args: { table: { schema: 'engine_diff', name: 't0' }, columns: ['*'], where: { b: { _eq: false } }, order_by: [{ column: 'id', type: 'asc' }] },
      },
    },
    {
      method: 'POST',
      path: '/v1/query',
      as: { role: 'admin' },
      body: { type: 'count', args: { table: { schema: 'engine_diff', name: 't0' }, where: { n: { _eq: 0 } } } },
    },
    { method: 'POST', path: '/v1/query', as: { role: 'admin' }, body: { type: 'count', args: { table: { schema: 'engine_diff', name: 't1' } } } },
    { method: 'POST', path: '/v1/metadata', as: { role: 'admin' }, body: { type: 'pg_untrack_table', args: { table: 't' } } },
  ]);
  expect(() => graphqlDocument({ kind: 'dml-count', table: 0 }, scenario)).toThrow('not a GraphQL request: dml-count');
});

test('a scenario without REST endpoints or rows has none in its document and SQL; every kind of value prints', () => {
  const bare: Scenario = { ...scenario, tables: [true, false, false], rows: [[], [], []], rest: [], permissions: [] };
  expect(metadataDocument(bare)).toEqual({ version: 2, tables: [{ table: { schema: 'engine_diff', name: 't0' } }] });
  expect(printedSql(setupStatements(bare))).toBe(
    'drop schema if exists "engine_diff" cascade;\ncreate schema "engine_diff";\ncreate table "engine_diff"."t0" ("id" integer primary key, "n" integer, "t" text, "b" boolean, "j" jsonb, "owner" integer);',
  );
  const values: Scenario = {
    ...bare,
    rows: [
      [
        { n: -2, t: 'a\\b', b: false, j: null, owner: null },
        { n: 12, t: '', b: true, j: {}, owner: 3 },
      ],
      [],
      [],
    ],
  };
  expect(printedSql(setupStatements(values)).split('\n').at(-1)).toBe(
    `insert into "engine_diff"."t0" ("id", "n", "t", "b", "j", "owner") values (1, -2, E'a\\\\b', false, null, null), (2, 12, '', true, '{}'::jsonb, 3);`,
  );
});

test('absent arguments are left out of the body, not sent as undefined; what changes rows; the rows query', () => {
  expect(JSON.stringify(httpCall({ kind: 'dml-count', table: 1 }, scenario).body)).toBe(
    '{"type":"count","args":{"table":{"schema":"engine_diff","name":"t1"}}}',
  );
  expect(JSON.stringify(httpCall({ kind: 'dml-select', table: 1, orderBy: [] }, scenario).body)).toBe(
    '{"type":"select","args":{"table":{"schema":"engine_diff","name":"t1"},"columns":["*"],"order_by":[{"column":"id","type":"asc"}]}}',
  );
  const kinds = ['select', 'aggregate', 'insert', 'update', 'delete', 'dml-select', 'dml-count', 'rest', 'metadata'] as const;
  expect(kinds.filter((kind) => changesRows({ kind } as Request))).toEqual(['insert', 'update', 'delete', 'metadata']);
  expect(sql.compile(rowsQuery(2)).text).toBe(`select coalesce(json_agg(to_jsonb(x) order by x.id), '[]') as rows from "engine_diff"."t2" x`);
});
