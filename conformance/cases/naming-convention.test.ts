// A source under the graphql-default naming convention (decision 048): its root fields, arguments,
// operators, enum values and answer fields are cased as the engine cases them, queries and
// mutations answer by those names, and the server's own tables beside it keep hasura-default.
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const IDS = ['dec.source.customization', 'op.pg_add_source'];

afterEach(async () => {
  await target.reset();
  if (REQUIRES_SOURCE_DATABASE.met)
    await second.sql('drop table if exists naming_db.app_users; drop table if exists naming_db.week_days; drop schema if exists naming_db');
  await target.sql('drop table if exists public.notes');
});

/** `naming_db.app_users` (its favourite day from the enum table `naming_db.week_days`) in a source under graphql-default, and `notes` on the server's own database. */
async function appUsers() {
  await second.sql(`create schema naming_db;
    create table naming_db.week_days (day_name text primary key); insert into naming_db.week_days values ('sunday'), ('monday');
    create table naming_db.app_users (user_id serial primary key, user_name text not null, favourite_day text references naming_db.week_days, referred_by int);
    insert into naming_db.app_users (user_name, favourite_day, referred_by) values ('ann', 'sunday', null), ('bob', 'monday', 1), ('cy', 'sunday', 1)`);
  await target.sql('create table public.notes (id serial primary key, note_text text)');
  expectResponse(
    await run('pg_add_source', {
      name: 'apps',
      configuration: { connection_info: { database_url: second.url } },
      customization: { naming_convention: 'graphql-default' },
    }),
    200,
    ok,
  );
  expectResponse(await run('pg_track_table', { source: 'apps', table: { schema: 'naming_db', name: 'week_days' }, is_enum: true }), 200, ok);
  expectResponse(await run('pg_track_table', { source: 'apps', table: { schema: 'naming_db', name: 'app_users' } }), 200, ok);
  expectResponse(await run('pg_track_table', { table: 'notes' }), 200, ok);
}

/** The fields of a type and their arguments, sorted by name. */
async function fieldsOf(type: string): Promise<Record<string, string[]>> {
  const answer = await target.graphql(`{ __type(name: "${type}") { fields { name args { name } } inputFields { name } } }`);
  type Field = { name: string; args?: { name: string }[] };
  const found = (answer.body as { data: { __type: { fields: Field[] | null; inputFields: Field[] | null } } }).data.__type;
  const entries = (found.fields ?? found.inputFields ?? []).map((f) => [f.name, (f.args ?? []).map((a) => a.name).sort()] as const);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  IDS,
  'under graphql-default root fields and fields are camelCase, arguments and operators too, types PascalCase; the default source keeps hasura-default',
  async () => {
    await appUsers();
    expect(await fieldsOf('query_root')).toEqual({
      namingDbAppUsers: ['distinctOn', 'limit', 'offset', 'orderBy', 'where'],
      namingDbAppUsersAggregate: ['distinctOn', 'limit', 'offset', 'orderBy', 'where'],
      namingDbAppUsersByPk: ['userId'],
      namingDbWeekDays: ['distinctOn', 'limit', 'offset', 'orderBy', 'where'],
      namingDbWeekDaysAggregate: ['distinctOn', 'limit', 'offset', 'orderBy', 'where'],
      namingDbWeekDaysByPk: ['dayName'],
      notes: ['distinct_on', 'limit', 'offset', 'order_by', 'where'],
      notes_aggregate: ['distinct_on', 'limit', 'offset', 'order_by', 'where'],
      notes_by_pk: ['id'],
    });
    expect(await fieldsOf('mutation_root')).toMatchObject({
      deleteNamingDbAppUsers: ['where'],
      deleteNamingDbAppUsersByPk: ['userId'],
      insertNamingDbAppUsers: ['objects', 'onConflict'],
      insertNamingDbAppUsersOne: ['object', 'onConflict'],
      updateNamingDbAppUsers: ['_inc', '_set', 'where'],
      updateNamingDbAppUsersByPk: ['_inc', '_set', 'pkColumns'],
      updateNamingDbAppUsersMany: ['updates'],
      insert_notes: ['objects', 'on_conflict'],
    });
    expect(await fieldsOf('subscription_root')).toMatchObject({
      namingDbAppUsersStream: ['batchSize', 'cursor', 'where'],
      notes_stream: ['batch_size', 'cursor', 'where'],
    });
    expect(Object.keys(await fieldsOf('NamingDbAppUsers'))).toEqual(['favouriteDay', 'referredBy', 'userId', 'userName']);
    expect(Object.keys(await fieldsOf('NamingDbAppUsersMutationResponse'))).toEqual(['affectedRows', 'returning']);
    expect(Object.keys(await fieldsOf('NamingDbAppUsersAggregateFields'))).toEqual([
      'avg',
      'count',
      'max',
      'min',
      'stddev',
      'stddevPop',
      'stddevSamp',
      'sum',
      'varPop',
      'varSamp',
      'variance',
    ]);
    expect(Object.keys(await fieldsOf('NamingDbAppUsersStreamCursorInput'))).toEqual(['initialValue', 'ordering']);
    expect(Object.keys(await fieldsOf('StringComparisonExp'))).toContain('_isNull');
    expect(Object.keys(await fieldsOf('String_comparison_exp'))).toContain('_is_null');
    const enums = await target.graphql(
      '{ o: __type(name: "OrderBy") { enumValues { name } } d: __type(name: "NamingDbWeekDaysEnum") { enumValues { name } } }',
    );
    expect(enums.body).toEqual({
      data: {
        o: { enumValues: ['ASC', 'ASC_NULLS_FIRST', 'ASC_NULLS_LAST', 'DESC', 'DESC_NULLS_FIRST', 'DESC_NULLS_LAST'].map((name) => ({ name })) },
        d: { enumValues: [{ name: 'MONDAY' }, { name: 'SUNDAY' }] },
      },
    });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  IDS,
  'queries under graphql-default take its arguments, operators and enum values, and answer by its field names',
  async () => {
    await appUsers();
    const query = `{
    namingDbAppUsers(where: {referredBy: {_isNull: false}}, orderBy: [{favouriteDay: ASC_NULLS_FIRST}, {userName: DESC}]) { userId userName favouriteDay __typename }
    namingDbAppUsersAggregate(where: {favouriteDay: {_eq: SUNDAY}}) { aggregate { count max { userId } stddevPop { userId } } }
    firstOfDays: namingDbAppUsers(distinctOn: [favouriteDay], orderBy: [{favouriteDay: ASC}, {userId: DESC}]) { userId }
    namingDbAppUsersByPk(userId: 2) { userName }
  }`;
    expect((await target.graphql(query)).body).toEqual({
      data: {
        namingDbAppUsers: [
          { userId: 2, userName: 'bob', favouriteDay: 'MONDAY', __typename: 'NamingDbAppUsers' },
          { userId: 3, userName: 'cy', favouriteDay: 'SUNDAY', __typename: 'NamingDbAppUsers' },
        ],
        namingDbAppUsersAggregate: { aggregate: { count: 2, max: { userId: 3 }, stddevPop: { userId: 1 } } },
        firstOfDays: [{ userId: 2 }, { userId: 3 }],
        namingDbAppUsersByPk: { userName: 'bob' },
      },
    });
    expect((await target.graphql('{ notes(order_by: {id: asc}, where: {note_text: {_is_null: true}}) { id } }')).body).toEqual({ data: { notes: [] } });
  },
);

caseNeeding(REQUIRES_SOURCE_DATABASE, IDS, 'mutations under graphql-default take its arguments and answer affectedRows and returning', async () => {
  await appUsers();
  const mutation = `mutation {
    insertNamingDbAppUsers(objects: [{userName: "dee", favouriteDay: MONDAY}]) { affectedRows returning { userId favouriteDay } }
    updateNamingDbAppUsers(where: {userName: {_eq: "ann"}}, _set: {favouriteDay: MONDAY}, _inc: {referredBy: 1}) { affectedRows }
    updateNamingDbAppUsersByPk(pkColumns: {userId: 2}, _set: {userName: "bo"}) { userName }
    updateNamingDbAppUsersMany(updates: [{where: {userId: {_eq: 3}}, _set: {userName: "cyd"}}]) { affectedRows }
    deleteNamingDbAppUsersByPk(userId: 4) { userName }
  }`;
  expect((await target.graphql(mutation)).body).toEqual({
    data: {
      insertNamingDbAppUsers: { affectedRows: 1, returning: [{ userId: 4, favouriteDay: 'MONDAY' }] },
      updateNamingDbAppUsers: { affectedRows: 1 },
      updateNamingDbAppUsersByPk: { userName: 'bo' },
      updateNamingDbAppUsersMany: [{ affectedRows: 1 }],
      deleteNamingDbAppUsersByPk: { userName: 'dee' },
    },
  });
  expect(await second.sql('select user_id, user_name, favourite_day, referred_by from naming_db.app_users order by user_id')).toEqual([
    { user_id: 1, user_name: 'ann', favourite_day: 'monday', referred_by: null },
    { user_id: 2, user_name: 'bo', favourite_day: 'monday', referred_by: 1 },
    { user_id: 3, user_name: 'cyd', favourite_day: 'sunday', referred_by: 1 },
  ]);
  expect((await target.graphql('mutation { deleteNamingDbAppUsers(where: {_not: {userId: {_in: [1]}}}) { affectedRows } }')).body).toEqual({
    data: { deleteNamingDbAppUsers: { affectedRows: 2 } },
  });
});

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  IDS,
  'names are claimed across sources as each convention makes them: naming_db_app_users and namingDbAppUsers do not clash, two notes do',
  async () => {
    await appUsers();
    await target.sql('create table public.naming_db_app_users (id serial primary key)');
    try {
      expectResponse(await run('pg_track_table', { table: 'naming_db_app_users' }), 200, ok);
      await second.sql('create table public.notes (id serial primary key)');
      expectResponse(await run('pg_track_table', { source: 'apps', table: 'notes' }), 400, {
        path: '$.args',
        error: 'the GraphQL name "notes" of table "notes" of the source "apps" conflicts with table "notes"',
        code: 'already-exists',
      });
    } finally {
      await target.reset();
      await target.sql('drop table if exists public.naming_db_app_users');
      await second.sql('drop table if exists public.notes');
    }
  },
);
