// What a metadata request's change sets off beyond its own writes (commitEffects.ts).
import type { MetadataDocument } from '../../../spec';
import { effectsOf, needsRemotes } from './commitEffects';

const authors = { table: { schema: 'public', name: 'authors' } };
const weather = { name: 'weather', definition: { url: 'http://127.0.0.1:4000/graphql', forward_client_headers: false, timeout_seconds: 60 } };
const toWeather = {
  name: 'forecast',
  definition: { to_remote_schema: { remote_schema: 'weather', lhs_fields: ['city'], remote_field: { forecast: { arguments: {} } } } },
};
const second = (tables: unknown[]) => ({ name: 'second', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://second' } }, tables });
const documentOf = (parts: Record<string, unknown>) => ({ version: 2, tables: [authors], ...parts }) as unknown as MetadataDocument;

describe('needsRemotes: whether a changed document has its remotes loaded before it commits', () => {
  test('a document with nothing remote does not', () => {
    expect(needsRemotes(documentOf({}))).toBe(false);
    expect(needsRemotes(documentOf({ remote_schemas: [], actions: [], sources: [second([authors])] }))).toBe(false);
  });

  test('a remote schema does', () => {
    expect(needsRemotes(documentOf({ remote_schemas: [weather] }))).toBe(true);
  });

  test('an action does, with no remote schema', () => {
    const action = {
      name: 'login',
      definition: { kind: 'synchronous', type: 'mutation', output_type: 'Token', handler: 'http://127.0.0.1:4001', forward_client_headers: false, timeout: 30 },
    };
    expect(needsRemotes(documentOf({ actions: [action] }))).toBe(true);
  });

  test("a remote relationship does, on the default source's tables or on another source's", () => {
    expect(needsRemotes(documentOf({ tables: [{ ...authors, remote_relationships: [toWeather] }] }))).toBe(true);
    expect(needsRemotes(documentOf({ sources: [second([{ ...authors, remote_relationships: [toWeather] }])] }))).toBe(true);
  });
});

describe('effectsOf: what a committed request sets off', () => {
  const nothing = { documentChanged: false, databaseChanged: false, remotesChanged: false, resourceVersion: 7, servedVersion: 7 };

  test('a request that changed nothing on the version served sets off nothing', () => {
    expect(effectsOf(nothing)).toEqual({ notify: false, rebuild: false });
  });

  test('a changed document is told to the other servers and rebuilt', () => {
    expect(effectsOf({ ...nothing, documentChanged: true, resourceVersion: 8 })).toEqual({ notify: true, rebuild: true });
  });

  test('a database changed (or re-read) alone is told and rebuilt too, on the same resource version', () => {
    expect(effectsOf({ ...nothing, databaseChanged: true })).toEqual({ notify: true, rebuild: true });
  });

  test('a version stored by another server, not yet served here, is rebuilt but not told again', () => {
    expect(effectsOf({ ...nothing, resourceVersion: 9 })).toEqual({ notify: false, rebuild: true });
    expect(effectsOf({ ...nothing, servedVersion: undefined })).toEqual({ notify: false, rebuild: true });
  });

  test('a remote schema introspected again is rebuilt but not told', () => {
    expect(effectsOf({ ...nothing, remotesChanged: true })).toEqual({ notify: false, rebuild: true });
  });
});
