import { brandOf, branded, brandedText, serverSettings } from './brand';

test('the Engine brand sends and expects the names as the cases write them', () => {
  const value = { 'x-engine-role': 'user', filter: { id: { _eq: 'X-Engine-User-Id' } } };
  expect(branded(value, 'engine')).toBe(value);
  expect(brandedText('invalid x-engine-admin-secret', 'engine')).toBe('invalid x-engine-admin-secret');
  expect(serverSettings({ ENGINE_GRAPHQL_ADMIN_SECRET: 's' }, 'engine')).toEqual({ ENGINE_GRAPHQL_ADMIN_SECRET: 's' });
});

test('the brand hasura spells every x-engine- name x-hasura-, in its case, in strings and keys, deeply; matchers stay', () => {
  const matcher = expect.any(String);
  expect(
    branded(
      {
        'x-engine-role': 'user',
        'X-Engine-Org-Id': 'X-ENGINE-LABEL',
        list: ["select s ->> 'x-engine-user-id'", 7, null, true],
        nested: Object.assign(Object.create(null) as object, { set: { title: 'X-Engine-User-Name' } }),
        matcher,
        engine_session: 'engine',
      },
      'hasura',
    ),
  ).toEqual({
    'x-hasura-role': 'user',
    'X-Hasura-Org-Id': 'X-HASURA-LABEL',
    list: ["select s ->> 'x-hasura-user-id'", 7, null, true],
    nested: { set: { title: 'X-Hasura-User-Name' } },
    matcher,
    engine_session: 'engine',
  });
});

test('the reference started under the brand hasura: the compatibility setting, and its settings by their HASURA_GRAPHQL_* names', () => {
  expect(serverSettings({ ENGINE_GRAPHQL_ADMIN_SECRET: 's', ENGINE_GRAPHQL_SERVER_PORT: '0', OTHER: 'x' }, 'hasura')).toEqual({
    HASURA_GRAPHQL_ADMIN_SECRET: 's',
    HASURA_GRAPHQL_SERVER_PORT: '0',
    OTHER: 'x',
    ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura',
  });
});

test('ENGINE_BRAND is engine (or empty) or hasura', () => {
  expect([brandOf(undefined), brandOf(''), brandOf('hasura')]).toEqual(['engine', 'engine', 'hasura']);
  expect(() => brandOf('Hasura')).toThrow('ENGINE_BRAND must be engine or hasura, got "Hasura"');
});
