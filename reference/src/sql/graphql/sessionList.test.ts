import { argumentColumn } from '../../schema/functions';
import { CompileError } from './context';
import type { TableModel } from '../../schema/model';
import { effectiveLimit, parseList, resolveList, resolveValue } from './permissions';

test('PostgreSQL array literals: plain, quoted (with commas, braces and escapes), NULL, empty', () => {
  expect(parseList('{1,2,3}')).toEqual(['1', '2', '3']);
  expect(parseList('{ 1 , 2 }')).toEqual(['1', '2']);
  expect(parseList('{}')).toEqual([]);
  expect(parseList('{"a b","c,d",e}')).toEqual(['a b', 'c,d', 'e']);
  expect(parseList('{"say \\"hi\\"","x}"}')).toEqual(['say "hi"', 'x}']);
  expect(parseList('{NULL,1,null}')).toEqual([null, '1', null]);
});

test('JSON arrays of scalars', () => {
  expect(parseList('[1,2,3]')).toEqual([1, 2, 3]);
  expect(parseList('["a", null, true]')).toEqual(['a', null, true]);
  expect(parseList('[]')).toEqual([]);
});

test('anything else is not a list', () => {
  for (const text of ['1,2', '{1,,2}', '{"unterminated}', '[{"a":1}]', '[[1]]', '[1,', '{1,2', '1', '', '{a{b}'])
    expect([text, parseList(text)]).toEqual([text, undefined]);
});

test('spaces inside the braces alone make an empty list; text after the closing element is no list', () => {
  expect(parseList('{ }')).toEqual([]);
  expect(parseList('{1 }')).toEqual(['1']);
  expect(parseList('{"a" b}')).toEqual(undefined);
  expect(parseList('{a,"b"c}')).toEqual(undefined);
});

test('as in PostgreSQL, a comma at the end is an empty element, and a literal starts with its brace', () => {
  for (const text of ['{1,}', '{"a",}', '{,}', '1}', 'x{1}', ' {1}', '{1', '{']) expect([text, parseList(text)]).toEqual([text, undefined]);
});

/** A column of a built-in type (the checks read only its type). */
const column = (type: string) => argumentColumn('c', 1, type, 'pg_catalog');
const environment = (sessionVariables: Record<string, string>) => ({ allModels: new Map(), sessionVariables });
const failure = (f: () => unknown) => {
  try {
    f();
    return undefined;
  } catch (e) {
    return e instanceof CompileError ? { message: e.message, code: e.code } : e;
  }
};

test('a session variable is read as its column: integers of any width, signed and padded (as a JWT claim may carry them), text as it is', () => {
  const env = environment({ 'x-engine-id': ' -30 ', 'x-engine-big': '12x', 'x-engine-name': 'abc' });
  for (const type of ['int2', 'int4', 'int8']) expect(resolveValue(env, 'X-Engine-Id', column(type))).toBe(' -30 ');
  for (const type of ['int2', 'int4', 'int8']) {
    expect(failure(() => resolveValue(env, 'x-engine-big', column(type)))).toEqual({ message: 'X-Engine-Big should be an integer', code: 'invalid-headers' });
  }
  expect(resolveValue(env, 'x-engine-name', column('text'))).toBe('abc');
  // A value that merely contains the prefix is a literal, not a session variable.
  expect(resolveValue(env, 'my-x-engine-id', column('text'))).toBe('my-x-engine-id');
  expect(failure(() => resolveValue(env, 'x-engine-missing', column('text')))).toEqual({
    message: 'missing header : x-engine-missing',
    code: 'invalid-headers',
  });
});

test('a session list is checked element by element against an integer column; NULL fits any column', () => {
  const env = environment({
    'x-engine-ok': ' {-3, 12, NULL} ',
    'x-engine-json': '[1, -2, null]',
    'x-engine-tail': '{1x}',
    'x-engine-head': '{x1}',
    'x-engine-words': '{a,b}',
  });
  expect(resolveList(env, 'x-engine-ok', column('int8'))).toEqual(['-3', '12', null]);
  expect(resolveList(env, 'x-engine-json', column('int2'))).toEqual([1, -2, null]);
  const malformed: [string, string][] = [
    ['x-engine-tail', 'X-Engine-Tail'],
    ['x-engine-head', 'X-Engine-Head'],
    ['x-engine-words', 'X-Engine-Words'],
  ];
  for (const [name, header] of malformed) {
    expect([name, failure(() => resolveList(env, name, column('int4')))]).toEqual([
      name,
      { message: `${header} should be a list of integers`, code: 'invalid-headers' },
    ]);
  }
  expect(resolveList(env, 'x-engine-words', column('text'))).toEqual(['a', 'b']);
  // JSON strings are integers when PostgreSQL would read them so, spaces around included.
  expect(resolveList(environment({ 'x-engine-padded': '[" 7 ", "-1"]' }), 'x-engine-padded', column('int4'))).toEqual([' 7 ', '-1']);
});

const model = (permissions: TableModel['permissions']) => ({ permissions }) as TableModel;

test("a role's limit caps the requested one; admin (no permissions) and a role without a cap take the request", () => {
  const capped = model({ select: { filter: {}, limit: 3 } });
  expect([effectiveLimit(capped, 10), effectiveLimit(capped, 2), effectiveLimit(capped, null), effectiveLimit(capped, undefined)]).toEqual([3, 2, 3, 3]);
  const uncapped = model({ select: { filter: {} } });
  expect([effectiveLimit(uncapped, 10), effectiveLimit(uncapped, null)]).toEqual([10, undefined]);
  expect([effectiveLimit(model(undefined), 4), effectiveLimit(model(undefined), undefined)]).toEqual([4, undefined]);
});
