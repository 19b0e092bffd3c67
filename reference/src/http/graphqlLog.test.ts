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
  // An anonymous query beside a named one: two operations, no name to pick.
  ['{ a } query B { b }', undefined, 'graphql:query'],
  ['query A { a { b { c } } } { d }', undefined, 'graphql:query'],
  ['{ a } query B { b } query C { c }', undefined, 'graphql:query'],
  ['query A { a } query B { b } query C { c }', 'C', 'graphql:C'],
  // Fields named like operation kinds are not operations.
  ['query Q { query mutation { subscription } }', undefined, 'graphql:Q'],
  ['subscription S($v: Int = 1) @live { a(v: $v) }', undefined, 'graphql:S'],
  // A document that goes bad after its operation names none.
  ['query Q { a } "', undefined, 'graphql:query'],
  // An empty operationName is no name.
  ['query Q { a }', '', 'graphql:Q'],
])('%s (operationName %s) is logged as %s', (query, operationName, label) => {
  expect(graphqlOperationLabel({ query, ...(operationName !== undefined ? { operationName } : {}) })).toBe(label);
});

test('a request without a query is logged as a query', () => {
  expect(graphqlOperationLabel({})).toBe('graphql:query');
  expect(graphqlOperationLabel({ query: 42 as unknown as string })).toBe('graphql:query');
});

test('the errors of an answer: message and code; none for an answer without', () => {
  expect(graphqlErrorsOf('{"data":{"a":1}}')).toBeUndefined();
  // A text that is not JSON (cut short) has no errors to log, and logging it never throws.
  expect(graphqlErrorsOf('{"errors":[{"message"')).toBeUndefined();
  expect(graphqlErrorsOf('{"data":{"a":"\\"errors\\":["}}')).toBeUndefined();
  expect(graphqlErrorsOf('{"errors":[{"message":"m","extensions":{"path":"$","code":"c"}},{"message":"n"}]}')).toEqual([
    { message: 'm', code: 'c' },
    { message: 'n', code: undefined },
  ]);
});
