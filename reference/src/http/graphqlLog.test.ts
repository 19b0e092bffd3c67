// How the log names a GraphQL operation, and which errors of an answer it keeps.
import { graphqlErrorsOf, graphqlOperationLabel } from './graphqlLog';

test.each([
  ['{ a }', undefined, 'graphql:query'],
  ['query { a }', undefined, 'graphql:query'],
  ['query Q($v: [Int] = [1]) @cached(ttl: 5) { a(x: {y: 1}) }', undefined, 'graphql:Q'],
  ['mutation M { a }', undefined, 'graphql:M'],
  ['subscription { a }', undefined, 'graphql:subscription'],
  ['fragment F on T { a } query Q { ...F }', undefined, 'graphql:Q'],
  ['query A { a } query B { b }', undefined, 'graphql:query'],
  ['query A { a } query B { b }', 'B', 'graphql:B'],
  ['{ a } { b }', undefined, 'graphql:query'],
  ['query "unterminated', undefined, 'graphql:query'],
  ['# only a comment', undefined, 'graphql:query'],
])('%s (operationName %s) is logged as %s', (query, operationName, label) => {
  expect(graphqlOperationLabel({ query, ...(operationName ? { operationName } : {}) })).toBe(label);
});

test('the errors of an answer: message and code; none for an answer without', () => {
  expect(graphqlErrorsOf('{"data":{"a":1}}')).toBeUndefined();
  expect(graphqlErrorsOf('{"data":{"a":"\\"errors\\":["}}')).toBeUndefined();
  expect(graphqlErrorsOf('{"errors":[{"message":"m","extensions":{"path":"$","code":"c"}},{"message":"n"}]}')).toEqual([
    { message: 'm', code: 'c' },
    { message: 'n', code: undefined },
  ]);
});
