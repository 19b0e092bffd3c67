// How a role's permission filters combine with the request's own expressions (SPEC.md §4.3
// permission semantics 2-4, §2.1 BoolExp): a `where` through a relationship, an update or delete
// `where`, an ordering or an aggregate must hold together with the filter, whatever the shape of
// either (`_or`, `_not`, nested `_and`). A filter that loses its parentheses shows rows a role may
// not see, and lets it probe hidden values through its own `where`.
import { covers } from '../harness/cases';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const article = { schema: 'blog', name: 'article' };
const author = { schema: 'blog', name: 'author' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const as = (role: string, userId = '1') => ({ ...target.adminHeaders(), 'x-engine-role': role, 'x-engine-user-id': userId });
const gql = async (query: string, role: string, userId?: string) => (await target.graphql(query, undefined, { headers: as(role, userId) })).body;

beforeAll(async () => {
  await target.sql(fixtureSql('blog'));
  // A third author with one article, so that an `_or` filter has something to let through wrongly.
  await target.sql(`insert into blog.author values (3, 'Cy'); insert into blog.article (id, author_id, title, published) values (5, 3, 'Cy public', true)`);
  await run('reload_metadata', {});
});

const SETUP = [
  { type: 'clear_metadata', args: {} },
  { type: 'track_table', args: { table: author } },
  { type: 'track_table', args: { table: article } },
  { type: 'create_object_relationship', args: { table: article, name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
  {
    type: 'create_array_relationship',
    args: { table: author, name: 'articles', using: { foreign_key_constraint_on: { table: article, column: 'author_id' } } },
  },
  // `user`: authors 1 and 2 through an _or; every article.
  {
    type: 'create_select_permission',
    args: {
      table: author,
      role: 'user',
      permission: { columns: '*', filter: { _or: [{ id: { _eq: 1 } }, { name: { _eq: 'Bob' } }] }, allow_aggregations: true },
    },
  },
  { type: 'create_select_permission', args: { table: article, role: 'user', permission: { columns: '*', filter: {}, allow_aggregations: true } } },
  // `user2`: every author; articles 1 and 3 through an _or.
  { type: 'create_select_permission', args: { table: author, role: 'user2', permission: { columns: '*', filter: {}, allow_aggregations: true } } },
  {
    type: 'create_select_permission',
    args: { table: article, role: 'user2', permission: { columns: '*', filter: { _or: [{ id: { _eq: 1 } }, { id: { _eq: 3 } }] }, allow_aggregations: true } },
  },
];

beforeEach(async () => {
  await target.sql(
    `update blog.article set title = case id when 1 then 'Ann public' when 2 then 'Ann draft' when 3 then 'Bob public' when 4 then 'Bob draft' else 'Cy public' end, rating = id`,
  );
  const r = await run('bulk', SETUP);
  if (r.status !== 200) throw new Error(r.text);
});

test(
  covers(['rule.perm.select.filter', 'dec.graphql.where'], 'a where through an object relationship holds together with an _or filter on the related table'),
  async () => {
    expect(await gql('{ blog_article(where: {author: {id: {_eq: 2}}}, order_by: {id: asc}) { id } }', 'user')).toEqual({
      data: { blog_article: [{ id: 3 }, { id: 4 }] },
    });
    expect(await gql('{ blog_article(where: {author: {id: {_eq: 3}}}) { id } }', 'user')).toEqual({ data: { blog_article: [] } });
    expect(await gql('{ blog_article(where: {author: {id: {_eq: 2}}}, order_by: {id: asc}) { id } }', 'admin')).toEqual({
      data: { blog_article: [{ id: 3 }, { id: 4 }] },
    });
  },
);

test(
  covers(['rule.perm.select.filter', 'dec.graphql.where'], 'a where through an array relationship holds together with an _or filter on the related table'),
  async () => {
    expect(await gql('{ blog_author(where: {articles: {title: {_eq: "Bob draft"}}}) { id } }', 'user')).toEqual({ data: { blog_author: [{ id: 2 }] } });
    expect(await gql('{ blog_author(where: {articles: {title: {_eq: "Bob public"}}}) { id } }', 'user2')).toEqual({ data: { blog_author: [{ id: 2 }] } });
  },
);

test(covers(['rule.perm.select.filter'], 'a where cannot probe the values of rows the filter hides'), async () => {
  // Article 2 is hidden from user2: asking for its title must not reveal its author.
  expect(await gql('{ blog_author(where: {articles: {title: {_eq: "Ann draft"}}}) { id } }', 'user2')).toEqual({ data: { blog_author: [] } });
  expect(await gql('{ blog_author(where: {articles: {rating: {_gt: 3}}}) { id } }', 'user2')).toEqual({ data: { blog_author: [] } });
  expect(await gql('{ blog_author(where: {_not: {articles: {title: {_eq: "Ann draft"}}}}, order_by: {id: asc}) { id } }', 'user2')).toEqual({
    data: { blog_author: [{ id: 1 }, { id: 2 }, { id: 3 }] },
  });
});

test(
  covers(['rule.perm.select.filter', 'rule.perm.select.aggregations'], 'nested aggregates and lists count only the rows the filter lets through'),
  async () => {
    const q =
      '{ blog_author(order_by: {id: asc}) { id articles(where: {_or: [{id: {_eq: 2}}, {id: {_eq: 3}}]}, order_by: {id: asc}) { id } articles_aggregate(where: {rating: {_gte: 1}}) { aggregate { count } } } }';
    expect(await gql(q, 'user2')).toEqual({
      data: {
        blog_author: [
          { id: 1, articles: [], articles_aggregate: { aggregate: { count: 1 } } },
          { id: 2, articles: [{ id: 3 }], articles_aggregate: { aggregate: { count: 1 } } },
          { id: 3, articles: [], articles_aggregate: { aggregate: { count: 0 } } },
        ],
      },
    });
    expect(await gql('{ blog_article_aggregate(where: {_or: [{id: {_eq: 2}}, {id: {_eq: 4}}]}) { aggregate { count } } }', 'user2')).toEqual({
      data: { blog_article_aggregate: { aggregate: { count: 0 } } },
    });
  },
);

test(covers(['rule.perm.select.filter', 'dec.graphql.order-by'], 'ordering through a relationship uses only rows the filter lets through'), async () => {
  // user2 sees only articles 1 (rating 1) and 3 (rating 3): author 1 counts one article, author 3 none.
  const q = '{ blog_author(order_by: [{articles_aggregate: {max: {rating: desc_nulls_last}}}, {id: asc}]) { id } }';
  expect(await gql(q, 'user2')).toEqual({ data: { blog_author: [{ id: 2 }, { id: 1 }, { id: 3 }] } });
});

test(covers(['rule.perm.select.filter'], 'a permission filter through a relationship keeps its own _or together'), async () => {
  await run('create_select_permission', {
    table: article,
    role: 'reader',
    permission: { columns: ['id'], filter: { author: { _or: [{ id: { _eq: 1 } }, { name: { _eq: 'Bob' } }] } } },
  });
  expect(await gql('{ blog_article(order_by: {id: asc}) { id } }', 'reader')).toEqual({ data: { blog_article: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] } });
});

test(covers(['rule.perm.update.filter'], 'an update where with _or changes only rows the update filter lets through'), async () => {
  await run('create_update_permission', { table: article, role: 'user', permission: { columns: ['title'], filter: { author_id: 'X-Engine-User-Id' } } });
  const r = await gql(
    'mutation { update_blog_article(where: {_or: [{id: {_eq: 3}}, {id: {_eq: 1}}]}, _set: {title: "changed"}) { affected_rows } }',
    'user',
    '1',
  );
  expect(r).toEqual({ data: { update_blog_article: { affected_rows: 1 } } });
  expect(await target.sql(`select id from blog.article where title = 'changed' order by id`)).toEqual([{ id: 1 }]);
});

test(covers(['rule.perm.update.filter'], 'an _or update filter holds together with the request where'), async () => {
  await run('create_update_permission', {
    table: article,
    role: 'user',
    permission: { columns: ['title'], filter: { _or: [{ id: { _eq: 1 } }, { id: { _eq: 2 } }] } },
  });
  const r = await gql('mutation { update_blog_article(where: {id: {_eq: 4}}, _set: {title: "changed"}) { affected_rows } }', 'user');
  expect(r).toEqual({ data: { update_blog_article: { affected_rows: 0 } } });
  expect(await target.sql(`select count(*)::int as n from blog.article where title = 'changed'`)).toEqual([{ n: 0 }]);
});

test(covers(['rule.perm.delete.filter'], 'a delete where with _or removes only rows the delete filter lets through'), async () => {
  await target.sql(`insert into blog.article (id, author_id, title) values (50, 1, 'tmp a'), (51, 2, 'tmp b') on conflict do nothing`);
  await run('create_delete_permission', {
    table: article,
    role: 'user',
    permission: { filter: { _or: [{ author_id: 'X-Engine-User-Id' }, { id: { _eq: -1 } }] } },
  });
  const r = await gql('mutation { delete_blog_article(where: {_or: [{id: {_eq: 51}}, {id: {_eq: 50}}]}) { affected_rows } }', 'user', '1');
  expect(r).toEqual({ data: { delete_blog_article: { affected_rows: 1 } } });
  expect(await target.sql(`select id from blog.article where id >= 50 order by id`)).toEqual([{ id: 51 }]);
  await target.sql('delete from blog.article where id >= 50');
});
