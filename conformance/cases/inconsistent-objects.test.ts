// Inconsistent objects as the engine reports them, and drop_inconsistent_metadata dropping them with
// what depends on them (decision dec.inconsistency.report).
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const t = (name: string) => ({ schema: 'incons', name });
const gql = async (query: string, role: string) =>
  (await target.graphql(query, undefined, { headers: { ...target.adminHeaders(), 'x-engine-role': role } })).body;

const pickTable = {
  type: 'table',
  name: 'table incons.pick in source default',
  reason: 'Inconsistent object: the table "incons.pick" cannot be used as an enum because the value "not a name" is not a valid GraphQL enum value name',
  definition: t('pick'),
};
const pickRelationship = {
  type: 'object_relation',
  name: 'object_relation pick in table incons.author in source default',
  reason: 'Inconsistent object: in table "incons.author": in relationship "pick": table "incons.pick" does not exist',
  definition: { table: t('author'), name: 'pick', using: { foreign_key_constraint_on: 'mood' } },
};
const articlesRelationship = {
  type: 'array_relation',
  name: 'array_relation articles in table incons.author in source default',
  reason: 'Inconsistent object: in table "incons.author": in relationship "articles": table "incons.article" does not exist',
  definition: { table: t('author'), name: 'articles', using: { foreign_key_constraint_on: { table: t('article'), column: 'author_id' } } },
};
const articleTable = {
  type: 'table',
  name: 'table incons.article in source default',
  reason: 'Inconsistent object: no such table/view exists in postgres : "incons.article"',
  definition: 'incons.article',
};
const throughArticles = { columns: ['id'], filter: { articles: { title: { _eq: 'x' } } } };
const authorPermission = {
  type: 'select_permission',
  name: 'select_permission user in table incons.author in source default',
  reason: 'Inconsistent object: in table "incons.author": in permission for role "user": no such column exists : "articles"',
  definition: { table: t('author'), role: 'user', permission: throughArticles },
};

beforeEach(async () => {
  await target.reset();
  await target.sql(`drop schema if exists incons cascade; create schema incons;
    create table incons.pick (value text primary key); insert into incons.pick values ('yes'), ('no');
    create table incons.author (id serial primary key, name text, mood text references incons.pick (value));
    create table incons.article (id serial primary key, title text, author_id int not null references incons.author (id));`);
  expectResponse(
    await run('bulk', [
      { type: 'track_table', args: { table: t('pick'), is_enum: true } },
      { type: 'track_table', args: { table: t('author') } },
      { type: 'track_table', args: { table: t('article') } },
      { type: 'create_object_relationship', args: { table: t('author'), name: 'pick', using: { foreign_key_constraint_on: 'mood' } } },
      { type: 'create_object_relationship', args: { table: t('article'), name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      {
        type: 'create_array_relationship',
        args: { table: t('author'), name: 'articles', using: { foreign_key_constraint_on: { table: t('article'), column: 'author_id' } } },
      },
      { type: 'create_select_permission', args: { table: t('author'), role: 'user', permission: throughArticles } },
    ]),
    200,
  );
});

test(
  covers(
    ['dec.inconsistency.report', 'err.constraint-violation.relationship', 'rule.availability.inconsistent', 'op.drop_inconsistent_metadata'],
    'a relationship to an inconsistent table is inconsistent with it, and drop_inconsistent_metadata drops both',
  ),
  async () => {
    // An array relationship to the enum table too (by its rows, manually).
    const picks = { name: 'picks', using: { manual_configuration: { remote_table: t('pick'), column_mapping: { mood: 'value' } } } };
    expectResponse(await run('create_array_relationship', { table: t('author'), ...picks }), 200, ok);
    await target.sql("insert into incons.pick values ('not a name')");
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [
      pickTable,
      pickRelationship,
      {
        type: 'array_relation',
        name: 'array_relation picks in table incons.author in source default',
        reason: 'Inconsistent object: in table "incons.author": in relationship "picks": table "incons.pick" does not exist',
        definition: { table: t('author'), ...picks },
      },
    ]);
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    // The author keeps all but its relationship to the enum table.
    expect((await run('export_metadata', {})).body).toEqual({
      version: 2,
      tables: [
        { table: t('article'), object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }] },
        {
          table: t('author'),
          array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: t('article'), column: 'author_id' } } }],
          select_permissions: [{ role: 'user', permission: throughArticles }],
        },
      ],
    });
  },
);

test(
  covers(
    [
      'dec.inconsistency.report',
      'err.constraint-violation.permission',
      'err.not-exists.table-in-postgres',
      'op.reload_metadata',
      'op.drop_inconsistent_metadata',
    ],
    'a table dropped outside: the table, the relationship to it and the permission through that relationship, each with its name; all dropped together',
  ),
  async () => {
    await target.sql('drop table incons.article cascade');
    expectResponse(await run('reload_metadata', {}), 200, {
      ...ok,
      is_consistent: false,
      inconsistent_objects: [articlesRelationship, articleTable, authorPermission],
    });
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect((await run('export_metadata', {})).body).toEqual({
      version: 2,
      tables: [
        { table: t('author'), object_relationships: [{ name: 'pick', using: { foreign_key_constraint_on: 'mood' } }] },
        { table: t('pick'), is_enum: true },
      ],
    });
    // The role lost the permission with its table's relationship.
    expect(await gql('{ incons_author { id } }', 'user')).toEqual({
      errors: [{ message: 'Cannot query field "incons_author" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }],
    });
  },
);

test(
  covers(
    ['dec.inconsistency.report', 'op.replace_metadata.v2', 'rule.replace_metadata.1'],
    "replace_metadata's refusal and inconsistent_objects name them alike",
  ),
  async () => {
    const document = (await run('export_metadata', {})).body as { tables: { table: { name: string } }[] };
    const ghost = { ...document, tables: [...document.tables, { table: t('ghost') }] };
    const ghostTable = {
      type: 'table',
      name: 'table incons.ghost in source default',
      reason: 'Inconsistent object: no such table/view exists in postgres : "incons.ghost"',
      definition: 'incons.ghost',
    };
    expectResponse(await run('replace_metadata', ghost), 400, {
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [ghostTable],
    });
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: ghost } }), 200, {
      is_consistent: false,
      inconsistent_objects: [ghostTable],
    });
  },
);
