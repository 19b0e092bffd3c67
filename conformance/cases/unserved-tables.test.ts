// A table whose name makes no GraphQL name is tracked all the same, as the engine tracks it, and
// left out of the GraphQL schema until a custom_name gives it one (decision dec.table.unserved-name).
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown, version?: number) => target.metadata({ type, ...(version ? { version } : {}), args });
const exported = async () => (await run('export_metadata', {})).body as { version: number; tables: unknown[] };
const gql = async (query: string) => (await target.graphql(query)).body;
const address = { schema: 'oddnames', name: 'users address' };
const person = { schema: 'oddnames', name: 'person' };
const rootFields = async () => gql('{ __schema { queryType { fields { name } } } }');
const fields = (...names: string[]) => ({ data: { __schema: { queryType: { fields: names.map((name) => ({ name })) } } } });

beforeAll(async () => {
  await target.sql(`drop schema if exists oddnames cascade; create schema oddnames;
    create table oddnames."users address" (id int constraint users_address_pkey primary key, street text); insert into oddnames."users address" values (1, 'Main');
    create table oddnames.person (id int primary key, name text); insert into oddnames.person values (7, 'ada');`);
});
beforeEach(() => target.reset());

test(
  covers(
    ['dec.table.unserved-name', 'op.track_table.v1', 'op.set_table_customization'],
    'a table whose name is no GraphQL name is tracked, and served once it has a custom_name',
  ),
  async () => {
    expectResponse(await run('track_table', { table: address }), 200, ok);
    expectResponse(await run('track_table', { table: person }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: person }, { table: address }] });
    // Only the table with a name has root fields; the rest of the schema is served.
    expect(await rootFields()).toEqual(fields('oddnames_person', 'oddnames_person_by_pk', 'oddnames_person_aggregate'));
    expect(await gql('{ oddnames_person { name } }')).toEqual({ data: { oddnames_person: [{ name: 'ada' }] } });
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    // It is a tracked table all the same: it takes permissions, and the legacy DML reads it.
    expectResponse(await run('create_select_permission', { table: address, role: 'user', permission: { columns: ['id'], filter: {} } }), 200, ok);
    expectResponse(await target.metadata({ type: 'select', args: { table: address, columns: ['id', 'street'] } }, { endpoint: '/v1/query' }), 200, [
      { id: 1, street: 'Main' },
    ]);
    expectResponse(await run('drop_select_permission', { table: address, role: 'user' }), 200, ok);

    expectResponse(await run('set_table_customization', { table: address, configuration: { custom_name: 'users_address' } }), 200, ok);
    expect(await gql('{ users_address { id street } }')).toEqual({ data: { users_address: [{ id: 1, street: 'Main' }] } });
    expect(await exported()).toEqual({ version: 2, tables: [{ table: person }, { table: address, configuration: { custom_name: 'users_address' } }] });
  },
);

test(
  covers(['dec.table.unserved-name', 'op.replace_metadata.v1', 'op.untrack_table'], 'replace_metadata takes such a table back, and untrack_table forgets it'),
  async () => {
    const document = { version: 2, tables: [{ table: person }, { table: address }] };
    expectResponse(await run('replace_metadata', document), 200, ok);
    expect(await exported()).toEqual(document);
    expect(await rootFields()).toEqual(fields('oddnames_person', 'oddnames_person_by_pk', 'oddnames_person_aggregate'));
    expectResponse(await run('untrack_table', { table: address }), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [{ table: person }] });
  },
);

test(
  covers(['dec.table.unserved-name', 'err.validation-failed.graphql-name', 'op.track_table.v2'], 'a custom_name that is itself no GraphQL name is refused'),
  async () => {
    expectResponse(await run('track_table', { table: address, configuration: { custom_name: 'users address' } }, 2), 400, {
      path: '$.args',
      error: '"users address" (the custom_name of table "oddnames.users address") is not a valid GraphQL name',
      code: 'validation-failed',
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);
