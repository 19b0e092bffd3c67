import type { Action, CustomTypes } from '../../../spec';
import { actionsGraphQL, actionsYaml, joinActionsFiles } from './actionsSdl';

const types: CustomTypes = {
  input_objects: [
    {
      name: 'PriceInput',
      description: 'what to price',
      fields: [
        { name: 'amount', type: 'Int!' },
        { name: 'tags', type: '[String!]', description: 'labels' },
      ],
    },
  ],
  objects: [
    {
      name: 'Quote',
      fields: [
        { name: 'id', type: 'ID!' },
        { name: 'artist_id', type: 'Int' },
      ],
      relationships: [{ name: 'artist', type: 'object', remote_table: { schema: 'music', name: 'artist' }, field_mapping: { artist_id: 'id' } }],
    },
  ],
  scalars: [{ name: 'Money', description: 'cents' }],
  enums: [{ name: 'Currency', values: [{ value: 'EUR' }, { value: 'OLD', description: 'gone', is_deprecated: true }] }],
};
const actions: Action[] = [
  {
    name: 'quote',
    definition: {
      kind: 'synchronous',
      type: 'mutation',
      arguments: [
        { name: 'price', type: 'PriceInput!' },
        { name: 'c', type: 'Currency' },
      ],
      output_type: 'Quote!',
      handler: '{{BASE}}/quote',
      forward_client_headers: true,
      headers: [{ name: 'X-K', value_from_env: 'K' }],
      timeout: 9,
    },
    comment: 'price it',
    permissions: [{ role: 'user' }],
  },
  {
    name: 'rates',
    definition: { kind: 'synchronous', type: 'query', output_type: '[Money!]!', handler: 'http://h/rates', forward_client_headers: false, timeout: 30 },
  },
  {
    name: 'later',
    definition: { kind: 'asynchronous', type: 'mutation', output_type: 'Quote', handler: 'http://h/later', forward_client_headers: false, timeout: 30 },
  },
];

test('actions.graphql is the SDL of the actions and custom types', () => {
  expect(actionsGraphQL(actions, types)).toBe(`type Query {
  rates: [Money!]!
}

type Mutation {
  "price it"
  quote(
    price: PriceInput!
    c: Currency
  ): Quote!
  later: Quote
}

"what to price"
input PriceInput {
  amount: Int!
  "labels"
  tags: [String!]
}

type Quote {
  id: ID!
  artist_id: Int
}

enum Currency {
  EUR
  "gone"
  OLD @deprecated
}

"cents"
scalar Money
`);
});

test('actions.yaml and actions.graphql join back into the same actions and custom types', () => {
  const yaml = actionsYaml(actions, types);
  expect(yaml.custom_types).toEqual({
    enums: [{ name: 'Currency' }],
    input_objects: [{ name: 'PriceInput' }],
    objects: [{ name: 'Quote', relationships: types.objects![0]!.relationships }],
    scalars: [{ name: 'Money' }],
  });
  // As the engine's CLI writes them: the type is the SDL's to say, forward_client_headers only when true, the comment last.
  expect(yaml.actions[0]).toEqual({
    name: 'quote',
    definition: { kind: 'synchronous', handler: '{{BASE}}/quote', forward_client_headers: true, headers: [{ name: 'X-K', value_from_env: 'K' }], timeout: 9 },
    permissions: [{ role: 'user' }],
    comment: 'price it',
  });
  expect(Object.keys(yaml.actions[0]!)).toEqual(['name', 'definition', 'permissions', 'comment']);
  expect(Object.keys(yaml.actions[0]!.definition)).toEqual(['kind', 'handler', 'forward_client_headers', 'headers', 'timeout']);
  expect(yaml.actions[1]).toEqual({ name: 'rates', definition: { kind: 'synchronous', handler: 'http://h/rates', timeout: 30 } });
  expect(joinActionsFiles(yaml, actionsGraphQL(actions, types))).toEqual({ actions, custom_types: types });
  expect(joinActionsFiles({ actions: [], custom_types: { enums: [], input_objects: [], objects: [], scalars: [] } }, '')).toEqual({
    actions: [],
    custom_types: {},
  });
});

test('files that do not fit together are refused with what is wrong', () => {
  const yaml = actionsYaml(actions, types);
  expect(() => joinActionsFiles(yaml, 'type Query {')).toThrow(/^actions.graphql does not parse: Syntax Error/);
  expect(() => joinActionsFiles(yaml, 'type Query { rates: Int }')).toThrow('the action "quote" of actions.yaml has no field in actions.graphql');
  expect(() => joinActionsFiles({ ...yaml, actions: [] }, 'type Query { rates: Int }')).toThrow(
    'actions.graphql has fields that actions.yaml does not define: rates',
  );
  expect(() => joinActionsFiles({ ...yaml, actions: [] }, 'union U = A | B')).toThrow(
    'actions.graphql may hold only type, input, enum and scalar definitions, not UnionTypeDefinition',
  );
});
