import { getOperationAST, Kind, parse, type FragmentDefinitionNode } from 'graphql';
import { RateCounter, rateKey } from './rateCounter';
import { measureOperation } from './roleLimits';

const measure = (text: string) => {
  const document = parse(text);
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  return measureOperation(getOperationAST(document)!, fragments);
};

test('depth counts the levels of fields, nodes the fields with a selection set; introspection fields count for neither', () => {
  expect(measure('{ a }')).toEqual({ depth: 1, nodes: 0 });
  expect(measure('{ a { b { c } d } e { f } }')).toEqual({ depth: 3, nodes: 3 });
  expect(measure('{ a { __typename } __schema { types { name } } }')).toEqual({ depth: 1, nodes: 1 });
  // Fragments count where they are spread, each time.
  expect(measure('{ a { ...f } b { ...f } } fragment f on T { c { d } }')).toEqual({ depth: 3, nodes: 4 });
  expect(measure('{ a { ... on T { b { c } } } }')).toEqual({ depth: 3, nodes: 2 });
});

test('a rate counter admits max requests of a key in any minute', () => {
  const counter = new RateCounter();
  expect([0, 1, 2].map((t) => counter.admit('k', 2, t))).toEqual([true, true, false]);
  expect(counter.admit('other', 2, 2)).toBe(true);
  expect(counter.admit('k', 2, 60_000)).toBe(true);
  expect(counter.admit('k', 2, 60_001)).toBe(true);
  expect(counter.admit('k', 2, 60_002)).toBe(false);
});

test('clients silent for a minute are forgotten', () => {
  const counter = new RateCounter();
  counter.admit('a', 1, 100_000);
  counter.admit('b', 1, 130_000);
  expect(counter.size).toBe(2);
  counter.admit('c', 1, 170_001);
  expect(counter.size).toBe(2);
  expect(counter.admit('a', 1, 170_002)).toBe(true);
});

test('a rate key is the role, with the address or the named session variables', () => {
  const session = { role: 'user', variables: { 'x-engine-user-id': '7' } };
  expect(rateKey({ max_reqs_per_min: 1 }, session, '::1')).toBe('["user"]');
  expect(rateKey({ max_reqs_per_min: 1, unique_params: 'IP' }, session, '::1')).toBe('["user","::1"]');
  expect(rateKey({ max_reqs_per_min: 1, unique_params: ['X-Engine-User-Id', 'x-engine-org'] }, session, '::1')).toBe('["user","7",null]');
});
