import { parseList } from './permissions';

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
