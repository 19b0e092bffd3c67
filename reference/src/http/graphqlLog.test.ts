// How the log names a GraphQL operation, and which errors of an answer it keeps.
import { graphqlErrorsOf, graphqlOperationLabel, graphqlRequestDetail } from './graphqlLog';

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

test('the fast path writes the detail of its request line as the JSON text of the app line’s members, in their order', () => {
  expect(graphqlRequestDetail('id-1', '/v1/graphql', 200, 1.25, 'user', 'graphql:Q', undefined)).toBe(
    '{"request_id":"id-1","method":"POST","url":"/v1/graphql","status":200,"duration_ms":1.25,"role":"user","operation":"graphql:Q"}',
  );
  // No role (the session failed), errors kept; what the client chose is escaped.
  expect(graphqlRequestDetail('a"b\\c', '/v1/graphql?x="1"', 401, 0.5, undefined, 'graphql:Q"\n', [{ message: 'bad "one"', code: 'invalid-jwt' }])).toBe(
    '{"request_id":"a\\"b\\\\c","method":"POST","url":"/v1/graphql?x=\\"1\\"","status":401,"duration_ms":0.5,"operation":"graphql:Q\\"\\n","errors":[{"message":"bad \\"one\\"","code":"invalid-jwt"}]}',
  );
  // A message the answer lacks is left out, as JSON leaves out what is undefined.
  expect(graphqlRequestDetail('i', '/v1/graphql', 200, 2, 'admin', 'graphql:query', [{ message: undefined, code: 'x' }])).toBe(
    '{"request_id":"i","method":"POST","url":"/v1/graphql","status":200,"duration_ms":2,"role":"admin","operation":"graphql:query","errors":[{"code":"x"}]}',
  );
});
