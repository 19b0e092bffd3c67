// A run leaves the target as it found it: against a real server whose metadata and database are in
// use, the state is read, the run refused without --allow-clear, and after what the cases do the
// metadata is back and only the cases' objects are gone.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { Client } from 'pg';
import { loadConfig } from '../../reference/src/config';
import { createLogger } from '../../reference/src/log';
import { startServer, type RunningServer } from '../../reference/src/server';
import { createDatabase, dropDatabase } from '../harness/database';
import { CLUSTER_URL_VARIABLE } from '../harness/environment';
import { startMockServer } from '../harness/mockServer';
import { metadataContents, readTargetState, refusalOf, restoreTarget, SUITE_SCHEMAS, type TargetConnection, type TargetState } from './targetState';

const headers = { 'x-engine-admin-secret': 'state-secret' };
let database: { name: string; url: string };
let server: RunningServer;
let db: Client;
let connection: TargetConnection;

const metadata = async (body: unknown) => {
  const r = await fetch(`${server.url}/v1/metadata`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { ...headers, 'content-type': 'application/json' },
  });
  return { status: r.status, body: (await r.json()) as unknown };
};
const rows = async (text: string) => (await db.query(text)).rows as Record<string, unknown>[];

beforeAll(async () => {
  database = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: 'state-secret' });
  server = await startServer(config, database.url, createLogger('silent'));
  db = new Client({ connectionString: database.url });
  await db.connect();
  connection = { target: server.url, database: database.url, headers };
});
afterAll(async () => {
  await db.end();
  await server.close();
  await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, database.name);
});

describe('what a target holds', () => {
  test('an empty document holds nothing; each kind is counted in the user’s words', () => {
    expect(metadataContents({ version: 3, sources: [{ name: 'default', kind: 'postgres', tables: [], configuration: {} }] })).toEqual([]);
    expect(metadataContents({ version: 2, tables: [] })).toEqual([]);
    expect(
      metadataContents({
        version: 3,
        sources: [{ name: 'default', tables: [{}, {}], functions: [{}] }],
        remote_schemas: [{}],
        actions: [{}, {}],
        custom_types: { objects: [{}], enums: [], scalars: [{}, {}] },
        query_collections: [{}],
        allowlist: [{}],
        rest_endpoints: [{}, {}, {}],
        cron_triggers: [{}],
        inherited_roles: [],
      }),
    ).toEqual([
      '2 tables',
      '1 function',
      '1 remote schema',
      '2 actions',
      '1 query collection',
      '1 allow-list entry',
      '3 REST endpoints',
      '1 cron trigger',
      '3 custom types',
    ]);
    expect(metadataContents({ version: 2, tables: [{}] })).toEqual(['1 table']);
  });

  test('an empty target is not refused; one in use is, with the reasons in one line', () => {
    const kept = { schemas: [], extensions: [], relations: [], functions: [], types: [] };
    expect(refusalOf({ metadata: { version: 2, tables: [] }, kept, clashing: [] })).toBeUndefined();
    expect(refusalOf({ metadata: { version: 2, tables: [{}] }, kept, clashing: ['music', 'shop'] })).toBe(
      'the target is in use: its metadata is not empty (1 table); its database has schemas the cases replace (music, shop). ' +
        'The cases clear the metadata and replace those schemas while they run; the metadata is restored afterwards, the schemas are not. ' +
        'Give --allow-clear to run anyway',
    );
    expect(refusalOf({ metadata: { version: 2, tables: [] }, kept, clashing: ['blog'] })).toBe(
      'the target is in use: its database has schemas the cases replace (blog). ' +
        'The cases clear the metadata and replace those schemas while they run; the metadata is restored afterwards, the schemas are not. ' +
        'Give --allow-clear to run anyway',
    );
  });

  test('every schema a fixture or case creates is one the run knows it replaces', () => {
    const root = join(__dirname, '..', '..');
    const texts = [
      ...readdirSync(join(root, 'fixtures', 'sql')).map((f) => readFileSync(join(root, 'fixtures', 'sql', f), 'utf8')),
      ...readdirSync(join(root, 'conformance', 'cases')).map((f) => readFileSync(join(root, 'conformance', 'cases', f), 'utf8')),
    ];
    const created = new Set(texts.flatMap((t) => [...t.matchAll(/create schema (?:if not exists )?([a-z_0-9]+)/gi)].map((m) => m[1]!.toLowerCase())));
    expect([...created].filter((s) => !SUITE_SCHEMAS.includes(s))).toEqual([]);
  });
});

describe('a run leaves the target as it found it', () => {
  let before: TargetState;
  const NOTES = { schema: 'keepme', name: 'notes' };

  test('the state before: the metadata as exported, and the suite schemas already there', async () => {
    await db.query(`
      create schema keepme;
      create table keepme.notes (id int primary key, body text);
      insert into keepme.notes values (1, 'mine'), (2, 'also mine');
      create table public.mine (id int primary key);
      insert into public.mine values (7);
      create function public.my_fn() returns int language sql as 'select 7';
      create schema music;
      create table music.user_table (id int primary key);`);
    const tracked = await metadata({
      type: 'bulk',
      args: [
        { type: 'track_table', args: { table: NOTES } },
        { type: 'create_select_permission', args: { table: NOTES, role: 'user', permission: { columns: ['id'], filter: { id: { _eq: 1 } } } } },
        { type: 'track_table', args: { table: { schema: 'public', name: 'mine' } } },
      ],
    });
    expect(tracked.status).toBe(200);
    before = await readTargetState(connection);
    expect(before.clashing).toEqual(['music']);
    expect(metadataContents(before.metadata)).toEqual(['2 tables']);
    expect(refusalOf(before)).toBe(
      'the target is in use: its metadata is not empty (2 tables); its database has schemas the cases replace (music). ' +
        'The cases clear the metadata and replace those schemas while they run; the metadata is restored afterwards, the schemas are not. ' +
        'Give --allow-clear to run anyway',
    );
  });

  test('after what the cases do, the metadata is back and only what they made is gone', async () => {
    expect((await metadata({ type: 'clear_metadata', args: {} })).status).toBe(200);
    await db.query(`
      drop schema if exists music cascade;
      create schema music;
      create table music.artist (id int primary key);
      create schema evt;
      create table evt.log (id int);
      create table public.csrf_probe (id int primary key);
      create view public.probe_view as select id from public.csrf_probe;
      create function public.fn_x(a int) returns int language sql as 'select a';
      create type public.mood as enum ('sad', 'happy');
      create domain public.positive as int check (value > 0);
      create extension if not exists citext;
      create table public.uses_citext (c citext);`);
    const suiteMetadata = await metadata({
      type: 'bulk',
      args: [
        { type: 'track_table', args: { table: { schema: 'music', name: 'artist' } } },
        { type: 'track_table', args: { table: { schema: 'public', name: 'csrf_probe' } } },
      ],
    });
    expect(suiteMetadata.status).toBe(200);

    expect(await restoreTarget(connection, before)).toBe(
      "the target is as it was found: its metadata (2 tables) restored, the objects the cases made dropped, its catalog's logs as they were (0 rows of the run removed, 0 put back)",
    );

    const exported = (await metadata({ type: 'export_metadata', args: {} })).body as { tables: unknown[] };
    expect(exported.tables).toEqual([
      {
        table: { schema: 'keepme', name: 'notes' },
        select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: { id: { _eq: 1 } } } }],
      },
      { table: { schema: 'public', name: 'mine' } },
    ]);
    expect(exported).toEqual(before.metadata);
    expect(await rows(`select nspname from pg_namespace where nspname in ('keepme', 'music', 'evt') order by 1`)).toEqual([{ nspname: 'keepme' }]);
    expect(await rows(`select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'v') order by 1`)).toEqual([
      { relname: 'mine' },
    ]);
    expect(await rows(`select proname from pg_proc where pronamespace = 'public'::regnamespace order by 1`)).toEqual([{ proname: 'my_fn' }]);
    expect(await rows(`select typname from pg_type where typnamespace = 'public'::regnamespace and typtype in ('e', 'd') order by 1`)).toEqual([]);
    expect(await rows(`select extname from pg_extension where extname = 'citext'`)).toEqual([]);
    expect(await rows('select id, body from keepme.notes order by id')).toEqual([
      { id: 1, body: 'mine' },
      { id: 2, body: 'also mine' },
    ]);
    expect(await rows('select id from public.mine')).toEqual([{ id: 7 }]);
    // The restored metadata is served: the role's permission works again.
    const answer = await fetch(`${server.url}/v1/graphql`, {
      method: 'POST',
      body: JSON.stringify({ query: '{ keepme_notes { id } }' }),
      headers: { ...headers, 'x-engine-role': 'user', 'content-type': 'application/json' },
    });
    expect(await answer.json()).toEqual({ data: { keepme_notes: [{ id: 1 }] } });
  });

  test('a metadata that no longer fits the database is restored as far as it can be, and said so', async () => {
    const state = await readTargetState(connection);
    await db.query('drop table public.mine');
    expect(await restoreTarget(connection, state)).toBe(
      'the target\'s metadata (2 tables) is restored, but 1 of its objects is inconsistent now: no such table/view exists in postgres : "mine"',
    );
  });
});

test('an engine whose metadata comes back different after the restore is said to, with where the old one is', async () => {
  const exports = [
    { version: 2, tables: [{ table: { schema: 'public', name: 'kept' } }] },
    { version: 2, tables: [] },
  ];
  const engine = await startMockServer([
    http.post('*/v1/metadata', async ({ request }) => {
      const { type } = (await request.json()) as { type: string };
      if (type === 'export_metadata') return HttpResponse.json(exports.shift() ?? { version: 2, tables: [] });
      if (type === 'get_inconsistent_metadata') return HttpResponse.json([]);
      return HttpResponse.json({ message: 'success' });
    }),
  ]);
  try {
    const mocked = { target: engine.url, database: database.url, headers };
    const state = await readTargetState(mocked);
    expect(metadataContents(state.metadata)).toEqual(['1 table']);
    expect(await restoreTarget(mocked, state)).toBe(
      "the target's metadata differs from what it was before the run (1 table); the metadata from before is in the report directory",
    );
    expect(engine.requests.map((r) => (r.body as { type: string }).type)).toEqual([
      'export_metadata',
      'clear_metadata',
      'reload_metadata',
      'replace_metadata',
      'export_metadata',
    ]);
    expect(engine.requests[3]!.body).toEqual({
      type: 'replace_metadata',
      version: 2,
      args: { allow_inconsistent_metadata: true, metadata: { version: 2, tables: [{ table: { schema: 'public', name: 'kept' } }] } },
    });
  } finally {
    await engine.close();
  }
});
