// run_sql whose SQL would leave the metadata inconsistent with the database it made is undone
// (decision dec.run_sql.consistency): the metadata is checked against the new database in the
// request's transaction when the SQL has statements other than queries and row changes, or when
// check_metadata_consistency is true; check_metadata_consistency false skips the check.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const runSql = (sql: string, extra: Record<string, unknown> = {}) => target.metadata({ type: 'run_sql', args: { sql, ...extra } }, { endpoint: '/v2/query' });
const gql = async (query: string) => (await target.graphql(query, undefined, { headers: target.adminHeaders() })).body;
const t1 = { schema: 'consistency', name: 't1' };
const pick = { schema: 'consistency', name: 'pick' };
const COMMAND_OK = { result_type: 'CommandOk', result: null };
const columnsOf = async (table: string) =>
  (
    await target.sql(`select column_name from information_schema.columns where table_schema = 'consistency' and table_name = $1 order by ordinal_position`, [
      table,
    ])
  ).map((r) => r.column_name);
const picks = async () => (await target.sql('select value from consistency.pick order by value')).map((r) => r.value);

const underscoreTable = {
  type: 'table',
  name: 'table consistency.t1 in source default',
  reason: 'Inconsistent object: the GraphQL schema would not be valid: Name "__x" must not begin with "__", which is reserved by GraphQL introspection.',
  definition: t1,
};
const enumTable = {
  type: 'table',
  name: 'table consistency.pick in source default',
  reason: 'Inconsistent object: the table "consistency.pick" cannot be used as an enum because the value "not a name" is not a valid GraphQL enum value name',
  definition: pick,
};
const refused = (internal: unknown[]) => ({ internal, path: '$.args', error: 'cannot continue due to new inconsistent metadata', code: 'unexpected' });

beforeEach(async () => {
  await target.reset();
  await target.sql(`drop schema if exists consistency cascade; create schema consistency;
    create table consistency.t1 (id int primary key); insert into consistency.t1 values (1);
    create table consistency.pick (value text primary key); insert into consistency.pick values ('yes'), ('no');`);
  expectResponse(
    await run('bulk', [
      { type: 'track_table', args: { table: t1 } },
      { type: 'track_table', args: { table: pick, is_enum: true } },
    ]),
    200,
  );
});

test(
  covers(
    ['dec.run_sql.consistency', 'err.unexpected.new-inconsistent-metadata'],
    'DDL that gives a tracked table a column no GraphQL schema can have is undone',
  ),
  async () => {
    const before = (await run('export_metadata', {})).body;
    expectResponse(await runSql('alter table consistency.t1 add column "__x" int'), 400, refused([underscoreTable]));
    expect(await columnsOf('t1')).toEqual(['id']);
    expect((await run('export_metadata', {})).body).toEqual(before);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    expect(await gql('{ consistency_t1 { id } }')).toEqual({ data: { consistency_t1: [{ id: 1 }] } });
    // The same change in a bulk undoes the bulk's other members too.
    const bulk = await target.metadata(
      {
        type: 'bulk',
        args: [
          { type: 'run_sql', args: { sql: 'create table consistency.t2 (id int)' } },
          { type: 'run_sql', args: { sql: 'alter table consistency.t1 add column "__x" int' } },
        ],
      },
      { endpoint: '/v1/query' },
    );
    expectResponse(bulk, 400, { ...refused([underscoreTable]), path: '$.args[1].args' });
    expect(await target.sql("select to_regclass('consistency.t2') as t")).toEqual([{ t: null }]);
  },
);

test(
  covers(
    ['dec.run_sql.consistency', 'err.unexpected.new-inconsistent-metadata'],
    'with check_metadata_consistency, a row change that breaks an enum table is undone',
  ),
  async () => {
    expectResponse(await runSql("insert into consistency.pick values ('not a name')", { check_metadata_consistency: true }), 400, refused([enumTable]));
    expect(await picks()).toEqual(['no', 'yes']);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    // A row change that keeps the enum valid is kept.
    expectResponse(await runSql("insert into consistency.pick values ('maybe')", { check_metadata_consistency: true }), 200, COMMAND_OK);
    expect(await picks()).toEqual(['maybe', 'no', 'yes']);
  },
);

test(
  covers(
    ['dec.run_sql.consistency'],
    'without the check (row changes only, or check_metadata_consistency false) the SQL is kept and the inconsistency reported',
  ),
  async () => {
    expectResponse(await runSql("insert into consistency.pick values ('not a name')"), 200, COMMAND_OK);
    expect(await picks()).toEqual(['no', 'not a name', 'yes']);
    expectResponse(await runSql('alter table consistency.t1 add column "__x" int', { check_metadata_consistency: false }), 200, COMMAND_OK);
    expect(await columnsOf('t1')).toEqual(['id', '__x']);
    expectResponse(await run('reload_metadata', {}), 200, { ...ok, is_consistent: false, inconsistent_objects: [enumTable, underscoreTable] });
  },
);

test(covers(['dec.run_sql.consistency'], 'what was inconsistent before the SQL does not refuse it'), async () => {
  expectResponse(await runSql("insert into consistency.pick values ('not a name')"), 200, COMMAND_OK);
  expectResponse(await runSql('create table consistency.t3 (id int)', { check_metadata_consistency: true }), 200, COMMAND_OK);
  expect(await target.sql("select to_regclass('consistency.t3')::text as t")).toEqual([{ t: 'consistency.t3' }]);
  // SQL that makes the enum table right again is kept too.
  expectResponse(await runSql("delete from consistency.pick where value = 'not a name'", { check_metadata_consistency: true }), 200, COMMAND_OK);
  expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
});

test(covers(['dec.run_sql.consistency', 'err.parse-failed.arguments'], 'check_metadata_consistency must be a boolean'), async () => {
  const r = await runSql('select 1', { check_metadata_consistency: 'yes' });
  expect(r.status).toBe(400);
  // Read with the arguments: below the envelope on the query endpoints (dec.envelope.argument-paths).
  expect(r.body).toMatchObject({ code: 'parse-failed', path: '$.check_metadata_consistency' });
});

/** Tables beside t1 and pick: after a change to one, the schema is mostly the types the one before had, the changed table's made anew under the same names. */
const wide = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
const w3Fields = async () =>
  (
    (await gql('{ __type(name: "consistency_w3") { fields { name } } }')) as { data: { __type: { fields: { name: string }[] } | null } }
  ).data.__type?.fields.map((f) => f.name);

test(
  covers(
    ['dec.run_sql.consistency', 'dec.schema.always-valid', 'err.unexpected.new-inconsistent-metadata'],
    'among many tables, the one DDL makes invalid is refused; one it changes validly is served as changed',
  ),
  async () => {
    await target.sql(
      wide.map((w) => `create table consistency.${w} (id int primary key, name text); insert into consistency.${w} values (1, '${w}');`).join('\n'),
    );
    expectResponse(
      await run(
        'bulk',
        wide.map((name) => ({ type: 'track_table', args: { table: { schema: 'consistency', name } } })),
      ),
      200,
    );
    const w3 = { schema: 'consistency', name: 'w3' };
    const invalidW3 = { ...underscoreTable, name: 'table consistency.w3 in source default', definition: w3 };
    expectResponse(await runSql('alter table consistency.w3 add column "__x" int'), 400, refused([invalidW3]));
    expect(await columnsOf('w3')).toEqual(['id', 'name']);
    expect(await w3Fields()).toEqual(['id', 'name']);
    // A valid change beside it is kept and served, with the tables it did not touch.
    expectResponse(await runSql('alter table consistency.w3 add column x__y int default 7'), 200, COMMAND_OK);
    expect(await gql('{ consistency_w3 { id name x__y } consistency_w4 { name } }')).toEqual({
      data: { consistency_w3: [{ id: 1, name: 'w3', x__y: 7 }], consistency_w4: [{ name: 'w4' }] },
    });
    // Once again invalid after that valid one; kept without the check, it is left out of the schema and reported.
    expectResponse(await runSql('alter table consistency.w3 add column "__x" int'), 400, refused([invalidW3]));
    expectResponse(await runSql('alter table consistency.w3 add column "__x" int', { check_metadata_consistency: false }), 200, COMMAND_OK);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [invalidW3]);
    expect(await w3Fields()).toBeUndefined();
    expect(await gql('{ consistency_w2 { name } }')).toEqual({ data: { consistency_w2: [{ name: 'w2' }] } });
  },
);
