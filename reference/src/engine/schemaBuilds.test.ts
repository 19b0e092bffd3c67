// Building a version's GraphQL schemas is the costliest step of a metadata change (bench/RESULTS.md):
// a change builds them once, checking them and serving them alike, and a request that changes
// neither the metadata nor the database builds none.
import { useDatabase } from '../../../conformance/harness/database';
import { startOwnServer } from '../../../conformance/harness/ownServer';
import { validSchemaCache } from '../execute/schemaValidity';
import type { RunningServer } from '../server';

jest.mock('../execute/schemaValidity', () => {
  const actual = jest.requireActual<typeof import('../execute/schemaValidity')>('../execute/schemaValidity');
  return { ...actual, validSchemaCache: jest.fn(actual.validSchemaCache) };
});
const builds = validSchemaCache as jest.MockedFunction<typeof validSchemaCache>;

const db = useDatabase('all');
let server: RunningServer;

beforeAll(async () => {
  await db.client.query('create table built_a (id int primary key); create table built_b (id int primary key); insert into built_a values (1)');
  server = await startOwnServer(db.url, {});
});
afterAll(async () => {
  await server?.close();
});

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as unknown };
};
const track = (name: string) => post('/v1/metadata', { type: 'pg_track_table', args: { table: { schema: 'public', name } } });
const readA = () => post('/v1/graphql', { query: '{ built_a { id } }' });

test('a change builds the schemas once, for its check and for serving', async () => {
  // The schemas of the version served since the start, built by a first request.
  expect(await post('/v1/graphql', { query: '{ __typename }' })).toEqual({ status: 200, body: { data: { __typename: 'query_root' } } });
  builds.mockClear();
  expect(await track('built_a')).toEqual({ status: 200, body: { message: 'success' } });
  expect(await readA()).toEqual({ status: 200, body: { data: { built_a: [{ id: 1 }] } } });
  expect(builds).toHaveBeenCalledTimes(1);
});

test('a request that changes nothing builds none', async () => {
  expect(await readA()).toEqual({ status: 200, body: { data: { built_a: [{ id: 1 }] } } });
  builds.mockClear();
  const read = await post('/v2/query', { type: 'run_sql', args: { sql: 'select count(*) from built_a', read_only: true } });
  expect(read).toEqual({ status: 200, body: { result_type: 'TuplesOk', result: [['count'], ['1']] } });
  expect(await post('/v1/metadata', { type: 'export_metadata', args: {} })).toMatchObject({ status: 200 });
  expect(await readA()).toEqual({ status: 200, body: { data: { built_a: [{ id: 1 }] } } });
  expect(builds).toHaveBeenCalledTimes(0);
});

test('the next change builds once again', async () => {
  builds.mockClear();
  expect(await track('built_b')).toEqual({ status: 200, body: { message: 'success' } });
  expect(await post('/v1/graphql', { query: '{ built_b { id } }' })).toEqual({ status: 200, body: { data: { built_b: [] } } });
  expect(builds).toHaveBeenCalledTimes(1);
});
