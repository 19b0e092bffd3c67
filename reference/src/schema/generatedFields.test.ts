// A table's generated names under its source's naming convention (decision 046): the names the
// engine's documentation gives for `app_db.app_users`, and hasura-default left as it was.
import { ROOT_FIELD_KEYS as ROOTS, type TableEntry } from '../../../spec';
import { tableRootField } from '../metadata/naming';
import { columnField, fieldOf } from './generatedFields';
import { sourceTypeName, typeName } from './typeNames';

const appUsers: TableEntry = { table: { schema: 'app_db', name: 'app_users' } };
const named = (entry: TableEntry, naming?: 'graphql-default', typeNames?: { prefix?: string; suffix?: string }) => ({
  entry,
  name: entry.configuration?.custom_name ?? `${entry.table.schema}_${entry.table.name}`,
  ...(naming ? { naming } : {}),
  ...(typeNames ? { typeNames } : {}),
});

test('root fields are camelCase under graphql-default, snake_case under hasura-default', () => {
  expect(ROOTS.map((k) => tableRootField(appUsers, k, 'graphql-default'))).toEqual([
    'appDbAppUsers',
    'appDbAppUsersByPk',
    'appDbAppUsersAggregate',
    'insertAppDbAppUsers',
    'insertAppDbAppUsersOne',
    'updateAppDbAppUsers',
    'updateAppDbAppUsersByPk',
    'updateAppDbAppUsersMany',
    'deleteAppDbAppUsers',
    'deleteAppDbAppUsersByPk',
    'appDbAppUsersStream',
  ]);
  expect(ROOTS.map((k) => tableRootField(appUsers, k, 'hasura-default'))).toEqual([
    'app_db_app_users',
    'app_db_app_users_by_pk',
    'app_db_app_users_aggregate',
    'insert_app_db_app_users',
    'insert_app_db_app_users_one',
    'update_app_db_app_users',
    'update_app_db_app_users_by_pk',
    'update_app_db_app_users_many',
    'delete_app_db_app_users',
    'delete_app_db_app_users_by_pk',
    'app_db_app_users_stream',
  ]);
});

test('a custom table name leads as written; custom root fields and column names are kept', () => {
  const entry: TableEntry = {
    table: { schema: 'public', name: 't1' },
    configuration: { custom_name: 'table_one', custom_root_fields: { delete: 'remove_rows' }, custom_column_names: { user_id: 'the_user' } },
  };
  expect(tableRootField(entry, 'select_by_pk', 'graphql-default')).toBe('table_oneByPk');
  expect(tableRootField(entry, 'insert_one', 'graphql-default')).toBe('insertTable_oneOne');
  expect(tableRootField(entry, 'delete', 'graphql-default')).toBe('remove_rows');
  expect(columnField(entry, 'user_id', 'graphql-default')).toBe('the_user');
  expect(columnField(entry, 'referred_by', 'graphql-default')).toBe('referredBy');
  expect(columnField(entry, 'referred_by', 'hasura-default')).toBe('referred_by');
});

test("a table's types are PascalCase under graphql-default, inside the source's type prefix and suffix kept as written", () => {
  expect(typeName(named(appUsers, 'graphql-default'))).toBe('AppDbAppUsers');
  expect(typeName(named(appUsers, 'graphql-default'), '_stddev_pop_fields')).toBe('AppDbAppUsersStddevPopFields');
  expect(typeName(named(appUsers, 'graphql-default'), '_bool_exp')).toBe('AppDbAppUsersBoolExp');
  expect(typeName(named({ table: { schema: 'public', name: 'app_users' } }, 'graphql-default', { prefix: 'T_', suffix: '_t' }))).toBe('T_AppUsers_t');
  expect(typeName(named(appUsers), '_bool_exp')).toBe('app_db_app_users_bool_exp');
  expect(typeName(named(appUsers, undefined, { prefix: 'T_', suffix: '_t' }), '_bool_exp')).toBe('T_app_db_app_users_bool_exp_t');
  expect(sourceTypeName({ prefix: 'T_' }, 'cursor_ordering', 'graphql-default')).toBe('T_CursorOrdering');
  expect(sourceTypeName({ prefix: 'T_' }, 'cursor_ordering')).toBe('T_cursor_ordering');
});

test('generated arguments and fields follow the convention of the table they belong to', () => {
  expect(
    ['order_by', 'distinct_on', 'on_conflict', 'pk_columns', 'affected_rows', '_is_null', '_eq'].map((n) => fieldOf({ naming: 'graphql-default' }, n)),
  ).toEqual(['orderBy', 'distinctOn', 'onConflict', 'pkColumns', 'affectedRows', '_isNull', '_eq']);
  expect(fieldOf({}, 'order_by')).toBe('order_by');
});
