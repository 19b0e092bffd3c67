// Database objects that run_sql drops and makes again under the same names: GraphQL answers from
// the new objects, never from what the server prepared or cached for the old ones (decision
// dec.run_sql.recreated-objects).
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const runSql = (sql: string, extra: Record<string, unknown> = {}) => target.metadata({ type: 'run_sql', args: { sql, ...extra } }, { endpoint: '/v2/query' });
const gql = async (query: string) => (await target.graphql(query, undefined, { headers: target.adminHeaders() })).body;

beforeEach(async () => {
  await target.reset();
  await target.sql('drop schema if exists recreated cascade; create schema recreated');
});

const ROW_TYPE = `create table recreated.rt (a int);
  create function recreated.rf(t recreated.rt) returns setof recreated.rp language sql stable as $$ select * from recreated.rp where a = (t).a $$`;

test(
  covers(
    ['dec.run_sql.recreated-objects', 'dec.graphql.composite-scalars', 'op.track_function.v2'],
    'a function over a row type that run_sql dropped and made again answers from the new type',
  ),
  async () => {
    expectResponse(await runSql('create table recreated.rp (id int primary key, a int); insert into recreated.rp values (1, 10), (2, 20)'), 200);
    expectResponse(await runSql(ROW_TYPE), 200);
    expectResponse(await run('track_table', { table: { schema: 'recreated', name: 'rp' } }), 200, ok);
    expectResponse(await run('track_function', { function: { schema: 'recreated', name: 'rf' } }), 200, ok);
    const query = '{ recreated_rf(args: {t: "(20)"}) { id a } }';
    const answer = { data: { recreated_rf: [{ id: 2, a: 20 }] } };
    // Asked twice: the second answer may come from what the server kept of the first.
    for (let i = 0; i < 2; i++) expect(await gql(query)).toEqual(answer);
    // The type goes with the function; cascade untracks the function.
    expectResponse(await runSql('drop table recreated.rt cascade', { cascade: true }), 200);
    expectResponse(await runSql(ROW_TYPE), 200);
    expectResponse(await run('track_function', { function: { schema: 'recreated', name: 'rf' } }), 200, ok);
    for (let i = 0; i < 2; i++) expect(await gql(query)).toEqual(answer);
  },
);

test(
  covers(
    ['dec.run_sql.recreated-objects', 'dec.run_sql.tracked-tables', 'op.track_table.v2'],
    'a table made again with a column of another type answers in the new type',
  ),
  async () => {
    expectResponse(await runSql('create table recreated.rc (id int primary key, v int); insert into recreated.rc values (1, 7)'), 200);
    expectResponse(await run('track_table', { table: { schema: 'recreated', name: 'rc' } }), 200, ok);
    const all = '{ recreated_rc { id v } }';
    const filtered = '{ recreated_rc(where: {v: {_is_null: false}}, order_by: {id: asc}) { v } }';
    for (let i = 0; i < 2; i++) {
      expect(await gql(all)).toEqual({ data: { recreated_rc: [{ id: 1, v: 7 }] } });
      expect(await gql(filtered)).toEqual({ data: { recreated_rc: [{ v: 7 }] } });
    }
    // Dropped and made again in one run_sql: the table stays tracked.
    expectResponse(
      await runSql("drop table recreated.rc; create table recreated.rc (id int primary key, v text); insert into recreated.rc values (1, 'seven')"),
      200,
    );
    expect(((await run('export_metadata', {})).body as { tables: unknown[] }).tables).toEqual([{ table: { schema: 'recreated', name: 'rc' } }]);
    for (let i = 0; i < 2; i++) {
      expect(await gql(all)).toEqual({ data: { recreated_rc: [{ id: 1, v: 'seven' }] } });
      expect(await gql(filtered)).toEqual({ data: { recreated_rc: [{ v: 'seven' }] } });
    }
  },
);

const MOOD =
  "create type recreated.mood as enum ('calm', 'glad'); create table recreated.rm (id int primary key, m recreated.mood); insert into recreated.rm values (1, 'glad')";
const moodQuery = async () =>
  (await target.graphql('query ($m: mood) { recreated_rm(where: {m: {_eq: $m}}) { id m } }', { m: 'glad' }, { headers: target.adminHeaders() })).body;
const moodAnswer = { data: { recreated_rm: [{ id: 1, m: 'glad' }] } };

test(
  covers(['dec.run_sql.recreated-objects', 'dec.run_sql.tracked-tables'], "a table and its column's enum type made again alike answer as before"),
  async () => {
    const make =
      "create type recreated.mood as enum ('calm', 'glad'); create table recreated.rm (id int primary key, m recreated.mood); insert into recreated.rm values (1, 'glad')";
    expectResponse(await runSql(make), 200);
    expectResponse(await run('track_table', { table: { schema: 'recreated', name: 'rm' } }), 200, ok);
    const query = 'query ($m: mood) { recreated_rm(where: {m: {_eq: $m}}) { id m } }';
    const answer = { data: { recreated_rm: [{ id: 1, m: 'glad' }] } };
    const ask = async () => (await target.graphql(query, { m: 'glad' }, { headers: target.adminHeaders() })).body;
    for (let i = 0; i < 2; i++) expect(await ask()).toEqual(answer);
    expectResponse(await runSql(`drop table recreated.rm; drop type recreated.mood; ${make}`), 200);
    for (let i = 0; i < 2; i++) expect(await ask()).toEqual(answer);
  },
);

test(covers(['dec.run_sql.recreated-objects'], 'made again alike by SQL outside the service, with no reload: the statement is prepared again'), async () => {
  expectResponse(await runSql(MOOD), 200);
  expectResponse(await run('track_table', { table: { schema: 'recreated', name: 'rm' } }), 200, ok);
  for (let i = 0; i < 2; i++) expect(await moodQuery()).toEqual(moodAnswer);
  await target.sql(`drop table recreated.rm; drop type recreated.mood; ${MOOD}`);
  for (let i = 0; i < 2; i++) expect(await moodQuery()).toEqual(moodAnswer);
});
