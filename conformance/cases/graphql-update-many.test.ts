// update_<t>_many (decision dec.graphql.update-many): several updates of one table in one field,
// applied in order in one transaction, each under the role's update permission, each answering
// its own affected_rows and returning; the custom root field update_many renames it.
import { covers } from '../harness/cases';
import { expectError, expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const article = { schema: 'blog', name: 'article' };
const author = { schema: 'blog', name: 'author' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const editor = (id: string) => ({ ...target.adminHeaders(), 'x-engine-role': 'editor', 'x-engine-user-id': id });
const gql = async (query: string, headers?: Record<string, string>) => (await target.graphql(query, undefined, headers ? { headers } : {})).body;
const rows = () => target.sql('select id, title, rating, edited from blog.article order by id');
const ARTICLES = [
  { id: 1, title: 'Ann public', rating: 5, edited: false },
  { id: 2, title: 'Ann draft', rating: 3, edited: false },
  { id: 3, title: 'Bob public', rating: 4, edited: false },
  { id: 4, title: 'Bob draft', rating: 2, edited: false },
];
const mine = { author_id: 'X-Engine-User-Id' };

beforeAll(async () => {
  await target.sql(fixtureSql('blog'));
  await target.metadata({
    type: 'bulk',
    args: [
      { type: 'reload_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      { type: 'track_table', args: { table: author } },
      { type: 'track_table', args: { table: article } },
      {
        type: 'create_select_permission',
        args: { table: article, role: 'editor', permission: { columns: ['id', 'author_id', 'title', 'rating', 'edited'], filter: mine } },
      },
      // editor changes titles and ratings of its own articles, up to 10, and each change marks the row edited.
      {
        type: 'create_update_permission',
        args: {
          table: article,
          role: 'editor',
          permission: { columns: ['title', 'rating'], filter: mine, check: { rating: { _lte: 10 } }, set: { edited: true } },
        },
      },
      // writer may read and insert, not update.
      { type: 'create_select_permission', args: { table: article, role: 'writer', permission: { columns: ['id'], filter: {} } } },
      { type: 'create_insert_permission', args: { table: article, role: 'writer', permission: { columns: ['title'], check: {}, set: { author_id: 1 } } } },
    ],
  });
});
beforeEach(async () => {
  await target.sql(`delete from blog.article;
    insert into blog.article (id, author_id, title, body, published, rating) values
      (1, 1, 'Ann public', 'b1', true, 5), (2, 1, 'Ann draft', 'b2', false, 3), (3, 2, 'Bob public', 'b3', true, 4), (4, 2, 'Bob draft', 'b4', false, 2)`);
});

const TYPE = '{ kind name ofType { kind name ofType { kind name ofType { kind name } } } }';

test(covers(['dec.graphql.update-many'], 'update_<t>_many takes updates: [<t>_updates!]! and answers [<t>_mutation_response]'), async () => {
  const body = (await gql(`{
    root: __type(name: "mutation_root") { fields { name type ${TYPE} args { name type ${TYPE} } } }
    updates: __type(name: "blog_article_updates") { kind inputFields { name type ${TYPE} } }
  }`)) as { data: { root: { fields: { name: string }[] }; updates: unknown } };
  expect(body.data.root.fields.find((f) => f.name === 'update_blog_article_many')).toEqual({
    name: 'update_blog_article_many',
    type: { kind: 'LIST', name: null, ofType: { kind: 'OBJECT', name: 'blog_article_mutation_response', ofType: null } },
    args: [
      {
        name: 'updates',
        type: {
          kind: 'NON_NULL',
          name: null,
          ofType: { kind: 'LIST', name: null, ofType: { kind: 'NON_NULL', name: null, ofType: { kind: 'INPUT_OBJECT', name: 'blog_article_updates' } } },
        },
      },
    ],
  });
  expect(body.data.updates).toEqual({
    kind: 'INPUT_OBJECT',
    inputFields: [
      { name: '_set', type: { kind: 'INPUT_OBJECT', name: 'blog_article_set_input', ofType: null } },
      { name: '_inc', type: { kind: 'INPUT_OBJECT', name: 'blog_article_inc_input', ofType: null } },
      { name: 'where', type: { kind: 'NON_NULL', name: null, ofType: { kind: 'INPUT_OBJECT', name: 'blog_article_bool_exp', ofType: null } } },
    ],
  });
});

test(covers(['dec.graphql.update-many'], 'the updates run in order: a later one sees the rows an earlier one changed'), async () => {
  const body = await gql(`mutation { update_blog_article_many(updates: [
    {where: {id: {_eq: 1}}, _set: {rating: 10}},
    {where: {rating: {_eq: 10}}, _inc: {rating: 1}, _set: {title: "Top"}},
    {where: {id: {_gt: 100}}, _set: {title: "none"}}
  ]) { affected_rows returning { id title rating } } }`);
  expect(body).toEqual({
    data: {
      update_blog_article_many: [
        { affected_rows: 1, returning: [{ id: 1, title: 'Ann public', rating: 10 }] },
        { affected_rows: 1, returning: [{ id: 1, title: 'Top', rating: 11 }] },
        { affected_rows: 0, returning: [] },
      ],
    },
  });
  expect(await rows()).toEqual([{ id: 1, title: 'Top', rating: 11, edited: false }, ...ARTICLES.slice(1)]);
});

test(covers(['dec.graphql.update-many'], 'no updates answer an empty list; __typename answers beside it'), async () => {
  expect(await gql('mutation { update_blog_article_many(updates: []) { affected_rows } __typename }')).toEqual({
    data: { update_blog_article_many: [], __typename: 'mutation_root' },
  });
  expect(await rows()).toEqual(ARTICLES);
});

test(
  covers(
    ['dec.graphql.update-many', 'rule.perm.update.filter:allowed', 'rule.perm.update.filter:refused', 'rule.perm.update.set'],
    "each update of a role's goes through its filter and takes its presets",
  ),
  async () => {
    const body = await gql(
      `mutation { update_blog_article_many(updates: [{where: {}, _inc: {rating: 1}}, {where: {id: {_eq: 3}}, _set: {title: "Not mine"}}]) {
        affected_rows returning { id rating edited } } }`,
      editor('1'),
    );
    expect(body).toEqual({
      data: {
        update_blog_article_many: [
          {
            affected_rows: 2,
            returning: [
              { id: 1, rating: 6, edited: true },
              { id: 2, rating: 4, edited: true },
            ],
          },
          { affected_rows: 0, returning: [] },
        ],
      },
    });
    expect(await rows()).toEqual([
      { id: 1, title: 'Ann public', rating: 6, edited: true },
      { id: 2, title: 'Ann draft', rating: 4, edited: true },
      ...ARTICLES.slice(2),
    ]);
  },
);

test(
  covers(
    ['dec.graphql.update-many', 'rule.perm.update.check:refused', 'err.permission-error.check-failed'],
    "when a later update fails the check, the earlier ones' changes are undone",
  ),
  async () => {
    const body = await gql(
      'mutation { update_blog_article_many(updates: [{where: {id: {_eq: 1}}, _set: {title: "Changed"}}, {where: {id: {_eq: 2}}, _set: {rating: 50}}]) { affected_rows } }',
      editor('1'),
    );
    expect(body).toEqual({
      errors: [{ message: 'check constraint of an insert/update permission has failed', extensions: { path: '$', code: 'permission-error' } }],
    });
    expect(await rows()).toEqual(ARTICLES);
  },
);

test(covers(['dec.graphql.update-many'], "an update may set only the role's columns, and needs an operator"), async () => {
  expect(await gql('mutation { update_blog_article_many(updates: [{where: {}, _set: {published: true}}]) { affected_rows } }', editor('1'))).toEqual({
    errors: [{ message: 'Field "published" is not defined by type "blog_article_set_input".', extensions: { path: '$', code: 'validation-failed' } }],
  });
  expect(await gql('mutation { update_blog_article_many(updates: [{where: {id: {_eq: 1}}, _set: {title: "x"}}, {where: {}}]) { affected_rows } }')).toEqual({
    errors: [
      {
        message: 'at least one of _set, _inc, _append, _prepend, _delete_key, _delete_elem, _delete_at_path is expected',
        extensions: { path: '$', code: 'validation-failed' },
      },
    ],
  });
  expect(await rows()).toEqual(ARTICLES);
});

test(covers(['dec.graphql.update-many'], 'a role without an update permission has no update_<t>_many'), async () => {
  const names = async (role: string) =>
    (
      (await gql('{ __schema { mutationType { fields { name } } } }', { ...target.adminHeaders(), 'x-engine-role': role })) as {
        data: { __schema: { mutationType: { fields: { name: string }[] } } };
      }
    ).data.__schema.mutationType.fields.map((f) => f.name);
  expect(await names('writer')).toEqual(['insert_blog_article', 'insert_blog_article_one']);
  expect(await names('editor')).toEqual(['update_blog_article', 'update_blog_article_by_pk', 'update_blog_article_many']);
});

test(covers(['dec.graphql.update-many', 'op.set_table_customization'], 'custom_root_fields.update_many names the field'), async () => {
  try {
    expectResponse(await run('set_table_customization', { table: article, configuration: { custom_root_fields: { update_many: 'editArticles' } } }), 200);
    expect(await gql('mutation { editArticles(updates: [{where: {id: {_eq: 4}}, _set: {title: "Renamed"}}]) { affected_rows } }')).toEqual({
      data: { editArticles: [{ affected_rows: 1 }] },
    });
    const exported = (await run('export_metadata', {})).body as { tables: { table: unknown; configuration?: unknown }[] };
    expect(exported.tables.find((t) => JSON.stringify(t.table) === JSON.stringify(article))!.configuration).toEqual({
      custom_root_fields: { update_many: 'editArticles' },
    });
    expectError(await run('set_table_customization', { table: article, configuration: { custom_root_fields: { update_many: 'edit articles' } } }), 400, {
      code: 'validation-failed',
      error: '"edit articles" (root field update_many of table "blog.article") is not a valid GraphQL name',
    });
    expectError(await run('set_table_customization', { table: article, configuration: { custom_root_fields: { update: 'edit', update_many: 'edit' } } }), 400, {
      code: 'already-exists',
      error: 'the GraphQL name "edit" of root field update_many of table "blog.article" conflicts with root field update',
    });
    expect(await gql('mutation { editArticles(updates: []) { affected_rows } }')).toEqual({ data: { editArticles: [] } });
  } finally {
    await run('set_table_customization', { table: article, configuration: {} });
  }
});
