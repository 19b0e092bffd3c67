// Which remote schemas of a document can be served and why the others cannot, on a store that
// answers as told (no remote server).
import { buildSchema, type GraphQLSchema } from 'graphql';
import type { MetadataDocument, RemoteSchema } from '../../../spec';
import type { RemoteEndpoint } from './client';
import type { RemoteSchemaStore, RemoteState } from './store';
import { remoteView } from './view';

const endpointOf = (name: string): RemoteEndpoint => ({
  name,
  url: `http://${name}.test/graphql`,
  shown: `http://${name}.test/graphql`,
  headers: {},
  forwardClientHeaders: false,
  timeoutMs: 1000,
});
/** A store whose states are these, by name (a schema's SDL, or a problem); one missing: never introspected. */
const storeOf = (states: Record<string, string | { problem: string }>) => {
  const asked: unknown[] = [];
  const store = {
    state: (remote: RemoteSchema, allowlist: unknown) => {
      asked.push([remote.name, allowlist]);
      const s = states[remote.name];
      if (s === undefined) return undefined;
      return (
        typeof s === 'string'
          ? { key: remote.name, endpoint: endpointOf(remote.name), schema: buildSchema(s), loadedAt: 0 }
          : { key: remote.name, ...s, loadedAt: 0 }
      ) as RemoteState;
    },
  } as unknown as RemoteSchemaStore;
  return { store, asked };
};
const remote = (name: string, parts: Record<string, unknown> = {}) =>
  ({ name, definition: { url: `http://${name}.test/graphql`, forward_client_headers: false, timeout_seconds: 1 }, ...parts }) as unknown as RemoteSchema;
const documentOf = (parts: Record<string, unknown>) => ({ version: 2, tables: [], ...parts }) as unknown as MetadataDocument;
const local = buildSchema('type Query { item: Item } type Item { id: Int }');
let built = 0;
const own = (): GraphQLSchema => (built++, local);
const reasons = (view: ReturnType<typeof remoteView>) => view.problems.map((p) => [p.object.type, p.object.reason, p.error.message]);

test('without remotes or actions: nothing usable, the local schema not built, remote relationships reported', () => {
  built = 0;
  const document = documentOf({
    tables: [
      {
        table: { schema: 'public', name: 'item' },
        remote_relationships: [
          { name: 'r', definition: { to_remote_schema: { remote_schema: 'gone', lhs_fields: [], remote_field: { a: { arguments: {} } } } } },
        ],
      },
    ],
  });
  const view = remoteView(document, own, storeOf({}).store);
  expect([view.usable, view.actionsUsable, built]).toEqual([[], false, 0]);
  expect(view.problems.map((p) => p.error.message)).toEqual([
    'remote relationship "r" of table "item" cannot be served: the remote schema "gone" does not exist',
  ]);
});

test('a remote not introspected, one that failed, one whose customization gives no valid schema: each a problem; the others usable', () => {
  const { store, asked } = storeOf({
    failed: { problem: 'it did not answer within 1 s' },
    bad: 'type Query { b: B } type B { x: Int }',
    good: 'type Query { g: Int }',
  });
  const document = documentOf({
    remote_schemas: [
      remote('never'),
      remote('failed'),
      remote('bad', { definition: { ...remote('bad').definition, customization: { type_names: { prefix: '__' } } } }),
      remote('good'),
    ],
    network: { tls_allowlist: [{ host: 'good.test' }] },
  });
  const view = remoteView(document, own, store);
  expect(reasons(view)).toEqual([
    [
      'remote_schema',
      'the remote schema "never" cannot be used: it has not been introspected yet',
      'the remote schema "never" cannot be used: it has not been introspected yet',
    ],
    [
      'remote_schema',
      'the remote schema "failed" cannot be used: it did not answer within 1 s',
      'the remote schema "failed" cannot be used: it did not answer within 1 s',
    ],
    [
      'remote_schema',
      expect.stringMatching(/^its customization does not give a valid schema: /),
      expect.stringMatching(/^Inconsistent object: its customization does not give a valid schema: /),
    ],
  ]);
  expect(view.problems.map((p) => [p.error.id, p.error.path, (p.object as { definition: RemoteSchema }).definition.name])).toEqual([
    ['err.remote-schema-error.unusable', '$.args', 'never'],
    ['err.remote-schema-error.unusable', '$.args', 'failed'],
    ['err.invalid-configuration.remote-schema', '$.args', 'bad'],
  ]);
  expect(view.usable.map((u) => [u.endpoint.name, u.contribution.name, [...u.contribution.query.keys()], 'names' in u, 'roles' in u])).toEqual([
    ['good', 'good', ['g'], false, false],
  ]);
  expect(asked).toEqual(['never', 'failed', 'bad', 'good'].map((n) => [n, [{ host: 'good.test' }]]));
  expect(view.actionsUsable).toBe(false);
});

test("a customized remote keeps its names; one that clashes with the tables' schema or an earlier remote is a conflict", () => {
  const { store } = storeOf({ one: 'type Query { a: Int }', two: 'type Query { a: Int }', three: 'type Query { item: Int }', four: 'type Query { c: Int }' });
  const customized = remote('four', { definition: { ...remote('four').definition, customization: { root_fields_namespace: 'ns4' } } });
  const view = remoteView(documentOf({ remote_schemas: [remote('one'), remote('two'), remote('three'), customized] }), own, store);
  const two = 'the GraphQL name "a" of remote schema "two" conflicts with remote schema "one"';
  const three = 'the GraphQL name "item" of remote schema "three" conflicts with the schema of the tracked tables and functions';
  expect(reasons(view)).toEqual([
    ['remote_schema', two, two],
    ['remote_schema', three, three],
  ]);
  expect(view.problems.map((p) => [p.error.id, p.error.path])).toEqual([
    ['err.remote-schema-conflicts.graphql-name', '$.args'],
    ['err.remote-schema-conflicts.graphql-name', '$.args'],
  ]);
  expect(view.usable.map((u) => [u.contribution.name, u.names?.namespace])).toEqual([
    ['one', undefined],
    ['four', 'ns4'],
  ]);
});

describe('with remote schema permissions', () => {
  const schema = 'type Query { a: Int b: Int }';

  test("each role's part; one that is not part of the remote a problem of its own, the remote usable still", () => {
    const { store } = storeOf({ one: schema });
    const permissions = [
      { role: 'user', definition: { schema: 'type Query { a: Int }' } },
      { role: 'broken', definition: { schema: 'type Query { z: Int }' } },
    ];
    const view = remoteView(documentOf({ remote_schemas: [remote('one', { permissions })] }), own, store, true);
    expect(view.problems.map((p) => [p.object.type, p.error.id, (p.object as { definition: { role: string; remote_schema: string } }).definition])).toEqual([
      ['remote_schema_permission', 'err.validation-failed.remote-schema-permission', { remote_schema: 'one', ...permissions[1] }],
    ]);
    expect(view.problems[0]!.error.message).toBe(view.problems[0]!.object.reason);
    const usable = view.usable[0]!;
    expect([...usable.roles!.keys()]).toEqual(['user']);
    expect([...usable.roles!.get('user')!.contribution.query.keys()]).toEqual(['a']);
    expect([...usable.contribution.query.keys()]).toEqual(['a', 'b']);
  });

  test("an inherited role's part from its parents'; one that cannot be served is left to them", () => {
    const { store } = storeOf({ one: schema });
    const parents = (sdl: string) => [
      { role: 'user', definition: { schema: sdl } },
      { role: 'editor', definition: { schema: sdl } },
    ];
    const documentWith = (sdl: string) =>
      documentOf({ remote_schemas: [remote('one', { permissions: parents(sdl) })], inherited_roles: [{ role_name: 'both', role_set: ['user', 'editor'] }] });
    const view = remoteView(documentWith('type Query { a: Int }'), own, store, true);
    expect(view.problems).toEqual([]);
    expect([...view.usable[0]!.roles!.keys()]).toEqual(['user', 'editor', 'both']);
    expect([...view.usable[0]!.roles!.get('both')!.contribution.query.keys()]).toEqual(['a']);
    const broken = remoteView(documentWith('type Query { z: Int }'), own, store, true);
    expect(broken.problems.map((p) => (p.object as { definition: { role: string } }).definition.role)).toEqual(['user', 'editor']);
    expect([...broken.usable[0]!.roles!.keys()]).toEqual([]);
  });

  test("a customized remote's roles see their part in the customized names", () => {
    const { store } = storeOf({ one: schema });
    const customized = remote('one', {
      definition: { ...remote('one').definition, customization: { root_fields_namespace: 'ns' } },
      permissions: [{ role: 'user', definition: { schema: 'type Query { a: Int }' } }],
    });
    const view = remoteView(documentOf({ remote_schemas: [customized] }), own, store, true);
    const user = view.usable[0]!.roles!.get('user')!;
    expect([[...user.contribution.query.keys()], view.usable[0]!.names?.namespace]).toEqual([['ns'], 'ns']);
  });
});

describe('actions beside remote schemas', () => {
  const custom_types = {
    scalars: [{ name: 'Money' }],
    objects: [
      {
        name: 'Quote',
        fields: [
          { name: 'id', type: 'ID!' },
          { name: 'total', type: 'Money' },
        ],
      },
    ],
  };
  const action = (name: string) => ({
    name,
    definition: { handler: 'http://actions.test', type: 'mutation', kind: 'synchronous', arguments: [], output_type: 'Quote!' },
  });

  test('actions alone: served, their custom scalars made', () => {
    const view = remoteView(documentOf({ custom_types, actions: [action('quote')] }), own, storeOf({}).store);
    expect([view.actionsUsable, view.problems, view.usable]).toEqual([true, [], []]);
  });

  test("actions whose types clash with the tables' schema: an action problem, and a remote may then use the names", () => {
    const clashing = { ...custom_types, objects: [{ name: 'Item', fields: [{ name: 'id', type: 'ID!' }] }] };
    const { store } = storeOf({ one: 'type Query { q: Quote } type Quote { id: ID }' });
    const document = documentOf({
      custom_types: clashing,
      actions: [{ ...action('quote'), definition: { ...action('quote').definition, output_type: 'Item!' } }],
      remote_schemas: [remote('one')],
    });
    const view = remoteView(document, own, store);
    const reason = 'the GraphQL name "Item" of the actions and custom types conflicts with the schema of the tracked tables and functions';
    expect(
      view.problems.map((p) => [
        p.object.type,
        p.object.reason,
        p.error.message,
        p.error.id,
        p.error.path,
        (p.object as { definition: { name: string } }).definition.name,
      ]),
    ).toEqual([['action', reason, reason, 'err.remote-schema-conflicts.graphql-name', '$.args', 'quote']]);
    expect([view.actionsUsable, view.usable.map((u) => u.contribution.name)]).toEqual([false, ['one']]);
  });

  test("a remote whose names the actions' types hold: the remote is the conflict", () => {
    const { store } = storeOf({ one: 'type Query { q: Quote } type Quote { id: ID }' });
    const view = remoteView(documentOf({ custom_types, actions: [action('quote')], remote_schemas: [remote('one')] }), own, store);
    expect(view.problems.map((p) => [p.object.type, p.error.message])).toEqual([
      ['remote_schema', 'the GraphQL name "Quote" of remote schema "one" conflicts with the actions and custom types'],
    ]);
    expect(view.actionsUsable).toBe(true);
  });
});

test("a customized remote's role whose part is not part of the remote: a problem of the permission, at $.args", () => {
  const { store } = storeOf({ one: 'type Query { a: Int }' });
  const customized = remote('one', {
    definition: { ...remote('one').definition, customization: { root_fields_namespace: 'ns' } },
    permissions: [{ role: 'user', definition: { schema: 'type Query { z: Int }' } }],
  });
  const view = remoteView(documentOf({ remote_schemas: [customized] }), own, store, true);
  expect(view.problems.map((p) => [p.object.type, p.error.id, p.error.path])).toEqual([
    ['remote_schema_permission', 'err.validation-failed.remote-schema-permission', '$.args'],
  ]);
  expect([...view.usable[0]!.roles!.keys()]).toEqual([]);
});

test("an action's custom scalar is the actions' name: a remote that defines it is the conflict", () => {
  const { store } = storeOf({ one: 'type Query { m: Money } scalar Money' });
  const custom_types = { scalars: [{ name: 'Money' }], objects: [{ name: 'Quote', fields: [{ name: 'total', type: 'Money' }] }] };
  const quote = { name: 'quote', definition: { handler: 'http://actions.test', type: 'mutation', kind: 'synchronous', arguments: [], output_type: 'Quote!' } };
  const view = remoteView(documentOf({ custom_types, actions: [quote], remote_schemas: [remote('one')] }), own, store);
  expect(view.problems.map((p) => p.error.message)).toEqual(['the GraphQL name "Money" of remote schema "one" conflicts with the actions and custom types']);
});

test('with permissions enabled, a remote without any: usable, no role sees it', () => {
  const { store } = storeOf({ one: 'type Query { a: Int }' });
  const view = remoteView(documentOf({ remote_schemas: [remote('one')] }), own, store, true);
  expect([view.problems, [...view.usable[0]!.roles!.keys()]]).toEqual([[], []]);
});

test("a PostgreSQL type's scalar in an action's output is the actions' name too", () => {
  const { store } = storeOf({ one: 'type Query { u: uuid } scalar uuid' });
  const custom_types = { objects: [{ name: 'Quote', fields: [{ name: 'ref', type: 'uuid' }] }] };
  const quote = { name: 'quote', definition: { handler: 'http://actions.test', type: 'mutation', kind: 'synchronous', arguments: [], output_type: 'Quote!' } };
  const view = remoteView(documentOf({ custom_types, actions: [quote], remote_schemas: [remote('one')] }), own, store);
  expect(view.problems.map((p) => p.error.message)).toEqual(['the GraphQL name "uuid" of remote schema "one" conflicts with the actions and custom types']);
});
