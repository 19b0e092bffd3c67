// The engine's naming conventions, checked against the names its documentation gives (decision 046).
import { custom, enumValue, fieldName, fromSnake, generated, recaseField, recaseType, tableWords, typeName, withPrefixSuffix } from './namingCase';

const appUsers = tableWords({ schema: 'app_db', name: 'app_users' });

test('a table outside public is named by its schema and name: PascalCase types and camelCase fields under graphql-default', () => {
  expect(typeName('graphql-default', tableWords({ schema: 'my_schema', name: 'my_table' }))).toBe('MySchemaMyTable');
  expect(fieldName('graphql-default', [...tableWords({ schema: 'my_schema', name: 'my_table' }), ...generated('aggregate')])).toBe('mySchemaMyTableAggregate');
  expect(fieldName('graphql-default', [...appUsers, ...generated('aggregate')])).toBe('appDbAppUsersAggregate');
  expect(fieldName('hasura-default', [...appUsers, ...generated('aggregate')])).toBe('app_db_app_users_aggregate');
  expect(typeName('hasura-default', appUsers)).toBe('app_db_app_users');
  expect(fieldName('graphql-default', [...tableWords({ schema: 'public', name: 'app_users' }), ...generated('by_pk')])).toBe('appUsersByPk');
});

test('a custom table name leads its names as written; after a generated word it starts upper case', () => {
  const names = (customName: string) => [
    fieldName('graphql-default', custom(customName)),
    fieldName('graphql-default', [...custom(customName), ...generated('by_pk')]),
    fieldName('graphql-default', [...generated('insert'), ...custom(customName), ...generated('one')]),
  ];
  expect(names('table_one')).toEqual(['table_one', 'table_oneByPk', 'insertTable_oneOne']);
  expect(names('tableOne')).toEqual(['tableOne', 'tableOneByPk', 'insertTableOneOne']);
  expect(names('TableOne')).toEqual(['TableOne', 'TableOneByPk', 'insertTableOneOne']);
});

test('arguments, columns, aggregate fields and operators are camelCase; _eq and _and stay as they are', () => {
  const fields = [
    'distinct_on',
    'referred_by',
    'stddev_pop',
    'user_id',
    'pk_columns',
    'affected_rows',
    '_eq',
    '_and',
    '_is_null',
    '_contained_in',
    '_st_d_within',
  ];
  expect(fields.map((f) => recaseField('graphql-default', f))).toEqual([
    'distinctOn',
    'referredBy',
    'stddevPop',
    'userId',
    'pkColumns',
    'affectedRows',
    '_eq',
    '_and',
    '_isNull',
    '_containedIn',
    '_stDWithin',
  ]);
  expect(fields.map((f) => recaseField('hasura-default', f))).toEqual(fields);
});

test('types recased as a whole are PascalCase; enum values are upper case', () => {
  expect(recaseType('graphql-default', 'String_comparison_exp')).toBe('StringComparisonExp');
  expect(recaseType('graphql-default', 'order_by')).toBe('OrderBy');
  expect(recaseType('hasura-default', 'String_comparison_exp')).toBe('String_comparison_exp');
  expect(['sunday', 'asc_nulls_first'].map((v) => enumValue('graphql-default', v))).toEqual(['SUNDAY', 'ASC_NULLS_FIRST']);
  expect(enumValue('hasura-default', 'sunday')).toBe('sunday');
});

test("a source's prefix is kept as written and what follows it starts upper case", () => {
  expect(withPrefixSuffix('graphql-default', 'field', 'appUsersAggregate', 'p_', '_s')).toBe('p_AppUsersAggregate_s');
  expect(withPrefixSuffix('graphql-default', 'field', 'appUsers', undefined, 'V2')).toBe('appUsersV2');
  expect(withPrefixSuffix('graphql-default', 'type', 'AppUsers', 'T_', '_t')).toBe('T_AppUsers_t');
  expect(withPrefixSuffix('graphql-default', 'type', 'AppUsers', 'lib', undefined)).toBe('libAppUsers');
  expect(withPrefixSuffix('hasura-default', 'field', 'app_users', 'p_', '_s')).toBe('p_app_users_s');
});

test('a leading underscore belongs to the first word', () => {
  expect(fromSnake('_hello_world_foo')).toEqual(['_hello', 'world', 'foo']);
  expect(fromSnake('my_table')).toEqual(['my', 'table']);
  expect(typeName('graphql-default', tableWords({ schema: '_private', name: 'notes' }))).toBe('_privateNotes');
});
