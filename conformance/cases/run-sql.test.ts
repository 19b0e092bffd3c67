// run_sql: SPEC.md §4.3 ("run_sql" decisions) and the related §7.2 messages.
import { covers } from '../harness/cases';
import { expectError, expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const runSql = (args: Record<string, unknown>, endpoint = '/v2/query', headers: Record<string, string> = {}) =>
  target.metadata({ type: 'run_sql', args }, { endpoint, headers });

beforeAll(async () => {
  await target.sql(fixtureSql('library'));
});
beforeEach(async () => {
  await target.reset();
});

test(covers(['op.run_sql', 'dec.run_sql.response'], 'a query answers TuplesOk: header row, then rows of text, NULL as "NULL"'), async () => {
  const r = await runSql({ sql: 'select id, name, null::text as nickname, 1.50::numeric as n from library.author order by id' });
  expectResponse(r, 200, {
    result_type: 'TuplesOk',
    result: [
      ['id', 'name', 'nickname', 'n'],
      ['1', 'Ursula', 'NULL', '1.50'],
      ['2', 'Stanisław', 'NULL', '1.50'],
    ],
  });
});

test(covers(['op.run_sql', 'dec.run_sql.response'], 'a query with no rows answers the header row only'), async () => {
  expectResponse(await runSql({ sql: 'select id from library.author where false' }), 200, { result_type: 'TuplesOk', result: [['id']] });
});

test(covers(['op.run_sql', 'dec.run_sql.response'], 'a command answers CommandOk with a null result'), async () => {
  expectResponse(await runSql({ sql: 'create table library.made_by_sql (id int)' }), 200, { result_type: 'CommandOk', result: null });
  expect(await target.sql(`select to_regclass('library.made_by_sql')::text as t`)).toEqual([{ t: 'library.made_by_sql' }]);
  await target.sql('drop table library.made_by_sql');
});

test(covers(['op.run_sql', 'dec.run_sql.response', 'dec.endpoints'], 'with several statements the last one decides, at /v1/query too'), async () => {
  const r = await runSql({ sql: 'create temporary table t (x int) on commit drop; insert into t values (1), (2); select sum(x) as total from t' }, '/v1/query');
  expectResponse(r, 200, { result_type: 'TuplesOk', result: [['total'], ['3']] });
});

test(covers(['dec.endpoints', 'err.parse-failed.unknown-operation'], 'run_sql is not a /v1/metadata operation'), async () => {
  expectResponse(await runSql({ sql: 'select 1' }, '/v1/metadata'), 400, {
    path: '$.type',
    error: 'unknown operation type : run_sql; it is taken at /v1/query, /v2/query',
    code: 'parse-failed',
  });
});

test(covers(['dec.run_sql.read-only', 'dec.run_sql.response'], 'read_only runs queries'), async () => {
  expectResponse(await runSql({ sql: 'select count(*) as n from library.author', read_only: true }), 200, { result_type: 'TuplesOk', result: [['n'], ['2']] });
});

test(covers(['dec.run_sql.read-only', 'err.postgres-error.query-failed'], 'read_only refuses writes'), async () => {
  const r = await runSql({ sql: "insert into library.author (name) values ('Mallory')", read_only: true });
  expectError(r, 400, { path: '$.args', error: 'query execution failed', code: 'postgres-error' });
  expect(r.body).toMatchObject({ internal: { error: { status_code: '25006' } } });
  expect(await target.sql(`select count(*)::int as n from library.author where name = 'Mallory'`)).toEqual([{ n: 0 }]);
});

test(
  covers(['dec.run_sql.errors', 'err.postgres-error.query-failed'], 'a failing statement is a postgres-error with the PostgreSQL error fields'),
  async () => {
    const r = await runSql({ sql: 'selec 1' });
    expectError(r, 400, { path: '$.args', error: 'query execution failed', code: 'postgres-error' });
    expect(r.body).toMatchObject({ internal: { statement: 'selec 1', error: { status_code: '42601', message: expect.stringContaining('syntax error') } } });
  },
);

test(covers(['dec.run_sql.errors', 'err.postgres-error.query-failed'], 'when a later statement fails, the earlier ones are undone'), async () => {
  const r = await runSql({ sql: 'create table library.half_made (id int); select 1/0' });
  expectError(r, 400, { path: '$.args', error: 'query execution failed', code: 'postgres-error' });
  expect(await target.sql(`select to_regclass('library.half_made') as t`)).toEqual([{ t: null }]);
});

test(covers(['err.parse-failed.arguments', 'op.run_sql', 'dec.envelope.argument-paths'], 'sql is required and must be a string'), async () => {
  // On /v2/query the arguments are read below the envelope itself.
  expectResponse(await runSql({}), 400, { path: '$', error: 'key "sql" not found', code: 'parse-failed' });
  expectResponse(await runSql({ sql: ['select 1'] }), 400, { path: '$.sql', error: 'expected String, but encountered Array', code: 'parse-failed' });
});

test(covers(['err.access-denied.admin-only', 'rule.auth.1'], 'run_sql is admin only'), async () => {
  expectResponse(await runSql({ sql: 'select 1' }, '/v2/query', { 'x-engine-role': 'user' }), 400, {
    path: '$.args',
    error: 'restricted access : admin only',
    code: 'access-denied',
  });
});

test(covers(['dec.run_sql.tracked-tables', 'rule.availability.untracked'], 'dropping a tracked table through run_sql untracks it'), async () => {
  await target.sql('create table if not exists library.doomed (id int)');
  await target.metadata({
    type: 'replace_metadata',
    args: { version: 2, tables: [{ table: { schema: 'library', name: 'doomed' } }, { table: { schema: 'library', name: 'author' } }] },
  });
  expectResponse(await runSql({ sql: 'drop table library.doomed' }), 200, { result_type: 'CommandOk', result: null });
  expectResponse(await target.metadata({ type: 'export_metadata', args: {} }), 200, { version: 2, tables: [{ table: { schema: 'library', name: 'author' } }] });
});

test(covers(['dec.run_sql.tracked-tables', 'err.not-supported.table-rename'], 'renaming a tracked table through run_sql is refused and undone'), async () => {
  await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [{ table: { schema: 'library', name: 'book' } }] } });
  const r = await runSql({ sql: 'alter table library.book rename to volume' });
  expectResponse(r, 400, { path: '$.args', error: 'table renames are not yet supported : "library.book"', code: 'not-supported' });
  expect(await target.sql(`select to_regclass('library.book')::text as t`)).toEqual([{ t: 'library.book' }]);
});

describe('run_sql cannot end the transaction of its request', () => {
  const count = async () => (await target.sql('select count(*)::int as n from library.tx_probe'))[0]!.n;
  const exportedTables = async () => ((await target.metadata({ type: 'export_metadata', args: {} })).body as { tables: unknown[] }).tables;
  beforeAll(async () => {
    await target.sql('drop table if exists library.tx_probe; create table library.tx_probe (id int)');
  });
  beforeEach(async () => {
    await target.sql('delete from library.tx_probe');
  });
  const refused = (statement: string, path = '$.args.sql') => ({
    path,
    error: `run_sql runs inside the transaction of its request and may not end it: ${statement}`,
    code: 'bad-request',
  });

  test(covers(['err.bad-request.transaction-control', 'dec.bulk.atomic'], 'a COMMIT inside a bulk whose later member fails keeps nothing'), async () => {
    const r = await target.metadata(
      {
        type: 'bulk',
        args: [
          { type: 'run_sql', args: { sql: 'insert into library.tx_probe values (1); commit;' } },
          { type: 'track_table', args: { table: 'nope' } },
        ],
      },
      { endpoint: '/v1/query' },
    );
    expectResponse(r, 400, refused('COMMIT (statement 2)', '$.args[0].args.sql'));
    expect(await count()).toBe(0);
  });

  test(covers(['err.bad-request.transaction-control', 'dec.run_sql.read-only'], 'read_only cannot be left by committing first'), async () => {
    expectResponse(await runSql({ sql: 'commit; insert into library.tx_probe values (2)', read_only: true }), 400, refused('COMMIT (statement 1)'));
    expect(await count()).toBe(0);
  });

  test(
    covers(['err.bad-request.transaction-control', 'dec.bulk.atomic'], 'a ROLLBACK cannot make a later member of the bulk write outside the transaction'),
    async () => {
      const r = await target.metadata(
        {
          type: 'bulk',
          args: [
            { type: 'run_sql', args: { sql: 'rollback; insert into library.tx_probe values (3)' } },
            { type: 'track_table', args: { table: { schema: 'library', name: 'tx_probe' } } },
          ],
        },
        { endpoint: '/v1/query' },
      );
      expectResponse(r, 400, refused('ROLLBACK (statement 1)', '$.args[0].args.sql'));
      expect(await count()).toBe(0);
      expect(await exportedTables()).toEqual([]);
    },
  );

  test.each([
    ['END (statement 2)', 'end'],
    ['ABORT (statement 2)', 'abort'],
    ['BEGIN (statement 2)', 'begin; insert into library.tx_probe values (4)'],
    ['START TRANSACTION (statement 2)', 'Start Transaction'],
    ['ROLLBACK (statement 2)', 'ROLLBACK AND CHAIN'],
    ['COMMIT (statement 2)', "/* a comment */ commit prepared 'x'"],
    ['PREPARE TRANSACTION (statement 2)', "prepare transaction 'x'"],
    ['COMMIT (statement 3)', "select 'a''b', E'c\\'d', $x$;$x$; commit"],
  ])(covers(['err.bad-request.transaction-control'], 'every spelling is refused before anything runs: %s'), async (statement, sql) => {
    const r = await runSql({ sql: `insert into library.tx_probe values (9); ${sql}` });
    expectResponse(r, 400, refused(statement));
    expect(await count()).toBe(0);
  });

  test(
    covers(['op.run_sql', 'err.bad-request.transaction-control'], 'savepoints, quoted text and SQL function bodies are not transaction control'),
    async () => {
      const sql = `savepoint s1; insert into library.tx_probe values (5); rollback to savepoint s1; release savepoint s1;
      insert into library.tx_probe values (6);
      create function library.tx_f() returns int language sql begin atomic select 1; end;
      select 'commit; rollback' as a, $q$; end;$q$ as b, library.tx_f() as c`;
      expectResponse(await runSql({ sql }), 200, {
        result_type: 'TuplesOk',
        result: [
          ['a', 'b', 'c'],
          ['commit; rollback', '; end;', '1'],
        ],
      });
      expect(await target.sql('select id from library.tx_probe')).toEqual([{ id: 6 }]);
      await target.sql('drop function library.tx_f()');
    },
  );

  test(covers(['op.run_sql', 'dec.run_sql.response'], 'session settings made by run_sql do not reach later requests'), async () => {
    // The engine's own setting before: a later request must see it again, not the one run_sql made.
    const before = (await runSql({ sql: 'select current_setting($$statement_timeout$$) as t' })).body as { result: string[][] };
    const timeout = before.result[1]![0]!;
    expect(timeout).not.toBe('4321ms');
    expectResponse(await runSql({ sql: 'set statement_timeout = 4321; set search_path = nowhere; select 1 as x' }), 200, {
      result_type: 'TuplesOk',
      result: [['x'], ['1']],
    });
    for (let i = 0; i < 12; i++) {
      expectResponse(
        await runSql({ sql: 'select current_setting($$statement_timeout$$) as timeout, current_setting($$search_path$$) as path', read_only: i % 2 === 0 }),
        200,
        {
          result_type: 'TuplesOk',
          result: [
            ['timeout', 'path'],
            [timeout, '"$user", public'],
          ],
        },
      );
    }
  });
});

test(
  covers(['err.bad-request.access-mode', 'dec.bulk.atomic'], 'a bulk whose members need different access modes is refused before any of them runs'),
  async () => {
    await target.sql('create table if not exists library.tx_probe (id int); delete from library.tx_probe');
    const insert = { type: 'run_sql', args: { sql: 'insert into library.tx_probe values (7)' } };
    const readOnly = { type: 'run_sql', args: { sql: 'select 1', read_only: true } };
    const refused = (expected: string, path: string, forced: string) => ({
      path: '$',
      error: `incompatible access mode requirements in bulk query, expected access mode: ${expected} but ${path} forces ${forced}`,
      code: 'bad-request',
    });
    expectResponse(
      await target.metadata({ type: 'bulk', args: [insert, readOnly] }, { endpoint: '/v1/query' }),
      400,
      refused('READ WRITE', '$.args[1]', 'READ ONLY'),
    );
    expectResponse(
      await target.metadata(
        { type: 'bulk', args: [readOnly, { type: 'track_table', args: { table: { schema: 'library', name: 'tx_probe' } } }] },
        { endpoint: '/v1/query' },
      ),
      400,
      refused('READ ONLY', '$.args[1]', 'READ WRITE'),
    );
    expectResponse(
      await target.metadata({ type: 'bulk', args: [insert, { type: 'bulk', args: [readOnly] }] }, { endpoint: '/v1/query' }),
      400,
      refused('READ WRITE', '$.args[1].args[0]', 'READ ONLY'),
    );
    expect((await target.sql('select count(*)::int as n from library.tx_probe'))[0]!.n).toBe(0);
    // Reads need no mode: they go with either.
    const reads = await target.metadata(
      { type: 'bulk', args: [readOnly, { type: 'export_metadata', args: {} }, { type: 'run_sql', args: { sql: 'select 2 as two', read_only: true } }] },
      { endpoint: '/v1/query' },
    );
    expectResponse(reads, 200, [
      { result_type: 'TuplesOk', result: [['?column?'], ['1']] },
      { version: 2, tables: [] },
      { result_type: 'TuplesOk', result: [['two'], ['2']] },
    ]);
  },
);

describe('run_sql changing columns that metadata names', () => {
  const book = { schema: 'library', name: 'book' };
  const author = { schema: 'library', name: 'author' };
  const userSelect = { role: 'user', permission: { columns: ['id', 'title'], filter: { author_id: { _eq: 'X-Engine-User-Id' } } } };
  const tracked = async (bookEntry: Record<string, unknown>) => {
    expectResponse(await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [{ table: author }, { table: book, ...bookEntry }] } }), 200, {
      message: 'success',
    });
  };
  beforeEach(async () => {
    await target.sql(fixtureSql('library'));
    await target.metadata({ type: 'reload_metadata', args: {} });
  });
  const exported = async () => (await target.metadata({ type: 'export_metadata', args: {} })).body as { tables: unknown[] };
  const columnsOfBook = async () =>
    await target.sql(
      `select attname::text as name, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = 'library.book'::regclass and attnum > 0 and not attisdropped order by attnum`,
    );

  test(covers(['err.not-supported.column-rename', 'dec.run_sql.tracked-tables'], 'renaming a column a permission lists is refused and undone'), async () => {
    await tracked({ select_permissions: [userSelect] });
    expectResponse(await runSql({ sql: 'alter table library.book rename column title to heading' }), 400, {
      path: '$.args',
      error: 'column renames are not yet supported : "library.book"."title"',
      code: 'not-supported',
    });
    expect(await columnsOfBook()).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'title', type: 'text' },
      { name: 'author_id', type: 'integer' },
    ]);
  });

  test(covers(['err.not-supported.column-rename'], 'renaming a column with a custom name is refused too; cascade drops the custom name'), async () => {
    await tracked({ configuration: { custom_column_names: { title: 'heading' } } });
    expectResponse(await runSql({ sql: 'alter table library.book rename column title to label' }), 400, {
      path: '$.args',
      error: 'column renames are not yet supported : "library.book"."title"',
      code: 'not-supported',
    });
    expectResponse(await runSql({ sql: 'alter table library.book rename column title to label', cascade: true }), 200, {
      result_type: 'CommandOk',
      result: null,
    });
    expect((await exported()).tables).toEqual([{ table: author }, { table: book }]);
  });

  test(covers(['dec.run_sql.tracked-tables'], 'renaming a column no metadata names is allowed and keeps the metadata'), async () => {
    await tracked({ select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: {} } }] });
    expectResponse(await runSql({ sql: 'alter table library.book rename column title to heading' }), 200, { result_type: 'CommandOk', result: null });
    expect((await exported()).tables).toEqual([
      { table: author },
      { table: book, select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: {} } }] },
    ]);
  });

  test(covers(['err.dependency-error.column-type'], 'changing the type of a column a permission filter uses is refused and undone'), async () => {
    await tracked({ select_permissions: [userSelect] });
    expectResponse(await runSql({ sql: 'alter table library.book alter column author_id type bigint' }), 400, {
      path: '$.args',
      error: 'cannot change type of column "author_id" in table "library.book" because of the following dependencies : permission library.book.user.select',
      code: 'dependency-error',
    });
    expect(await columnsOfBook()).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'title', type: 'text' },
      { name: 'author_id', type: 'integer' },
    ]);
  });

  test(covers(['err.dependency-error.drop'], 'dropping a column a permission uses needs cascade, which drops the permission'), async () => {
    const insert = { role: 'user', permission: { columns: ['id'], check: {}, set: { title: 'X-Engine-Title' } } };
    await tracked({ insert_permissions: [insert], select_permissions: [userSelect, { role: 'guest', permission: { columns: ['id'], filter: {} } }] });
    expectResponse(await runSql({ sql: 'alter table library.book drop column title' }), 400, {
      path: '$.args',
      error: 'cannot drop due to the following dependent objects : permission library.book.user.insert, permission library.book.user.select',
      code: 'dependency-error',
    });
    expect((await columnsOfBook()).map((c) => c.name)).toEqual(['id', 'title', 'author_id']);
    expectResponse(await runSql({ sql: 'alter table library.book drop column title', cascade: true }), 200, { result_type: 'CommandOk', result: null });
    expect((await exported()).tables).toEqual([
      { table: author },
      { table: book, select_permissions: [{ role: 'guest', permission: { columns: ['id'], filter: {} } }] },
    ]);
  });

  test(covers(['err.dependency-error.drop'], 'a permission reaching a dropped column through a relationship depends on it'), async () => {
    await target.metadata({
      type: 'replace_metadata',
      args: {
        version: 2,
        tables: [
          { table: author, select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: {} } }] },
          {
            table: book,
            object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
            select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: { author: { name: { _eq: 'Ursula' } } } } }],
          },
        ],
      },
    });
    expectResponse(await runSql({ sql: 'alter table library.author rename column name to full_name' }), 400, {
      path: '$.args',
      error: 'column renames are not yet supported : "library.author"."name"',
      code: 'not-supported',
    });
  });

  test(covers(['err.already-exists.relationship-named-column'], 'a column cannot be added under the name of a relationship of its table'), async () => {
    await tracked({ object_relationships: [{ name: 'writer', using: { foreign_key_constraint_on: 'author_id' } }] });
    expectResponse(await runSql({ sql: 'alter table library.book add column writer text' }), 400, {
      path: '$.args',
      error: 'cannot add column "writer" in table "library.book" as a relationship with the name already exists',
      code: 'already-exists',
    });
    expect((await columnsOfBook()).map((c) => c.name)).toEqual(['id', 'title', 'author_id']);
    expectResponse(await runSql({ sql: 'alter table library.book add column writer_name text' }), 200, { result_type: 'CommandOk', result: null });
  });

  test(covers(['dec.run_sql.tracked-tables', 'rule.availability.untracked'], 'tables related to each other can be dropped together'), async () => {
    await target.sql(
      'create table library.shelf (id int primary key); create table library.slot (id int primary key, shelf_id int references library.shelf (id))',
    );
    await target.metadata({
      type: 'replace_metadata',
      args: {
        version: 2,
        tables: [
          { table: author },
          {
            table: { schema: 'library', name: 'shelf' },
            array_relationships: [{ name: 'slots', using: { foreign_key_constraint_on: { table: { schema: 'library', name: 'slot' }, column: 'shelf_id' } } }],
          },
          { table: { schema: 'library', name: 'slot' }, object_relationships: [{ name: 'shelf', using: { foreign_key_constraint_on: 'shelf_id' } }] },
        ],
      },
    });
    expectResponse(await runSql({ sql: 'drop table library.slot, library.shelf' }), 200, { result_type: 'CommandOk', result: null });
    expect((await exported()).tables).toEqual([{ table: author }]);
  });

  test(
    covers(['dec.run_sql.tracked-tables', 'dec.schema.always-valid'], "the schema of every role follows what run_sql changes of a tracked table's columns"),
    async () => {
      await tracked({ select_permissions: [userSelect] });
      const fields = async (role: string) =>
        (
          await target.graphql('{ __type(name: "library_book") { fields { name description type { kind name ofType { name } } } } }', undefined, {
            headers: { ...target.adminHeaders(), 'x-engine-role': role, 'x-engine-user-id': '1' },
          })
        ).body;
      const field = (name: string, description: string | null, type: string, nonNull: boolean) => ({
        name,
        description,
        type: nonNull ? { kind: 'NON_NULL', name: null, ofType: { name: type } } : { kind: 'SCALAR', name: type, ofType: null },
      });
      expect(await fields('user')).toEqual({ data: { __type: { fields: [field('id', null, 'Int', true), field('title', null, 'String', true)] } } });
      const changes = [
        "comment on column library.book.title is 'the title'",
        'alter table library.book alter column title drop not null',
        'alter table library.book add column pages integer',
      ];
      expectResponse(await runSql({ sql: changes.join('; ') }), 200, { result_type: 'CommandOk', result: null });
      expect(await fields('user')).toEqual({ data: { __type: { fields: [field('id', null, 'Int', true), field('title', 'the title', 'String', false)] } } });
      expect(await fields('admin')).toEqual({
        data: {
          __type: {
            fields: [
              field('author_id', null, 'Int', false),
              field('id', null, 'Int', true),
              field('pages', null, 'Int', false),
              field('title', 'the title', 'String', false),
            ],
          },
        },
      });
      // Changed again, and back: each version says what the database says now.
      expectResponse(
        await runSql({ sql: "comment on column library.book.title is 'the heading'; alter table library.book alter column pages type text" }),
        200,
        {
          result_type: 'CommandOk',
          result: null,
        },
      );
      expect(await fields('user')).toEqual({ data: { __type: { fields: [field('id', null, 'Int', true), field('title', 'the heading', 'String', false)] } } });
      expect(((await fields('admin')) as { data: { __type: { fields: unknown[] } } }).data.__type.fields.slice(2)).toEqual([
        field('pages', null, 'String', false),
        field('title', 'the heading', 'String', false),
      ]);
      expectResponse(await runSql({ sql: 'comment on column library.book.title is null; alter table library.book alter column title set not null' }), 200, {
        result_type: 'CommandOk',
        result: null,
      });
      expect(await fields('user')).toEqual({ data: { __type: { fields: [field('id', null, 'Int', true), field('title', null, 'String', true)] } } });
    },
  );
});
