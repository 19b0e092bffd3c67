// What one GraphQL request may ask for: JSON nesting, the document's size and bracket nesting
// (read with graphql-js's lexer), and each operation's depth, field count and fragment chains.
import { parse } from 'graphql';
import type { RequestLimits } from '../config';
import { documentNesting, documentProblem, nestsDeeperThan, operationProblem } from './operationLimits';

const LIMITS: RequestLimits = {
  maxJsonDepth: 4,
  maxDocumentBytes: 64,
  maxQueryDepth: 3,
  maxQueryFields: 5,
  maxAdminQueryDepth: 4,
  maxAdminQueryFields: 7,
  maxQueryCost: 0,
  maxBulkOperations: 10,
} as RequestLimits;

test('JSON nesting: arrays and objects count, scalars and null do not, any depth without recursion', () => {
  expect(nestsDeeperThan(1, 0)).toBe(false);
  expect(nestsDeeperThan(null, 0)).toBe(false);
  expect(nestsDeeperThan({}, 1)).toBe(false);
  expect(nestsDeeperThan({}, 0)).toBe(true);
  expect(nestsDeeperThan({ a: [1, { b: null }] }, 3)).toBe(false);
  expect(nestsDeeperThan({ a: [1, { b: null }] }, 2)).toBe(true);
  expect(nestsDeeperThan([[], [[[]]]], 3)).toBe(true);
  expect(nestsDeeperThan([[], [[[]]]], 4)).toBe(false);
  expect(nestsDeeperThan({ a: 'x', b: 2, c: [true] }, 2)).toBe(false);
  let deep: unknown = 0;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  expect(nestsDeeperThan(deep, 100_000)).toBe(false);
  expect(nestsDeeperThan(deep, 99_999)).toBe(true);
});

test('document nesting by tokens: brackets in strings, block strings and comments do not count', () => {
  expect(documentNesting('{ a }')).toBe(1);
  expect(documentNesting('{ a(x: [{y: 1}]) { b } }')).toBe(4);
  expect(documentNesting('{ a } { b { c } }')).toBe(2);
  expect(documentNesting('{ a(x: 1) b(y: 1) c(z: 1) }')).toBe(2);
  expect(documentNesting('{ a(x: [1], y: [2], z: [3]) }')).toBe(3);
  expect(documentNesting('{ a(s: "{{{[[[(((") }')).toBe(2);
  expect(documentNesting('{ a(s: """{{{ \\""" [[[""") }')).toBe(2);
  expect(documentNesting('# {{{{\n{ a }')).toBe(1);
  expect(documentNesting('')).toBe(0);
  // Unbalanced or refused text: measured as far as the lexer reads.
  expect(documentNesting('{{{ a')).toBe(3);
  expect(documentNesting('{{ "unterminated {{{{')).toBe(2);
  expect(documentNesting('}}} {')).toBe(0);
});

test('a document too large (in UTF-8 bytes) or too deep, for any role', () => {
  expect(documentProblem('{ a }', LIMITS)).toBeUndefined();
  expect(documentProblem(`{ a(s: "${'x'.repeat(52)}") }`, LIMITS)).toBeUndefined();
  expect(documentProblem(`{ a(s: "${'x'.repeat(53)}") }`, LIMITS)).toBe('the query is larger than 64 bytes');
  expect(documentProblem(`{ a(s: "${'ä'.repeat(27)}") }`, LIMITS)).toBe('the query is larger than 64 bytes');
  expect(documentProblem('{ a(x: [{y: 1}]) }', LIMITS)).toBeUndefined();
  expect(documentProblem('{ a(x: [[{y: 1}]]) }', LIMITS)).toBe('the query nests deeper than 4 levels');
});

const problem = (text: string, bounded = true) => operationProblem(parse(text), LIMITS, bounded);

test('operation depth and fields, against a role’s limits and admin’s', () => {
  expect(problem('{ a { b { c } } }')).toBeUndefined();
  expect(problem('{ a { b { c { d } } } }')).toBe('the query selects 4 levels deep; at most 3 are allowed');
  expect(problem('{ a { b { c { d } } } }', false)).toBeUndefined();
  expect(problem('{ a { b { c { d { e } } } } }', false)).toBe('the query selects 5 levels deep; at most 4 are allowed');
  expect(problem('{ a b c d e }')).toBeUndefined();
  expect(problem('{ a b c d e f }')).toBe('the query selects 6 fields; at most 5 are allowed');
  expect(problem('{ a b c d e f }', false)).toBeUndefined();
  expect(problem('{ a b c d e f g h }', false)).toBe('the query selects 8 fields; at most 7 are allowed');
  // Nested fields count, inline fragments add no level, and each operation is measured alone.
  expect(problem('{ a { b c } d { e } }')).toBeUndefined();
  expect(problem('{ a { b c } d { e f } }')).toBe('the query selects 6 fields; at most 5 are allowed');
  expect(problem('{ ... on Q { a { ... on A { b { c } } } } }')).toBeUndefined();
  expect(problem('query x { a b c } query y { d e f }')).toBeUndefined();
  expect(problem('query x { a b c } query y { d e f g h i }')).toBe('the query selects 6 fields; at most 5 are allowed');
});

test('fragments count at every spread; chains of fragments and cycles', () => {
  expect(problem('{ ...F ...F } fragment F on Q { a b }')).toBeUndefined();
  expect(problem('{ ...F ...F ...F } fragment F on Q { a b }')).toBe('the query selects 6 fields; at most 5 are allowed');
  expect(problem('{ a { ...F } } fragment F on A { b { c } }')).toBeUndefined();
  expect(problem('{ a { ...F } } fragment F on A { b { c { d } } }')).toBe('the query selects 4 levels deep; at most 3 are allowed');
  // A chain of four fragments spreading fragments is as deep as the limit allows; five are not.
  const chain = (n: number) => `{ ...F1 } ${Array.from({ length: n }, (_, i) => `fragment F${i + 1} on Q { ${i + 1 < n ? `...F${i + 2}` : 'a'} }`).join(' ')}`;
  expect(problem(chain(4))).toBeUndefined();
  expect(problem(chain(5))).toBe('the query nests deeper than 4 levels');
  expect(problem(chain(5), false)).toBe('the query nests deeper than 4 levels');
  // A cycle counts as nothing here (validation refuses it); an unknown fragment too.
  expect(problem('{ ...A } fragment A on Q { a ...B } fragment B on Q { b ...A }')).toBeUndefined();
  expect(problem('{ ...Missing a }')).toBeUndefined();
  // A cycle does not hide the fields beside it; a fragment nobody spreads is not measured.
  expect(problem('{ ...A b c d e f } fragment A on Q { a ...A }')).toBe('the query selects 6 fields; at most 5 are allowed');
  expect(problem('{ a } fragment F on Q { a b c d e f }')).toBeUndefined();
  // A chain far past the limit stops being measured there (no deep recursion).
  expect(problem(chain(20_000))).toBe('the query nests deeper than 4 levels');
  // A fragment measured once is reused with its measure.
  expect(problem('{ x: a { ...F } y: a { ...F } } fragment F on A { b c }')).toBe('the query selects 6 fields; at most 5 are allowed');
});

test('each fragment is measured once: spreads that double at every level take no time', () => {
  const n = 40;
  const fragments = Array.from({ length: n }, (_, i) => `fragment F${i} on Q { ${i + 1 < n ? `...F${i + 1} ...F${i + 1}` : 'a'} }`).join(' ');
  expect(operationProblem(parse(`{ ...F0 } ${fragments}`), { ...LIMITS, maxJsonDepth: 64 }, true)).toBe(
    'the query selects 549755813888 fields; at most 5 are allowed',
  );
});
