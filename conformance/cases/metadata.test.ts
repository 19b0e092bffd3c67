// Metadata management: SPEC.md §4.3 (export/replace/reload/clear/inconsistency), §4.4 bulk, §9.
import { covers } from '../harness/cases';
import { expectError, expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();

const author = { table: { schema: 'library', name: 'author' } };
const book = { table: { schema: 'library', name: 'book' } };
const ghost = { table: { schema: 'library', name: 'ghost' } };
const ghostInconsistency = {
  type: 'table',
  name: 'table library.ghost in source default',
  reason: 'Inconsistent object: no such table/view exists in postgres : "library.ghost"',
  definition: 'library.ghost',
};

const exported = async () => (await target.metadata({ type: 'export_metadata', args: {} })).body;

beforeAll(async () => {
  await target.sql(fixtureSql('library'));
});
beforeEach(async () => {
  await target.sql('drop table if exists library.ghost');
  await target.reset();
});

test(covers(['op.export_metadata.v1', 'dec.export.form'], 'export_metadata of empty metadata is the config v2 document'), async () => {
  expectResponse(await target.metadata({ type: 'export_metadata', args: {} }), 200, { version: 2, tables: [] });
});

test(
  covers(['op.replace_metadata.v1', 'rule.envelope.version-inferred', 'dec.success-body'], 'replace_metadata v1 takes the export form as args'),
  async () => {
    const document = { version: 2, tables: [author, book] };
    expectResponse(await target.metadata({ type: 'replace_metadata', args: document }), 200, { message: 'success' });
    expect(await exported()).toEqual({ version: 2, tables: [author, book] });
  },
);

test(
  covers(['op.replace_metadata.v2', 'rule.envelope.version-explicit', 'dec.replace_metadata.v2-response'], 'replace_metadata v2 with an explicit version'),
  async () => {
    const r = await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: { version: 2, tables: [book] } } });
    expectResponse(r, 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await exported()).toEqual({ version: 2, tables: [book] });
  },
);

test(covers(['op.replace_metadata.v2', 'rule.envelope.version-inferred'], 'replace_metadata without version but with args.metadata is v2'), async () => {
  const r = await target.metadata({ type: 'replace_metadata', args: { allow_inconsistent_metadata: false, metadata: { version: 2, tables: [author] } } });
  expectResponse(r, 200, { is_consistent: true, inconsistent_objects: [] });
  expect(await exported()).toEqual({ version: 2, tables: [author] });
});

test(covers(['op.replace_metadata.v1', 'rule.envelope.version-explicit'], 'replace_metadata with explicit version 1'), async () => {
  const r = await target.metadata({ type: 'replace_metadata', version: 1, args: { version: 2, tables: [author] } });
  expectResponse(r, 200, { message: 'success' });
  expect(await exported()).toEqual({ version: 2, tables: [author] });
});

test(covers(['dec.table-name.default-schema'], 'a table given by a bare name is in schema public'), async () => {
  await target.sql('create table if not exists public.cf_plain (id int primary key)');
  try {
    expectResponse(await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [{ table: 'cf_plain' }] } }), 200, { message: 'success' });
    expect(await exported()).toEqual({ version: 2, tables: [{ table: { schema: 'public', name: 'cf_plain' } }] });
  } finally {
    await target.reset();
    await target.sql('drop table if exists public.cf_plain');
  }
});

test(
  covers(
    ['rule.replace_metadata.1', 'op.replace_metadata.v1', 'err.unexpected.inconsistent-metadata'],
    'v1 with a missing table: 400 with internal, nothing replaced',
  ),
  async () => {
    await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [author] } });
    const r = await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [book, ghost] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ internal: [ghostInconsistency] });
    expect(await exported()).toEqual({ version: 2, tables: [author] });
  },
);

test(
  covers(
    ['rule.replace_metadata.1', 'op.replace_metadata.v2', 'err.unexpected.inconsistent-metadata', 'err.not-exists.table-in-postgres'],
    'v2 with a missing table and no allow_inconsistent_metadata: 400 with internal',
  ),
  async () => {
    const r = await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: { version: 2, tables: [ghost] } } });
    expectResponse(r, 400, { path: '$.args', error: 'cannot continue due to inconsistent metadata', code: 'unexpected', internal: [ghostInconsistency] });
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

test(
  covers(
    [
      'rule.replace_metadata.2',
      'dec.inconsistent-object.table',
      'op.get_inconsistent_metadata',
      'op.drop_inconsistent_metadata',
      'rule.availability.inconsistent',
    ],
    'allow_inconsistent_metadata keeps a missing table; it is listed, then dropped',
  ),
  async () => {
    const r = await target.metadata({
      type: 'replace_metadata',
      version: 2,
      args: { allow_inconsistent_metadata: true, metadata: { version: 2, tables: [author, ghost] } },
    });
    expectResponse(r, 200, { is_consistent: false, inconsistent_objects: [ghostInconsistency] });
    expect(await exported()).toEqual({ version: 2, tables: [author, ghost] });
    expectResponse(await target.metadata({ type: 'get_inconsistent_metadata', args: {} }), 200, [ghostInconsistency]);
    expectResponse(await target.metadata({ type: 'drop_inconsistent_metadata', args: {} }), 200, { message: 'success' });
    expectResponse(await target.metadata({ type: 'get_inconsistent_metadata', args: {} }), 200, []);
    expect(await exported()).toEqual({ version: 2, tables: [author] });
  },
);

test(
  covers(['op.reload_metadata', 'dec.reload_metadata.response', 'rule.availability.inconsistent'], 'reload_metadata sees a table created outside the service'),
  async () => {
    await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: { version: 2, tables: [ghost] } } });
    expectResponse(await target.metadata({ type: 'reload_metadata', args: {} }), 200, {
      message: 'success',
      is_consistent: false,
      inconsistent_objects: [ghostInconsistency],
    });
    await target.sql('create table library.ghost (id int)');
    expectResponse(await target.metadata({ type: 'reload_metadata', args: { reload_remote_schemas: true } }), 200, { message: 'success', is_consistent: true });
    expectResponse(await target.metadata({ type: 'get_inconsistent_metadata', args: {} }), 200, []);
    expect(await exported()).toEqual({ version: 2, tables: [ghost] });
  },
);

test(covers(['op.clear_metadata', 'dec.success-body'], 'clear_metadata forgets every tracked table'), async () => {
  await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [author, book] } });
  expectResponse(await target.metadata({ type: 'clear_metadata', args: {} }), 200, { message: 'success' });
  expect(await exported()).toEqual({ version: 2, tables: [] });
});

test(covers(['op.bulk', 'rule.envelope.metadata-endpoint'], 'bulk runs its operations in order and answers their responses'), async () => {
  const r = await target.metadata({
    type: 'bulk',
    args: [
      { type: 'replace_metadata', args: { version: 2, tables: [author] } },
      { type: 'export_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      { type: 'export_metadata', version: 1, args: {} },
    ],
  });
  expectResponse(r, 200, [{ message: 'success' }, { version: 2, tables: [author] }, { message: 'success' }, { version: 2, tables: [] }]);
});

test(covers(['op.bulk', 'dec.bulk.atomic'], 'a failing operation in a bulk leaves metadata and data as they were'), async () => {
  await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [author] } });
  const r = await target.metadata(
    {
      type: 'bulk',
      args: [
        { type: 'clear_metadata', args: {} },
        { type: 'run_sql', args: { sql: 'create table library.bulk_made (id int)' } },
        { type: 'replace_metadata', args: { version: 2, tables: [book, ghost] } },
      ],
    },
    { endpoint: '/v1/query' },
  );
  expectError(r, 400, { path: '$.args[2].args', error: 'cannot continue due to inconsistent metadata' });
  expect(await exported()).toEqual({ version: 2, tables: [author] });
  expect(await target.sql(`select to_regclass('library.bulk_made') as t`)).toEqual([{ t: null }]);
});

test(covers(['dec.bulk.atomic', 'err.parse-failed.arguments'], 'an invalid operation inside a bulk is reported at its path, and nothing runs'), async () => {
  const r = await target.metadata({
    type: 'bulk',
    args: [
      { type: 'replace_metadata', args: { version: 2, tables: [author] } },
      { type: 'replace_metadata', version: 2, args: { metadata: { version: 2, tables: [{ table: 7 }] } } },
    ],
  });
  expectError(r, 400, { path: '$.args[1].args.metadata.tables[0].table', code: 'parse-failed', error: /expected String or Object/ });
  expect(await exported()).toEqual({ version: 2, tables: [] });
});

test(covers(['dec.endpoints', 'rule.envelope.metadata-endpoint'], 'metadata operations are accepted at /v1/query and /v1/metadata'), async () => {
  for (const endpoint of ['/v1/query', '/v1/metadata']) {
    expectResponse(await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [book] } }, { endpoint }), 200, { message: 'success' });
    expectResponse(await target.metadata({ type: 'export_metadata', args: {} }, { endpoint }), 200, { version: 2, tables: [book] });
  }
});

test(covers(['op.replace_metadata.v1', 'op.export_metadata.v1'], 'replace then export round-trips, and replacing again changes nothing'), async () => {
  const document = { version: 2, tables: [book, author] };
  await target.metadata({ type: 'replace_metadata', args: document });
  const first = await exported();
  // Exported in the engine's order: by schema, then name.
  expect(first).toEqual({ version: 2, tables: [author, book] });
  await target.metadata({ type: 'replace_metadata', args: first });
  expect(await exported()).toEqual(first);
});

test(
  covers(
    ['op.replace_metadata.v2', 'err.already-exists.multiple-declarations', 'err.not-exists.column'],
    'a document with two permissions of one kind for one role is refused, naming them; an error inside a permission names its place in the document',
  ),
  async () => {
    const reader = { role: 'reader', permission: { columns: ['id'], filter: {} } };
    const editor = { role: 'editor', permission: { columns: ['id'], filter: {} } };
    const valid = { version: 2, tables: [author, { ...book, select_permissions: [editor, reader] }] };
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: valid } }), 200, {
      is_consistent: true,
      inconsistent_objects: [],
    });
    const twice = { version: 2, tables: [author, { ...book, select_permissions: [reader, editor, { ...reader, permission: { columns: '*', filter: {} } }] }] };
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: twice } }), 400, {
      path: '$.args.metadata.tables[1]',
      error: 'multiple declarations exist for the following select permissions of "library.book" : "reader"',
      code: 'already-exists',
    });
    const both = { version: 2, tables: [author, { ...book, select_permissions: [reader, editor, editor, reader] }] };
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: both } }), 400, {
      path: '$.args.metadata.tables[1]',
      error: 'multiple declarations exist for the following select permissions of "library.book" : "editor", "reader"',
      code: 'already-exists',
    });
    // The same role for two kinds, or on two tables, is no duplicate.
    const spread = {
      version: 2,
      tables: [
        { ...author, select_permissions: [reader] },
        { ...book, select_permissions: [reader], delete_permissions: [{ role: 'reader', permission: { filter: {} } }] },
      ],
    };
    const badColumn = {
      version: 2,
      tables: [author, { ...book, select_permissions: [reader, { role: 'editor', permission: { columns: ['isbn'], filter: {} } }] }],
    };
    expectResponse(await target.metadata({ type: 'replace_metadata', args: badColumn }), 400, {
      path: '$.args.tables[1].select_permissions[1].permission.columns',
      error: '"isbn" does not exist',
      code: 'not-exists',
    });
    expect(await exported()).toEqual(valid);
    expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: spread } }), 200, {
      is_consistent: true,
      inconsistent_objects: [],
    });
    expect(await exported()).toEqual(spread);
  },
);

test(
  covers(
    ['dec.metadata.older-forms', 'op.replace_metadata.v1'],
    'replace_metadata takes the older document form (no version, functions by name) and exports version 2',
  ),
  async () => {
    await target.sql(`create or replace function library.all_authors() returns setof library.author language sql stable as $$ select * from library.author $$`);
    const older = {
      tables: [{ table: { schema: 'library', name: 'author' } }, { table: 'plain_public', is_enum: false }],
      functions: [{ schema: 'library', name: 'all_authors' }],
    };
    await target.sql('create table if not exists public.plain_public (id int primary key)');
    try {
      expectResponse(await target.metadata({ type: 'replace_metadata', args: older }), 200, { message: 'success' });
      expect(await exported()).toEqual({
        version: 2,
        tables: [author, { table: { schema: 'public', name: 'plain_public' } }],
        functions: [{ function: { schema: 'library', name: 'all_authors' } }],
      });
      expect((await target.graphql('{ library_all_authors(limit: 1) { id } plain_public { id } }')).body).toEqual({
        data: { library_all_authors: [{ id: 1 }], plain_public: [] },
      });
      // A bare string names a function of public, and version 1 may be said.
      expectResponse(await target.metadata({ type: 'replace_metadata', args: { version: 1, tables: [author], functions: [] } }), 200, { message: 'success' });
      expect(await exported()).toEqual({ version: 2, tables: [author] });
    } finally {
      await target.reset();
      await target.sql('drop table if exists public.plain_public; drop function if exists library.all_authors()');
    }
  },
);

test(
  covers(
    ['dec.metadata.older-forms', 'op.replace_metadata.v2', 'err.not-supported.source'],
    'replace_metadata takes version 3 with the default source, its configuration kept; a source of another kind is refused',
  ),
  async () => {
    const configuration = { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, isolation_level: 'read-committed' } };
    const v3 = {
      version: 3,
      sources: [{ name: 'default', kind: 'postgres', configuration, tables: [author, book] }],
      inherited_roles: [],
    };
    try {
      expectResponse(await target.metadata({ type: 'replace_metadata', args: { metadata: v3 } }), 200, { is_consistent: true, inconsistent_objects: [] });
      // Decision dec.metadata.default-source: how the project describes the server's own database is kept.
      expect(await exported()).toEqual({ version: 2, tables: [author, book], default_source: { configuration } });
      const before = await exported();
      expectResponse(
        await target.metadata({
          type: 'replace_metadata',
          args: { metadata: { ...v3, sources: [...v3.sources, { name: 'analytics', kind: 'mssql', configuration: {}, tables: [] }] } },
        }),
        400,
        {
          path: '$.args.metadata.sources[1].kind',
          error: 'the source "analytics" is of kind "mssql": this server serves PostgreSQL sources only',
          code: 'not-supported',
        },
      );
      expectResponse(
        await target.metadata({ type: 'replace_metadata', args: { metadata: { ...v3, sources: [{ ...v3.sources[0], logical_models: [{ name: 'm' }] }] } } }),
        400,
        { path: '$.args.metadata.sources[0].logical_models', error: 'logical_models is not supported by this server yet', code: 'not-supported' },
      );
      expect(await exported()).toEqual(before);
    } finally {
      // clear_metadata keeps the default source's configuration: the next cases start without it (null takes it away).
      await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], default_source: null } });
    }
  },
);

test(
  covers(
    ['dec.metadata.older-forms', 'dec.metadata.default-source', 'op.replace_metadata.v2'],
    "replace_metadata version 3: the engine's defaults written into every project (introspection for no role, the default naming convention) are kept and change nothing; a name that is not a GraphQL name is refused",
  ),
  async () => {
    const configuration = { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' } } };
    const v3 = (customization: unknown, introspection: unknown, tables: unknown[]) => ({
      version: 3,
      sources: [{ name: 'default', kind: 'postgres', configuration, customization, tables }],
      graphql_schema_introspection: introspection,
    });
    const defaults = v3({ naming_convention: 'hasura-default' }, { disabled_for_roles: [] }, [author]);
    const kept = { version: 2, tables: [author], default_source: { configuration, customization: { naming_convention: 'hasura-default' } } };
    try {
      expectResponse(await target.metadata({ type: 'replace_metadata', args: { metadata: defaults } }), 200, { is_consistent: true, inconsistent_objects: [] });
      expect(await exported()).toEqual(kept);
      // The refusal would also have tracked book: nothing changes.
      expectResponse(
        await target.metadata({
          type: 'replace_metadata',
          args: { metadata: v3({ root_fields: { prefix: '1st_' } }, { disabled_for_roles: [] }, [author, book]) },
        }),
        400,
        { path: '$.args.metadata.sources[0].customization.root_fields.prefix', error: '"1st_" is not a GraphQL name', code: 'parse-failed' },
      );
      expect(await exported()).toEqual(kept);
    } finally {
      await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], default_source: null } });
    }
  },
);

test(
  covers(
    ['dec.replace_metadata.v2-response', 'dec.reload_metadata.response', 'dec.inconsistent-object.table'],
    'a tracked table dropped outside the service: reload reports it, replace_metadata v2 of the export reports it again, and once it is back both are consistent',
  ),
  async () => {
    await target.sql('drop table if exists library.vanishing; create table library.vanishing (id int primary key)');
    const vanishing = { table: { schema: 'library', name: 'vanishing' } };
    const gone = {
      type: 'table',
      name: 'table library.vanishing in source default',
      reason: 'Inconsistent object: no such table/view exists in postgres : "library.vanishing"',
      definition: 'library.vanishing',
    };
    try {
      expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: { version: 2, tables: [author, vanishing] } } }), 200, {
        is_consistent: true,
        inconsistent_objects: [],
      });
      await target.sql('drop table library.vanishing');
      expectResponse(await target.metadata({ type: 'reload_metadata', args: {} }), 200, {
        message: 'success',
        is_consistent: false,
        inconsistent_objects: [gone],
      });
      const document = await exported();
      expect(document).toEqual({ version: 2, tables: [author, vanishing] });
      expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: document } }), 200, {
        is_consistent: false,
        inconsistent_objects: [gone],
      });
      await target.sql('create table library.vanishing (id int primary key)');
      expectResponse(await target.metadata({ type: 'reload_metadata', args: {} }), 200, { message: 'success', is_consistent: true });
      expectResponse(await target.metadata({ type: 'replace_metadata', version: 2, args: { metadata: document } }), 200, {
        is_consistent: true,
        inconsistent_objects: [],
      });
    } finally {
      await target.sql('drop table if exists library.vanishing');
    }
  },
);
