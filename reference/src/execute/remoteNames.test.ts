// A customized remote's names in the request sent on and in the answer's __typename values.
import { buildSchema, Kind, parse, print, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { customizedRemote, type CustomizedRemote } from '../remote/customization';
import { toRemoteNames, typenamesFromRemote } from './remoteNames';

const upstream = buildSchema(`
  type Query { a: A, list: [[A]] }
  type A { id: Int, b: B, next: A }
  type B { id: Int }
  input In { id: Int }
`);
const names = customizedRemote(upstream, {
  type_names: { mapping: { A: 'B', B: 'C', In: 'Input' } },
  field_names: [{ parent_type: 'A', mapping: { b: 'bee', next: 'following' } }],
}) as CustomizedRemote;

/** The answer with __typename values renamed, along the selections of `query`. */
const renamedAnswer = (query: string, data: unknown) => {
  const document = parse(query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  return typenamesFromRemote(data, [operation.selectionSet], fragments, names.typeFromRemote);
};

test('the customization renames types both ways, a chain of mappings included', () => {
  expect([...names.typeFromRemote]).toEqual([
    ['A', 'B'],
    ['B', 'C'],
    ['In', 'Input'],
  ]);
});

test('fields renamed under renamed fields, types in variables, fragments and inline fragments: all sent in the remote names', () => {
  const sent = toRemoteNames(
    parse('query Q($i: Input) { a { following { bee { id } } ... on B { x: bee { id } } ...F } } fragment F on B { following { id } }'),
    names,
  );
  expect(print(sent)).toBe(
    'query Q($i: In) {\n  a {\n    following: next {\n      bee: b {\n        id\n      }\n    }\n    ... on A {\n      x: b {\n        id\n      }\n    }\n    ...F\n  }\n}\n\nfragment F on A {\n  following: next {\n    id\n  }\n}',
  );
});

test('__typename values are renamed once wherever they are asked: aliased, in fragments, inline fragments, lists of lists', () => {
  const query = '{ a { t: __typename ...F ... on A { next { __typename } } } list { __typename } } fragment F on A { __typename next { id } }';
  expect(
    renamedAnswer(query, {
      a: { t: 'A', __typename: 'A', next: { __typename: 'A', id: 1 } },
      list: [[{ __typename: 'A' }, null], null, [{ __typename: 'B' }]],
    }),
  ).toEqual({
    a: { t: 'B', __typename: 'B', next: { __typename: 'B', id: 1 } },
    list: [[{ __typename: 'B' }, null], null, [{ __typename: 'C' }]],
  });
});

test('what was not asked, or did not come, is left as it is; a fragment spread inside itself is walked once', () => {
  expect(renamedAnswer('{ a { id __typename } }', { a: { id: 'A', __typename: 'Unknown', extra: { __typename: 'A' } } })).toEqual({
    a: { id: 'A', __typename: 'Unknown', extra: { __typename: 'A' } },
  });
  expect(renamedAnswer('{ a { __typename next { id } } }', { a: null })).toEqual({ a: null });
  expect(renamedAnswer('{ a { next { __typename } } }', { a: { next: 'A' } })).toEqual({ a: { next: 'A' } });
  expect(renamedAnswer('{ a { ...R } } fragment R on A { __typename ...R }', { a: { __typename: 'A' } })).toEqual({ a: { __typename: 'B' } });
  expect(renamedAnswer('{ a { id } }', 'A')).toBe('A');
});
