// export_metadata lists objects sorted as the engine sorts them, whatever order they were added in
// (decision dec.export.form): tables and functions by schema then name, what a table holds by name
// or role, the other lists by name (REST endpoints by URL).
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body;
const t = (schema: string, name: string) => ({ schema, name });
const manual = (name: string, remote: string) => ({
  name,
  using: { manual_configuration: { remote_table: t('exord', remote), column_mapping: { id: 'id' } } },
});
const endpoint = (name: string, url: string) => ({
  name,
  url,
  methods: ['GET'],
  definition: { query: { query_name: 'q', collection_name: 'aa' } },
});
const collection = (name: string) => ({ name, definition: { queries: [{ name: 'q', query: 'query q { __typename }' }] } });
const select = (role: string) => ({ role, permission: { columns: ['id'], filter: {} } });

beforeAll(async () => {
  await target.sql(`drop schema if exists exord cascade; create schema exord; drop schema if exists exord_a cascade; create schema exord_a;
    create table exord.b (id int primary key); create table exord.a (id int primary key); create table exord_a.t (id int primary key);
    create table exord_a.a (id int primary key);
    create function exord.f2() returns setof exord.a language sql stable as 'select * from exord.a';
    create function exord.f1() returns setof exord.a language sql stable as 'select * from exord.a';`);
});
beforeEach(() => target.reset());

test(
  covers(['dec.export.form', 'op.track_table.v1', 'op.export_metadata.v1'], 'tables are exported by schema, then name, not in the order tracked'),
  async () => {
    for (const table of [t('exord_a', 't'), t('exord', 'b'), t('exord_a', 'a'), t('exord', 'a')]) expectResponse(await run('track_table', { table }), 200, ok);
    // The schema first: exord.b comes before exord_a.a.
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: t('exord', 'a') }, { table: t('exord', 'b') }, { table: t('exord_a', 'a') }, { table: t('exord_a', 't') }],
    });
  },
);

test(
  covers(
    ['dec.export.form', 'op.replace_metadata.v1', 'op.export_metadata.v1'],
    "each list of the document is exported sorted: a table's relationships and permissions too",
  ),
  async () => {
    const given = {
      version: 2,
      tables: [
        { table: t('exord', 'b') },
        {
          table: t('exord', 'a'),
          object_relationships: [manual('zeta', 'b'), manual('alpha', 'b')],
          select_permissions: [select('user'), select('editor'), select('reader'), select('admin_2')],
        },
      ],
      functions: [{ function: t('exord', 'f2') }, { function: t('exord', 'f1') }],
      query_collections: [collection('zz'), collection('aa')],
      allowlist: [{ collection: 'zz' }, { collection: 'aa' }],
      rest_endpoints: [endpoint('one', 'zz'), endpoint('two', 'aa')],
    };
    expectResponse(await run('replace_metadata', given), 200, ok);
    expect(await exported()).toEqual({
      version: 2,
      tables: [
        {
          table: t('exord', 'a'),
          object_relationships: [manual('alpha', 'b'), manual('zeta', 'b')],
          select_permissions: [select('admin_2'), select('editor'), select('reader'), select('user')],
        },
        { table: t('exord', 'b') },
      ],
      functions: [{ function: t('exord', 'f1') }, { function: t('exord', 'f2') }],
      query_collections: [collection('aa'), collection('zz')],
      allowlist: [{ collection: 'aa' }, { collection: 'zz' }],
      rest_endpoints: [endpoint('two', 'aa'), endpoint('one', 'zz')],
    });
  },
);
