// The engine's reasons a table cannot be an enum (decision err.constraint-violation.enum-table):
// every one of them, in its order and words, with PostgreSQL's own names of the types.
import type { DbColumn, DbTable } from '../db/introspection';
import { dbColumn, dbTable } from '../../test-support/introspectionRows';
import { enumFindings, enumReasons, enumReasonsText, enumValuesProblem } from './enumTable';

const column = dbColumn;
const table = (columns: DbColumn[], key: string[] | undefined): DbTable => dbTable('t', 1, columns, key);

test('a text key and a text comment: no reason; their rows are read from the key and the comment', () => {
  expect(enumFindings(table([column('value', 'text'), column('note', 'varchar')], ['value']))).toEqual({
    reasons: [],
    valueColumn: 'value',
    commentColumn: 'note',
  });
});

test("a key of another type is named by PostgreSQL's name of it, and every column then counts besides the key", () => {
  expect(enumFindings(table([column('id', 'int8'), column('at', 'timestamptz')], ['id']))).toEqual({
    reasons: [
      'the table’s primary key ("id") must have type "text", not type "bigint"',
      'the table must have exactly one primary key and optionally one comment column, not 2 columns (at, id)',
    ],
    valueColumn: undefined,
    commentColumn: undefined,
  });
  expect(enumFindings(table([column('id', 'uuid')], ['id'])).reasons).toEqual([
    'the table’s primary key ("id") must have type "text", not type "uuid"',
    'the table’s comment column ("id") must have type "text", not type "uuid"',
  ]);
});

test('no key, a key of two columns, a comment of another type', () => {
  expect(enumFindings(table([column('value', 'text')], undefined)).reasons).toEqual(['the table must have a primary key']);
  expect(enumFindings(table([column('b', 'text'), column('a', 'text')], ['b', 'a'])).reasons).toEqual([
    'the table’s primary key must not span multiple columns (a, b)',
    'the table must have exactly one primary key and optionally one comment column, not 2 columns (a, b)',
  ]);
  expect(enumFindings(table([column('value', 'text'), column('rank', 'float8')], ['value']))).toEqual({
    reasons: ['the table’s comment column ("rank") must have type "text", not type "double precision"'],
    valueColumn: 'value',
    commentColumn: undefined,
  });
});

test("the rows' reasons come after the columns', and only when the key can hold values", () => {
  const commentless = enumFindings(table([column('value', 'text'), column('rank', 'int2')], ['value']));
  expect(enumReasons(commentless, [])).toEqual([
    'the table’s comment column ("rank") must have type "text", not type "smallint"',
    'the table must have at least one row',
  ]);
  expect(enumReasons(enumFindings(table([column('id', 'int4')], ['id'])), undefined)).toHaveLength(2);
  expect(enumReasons(enumFindings(table([column('value', 'text')], ['value'])), ['A', 'b_2'])).toEqual([]);
});

test('bad values sorted: one and two quoted, of three or more only the last', () => {
  expect(enumValuesProblem(['ok', 'not ok'])).toBe('the value "not ok" is not a valid GraphQL enum value name');
  expect(enumValuesProblem(['z z', 'null'])).toBe('the values "null" and "z z" are not valid GraphQL enum value names');
  expect(enumValuesProblem(['x y', 'true', '1a', 'false'])).toBe('the values 1a, false, true, and "x y" are not valid GraphQL enum value names');
  expect(enumValuesProblem([])).toBe('the table must have at least one row');
});

test('one reason follows "because"; several are a list, a line each', () => {
  expect(enumReasonsText(['the table must have a primary key'])).toBe('because the table must have a primary key');
  expect(enumReasonsText(['one', 'two'])).toBe('for the following reasons:\n  • one\n  • two\n');
});
