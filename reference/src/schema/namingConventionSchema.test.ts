// A table's schema under graphql-default (decision 046), built from models by hand: the builder
// names every field, argument, operator and enum value through the table's convention, and a table
// under hasura-default beside it keeps the engine's default names.
import { GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { MetadataDocument } from '../../../spec';
import { introspectionOf } from '../db/introspection';
import { dbColumn, dbTable } from '../../test-support/introspectionRows';
import { buildSchema } from './build';
import { buildModels } from './model';

const appUsers = { ...dbTable('app_users', 1, [dbColumn('id', 'int4'), dbColumn('user_name', 'text')], ['id']), schema: 'app_db' };
const document = { version: 3, sources: [], tables: [{ table: { schema: 'app_db', name: 'app_users' } }] } as unknown as MetadataDocument;
const schemaOf = (naming: 'graphql-default' | 'hasura-default'): GraphQLSchema =>
  buildSchema(buildModels(document, introspectionOf([appUsers], [appUsers]), new Map(), naming)).schema;
const fieldsOf = (schema: GraphQLSchema, type: string) => Object.keys((schema.getType(type) as GraphQLObjectType | GraphQLInputObjectType).getFields());
const argsOf = (root: GraphQLObjectType | null | undefined, field: string) => root!.getFields()[field]!.args.map((a) => a.name);

test('root fields, their arguments and the types they take are cased by graphql-default', () => {
  const schema = schemaOf('graphql-default');
  expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(['appDbAppUsers', 'appDbAppUsersByPk', 'appDbAppUsersAggregate']);
  expect(argsOf(schema.getQueryType(), 'appDbAppUsers')).toEqual(['distinctOn', 'limit', 'offset', 'orderBy', 'where']);
  expect(argsOf(schema.getQueryType(), 'appDbAppUsersByPk')).toEqual(['id']);
  expect(Object.keys(schema.getMutationType()!.getFields()).sort()).toEqual([
    'deleteAppDbAppUsers',
    'deleteAppDbAppUsersByPk',
    'insertAppDbAppUsers',
    'insertAppDbAppUsersOne',
    'updateAppDbAppUsers',
    'updateAppDbAppUsersByPk',
    'updateAppDbAppUsersMany',
  ]);
  expect(argsOf(schema.getMutationType(), 'insertAppDbAppUsers')).toEqual(['objects', 'onConflict']);
  expect(argsOf(schema.getMutationType(), 'updateAppDbAppUsersByPk')).toEqual(['pkColumns', '_set', '_inc']);
  expect(argsOf(schema.getSubscriptionType(), 'appDbAppUsersStream')).toEqual(['batchSize', 'cursor', 'where']);
  expect(fieldsOf(schema, 'AppDbAppUsers')).toEqual(['id', 'userName']);
  expect(fieldsOf(schema, 'AppDbAppUsersMutationResponse')).toEqual(['affectedRows', 'returning']);
  expect(fieldsOf(schema, 'AppDbAppUsersAggregateFields')).toContain('stddevPop');
  expect(fieldsOf(schema, 'AppDbAppUsersOnConflict')).toEqual(['constraint', 'updateColumns', 'where']);
  expect(fieldsOf(schema, 'AppDbAppUsersStreamCursorInput')).toEqual(['initialValue', 'ordering']);
});

test('operators are camelCase by their words, enum values of order_by upper case, select_column values the fields', () => {
  const schema = schemaOf('graphql-default');
  expect(fieldsOf(schema, 'AppDbAppUsersBoolExp')).toEqual(['_and', '_or', '_not', 'id', 'userName']);
  expect(fieldsOf(schema, 'StringComparisonExp')).toEqual(expect.arrayContaining(['_eq', '_isNull', '_nilike', '_in']));
  expect((schema.getType('OrderBy') as GraphQLEnumType).getValues().map((v) => [v.name, v.value])).toContainEqual(['ASC_NULLS_FIRST', 'asc_nulls_first']);
  expect((schema.getType('AppDbAppUsersSelectColumn') as GraphQLEnumType).getValues().map((v) => v.name)).toEqual(['id', 'userName']);
  expect(schema.getType('order_by')).toBeUndefined();
});

test("an enum table's values are named upper case, valued by the rows' text", () => {
  const days = { ...dbTable('week_days', 2, [dbColumn('value', 'text')], ['value']), schema: 'public' };
  const enumDocument = { version: 3, sources: [], tables: [{ table: { schema: 'public', name: 'week_days' }, is_enum: true }] } as unknown as MetadataDocument;
  const values = new Map([
    [
      'public\u0000week_days',
      [
        { value: 'sunday', comment: null },
        { value: 'monday', comment: null },
      ],
    ],
  ]);
  const schema = buildSchema(buildModels(enumDocument, introspectionOf([days], [days]), values, 'graphql-default')).schema;
  expect((schema.getType('WeekDaysEnum') as GraphQLEnumType).getValues().map((v) => [v.name, v.value])).toEqual([
    ['MONDAY', 'monday'],
    ['SUNDAY', 'sunday'],
  ]);
});

test('under hasura-default the same table keeps the default names', () => {
  const schema = schemaOf('hasura-default');
  expect(argsOf(schema.getQueryType(), 'app_db_app_users')).toEqual(['distinct_on', 'limit', 'offset', 'order_by', 'where']);
  expect(fieldsOf(schema, 'app_db_app_users_mutation_response')).toEqual(['affected_rows', 'returning']);
  expect(fieldsOf(schema, 'String_comparison_exp')).toContain('_is_null');
  expect((schema.getType('order_by') as GraphQLEnumType).getValues().map((v) => v.name)).toContain('asc_nulls_first');
});
