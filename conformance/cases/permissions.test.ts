// Permissions: SPEC.md §2.3 (the four permission types), §4.3 (operations and semantics 1-4),
// §2.1 (BoolExp with session variables), §7.2 (permission and header messages).
import { branded } from '../harness/brand';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const article = { schema: 'blog', name: 'article' };
const author = { schema: 'blog', name: 'author' };
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });

const asUser = (id: string | undefined, role = 'user') => ({
  ...target.adminHeaders(),
  'x-engine-role': role,
  ...(id === undefined ? {} : { 'x-engine-user-id': id }),
});
const gql = async (query: string, headers: Record<string, string>) =>
  (await target.graphql(query, undefined, { headers })).body as {
    data?: Record<string, unknown>;
    errors?: { message: string; extensions: { code: string } }[];
  };
const ids = (rows: unknown) => (rows as { id: number }[]).map((r) => r.id);

const mine = { author_id: 'X-Engine-User-Id' };
const SELECT = { columns: ['id', 'title', 'author_id', 'published', 'edited'], filter: { $or: [{ published: true }, mine] } };

beforeAll(async () => {
  await target.sql(fixtureSql('blog'));
  await run('reload_metadata', {});
});
beforeEach(async () => {
  await target.reset();
  await target.sql("delete from blog.article; delete from blog.author where id > 2; update blog.author set name = case id when 1 then 'Ann' else 'Bob' end");
  await target.sql(
    fixtureSql('blog')
      .split('\n')
      .filter((l) => l.startsWith('insert into blog.article') || l.startsWith('  ('))
      .join('\n'),
  );
  for (const table of [author, article]) await run('track_table', { table });
  await run('create_object_relationship', { table: article, name: 'author', using: { foreign_key_constraint_on: 'author_id' } });
  await run('create_select_permission', { table: article, role: 'user', permission: SELECT });
  await run('create_select_permission', { table: author, role: 'user', permission: { columns: '*', filter: {} } });
});

test(
  covers(
    ['op.create_select_permission', 'rule.perm.select.filter:allowed', 'rule.perm.select.filter:refused', 'rule.auth.4'],
    'a role reads only the rows its filter lets through, with its session variables',
  ),
  async () => {
    expect(ids((await gql('{ blog_article(order_by: {id: asc}) { id } }', asUser('1'))).data!.blog_article)).toEqual([1, 2, 3]);
    expect(ids((await gql('{ blog_article(order_by: {id: asc}) { id } }', asUser('2'))).data!.blog_article)).toEqual([1, 3, 4]);
    expect((await gql('{ blog_article_by_pk(id: 4) { id } }', asUser('1'))).data).toEqual({ blog_article_by_pk: null });
  },
);

test(covers(['rule.perm.select.columns:allowed', 'rule.perm.select.columns:refused'], 'a role reads only its columns'), async () => {
  const r = await gql('{ blog_article(where: {id: {_eq: 1}}) { id title body } }', asUser('1'));
  expect(r).toEqual({ errors: [{ message: 'Cannot query field "body" on type "blog_article".', extensions: { path: '$', code: 'validation-failed' } }] });
  const where = await gql('{ blog_article(where: {body: {_eq: "x"}}) { id } }', asUser('1'));
  expect(where).toEqual({
    errors: [{ message: 'Field "body" is not defined by type "blog_article_bool_exp".', extensions: { path: '$', code: 'validation-failed' } }],
  });
  expect((await gql('{ blog_article(where: {id: {_eq: 1}}) { id title } }', asUser('1'))).data).toEqual({ blog_article: [{ id: 1, title: 'Ann public' }] });
});

test(covers(['rule.perm.select.filter'], 'filters apply through relationships and in where'), async () => {
  await run('drop_select_permission', { table: author, role: 'user' });
  await run('create_select_permission', { table: author, role: 'user', permission: { columns: ['id', 'name'], filter: { id: 'X-Engine-User-Id' } } });
  const r = await gql('{ blog_article(order_by: {id: asc}) { id author { name } } }', asUser('1'));
  expect(r.data).toEqual({
    blog_article: [
      { id: 1, author: { name: 'Ann' } },
      { id: 2, author: { name: 'Ann' } },
      { id: 3, author: null },
    ],
  });
  const w = await gql('{ blog_article(where: {author: {name: {_eq: "Bob"}}}) { id } }', asUser('1'));
  expect(w.data).toEqual({ blog_article: [] });
});

test(covers(['dec.boolexp.exists', 'rule.perm.select.filter'], '_exists looks at another table'), async () => {
  const filter = { _exists: { _table: author, _where: { $and: [{ id: 'X-Engine-User-Id' }, { name: { _like: 'A%' } }] } } };
  await run('create_select_permission', { table: article, role: 'ann-only', permission: { columns: ['id'], filter } });
  expect(ids((await gql('{ blog_article(order_by: {id: asc}) { id } }', asUser('1', 'ann-only'))).data!.blog_article)).toEqual([1, 2, 3, 4]);
  expect(ids((await gql('{ blog_article(order_by: {id: asc}) { id } }', asUser('2', 'ann-only'))).data!.blog_article)).toEqual([]);
  expectResponse(
    await run('create_select_permission', {
      table: article,
      role: 'bad',
      permission: { columns: ['id'], filter: { _exists: { _table: { schema: 'blog', name: 'nothing' }, _where: {} } } },
    }),
    400,
    {
      path: '$.args.permission.filter',
      error: 'table "blog.nothing" does not exist',
      code: 'not-exists',
    },
  );
});

test(covers(['dec.boolexp.exists'], '_exists decides inserts and updates too: a row is written only while the other table holds a matching row'), async () => {
  const authorIsMe = { _exists: { _table: author, _where: { id: { _eq: 'X-Engine-User-Id' } } } };
  await run('create_insert_permission', { table: article, role: 'writer', permission: { columns: ['id', 'author_id', 'title'], check: authorIsMe } });
  await run('create_select_permission', { table: article, role: 'writer', permission: { columns: ['id', 'title'], filter: {} } });
  await run('create_update_permission', { table: article, role: 'writer', permission: { columns: ['title'], filter: authorIsMe } });
  const insert = (id: number) => `mutation { insert_blog_article_one(object: {id: ${id}, author_id: 1, title: "by exists"}) { id } }`;
  expect(await gql(insert(50), asUser('1', 'writer'))).toEqual({ data: { insert_blog_article_one: { id: 50 } } });
  expect(await gql(insert(51), asUser('9', 'writer'))).toEqual({
    errors: [{ message: 'check constraint of an insert/update permission has failed', extensions: { path: '$', code: 'permission-error' } }],
  });
  const update = 'mutation { update_blog_article(where: {id: {_eq: 50}}, _set: {title: "changed"}) { affected_rows } }';
  expect(await gql(update, asUser('9', 'writer'))).toEqual({ data: { update_blog_article: { affected_rows: 0 } } });
  expect(await target.sql('select id, title from blog.article where id >= 50 order by id')).toEqual([{ id: 50, title: 'by exists' }]);
  expect(await gql(update, asUser('2', 'writer'))).toEqual({ data: { update_blog_article: { affected_rows: 1 } } });
  expect(await target.sql('select id, title from blog.article where id >= 50 order by id')).toEqual([{ id: 50, title: 'changed' }]);
});

test(covers(['rule.perm.select.limit'], 'limit caps the rows of a role'), async () => {
  // Without a cap, the requested limit alone.
  expect(ids((await gql('{ blog_article(order_by: {id: asc}, limit: 2) { id } }', asUser('1'))).data!.blog_article)).toEqual([1, 2]);
  expect(ids((await gql('{ blog_article(order_by: {id: asc}) { id } }', asUser('1'))).data!.blog_article)).toEqual([1, 2, 3]);
  await run('drop_select_permission', { table: article, role: 'user' });
  await run('create_select_permission', { table: article, role: 'user', permission: { ...SELECT, limit: 2 } });
  expect(ids((await gql('{ blog_article(order_by: {id: asc}, limit: 10) { id } }', asUser('1'))).data!.blog_article)).toEqual([1, 2]);
  expect(ids((await gql('{ blog_article(order_by: {id: desc}, limit: 1) { id } }', asUser('1'))).data!.blog_article)).toEqual([3]);
  // No limit, or a null one, is the role's.
  expect(ids((await gql('{ blog_article(order_by: {id: asc}, limit: null) { id } }', asUser('1'))).data!.blog_article)).toEqual([1, 2]);
  expect(ids((await gql('{ blog_article(order_by: {id: asc}) { id } }', asUser('1'))).data!.blog_article)).toEqual([1, 2]);
});

test(
  covers(
    ['rule.auth.4', 'err.invalid-headers.missing', 'rule.perm.insert.set'],
    'session variables are read as the column they meet: any integer width, negative and padded integers, text as it is; a now() preset is the time of the insert',
  ),
  async () => {
    await target.sql(`
      drop schema if exists permtypes cascade;
      create schema permtypes;
      create table permtypes.item (id int8 primary key, small int2 not null, label text not null, at timestamptz);
      insert into permtypes.item values (-3, 1, 'minus', null), (12, -4, '7x', null), (30, 5, 'plain', null);
    `);
    const item = { schema: 'permtypes', name: 'item' };
    try {
      expectResponse(
        await run('bulk', [
          { type: 'track_table', args: { table: item } },
          {
            type: 'create_select_permission',
            args: {
              table: item,
              role: 'typed',
              permission: {
                columns: ['label', 'at'],
                filter: { $or: [{ id: 'X-Engine-Big' }, { small: { _eq: 'x-engine-small' } }, { label: 'X-ENGINE-LABEL' }] },
              },
            },
          },
          {
            type: 'create_insert_permission',
            args: { table: item, role: 'typed', permission: { columns: ['id', 'small', 'label'], check: {}, set: { at: 'now()' } } },
          },
          {
            type: 'create_insert_permission',
            args: { table: item, role: 'shouting', permission: { columns: ['id', 'small', 'label'], check: {}, set: { at: 'NOW()' } } },
          },
        ]),
        200,
        [ok, ok, ok, ok],
      );
      const labels = (variables: Record<string, string>) =>
        gql('{ permtypes_item(order_by: {label: asc}) { label } }', { ...target.adminHeaders(), 'x-engine-role': 'typed', ...variables });
      expect(await labels({ 'x-engine-big': '-3', 'x-engine-small': '-4', 'x-engine-label': 'abc' })).toEqual({
        data: { permtypes_item: [{ label: '7x' }, { label: 'minus' }] },
      });
      expect(await labels({ 'x-engine-big': ' 30 ', 'x-engine-small': '0', 'x-engine-label': '7x' })).toEqual({
        data: { permtypes_item: [{ label: '7x' }, { label: 'plain' }] },
      });
      const notInteger = (header: string) => ({
        errors: [{ message: branded(`${header} should be an integer`), extensions: { path: '$', code: 'invalid-headers' } }],
      });
      expect(await labels({ 'x-engine-big': '12x', 'x-engine-small': '1', 'x-engine-label': 'a' })).toEqual(notInteger('X-Engine-Big'));
      expect(await labels({ 'x-engine-big': 'x12', 'x-engine-small': '1', 'x-engine-label': 'a' })).toEqual(notInteger('X-Engine-Big'));
      expect(await labels({ 'x-engine-big': '1', 'x-engine-small': '1.5', 'x-engine-label': 'a' })).toEqual(notInteger('X-Engine-Small'));
      expect(await labels({ 'x-engine-big': '1', 'x-engine-small': '2' })).toEqual({
        errors: [{ message: branded('missing header : X-ENGINE-LABEL'), extensions: { path: '$', code: 'invalid-headers' } }],
      });
      for (const [role, id] of [
        ['typed', 40],
        ['shouting', 41],
      ] as const) {
        const inserted = await gql(`mutation { insert_permtypes_item(objects: [{id: ${id}, small: 9, label: "${role}"}]) { affected_rows } }`, {
          ...target.adminHeaders(),
          'x-engine-role': role,
          'x-engine-big': '0',
          'x-engine-small': '0',
          'x-engine-label': '',
        });
        expect([role, inserted]).toEqual([role, { data: { insert_permtypes_item: { affected_rows: 1 } } }]);
      }
      expect(
        await target.sql(
          "select id, label, at between now() - interval '10 minutes' and now() + interval '1 minute' as recent from permtypes.item where id >= 40 order by id",
        ),
      ).toEqual([
        { id: '40', label: 'typed', recent: true },
        { id: '41', label: 'shouting', recent: true },
      ]);
    } finally {
      await run('untrack_table', { table: item });
    }
  },
);

test(covers(['rule.perm.select.aggregations:allowed', 'rule.perm.select.aggregations:refused'], 'aggregates only with allow_aggregations'), async () => {
  const refused = await gql('{ blog_article_aggregate { aggregate { count } } }', asUser('1'));
  expect(refused).toEqual({
    errors: [
      {
        message: 'Cannot query field "blog_article_aggregate" on type "query_root". Did you mean "blog_article_by_pk"?',
        extensions: { path: '$', code: 'validation-failed' },
      },
    ],
  });
  await run('drop_select_permission', { table: article, role: 'user' });
  await run('create_select_permission', { table: article, role: 'user', permission: { ...SELECT, allow_aggregations: true } });
  expect((await gql('{ blog_article_aggregate { aggregate { count } } }', asUser('2'))).data).toEqual({ blog_article_aggregate: { aggregate: { count: 3 } } });
});

test(
  covers(
    ['op.create_insert_permission', 'rule.perm.insert.columns:allowed', 'rule.perm.insert.columns:refused', 'rule.perm.insert.set'],
    'insert: only the permitted columns, presets from the session',
  ),
  async () => {
    await run('create_insert_permission', {
      table: article,
      role: 'user',
      permission: { check: mine, set: { author_id: 'X-Engine-User-Id' }, columns: ['title', 'body'] },
    });
    const refused = await gql('mutation { insert_blog_article_one(object: {title: "x", author_id: 1}) { id } }', asUser('2'));
    expect(refused).toEqual({
      errors: [{ message: 'Field "author_id" is not defined by type "blog_article_insert_input".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    const r = await gql('mutation { insert_blog_article_one(object: {title: "Bob new", body: "n"}) { title author_id published } }', asUser('2'));
    expect(r).toEqual({ data: { insert_blog_article_one: { title: 'Bob new', author_id: 2, published: false } } });
    expect(await target.sql("select title, body, author_id from blog.article where title in ('x', 'Bob new')")).toEqual([
      { title: 'Bob new', body: 'n', author_id: 2 },
    ]);
  },
);

test(
  covers(['rule.perm.insert.columns:refused'], "insert: a column outside the permission's columns is not in the input type, and a value for it is refused"),
  async () => {
    await run('create_insert_permission', { table: article, role: 'user', permission: { check: {}, columns: ['title', 'author_id'] } });
    const input = await gql('{ __type(name: "blog_article_insert_input") { inputFields { name } } }', asUser('1'));
    expect(input).toEqual({ data: { __type: { inputFields: [{ name: 'author_id' }, { name: 'title' }] } } });
    const refused = await gql('mutation { insert_blog_article_one(object: {title: "x", author_id: 1, published: true}) { id } }', asUser('1'));
    expect(refused).toEqual({
      errors: [{ message: 'Field "published" is not defined by type "blog_article_insert_input".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expect(await target.sql('select count(*)::int as n from blog.article')).toEqual([{ n: 4 }]);
  },
);

test(
  covers(['rule.perm.select.filter', 'rule.perm.insert.check', 'rule.perm.update.filter'], 'returning shows only the changed rows the role may read'),
  async () => {
    // Ann may insert and update anyone's articles but reads only published ones and her own.
    await run('create_insert_permission', { table: article, role: 'user', permission: { check: {}, columns: ['id', 'title', 'author_id'] } });
    await run('create_update_permission', { table: article, role: 'user', permission: { columns: ['title'], filter: {} } });
    const inserted = await gql(
      'mutation { insert_blog_article(objects: [{id: 201, title: "for Bob", author_id: 2}, {id: 202, title: "mine", author_id: 1}]) { affected_rows returning { id } } }',
      asUser('1'),
    );
    expect(inserted).toEqual({ data: { insert_blog_article: { affected_rows: 2, returning: [{ id: 202 }] } } });
    const one = await gql('mutation { insert_blog_article_one(object: {id: 203, title: "Bob again", author_id: 2}) { id } }', asUser('1'));
    expect(one).toEqual({ data: { insert_blog_article_one: null } });
    const updated = await gql(
      'mutation { update_blog_article(where: {id: {_in: [2, 4]}}, _set: {title: "t"}) { affected_rows returning { id title } } }',
      asUser('1'),
    );
    expect(updated).toEqual({ data: { update_blog_article: { affected_rows: 2, returning: [{ id: 2, title: 't' }] } } });
    expect(await target.sql('select id, title from blog.article where id in (2, 4, 201, 202, 203) order by id')).toEqual([
      { id: 2, title: 't' },
      { id: 4, title: 't' },
      { id: 201, title: 'for Bob' },
      { id: 202, title: 'mine' },
      { id: 203, title: 'Bob again' },
    ]);
  },
);

test(covers(['rule.perm.select.filter'], 'ordering through a relationship sees only the related rows the role may read'), async () => {
  await run('drop_select_permission', { table: author, role: 'user' });
  await run('create_select_permission', { table: author, role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 2 } } } });
  await run('drop_select_permission', { table: article, role: 'user' });
  await run('create_select_permission', { table: article, role: 'user', permission: { columns: ['id'], filter: {} } });
  // Ann's name is hidden: her articles order as if it were null (first in descending order).
  const r = await gql('{ blog_article(order_by: [{author: {name: desc}}, {id: asc}]) { id } }', asUser('1'));
  expect(r).toEqual({ data: { blog_article: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] } });
  const asc = await gql('{ blog_article(order_by: [{author: {name: asc_nulls_last}}, {id: desc}]) { id } }', asUser('1'));
  expect(asc).toEqual({ data: { blog_article: [{ id: 4 }, { id: 3 }, { id: 2 }, { id: 1 }] } });
});

test(
  covers(
    ['rule.perm.insert.check:allowed', 'rule.perm.insert.check:refused', 'err.permission-error.check-failed'],
    'insert: a row failing the check undoes the insert; rows passing it are inserted',
  ),
  async () => {
    await run('create_insert_permission', {
      table: article,
      role: 'user',
      permission: { check: { $and: [mine, { title: { $nlike: '%spam%' } }] }, columns: ['title', 'author_id'] },
    });
    const r = await gql(
      'mutation { insert_blog_article(objects: [{title: "fine", author_id: 1}, {title: "spam!", author_id: 1}]) { affected_rows } }',
      asUser('1'),
    );
    expect(r).toEqual({
      errors: [{ message: 'check constraint of an insert/update permission has failed', extensions: { path: '$', code: 'permission-error' } }],
    });
    const other = await gql('mutation { insert_blog_article_one(object: {title: "as Bob", author_id: 2}) { id } }', asUser('1'));
    expect(other).toEqual({
      errors: [{ message: 'check constraint of an insert/update permission has failed', extensions: { path: '$', code: 'permission-error' } }],
    });
    expect(await target.sql(`select count(*)::int as n from blog.article where id > 100`)).toEqual([{ n: 0 }]);
    const fine = await gql(
      'mutation { insert_blog_article(objects: [{title: "fine", author_id: 1}, {title: "fine too", author_id: 1}]) { affected_rows } }',
      asUser('1'),
    );
    expect(fine).toEqual({ data: { insert_blog_article: { affected_rows: 2 } } });
    expect(await target.sql(`select title, author_id from blog.article where id > 100 order by title`)).toEqual([
      { title: 'fine', author_id: 1 },
      { title: 'fine too', author_id: 1 },
    ]);
  },
);

test(
  covers(
    [
      'op.create_update_permission',
      'rule.perm.update.filter:allowed',
      'rule.perm.update.filter:refused',
      'rule.perm.update.columns:allowed',
      'rule.perm.update.columns:refused',
      'rule.perm.update.set',
    ],
    'update: own rows, permitted columns, presets applied',
  ),
  async () => {
    await run('create_update_permission', {
      table: article,
      role: 'user',
      permission: { columns: ['title', 'published'], filter: mine, set: { edited: true } },
    });
    const r = await gql('mutation { update_blog_article(where: {}, _set: {published: true}) { affected_rows returning { id edited } } }', asUser('1'));
    expect(r).toEqual({
      data: {
        update_blog_article: {
          affected_rows: 2,
          returning: [
            { id: 1, edited: true },
            { id: 2, edited: true },
          ],
        },
      },
    });
    expect(await target.sql('select id from blog.article where published order by id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(await target.sql('select id, edited from blog.article order by id')).toEqual([
      { id: 1, edited: true },
      { id: 2, edited: true },
      { id: 3, edited: false },
      { id: 4, edited: false },
    ]);
    const refused = await gql('mutation { update_blog_article(where: {}, _set: {body: "x"}) { affected_rows } }', asUser('1'));
    expect(refused).toEqual({
      errors: [{ message: 'Field "body" is not defined by type "blog_article_set_input".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expect(await target.sql("select count(*)::int as n from blog.article where body = 'x'")).toEqual([{ n: 0 }]);
  },
);

test(
  covers(
    ['rule.perm.update.check:allowed', 'rule.perm.update.check:refused', 'err.permission-error.check-failed'],
    'update: a row failing the check afterwards undoes the update; one passing it is applied',
  ),
  async () => {
    await run('create_update_permission', {
      table: article,
      role: 'user',
      permission: { columns: ['title'], filter: mine, check: { title: { _nilike: '%spam%' } } },
    });
    const r = await gql('mutation { update_blog_article_by_pk(pk_columns: {id: 1}, _set: {title: "SPAM"}) { id } }', asUser('1'));
    expect(r.errors?.[0]).toEqual({
      message: 'check constraint of an insert/update permission has failed',
      extensions: { path: '$', code: 'permission-error' },
    });
    expect(await target.sql('select title from blog.article where id = 1')).toEqual([{ title: 'Ann public' }]);
    const fine = await gql('mutation { update_blog_article_by_pk(pk_columns: {id: 1}, _set: {title: "Ann edited"}) { id title } }', asUser('1'));
    expect(fine).toEqual({ data: { update_blog_article_by_pk: { id: 1, title: 'Ann edited' } } });
    expect(await target.sql('select id, title from blog.article where id in (1, 2) order by id')).toEqual([
      { id: 1, title: 'Ann edited' },
      { id: 2, title: 'Ann draft' },
    ]);
  },
);

test(
  covers(['op.create_delete_permission', 'rule.perm.delete.filter:allowed', 'rule.perm.delete.filter:refused'], 'delete: only rows the filter lets through'),
  async () => {
    await run('create_delete_permission', { table: article, role: 'user', permission: { filter: mine } });
    const r = await gql('mutation { delete_blog_article(where: {}) { affected_rows } }', asUser('2'));
    expect(r).toEqual({ data: { delete_blog_article: { affected_rows: 2 } } });
    expect(await target.sql('select id from blog.article order by id')).toEqual([{ id: 1 }, { id: 2 }]);
  },
);

test(covers(['dec.delete-permission.filter', 'err.parse-failed.arguments'], 'a delete permission needs a filter'), async () => {
  expectResponse(await run('create_delete_permission', { table: article, role: 'user', permission: {} }), 400, {
    path: '$.args.permission',
    error: 'key "filter" not found',
    code: 'parse-failed',
  });
});

test(
  covers(['rule.perm.insert.backend-only:allowed', 'rule.perm.insert.backend-only:refused'], 'backend_only inserts need the header and the admin secret'),
  async () => {
    await run('create_select_permission', { table: article, role: 'service', permission: { columns: '*', filter: {} } });
    await run('create_insert_permission', { table: article, role: 'service', permission: { check: {}, columns: '*', backend_only: true } });
    const insert = 'mutation { insert_blog_article_one(object: {title: "svc", author_id: 1}) { title } }';
    expect((await gql(insert, asUser(undefined, 'service'))).errors?.[0]?.extensions.code).toBe('validation-failed');
    const r = await gql(insert, { ...asUser(undefined, 'service'), 'x-engine-use-backend-only-permissions': 'true' });
    expect(r).toEqual({ data: { insert_blog_article_one: { title: 'svc' } } });
  },
);

test(
  covers(
    ['rule.perm.insert.backend-only', 'op.create_insert_permission'],
    'a role with only a backend_only insert permission inserts with the header, learning only how many rows',
  ),
  async () => {
    await run('create_insert_permission', { table: article, role: 'ingest', permission: { check: {}, columns: ['title', 'author_id'], backend_only: true } });
    const headers = { ...asUser(undefined, 'ingest'), 'x-engine-use-backend-only-permissions': 'true' };
    const insert = 'mutation { insert_blog_article(objects: [{title: "fed", author_id: 1}, {title: "fed too", author_id: 2}]) { affected_rows } }';
    expect(await gql(insert, headers)).toEqual({ data: { insert_blog_article: { affected_rows: 2 } } });
    expect(await target.sql("select title, author_id from blog.article where title like 'fed%' order by title")).toEqual([
      { title: 'fed', author_id: 1 },
      { title: 'fed too', author_id: 2 },
    ]);
    // Nothing to read: no query fields, no returning, no insert_one; without the header, no mutation at all.
    const schema = await gql(
      '{ __schema { queryType { fields { name } } mutationType { fields { name } } } __type(name: "blog_article_mutation_response") { fields { name } } }',
      headers,
    );
    expect(schema.data).toEqual({
      __schema: { queryType: { fields: [{ name: 'no_queries_available' }] }, mutationType: { fields: [{ name: 'insert_blog_article' }] } },
      __type: { fields: [{ name: 'affected_rows' }] },
    });
    const returning = await gql('mutation { insert_blog_article(objects: [{title: "peek", author_id: 1}]) { returning { id } } }', headers);
    expect(returning.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect((await gql(insert, asUser(undefined, 'ingest'))).errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(await target.sql("select count(*)::int as n from blog.article where title like 'fed%' or title = 'peek'")).toEqual([{ n: 2 }]);
  },
);

test(
  covers(
    ['dec.schema.always-valid', 'rule.perm.update.set', 'rule.perm.insert.set'],
    "presets that cover every column keep the role's schema; an update with no operator applies them",
  ),
  async () => {
    await run('create_update_permission', {
      table: author,
      role: 'user',
      permission: { columns: ['name'], filter: { id: { _eq: 'X-Engine-User-Id' } }, set: { name: 'X-Engine-User-Name' } },
    });
    await run('create_insert_permission', {
      table: author,
      role: 'user',
      permission: { columns: ['id', 'name'], check: {}, set: { id: 'X-Engine-Author-Id', name: 'X-Engine-User-Name' } },
    });
    const headers = { ...asUser('1'), 'x-engine-user-name': 'Preset', 'x-engine-author-id': '77' };
    expect(await gql('{ blog_author(where: {id: {_eq: 1}}) { id } }', headers)).toEqual({ data: { blog_author: [{ id: 1 }] } });
    expect(await gql('mutation { update_blog_author(where: {}) { affected_rows returning { id name } } }', headers)).toEqual({
      data: { update_blog_author: { affected_rows: 1, returning: [{ id: 1, name: 'Preset' }] } },
    });
    expect(await gql('mutation { insert_blog_author(objects: [{_PLACEHOLDER: true}]) { returning { id name } } }', headers)).toEqual({
      data: { insert_blog_author: { returning: [{ id: 77, name: 'Preset' }] } },
    });
    expect(await gql('mutation { insert_blog_author(objects: [{name: "mine"}]) { affected_rows } }', headers)).toMatchObject({
      errors: [{ extensions: { code: 'validation-failed' } }],
    });
    expect(await target.sql("select count(*)::int as n from blog.author where name = 'Preset'")).toEqual([{ n: 2 }]);
  },
);

test(
  covers(
    ['op.drop_select_permission', 'op.drop_insert_permission', 'op.drop_update_permission', 'op.drop_delete_permission'],
    'dropping permissions takes the access away',
  ),
  async () => {
    await run('create_insert_permission', { table: article, role: 'user', permission: { check: {} } });
    await run('create_update_permission', { table: article, role: 'user', permission: { columns: '*', filter: {} } });
    await run('create_delete_permission', { table: article, role: 'user', permission: { filter: {} } });
    // The article is exported first (blog.article before blog.author).
    const listed = async () => ((await run('export_metadata', {})).body as { tables: Record<string, unknown>[] }).tables[0]!;
    expect(Object.keys(await listed()).filter((k) => k.endsWith('_permissions'))).toEqual([
      'insert_permissions',
      'select_permissions',
      'update_permissions',
      'delete_permissions',
    ]);
    for (const type of ['insert', 'update', 'delete', 'select']) {
      expectResponse(await run(`drop_${type}_permission`, { table: article, role: 'user' }), 200, ok);
      expect((await listed())[`${type}_permissions`]).toBeUndefined();
    }
    const r = await gql('{ __schema { queryType { fields { name } } mutationType { name } } }', asUser('1'));
    expect(r.data).toEqual({ __schema: { queryType: { fields: [{ name: 'blog_author' }, { name: 'blog_author_by_pk' }] }, mutationType: null } });
  },
);

test(covers(['op.create_select_permission', 'err.permission-error.exists'], 'a second permission of a kind for a role is refused'), async () => {
  expectResponse(await run('create_select_permission', { table: article, role: 'user', permission: SELECT }), 400, {
    path: '$.args',
    error: 'select permission on "blog.article" for role "user" already exists',
    code: 'permission-error',
  });
});

test(covers(['op.drop_update_permission', 'err.permission-error.not-exists'], 'dropping a permission that does not exist is refused'), async () => {
  expectResponse(await run('drop_update_permission', { table: article, role: 'user' }), 400, {
    path: '$.args',
    error: 'update permission on "blog.article" for role "user" does not exist',
    code: 'permission-error',
  });
});

test(
  covers(['err.constraint-violation.admin-role'], 'admin needs no permissions: one for it is refused, by the operation and by replace_metadata'),
  async () => {
    const refused = {
      path: '$.args',
      error: 'in table "blog.article": in permission for role "admin": cannot define permission for admin role',
      code: 'constraint-violation',
    };
    expectResponse(await run('create_select_permission', { table: article, role: 'admin', permission: SELECT }), 400, refused);
    expectResponse(await run('create_delete_permission', { table: article, role: 'admin', permission: { filter: {} } }), 400, refused);
    expectResponse(
      await run('replace_metadata', { version: 2, tables: [{ table: article, select_permissions: [{ role: 'admin', permission: SELECT }] }] }),
      400,
      refused,
    );
    const exported = (await run('export_metadata', {})).body as { tables: { table: unknown; select_permissions?: { role: string }[] }[] };
    expect(exported.tables.flatMap((t) => t.select_permissions ?? []).map((p) => p.role)).toEqual(['user', 'user']);
  },
);

test(
  covers(
    ['err.parse-failed.empty-name', 'err.parse-failed.role-name'],
    'role names are checked before anything is looked up: not empty, no control characters, no surrounding spaces',
  ),
  async () => {
    const nowhere = { schema: 'blog', name: 'no_such_table' };
    expectResponse(await run('create_select_permission', { table: nowhere, role: '', permission: SELECT }), 400, {
      path: '$.args.role',
      error: 'empty string not allowed',
      code: 'parse-failed',
    });
    expectResponse(await run('drop_select_permission', { table: nowhere, role: '' }), 400, {
      path: '$.args.role',
      error: 'empty string not allowed',
      code: 'parse-failed',
    });
    for (const role of [' user', 'user\n', 'us\u0000er', 'editor\t']) {
      expectResponse(await run('create_select_permission', { table: article, role, permission: SELECT }), 400, {
        path: '$.args.role',
        error: 'a role name may not have control characters or surrounding spaces',
        code: 'parse-failed',
      });
    }
    expectResponse(await run('replace_metadata', { version: 2, tables: [{ table: article, select_permissions: [{ role: '', permission: SELECT }] }] }), 400, {
      path: '$.args.tables[0].select_permissions[0].role',
      error: 'empty string not allowed',
      code: 'parse-failed',
    });
  },
);

test(
  covers(['op.create_select_permission', 'err.not-exists.column', 'err.unexpected-payload.unknown-operator'], 'permissions must fit the table'),
  async () => {
    expectResponse(await run('create_select_permission', { table: article, role: 'editor', permission: { columns: ['nope'], filter: {} } }), 400, {
      path: '$.args.permission.columns',
      error: '"nope" does not exist',
      code: 'not-exists',
    });
    expectResponse(await run('create_select_permission', { table: article, role: 'editor', permission: { columns: '*', filter: { id: { $near: 1 } } } }), 400, {
      path: '$.args.permission.filter',
      error: 'Unknown operator : $near',
      code: 'unexpected-payload',
    });
  },
);

test(covers(['op.set_permission_comment', 'op.export_metadata.v1'], 'set_permission_comment sets and removes a comment'), async () => {
  expectResponse(await run('set_permission_comment', { table: article, role: 'user', type: 'select', comment: 'readers' }), 200, ok);
  const entry = async () =>
    ((await run('export_metadata', {})).body as { tables: { table: { name: string }; select_permissions?: unknown[] }[] }).tables.find(
      (t) => t.table.name === 'article',
    )!.select_permissions;
  expect(await entry()).toEqual(branded([{ role: 'user', permission: SELECT, comment: 'readers' }]));
  expectResponse(await run('set_permission_comment', { table: article, role: 'user', type: 'select', comment: null }), 200, ok);
  expect(await entry()).toEqual(branded([{ role: 'user', permission: SELECT }]));
  expectResponse(await run('set_permission_comment', { table: article, role: 'user', type: 'update', comment: 'x' }), 400, {
    path: '$.args',
    error: 'update permission on "blog.article" for role "user" does not exist',
    code: 'permission-error',
  });
});

test(covers(['err.invalid-headers.missing', 'rule.auth.4'], 'a session variable the permission needs must be sent'), async () => {
  expect((await gql('{ blog_article { id } }', asUser(undefined))).errors).toEqual([
    { message: branded('missing header : X-Engine-User-Id'), extensions: { path: '$', code: 'invalid-headers' } },
  ]);
});

test(covers(['err.invalid-headers.user-id-integer'], 'a session variable compared with an integer column must be an integer'), async () => {
  expect((await gql('{ blog_article { id } }', asUser('abc'))).errors).toEqual([
    { message: branded('X-Engine-User-Id should be an integer'), extensions: { path: '$', code: 'invalid-headers' } },
  ]);
});

test(
  covers(
    ['dec.permission.session-lists', 'rule.perm.select.filter'],
    '_in and _nin take a session variable holding a list, as a PostgreSQL array literal or a JSON array',
  ),
  async () => {
    expectResponse(
      await run('create_select_permission', {
        table: article,
        role: 'lister',
        permission: { columns: ['id'], filter: { id: { _in: 'X-Engine-Allowed-Ids' } } },
      }),
      200,
      ok,
    );
    expectResponse(
      await run('create_select_permission', {
        table: author,
        role: 'lister',
        permission: { columns: ['id'], filter: { id: { _nin: 'x-engine-hidden-ids' } } },
      }),
      200,
      ok,
    );
    const seen = async (headers: Record<string, string>) =>
      gql('{ blog_article(order_by: {id: asc}) { id } blog_author(order_by: {id: asc}) { id } }', { ...asUser(undefined, 'lister'), ...headers });
    expect(await seen({ 'x-engine-allowed-ids': '{1,3}', 'x-engine-hidden-ids': '{}' })).toEqual({
      data: { blog_article: [{ id: 1 }, { id: 3 }], blog_author: [{ id: 1 }, { id: 2 }] },
    });
    expect(await seen({ 'x-engine-allowed-ids': '[2, 4]', 'x-engine-hidden-ids': '[1]' })).toEqual({
      data: { blog_article: [{ id: 2 }, { id: 4 }], blog_author: [{ id: 2 }] },
    });
    expect(await seen({ 'x-engine-allowed-ids': '{}', 'x-engine-hidden-ids': '{1,2}' })).toEqual({ data: { blog_article: [], blog_author: [] } });
    expect((await seen({ 'x-engine-allowed-ids': '1', 'x-engine-hidden-ids': '{}' })).errors).toEqual([
      { message: branded('X-Engine-Allowed-Ids should be a list such as {1,2,3} or [1,2,3]'), extensions: { path: '$', code: 'invalid-headers' } },
    ]);
    // A comma at the end leaves an empty element, which PostgreSQL refuses too.
    expect((await seen({ 'x-engine-allowed-ids': '{1,3,}', 'x-engine-hidden-ids': '{}' })).errors).toEqual([
      { message: branded('X-Engine-Allowed-Ids should be a list such as {1,2,3} or [1,2,3]'), extensions: { path: '$', code: 'invalid-headers' } },
    ]);
    expect((await seen({ 'x-engine-allowed-ids': '{1,abc}', 'x-engine-hidden-ids': '{}' })).errors).toEqual([
      { message: branded('X-Engine-Allowed-Ids should be a list of integers'), extensions: { path: '$', code: 'invalid-headers' } },
    ]);
    expect((await seen({ 'x-engine-hidden-ids': '{}' })).errors).toEqual([
      { message: branded('missing header : X-Engine-Allowed-Ids'), extensions: { path: '$', code: 'invalid-headers' } },
    ]);
    // A string that is not a session variable is still no list, nor is one that only has the prefix inside it.
    expectResponse(
      await run('create_select_permission', { table: article, role: 'other', permission: { columns: ['id'], filter: { id: { _in: 'my-x-engine-ids' } } } }),
      400,
      { path: '$.args.permission.filter', error: 'expected Array for _in', code: 'parse-failed' },
    );
    expectResponse(
      await run('create_select_permission', { table: article, role: 'other', permission: { columns: ['id'], filter: { id: { _in: 'abc' } } } }),
      400,
      {
        path: '$.args.permission.filter',
        error: 'expected Array for _in',
        code: 'parse-failed',
      },
    );
  },
);

test(
  covers(
    ['err.parse-failed.permission-value', 'op.create_select_permission', 'op.create_update_permission', 'op.create_insert_permission'],
    'literal values of a permission must fit their columns when it is created',
  ),
  async () => {
    const misfit = (path: string, reason: string) => ({ path, error: `a value does not fit its column: ${reason}`, code: 'parse-failed' });
    expectResponse(
      await run('create_select_permission', { table: article, role: 'typed', permission: { columns: ['id'], filter: { author_id: { _eq: 'abc' } } } }),
      400,
      misfit('$.args.permission.filter', 'invalid input syntax for type integer: "abc"'),
    );
    expectResponse(
      await run('create_select_permission', { table: article, role: 'typed', permission: { columns: ['id'], filter: { _or: [{ id: { _in: [1, 'two'] } }] } } }),
      400,
      misfit('$.args.permission.filter', 'invalid input syntax for type integer: "two"'),
    );
    expectResponse(
      await run('create_update_permission', {
        table: article,
        role: 'typed',
        permission: { columns: ['title'], filter: {}, check: { published: { _eq: 'maybe' } } },
      }),
      400,
      misfit('$.args.permission.check', 'invalid input syntax for type boolean: "maybe"'),
    );
    expectResponse(
      await run('create_insert_permission', { table: article, role: 'typed', permission: { columns: ['title'], check: {}, set: { rating: 'high' } } }),
      400,
      misfit('$.args.permission.set', 'invalid input syntax for type integer: "high"'),
    );
    // Session variables are known per request; values that fit are taken.
    expectResponse(
      await run('create_select_permission', {
        table: article,
        role: 'typed',
        permission: { columns: ['id'], filter: { author_id: { _eq: 'X-Engine-User-Id' }, rating: { _gte: '3' } } },
      }),
      200,
      ok,
    );
    expectResponse(
      await run('create_insert_permission', {
        table: article,
        role: 'typed',
        permission: { columns: ['title'], check: {}, set: { rating: 4, author_id: 'X-Engine-User-Id' } },
      }),
      200,
      ok,
    );
    const exported = (await run('export_metadata', {})).body as { tables: { select_permissions?: { role: string }[] }[] };
    expect(exported.tables.flatMap((t) => t.select_permissions ?? []).filter((p) => p.role === 'typed')).toHaveLength(1);
  },
);

test(
  covers(
    ['err.parse-failed.permission-value', 'op.replace_metadata.v1', 'op.replace_metadata.v2'],
    'replace_metadata refuses permissions whose literal values do not fit their columns, naming the permission',
  ),
  async () => {
    const before = (await run('export_metadata', {})).body as { version: 2; tables: Record<string, unknown>[] };
    const withBad = {
      ...before,
      tables: before.tables.map((t) =>
        (t.table as { name: string }).name === 'article'
          ? {
              ...t,
              select_permissions: [
                { role: 'typed', permission: { columns: ['id'], filter: { rating: { _gte: 3 } } } },
                { role: 'other', permission: { columns: ['id'], filter: { _not: { author_id: { _in: [1, 'x'] } } } } },
              ],
            }
          : t,
      ),
    };
    const index = before.tables.findIndex((t) => (t.table as { name: string }).name === 'article');
    const misfit = (path: string) => ({ path, error: 'a value does not fit its column: invalid input syntax for type integer: "x"', code: 'parse-failed' });
    expectResponse(await run('replace_metadata', withBad), 400, misfit(`$.args.tables[${index}].select_permissions[1].permission.filter`));
    expectResponse(
      await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: withBad } }),
      400,
      misfit(`$.args.metadata.tables[${index}].select_permissions[1].permission.filter`),
    );
    expect((await run('export_metadata', {})).body).toEqual(before);
  },
);

test(covers(['op.replace_metadata.v1', 'op.create_update_permission'], 'permissions round-trip through export and replace'), async () => {
  await run('create_update_permission', {
    table: article,
    role: 'user',
    permission: { columns: ['title'], filter: mine, check: { title: { _ne: '' } }, set: { edited: true } },
  });
  const exported = (await run('export_metadata', {})).body;
  expectResponse(await run('replace_metadata', exported), 200, ok);
  expect((await run('export_metadata', {})).body).toEqual(exported);
});

test(
  covers(
    [
      'op.create_insert_permission',
      'op.create_select_permission',
      'op.drop_select_permission',
      'op.set_permission_comment',
      'err.not-exists.column',
      'err.parse-failed.arguments',
      'op.replace_metadata.v1',
    ],
    'permission arguments are checked: set columns, the select limit, literal values against their columns; comments kept; dropping one role keeps the others',
  ),
  async () => {
    await target.sql('create table if not exists blog.stamp (id integer primary key, at timestamptz, n integer)');
    const stamp = { schema: 'blog', name: 'stamp' };
    expectResponse(await run('track_table', { table: stamp }), 200, ok);
    expectResponse(await run('create_insert_permission', { table: stamp, role: 'user', permission: { columns: ['id'], check: {}, set: { ghost: 1 } } }), 400, {
      path: '$.args.permission.set',
      error: '"ghost" does not exist',
      code: 'not-exists',
    });
    expectResponse(await run('create_select_permission', { table: stamp, role: 'user', permission: { columns: ['id'], filter: {}, limit: -1 } }), 400, {
      path: '$.args.permission.limit',
      error: 'expected a limit ≥ 0',
      code: 'parse-failed',
    });
    expectResponse(
      await run('create_select_permission', { table: stamp, role: 'user', permission: { columns: ['id'], filter: {}, limit: 0 }, comment: 'none at all' }),
      200,
      ok,
    );
    expectResponse(
      await run('create_select_permission', { table: stamp, role: 'reader', permission: { columns: ['id', 'n'], filter: {} }, comment: null }),
      200,
      ok,
    );
    const exported = async () =>
      ((await run('export_metadata', {})).body as { tables: { table: unknown; select_permissions?: unknown; insert_permissions?: unknown }[] }).tables.find(
        (t) => JSON.stringify(t.table) === JSON.stringify(stamp),
      );
    expect((await exported())?.select_permissions).toEqual([
      { role: 'reader', permission: { columns: ['id', 'n'], filter: {} } },
      { role: 'user', permission: { columns: ['id'], filter: {}, limit: 0 }, comment: 'none at all' },
    ]);
    expectResponse(await run('drop_select_permission', { table: stamp, role: 'user' }), 200, ok);
    expect((await exported())?.select_permissions).toEqual([{ role: 'reader', permission: { columns: ['id', 'n'], filter: {} } }]);
    // A comment goes on the named role's permission only.
    expectResponse(await run('create_select_permission', { table: stamp, role: 'writer', permission: { columns: ['id'], filter: {} } }), 200, ok);
    expectResponse(await run('set_permission_comment', { table: stamp, role: 'writer', type: 'select', comment: 'the writer' }), 200, ok);
    expect((await exported())?.select_permissions).toEqual([
      { role: 'reader', permission: { columns: ['id', 'n'], filter: {} } },
      { role: 'writer', permission: { columns: ['id'], filter: {} }, comment: 'the writer' },
    ]);
    // Literal values of a document are checked against their columns; session variables and now() are not literals.
    const documentWith = (set: Record<string, unknown>) => ({
      version: 2,
      tables: [{ table: stamp, insert_permissions: [{ role: 'user', permission: { columns: ['id'], check: {}, set } }] }],
    });
    for (const set of [{ at: 'now()' }, { at: 'NOW()' }, { at: 'X-Engine-At' }, { n: 'x-engine-n' }, { n: 3 }]) {
      const r = await run('replace_metadata', documentWith(set));
      expect([set, r.status, r.body]).toEqual([set, 200, ok]);
    }
    const refused = (problem: string) => ({
      path: '$.args.tables[0].insert_permissions[0].permission.set',
      error: `a value does not fit its column: ${problem}`,
      code: 'parse-failed',
    });
    for (const [set, body] of [
      [{ n: 'three' }, refused('invalid input syntax for type integer: "three"')],
      [{ at: 'now() + 1' }, refused('invalid input syntax for type timestamp with time zone: "now() + 1"')],
    ] as const) {
      const r = await run('replace_metadata', documentWith(set));
      expect([set, r.status, r.body]).toEqual([set, 400, body]);
    }
    expect((await exported())?.insert_permissions).toEqual([{ role: 'user', permission: { columns: ['id'], check: {}, set: { n: 3 } } }]);
  },
);

describe('column comparisons and session lists on more operators', () => {
  const team = { schema: 'ceqx', name: 'team' };
  const task = { schema: 'ceqx', name: 'task' };
  beforeEach(async () => {
    await target.sql(`
      drop schema if exists ceqx cascade;
      create schema ceqx;
      create table ceqx.team (id int primary key, owner_id int, tags jsonb);
      create table ceqx.task (id int primary key, team_id int references ceqx.team (id), assignee_id int, created_by int);
      insert into ceqx.team values (1, 10, '{"a": 1, "b": 2}'), (2, 20, '{"c": 3}');
      insert into ceqx.task values (1, 1, 10, 10), (2, 1, 11, 10), (3, 2, 20, 21), (4, 2, 21, 21);`);
    expectResponse(
      await run('bulk', [
        { type: 'reload_metadata', args: {} },
        { type: 'track_table', args: { table: team } },
        { type: 'track_table', args: { table: task } },
        { type: 'create_object_relationship', args: { table: task, name: 'team', using: { foreign_key_constraint_on: 'team_id' } } },
      ]),
      200,
    );
  });

  test(
    covers(
      ['dec.permission.column-comparison', 'rule.perm.select.filter'],
      'a column comparison names a column of the row, or with ["$", column] one of the root table from inside a relationship',
    ),
    async () => {
      expectResponse(
        await run('bulk', [
          // Tasks whose team's owner is the assignee: the comparison reaches back to the task row.
          {
            type: 'create_select_permission',
            args: { table: task, role: 'owner', permission: { columns: ['id'], filter: { team: { owner_id: { _ceq: ['$', 'assignee_id'] } } } } },
          },
          // Tasks their creator works on: a column of the same row.
          {
            type: 'create_select_permission',
            args: { table: task, role: 'self', permission: { columns: ['id'], filter: { assignee_id: { _ceq: 'created_by' } } } },
          },
          // ["$", …] from the root itself, and _cne / _cgt alike.
          {
            type: 'create_select_permission',
            args: { table: task, role: 'other', permission: { columns: ['id'], filter: { assignee_id: { _cgt: ['$', 'created_by'] } } } },
          },
        ]),
        200,
      );
      const seen = async (role: string) => ids((await gql('{ ceqx_task(order_by: {id: asc}) { id } }', asUser(undefined, role))).data?.ceqx_task);
      expect(await seen('owner')).toEqual([1, 3]);
      expect(await seen('self')).toEqual([1, 4]);
      expect(await seen('other')).toEqual([2]);
      // A column the root table does not have is refused when the permission is made.
      expectResponse(
        await run('create_select_permission', {
          table: task,
          role: 'bad',
          permission: { columns: ['id'], filter: { team: { owner_id: { _ceq: ['$', 'nope'] } } } },
        }),
        400,
        { path: '$.args.permission.filter', error: 'no such column exists : "nope"', code: 'not-exists' },
      );
    },
  );

  test(
    covers(['dec.permission.session-lists', 'rule.perm.select.filter'], '_has_keys_any and _has_keys_all take a session variable holding a list too'),
    async () => {
      expectResponse(
        await run('bulk', [
          {
            type: 'create_select_permission',
            args: { table: team, role: 'any', permission: { columns: ['id'], filter: { tags: { _has_keys_any: 'X-Engine-Keys' } } } },
          },
          {
            type: 'create_select_permission',
            args: { table: team, role: 'all', permission: { columns: ['id'], filter: { tags: { _has_keys_all: 'x-engine-keys' } } } },
          },
        ]),
        200,
      );
      const seen = async (role: string, keys: string) =>
        gql('{ ceqx_team(order_by: {id: asc}) { id } }', { ...asUser(undefined, role), 'x-engine-keys': keys });
      expect(await seen('any', '{a,z}')).toEqual({ data: { ceqx_team: [{ id: 1 }] } });
      expect(await seen('any', '["c", "b"]')).toEqual({ data: { ceqx_team: [{ id: 1 }, { id: 2 }] } });
      expect(await seen('all', '{a,b}')).toEqual({ data: { ceqx_team: [{ id: 1 }] } });
      expect(await seen('all', '{a,c}')).toEqual({ data: { ceqx_team: [] } });
      expect((await seen('any', 'a')).errors).toEqual([
        { message: branded('X-Engine-Keys should be a list such as {1,2,3} or [1,2,3]'), extensions: { path: '$', code: 'invalid-headers' } },
      ]);
    },
  );
});
