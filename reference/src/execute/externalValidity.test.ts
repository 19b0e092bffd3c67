// Which remote schemas and actions are left out so that every schema is valid
// (dec.schema.always-valid, dec.remote-schema.valid-schema): the builds are stand-ins that know what
// they were built with, and a rule of the test says what is wrong with them.
import type { Action, MetadataDocument, RemoteSchema } from '../../../spec';
import type { UsableRemote } from '../remote/view';
import type { SchemaCache } from './schemaCache';
import { firstSchemaError } from './schemaValidity';
import { servableExternals, type Externals } from './externalValidity';

jest.mock('./schemaValidity', () => ({ firstSchemaError: jest.fn() }));

/** What is wrong with a build made with these remotes (by name) and with the actions or without: its first error. */
let rule: (remotes: string[], withActions: boolean) => string | undefined;
let built: string[];

beforeEach(() => {
  built = [];
  jest.mocked(firstSchemaError).mockImplementation((cache) => {
    const { remotes, withActions } = (cache as unknown as { externals: Externals }).externals;
    return rule(
      remotes.map((r) => r.endpoint.name),
      withActions,
    );
  });
});

const remote = (name: string): RemoteSchema => ({
  name,
  definition: { url: `http://127.0.0.1:1/${name}`, forward_client_headers: false, timeout_seconds: 60 },
});
const usable = (name: string) => ({ endpoint: { name } }) as unknown as UsableRemote;
const action = { name: 'pay', definition: { handler: 'http://127.0.0.1:1/pay', kind: 'synchronous', type: 'mutation', arguments: [] } } as unknown as Action;
const documentOf = (remotes: string[], actions: Action[] = []): MetadataDocument => ({
  version: 2,
  tables: [],
  remote_schemas: remotes.map(remote),
  ...(actions.length ? { actions } : {}),
});
const build = (externals: Externals) => {
  built.push(`${externals.remotes.map((r) => r.endpoint.name).join('+') || 'none'}${externals.withActions ? ' with actions' : ''}`);
  return { externals } as unknown as SchemaCache;
};
const serve = (remotes: string[], withActions: boolean, actions: Action[] = []) => {
  const result = servableExternals(documentOf(remotes, actions), { remotes: remotes.map(usable), withActions }, build);
  return { remotes: result.remotes.map((r) => r.endpoint.name), withActions: result.withActions, problems: result.problems };
};
const unusable = (name: string, message: string) => ({
  type: 'remote_schema',
  reason: `the remote schema "${name}" cannot be used: ${message}`,
  definition: remote(name),
});

test('every schema valid: everything served, from one build', () => {
  rule = () => undefined;
  expect(serve(['a', 'b'], true, [action])).toEqual({ remotes: ['a', 'b'], withActions: true, problems: [] });
  expect(built).toEqual(['a+b with actions']);
});

test('the newest remote whose removal changes the error is left out first', () => {
  rule = (remotes) => (remotes.includes('a') && remotes.includes('b') ? 'a and b clash' : undefined);
  expect(serve(['a', 'b', 'c'], false)).toEqual({ remotes: ['a', 'c'], withActions: false, problems: [unusable('b', 'a and b clash')] });
  expect(built).toEqual(['a+b+c', 'a+b', 'a+c', 'a+c']);
});

test('one broken remote after another, each named with its own error', () => {
  rule = (remotes) => {
    const broken = remotes.find((r) => r === 'a' || r === 'b');
    return broken && `${broken} is broken`;
  };
  expect(serve(['a', 'b'], false)).toEqual({ remotes: [], withActions: false, problems: [unusable('a', 'a is broken'), unusable('b', 'b is broken')] });
});

test('the actions, when no remote is to blame: left out as the first action', () => {
  rule = (_remotes, withActions) => (withActions ? 'an action type clashes' : undefined);
  const second = { ...action, name: 'refund' } as Action;
  expect(serve(['a'], true, [action, second])).toEqual({
    remotes: ['a'],
    withActions: false,
    problems: [{ type: 'action', reason: 'the GraphQL schema would not be valid: an action type clashes', definition: action }],
  });
});

test('remotes are tried before the actions', () => {
  rule = (remotes, withActions) => (remotes.includes('a') && withActions ? 'a clashes with an action' : undefined);
  expect(serve(['a'], true, [action]).problems).toEqual([unusable('a', 'a clashes with an action')]);
});

test('actions are no candidate when they are not served, or when the document has none', () => {
  rule = () => 'wrong whatever is left out';
  expect(serve(['a'], false, [action])).toEqual({ remotes: ['a'], withActions: false, problems: [] });
  expect(built).toEqual(['a', 'none']);
  built = [];
  expect(serve([], true)).toEqual({ remotes: [], withActions: true, problems: [] });
  expect(built).toEqual(['none with actions']);
});
