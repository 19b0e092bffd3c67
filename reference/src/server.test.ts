import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createDatabase, dropDatabase } from '../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../conformance/harness/environment';
import { loadConfig } from './config';
import { createLogger } from './log';
import { startServer, type RunningServer } from './server';
import { graphQLServer, useMockServer } from '../../conformance/harness/mockServer';
import { http, HttpResponse } from 'msw';
import { Client } from 'pg';
import { buildSchema, introspectionFromSchema } from 'graphql';
import * as sql from 'pg-sql2';

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1' });
let database: { name: string; url: string };
const remote = useMockServer();
const servers: RunningServer[] = [];

/** Rename a database of the cluster (its connections ended first). */
async function renameDatabase(from: string, to: string): Promise<void> {
  const client = new Client({ connectionString: cluster() });
  await client.connect();
  try {
    await client.query(sql.compile(sql.query`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${sql.value(from)}`));
    await client.query(sql.compile(sql.query`alter database ${sql.identifier(from)} rename to ${sql.identifier(to)}`));
  } finally {
    await client.end();
  }
}

const start = async () => {
  const server = await startServer(config, database.url, createLogger('silent'));
  servers.push(server);
  return server;
};
const post = async (server: RunningServer, body: unknown, endpoint = '/v1/metadata') => {
  const r = await fetch(server.url + endpoint, { method: 'POST', body: JSON.stringify(body), headers: { 'x-engine-role': 'admin' } });
  return { status: r.status, body: await r.json() };
};

beforeEach(async () => {
  database = await createDatabase(cluster());
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await dropDatabase(cluster(), database.name);
});

describe('reference server', () => {
  test('metadata survives a restart [rule.metadata.persisted]', async () => {
    const first = await start();
    await post(first, { type: 'run_sql', args: { sql: 'create table kept (id int primary key)' } }, '/v2/query');
    expect(await post(first, { type: 'replace_metadata', args: { version: 2, tables: [{ table: 'kept' }] } })).toEqual({
      status: 200,
      body: { message: 'success' },
    });
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await start();
    expect(await post(second, { type: 'export_metadata', args: {} })).toEqual({
      status: 200,
      body: { version: 2, tables: [{ table: { schema: 'public', name: 'kept' } }] },
    });
  });

  test("two servers on one database see each other's changes", async () => {
    const [a, b] = [await start(), await start()];
    await post(a, { type: 'run_sql', args: { sql: 'create table shared (id int)' } }, '/v2/query');
    await post(a, { type: 'replace_metadata', args: { version: 2, tables: [{ table: 'shared' }] } });
    expect((await post(b, { type: 'export_metadata', args: {} })).body).toEqual({ version: 2, tables: [{ table: { schema: 'public', name: 'shared' } }] });
  });

  test("a server answers GraphQL from another server's change without a metadata request of its own", async () => {
    const [a, b] = [await start(), await start()];
    const graphql = async (server: RunningServer, query: string) => {
      const r = await fetch(`${server.url}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query }), headers: { 'x-engine-role': 'admin' } });
      return (await r.json()) as { data?: unknown; errors?: unknown };
    };
    expect((await graphql(b, '{ pet { id } }')).data).toBeUndefined();
    await post(a, { type: 'run_sql', args: { sql: 'create table pet (id int primary key, name text); insert into pet values (1, $$Rex$$)' } }, '/v2/query');
    await post(a, { type: 'track_table', args: { table: 'pet' } });
    await waitFor(async () => JSON.stringify(await graphql(b, '{ pet { id name } }')) === '{"data":{"pet":[{"id":1,"name":"Rex"}]}}');
    // run_sql on one server that changes a tracked table is seen by the other too.
    await post(a, { type: 'run_sql', args: { sql: 'alter table pet add column age int; update pet set age = 3' } }, '/v2/query');
    await post(a, { type: 'reload_metadata', args: {} });
    await waitFor(async () => JSON.stringify(await graphql(b, '{ pet { age } }')) === '{"data":{"pet":[{"age":3}]}}');
  });

  test('a metadata kind the server does not implement yet is refused, nothing changed [err.not-supported.not-implemented]', async () => {
    const server = await start();
    const document = (logical_models: unknown[]) => ({ version: 3, sources: [{ name: 'default', kind: 'postgres', tables: [], logical_models }] });
    expect(await post(server, { type: 'replace_metadata', args: document([{ name: 'm' }]) })).toEqual({
      status: 400,
      body: {
        path: '$.args.sources[0].logical_models',
        error: 'logical_models is not supported by this server yet',
        code: 'not-supported',
      },
    });
    expect(await post(server, { type: 'export_metadata', args: {} })).toEqual({ status: 200, body: { version: 2, tables: [] } });
    expect(await post(server, { type: 'replace_metadata', args: document([]) })).toEqual({ status: 200, body: { message: 'success' } });
  });

  test('a source that does not answer at start-up is an inconsistent object; the server starts and serves the rest, and the source again after reload [dec.source.forms]', async () => {
    const other = await createDatabase(cluster());
    try {
      const first = await start();
      await post(first, { type: 'run_sql', args: { sql: 'create table kept (id int primary key); insert into kept values (7)' } }, '/v2/query');
      expect((await post(first, { type: 'track_table', args: { table: 'kept' } })).status).toBe(200);
      const configuration = { connection_info: { database_url: other.url } };
      expect((await post(first, { type: 'pg_add_source', args: { name: 'other', configuration } })).status).toBe(200);
      const made = await post(
        first,
        { type: 'run_sql', args: { source: 'other', sql: 'create table far (id int primary key); insert into far values (8)' } },
        '/v2/query',
      );
      expect(made.status).toBe(200);
      expect((await post(first, { type: 'pg_track_table', args: { source: 'other', table: 'far' } })).status).toBe(200);
      expect(await post(first, { query: '{ kept { id } far { id } }' }, '/v1/graphql')).toEqual({
        status: 200,
        body: { data: { kept: [{ id: 7 }], far: [{ id: 8 }] } },
      });
      await first.close();
      servers.splice(servers.indexOf(first), 1);
      // The source's database is renamed away while no server runs.
      await renameDatabase(other.name, `${other.name}_away`);
      const second = await start();
      expect(await post(second, { query: '{ kept { id } }' }, '/v1/graphql')).toEqual({ status: 200, body: { data: { kept: [{ id: 7 }] } } });
      const inconsistent = await post(second, { type: 'get_inconsistent_metadata', args: {} });
      expect(inconsistent.body).toEqual([
        { type: 'source', name: 'source other', definition: 'other', reason: 'Inconsistent object: connection error', message: expect.any(String) },
      ]);
      await renameDatabase(`${other.name}_away`, other.name);
      expect(await post(second, { type: 'reload_metadata', args: {} })).toEqual({ status: 200, body: { message: 'success', is_consistent: true } });
      expect(await post(second, { query: '{ kept { id } far { id } }' }, '/v1/graphql')).toEqual({
        status: 200,
        body: { data: { kept: [{ id: 7 }], far: [{ id: 8 }] } },
      });
    } finally {
      await dropDatabase(cluster(), `${other.name}_away`);
      await dropDatabase(cluster(), other.name);
    }
  });

  test('a remote schema that does not answer at start-up is an inconsistent object; the server starts and serves the rest [dec.remote-schema.defaults]', async () => {
    const first = await start();
    remote.use(graphQLServer('/r', 'type Query { hello: String }', { hello: () => 'hi' }));
    await post(first, { type: 'run_sql', args: { sql: 'create table kept (id int primary key); insert into kept values (7)' } }, '/v2/query');
    expect((await post(first, { type: 'track_table', args: { table: 'kept' } })).status).toBe(200);
    const definition = { url: `${remote.url}/r`, forward_client_headers: false, timeout_seconds: 2 };
    expect(await post(first, { type: 'add_remote_schema', args: { name: 'r', definition } })).toEqual({ status: 200, body: { message: 'success' } });
    expect(await post(first, { query: '{ hello kept { id } }' }, '/v1/graphql')).toEqual({ status: 200, body: { data: { hello: 'hi', kept: [{ id: 7 }] } } });
    await first.close();
    servers.splice(0);
    // The remote now answers with a failure; a new server starts anyway.
    remote.use(http.post('/r', () => new HttpResponse('down', { status: 502 })));
    const second = await start();
    expect(await post(second, { type: 'get_inconsistent_metadata', args: {} })).toEqual({
      status: 200,
      body: [
        {
          type: 'remote_schema',
          name: 'remote_schema r',
          reason: 'Inconsistent object: the remote schema "r" cannot be used: it answered 502 with a body that is not JSON',
          definition: { name: 'r', definition },
        },
      ],
    });
    expect(await post(second, { query: '{ kept { id } }' }, '/v1/graphql')).toEqual({ status: 200, body: { data: { kept: [{ id: 7 }] } } });
    // Back up: reloading the remote schemas serves it again.
    remote.use(graphQLServer('/r', 'type Query { hello: String }', { hello: () => 'again' }));
    expect(await post(second, { type: 'reload_metadata', args: { reload_remote_schemas: true } })).toEqual({
      status: 200,
      body: { message: 'success', is_consistent: true },
    });
    expect(await post(second, { query: '{ hello }' }, '/v1/graphql')).toEqual({ status: 200, body: { data: { hello: 'again' } } });
  });

  test('a remote schema whose schema became invalid is an inconsistent object at start-up; every schema is served [dec.remote-schema.valid-schema]', async () => {
    const sdl = (droid: string) => `type Query { hero: Character } interface Character { id: ID! } type Droid implements Character { ${droid} }`;
    remote.use(graphQLServer('/sw', sdl('id: ID!'), { hero: () => null }));
    const first = await start();
    const definition = { url: `${remote.url}/sw`, forward_client_headers: false, timeout_seconds: 2 };
    expect(await post(first, { type: 'add_remote_schema', args: { name: 'sw', definition } })).toEqual({ status: 200, body: { message: 'success' } });
    await first.close();
    servers.splice(0);
    // The remote now describes a droid without its interface's id.
    const data = introspectionFromSchema(buildSchema(sdl('name: String'), { assumeValid: true }));
    remote.use(http.post('/sw', () => HttpResponse.json({ data })));
    const second = await start();
    expect(await post(second, { type: 'get_inconsistent_metadata', args: {} })).toEqual({
      status: 200,
      body: [
        {
          type: 'remote_schema',
          name: 'remote_schema sw',
          reason: "Inconsistent object: Interface field 'Character'.\"id\" expected, but 'Droid' does not provide it",
          definition: { name: 'sw', definition },
        },
      ],
    });
    expect(await post(second, { query: '{ __typename }' }, '/v1/graphql')).toEqual({ status: 200, body: { data: { __typename: 'query_root' } } });
  });

  test('a catalog migrated by a newer server stops metadata changes [err.not-supported.catalog-version]', async () => {
    const server = await start();
    await post(server, { type: 'run_sql', args: { sql: "update engine_catalog.engine_version set version = '42'" } }, '/v2/query');
    expect(await post(server, { type: 'clear_metadata', args: {} })).toEqual({
      status: 400,
      body: { path: '$', error: 'unsupported version : 42', code: 'not-supported' },
    });
  });
});

describe('live queries', () => {
  test('subscriptions of one document share one poller, whatever the values of variables compared with columns; it stops with its last subscriber', async () => {
    const server = await start();
    await post(
      server,
      { type: 'run_sql', args: { sql: 'create table note (id int primary key, body text); insert into note values (1, $$a$$)' } },
      '/v2/query',
    );
    await post(server, { type: 'track_table', args: { table: 'note' } });
    const client = createClient({ url: `${server.url.replace('http', 'ws')}/v1/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const firstResult = (query: string, variables: Record<string, unknown>) => {
      let stop = () => {};
      const first = new Promise((resolve, reject) => {
        stop = client.subscribe({ query, variables }, { next: resolve, error: reject, complete: () => {} });
      });
      return { first, stop: () => stop() };
    };
    const query = 'subscription ($id: Int!) { note(where: {id: {_eq: $id}}) { body } }';
    const subscriptions = [firstResult(query, { id: 1 }), firstResult(query, { id: 1 }), firstResult(query, { id: 2 })];
    expect(await Promise.all(subscriptions.map((s) => s.first))).toEqual([
      { data: { note: [{ body: 'a' }] } },
      { data: { note: [{ body: 'a' }] } },
      { data: { note: [] } },
    ]);
    // One statement for both values: the variable is read from each subscriber's row of a cohort.
    expect(server.livePollers()).toBe(1);
    // The same root field under another alias is another plan: its answer is keyed otherwise.
    const named = firstResult('subscription ($id: Int!) { kind: note(where: {id: {_eq: $id}}) { body } }', { id: 1 });
    const renamed = firstResult('subscription ($id: Int!) { sort: note(where: {id: {_eq: $id}}) { body } }', { id: 1 });
    expect(await Promise.all([named.first, renamed.first])).toEqual([{ data: { kind: [{ body: 'a' }] } }, { data: { sort: [{ body: 'a' }] } }]);
    expect(server.livePollers()).toBe(3);
    named.stop();
    renamed.stop();
    await waitFor(() => server.livePollers() === 1);
    subscriptions[0]!.stop();
    subscriptions[2]!.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.livePollers()).toBe(1);
    subscriptions[1]!.stop();
    await waitFor(() => server.livePollers() === 0);
    await client.dispose();
  });
});

describe('live queries across sessions', () => {
  test('subscriptions whose statements are alike share a poller whoever asks; so do those whose permission reads a session variable (a cohort); a session list parts them, and they join again', async () => {
    const server = await start();
    await post(
      server,
      { type: 'run_sql', args: { sql: 'create table board (id int primary key, body text); insert into board values (1, $$one$$), (2, $$two$$)' } },
      '/v2/query',
    );
    await post(server, { type: 'track_table', args: { table: 'board' } });
    const permission = (filter: Record<string, unknown>) =>
      post(server, {
        type: 'bulk',
        args: [
          { type: 'drop_select_permission', args: { table: 'board', role: 'reader' } },
          { type: 'create_select_permission', args: { table: 'board', role: 'reader', permission: { columns: ['id', 'body'], filter } } },
        ],
      });
    await post(server, { type: 'create_select_permission', args: { table: 'board', role: 'reader', permission: { columns: ['id', 'body'], filter: {} } } });
    const reader = (id: number) => {
      const client = createClient({
        url: `${server.url.replace('http', 'ws')}/v1/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { headers: { 'x-engine-role': 'reader', 'x-engine-user-id': String(id), 'x-engine-ids': `{${id}}` } },
      });
      const results: unknown[] = [];
      client.subscribe(
        { query: 'subscription { board(order_by: {id: asc}) { id } }' },
        { next: (r) => results.push(r.data), error: () => {}, complete: () => {} },
      );
      return { client, results };
    };
    const ids = (rows: unknown) => (rows as { board: { id: number }[] }).board.map((r) => r.id);
    const [one, two] = [reader(1), reader(2)];
    await waitFor(() => one.results.length === 1 && two.results.length === 1);
    expect([ids(one.results[0]), ids(two.results[0])]).toEqual([
      [1, 2],
      [1, 2],
    ]);
    // The permission reads no session variable: one statement serves both sessions.
    expect(server.livePollers()).toBe(1);
    // Now it reads X-Engine-User-Id: each session gets its own rows, from one poller whose statement
    // takes both sessions.
    expect((await permission({ id: { _eq: 'X-Engine-User-Id' } })).status).toBe(200);
    await waitFor(() => one.results.length === 2 && two.results.length === 2);
    expect([ids(one.results[1]), ids(two.results[1])]).toEqual([[1], [2]]);
    expect(server.livePollers()).toBe(1);
    // A list in a session variable is bound as its values: sessions whose lists differ have a poller each.
    expect((await permission({ id: { _in: 'X-Engine-Ids' } })).status).toBe(200);
    await post(server, { type: 'run_sql', args: { sql: 'update board set body = $$changed$$' } }, '/v2/query');
    await waitFor(() => server.livePollers() === 2);
    expect([ids(one.results.at(-1)), ids(two.results.at(-1))]).toEqual([[1], [2]]);
    // And back: they share again.
    const seen = [one.results.length, two.results.length];
    expect((await permission({})).status).toBe(200);
    await waitFor(() => one.results.length === seen[0]! + 1 && two.results.length === seen[1]! + 1);
    expect([ids(one.results.at(-1)), ids(two.results.at(-1))]).toEqual([
      [1, 2],
      [1, 2],
    ]);
    await waitFor(() => server.livePollers() === 1);
    await Promise.all([one.client.dispose(), two.client.dispose()]);
    await waitFor(() => server.livePollers() === 0);
  });

  test('a computed field with a session argument gets each session: sessions that differ keep a poller each, also under a permission that reads the session', async () => {
    const server = await start();
    await post(
      server,
      {
        type: 'run_sql',
        args: {
          sql: `create table note (id int primary key); insert into note values (1), (2);
                create function note_viewer(n note, engine_session json) returns text language sql stable as $$ select engine_session ->> 'x-engine-user-id' $$`,
        },
      },
      '/v2/query',
    );
    await post(server, { type: 'track_table', args: { table: 'note' } });
    await post(server, {
      type: 'add_computed_field',
      args: { table: 'note', name: 'viewer', definition: { function: 'note_viewer', session_argument: 'engine_session' } },
    });
    await post(server, {
      type: 'create_select_permission',
      args: { table: 'note', role: 'reader', permission: { columns: ['id'], computed_fields: ['viewer'], filter: { id: { _gte: 'X-Engine-User-Id' } } } },
    });
    const subscribe = (id: number) => readerSubscription(server, id, 'subscription { note { id viewer } }');
    const [one, two] = [subscribe(1), subscribe(2)];
    await waitFor(() => one.results.length === 1 && two.results.length === 1);
    expect([one.results[0], two.results[0]]).toEqual([
      {
        data: {
          note: [
            { id: 1, viewer: '1' },
            { id: 2, viewer: '1' },
          ],
        },
      },
      { data: { note: [{ id: 2, viewer: '2' }] } },
    ]);
    expect(server.livePollers()).toBe(2);
    await post(server, { type: 'run_sql', args: { sql: 'insert into note values (3)' } }, '/v2/query');
    await waitFor(() => one.results.length === 2 && two.results.length === 2);
    expect([one.results[1], two.results[1]]).toEqual([
      {
        data: {
          note: [
            { id: 1, viewer: '1' },
            { id: 2, viewer: '1' },
            { id: 3, viewer: '1' },
          ],
        },
      },
      {
        data: {
          note: [
            { id: 2, viewer: '2' },
            { id: 3, viewer: '2' },
          ],
        },
      },
    ]);
    await Promise.all([one.client.dispose(), two.client.dispose()]);
    await waitFor(() => server.livePollers() === 0);
  });

  test('two documents under a permission that reads the session: a cohort each, each session its own rows of its own document; a failed statement ends its cohort', async () => {
    const server = await start();
    await post(
      server,
      {
        type: 'run_sql',
        args: {
          sql: 'create table share (id int primary key, parts int not null); insert into share values (1, 2), (2, 5); create view portion as select id, 10 / parts as size from share',
        },
      },
      '/v2/query',
    );
    await post(server, { type: 'track_table', args: { table: 'portion' } });
    await post(server, {
      type: 'create_select_permission',
      args: { table: 'portion', role: 'reader', permission: { columns: ['id', 'size'], filter: { id: { _eq: 'X-Engine-User-Id' } } } },
    });
    const subscribe = (id: number, query: string) => readerSubscription(server, id, query);
    const sizes = 'subscription { portion { id size } }';
    const ids = 'subscription { portion { id } }';
    // The last one shares its session with the first: one row of the cohort serves both.
    const all = [subscribe(1, sizes), subscribe(2, sizes), subscribe(1, ids), subscribe(2, ids), subscribe(1, sizes)];
    await waitFor(() => all.every((s) => s.results.length === 1));
    expect(all.map((s) => s.results[0])).toEqual([
      { data: { portion: [{ id: 1, size: 5 }] } },
      { data: { portion: [{ id: 2, size: 2 }] } },
      { data: { portion: [{ id: 1 }] } },
      { data: { portion: [{ id: 2 }] } },
      { data: { portion: [{ id: 1, size: 5 }] } },
    ]);
    expect(server.livePollers()).toBe(2);
    // Session 2's size now divides by zero: the one statement of the sizes' cohort fails, for both
    // sessions; the other document does not read the size and goes on.
    await post(server, { type: 'run_sql', args: { sql: 'update share set parts = 0 where id = 2' } }, '/v2/query');
    await waitFor(() => all[0]!.completed() && all[1]!.completed() && all[4]!.completed());
    const failed = { errors: [{ message: 'division by zero', extensions: { path: '$', code: 'data-exception' } }] };
    expect(all.map((s) => [s.results.slice(1), s.completed()])).toEqual([
      [[failed], true],
      [[failed], true],
      [[], false],
      [[], false],
      [[failed], true],
    ]);
    await waitFor(() => server.livePollers() === 1);
    await post(server, { type: 'run_sql', args: { sql: 'insert into share values (3, 1); delete from share where id = 1' } }, '/v2/query');
    await waitFor(() => all[2]!.results.length === 2);
    expect([all[2]!.results[1], all[3]!.results.length]).toEqual([{ data: { portion: [] } }, 1]);
    await Promise.all(all.map((s) => s.client.dispose()));
    await waitFor(() => server.livePollers() === 0);
  });
});

/** A subscription of role `reader` with X-Engine-User-Id `id`, on a connection of its own: what it was sent, and whether it completed. */
function readerSubscription(server: RunningServer, id: number, query: string) {
  const client = createClient({
    url: `${server.url.replace('http', 'ws')}/v1/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { headers: { 'x-engine-role': 'reader', 'x-engine-user-id': String(id) } },
  });
  const results: unknown[] = [];
  let completed = false;
  client.subscribe({ query }, { next: (r) => results.push(r), error: () => {}, complete: () => (completed = true) });
  return { client, results, completed: () => completed };
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
