// A source that cannot be connected to (decision dec.source.connection-failure): whatever the
// cause, one answer, never a 5xx, never the URL or whether a host, port or file exists; and values
// of the engine's environment never quoted (decision dec.environment.values-unquoted).
import { createServer, type Server, type Socket } from 'node:net';
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { Client } from 'pg';
import { makeDatabase, makesDatabases, REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { REQUIRES_ADMIN_SECRET, useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const addSource = (name: string, database_url: unknown) => run('pg_add_source', { name, configuration: { connection_info: { database_url } } });
const couldNotConnect = (name: string) => ({
  path: '$.args',
  error: 'Inconsistent object: connection error',
  code: 'invalid-configuration',
  internal: [
    { type: 'source', name: `source ${name}`, definition: name, reason: 'Inconsistent object: connection error', message: 'could not connect to the database' },
  ],
});
/**
 * The variable of the target's environment that holds its admin secret: a value the suite knows and
 * that is no URL. ENGINE_CONFORMANCE_SECRET_VARIABLE names it for a target configured otherwise.
 */
const SECRET_VARIABLE = process.env.ENGINE_CONFORMANCE_SECRET_VARIABLE ?? 'ENGINE_GRAPHQL_ADMIN_SECRET';

/** A loopback port where something that is not PostgreSQL answers: a line of HTTP, then the end. */
let notPostgres: Server;
let notPostgresPort = 0;
const sockets = new Set<Socket>();
beforeAll(async () => {
  notPostgres = createServer((socket) => {
    sockets.add(socket.on('close', () => sockets.delete(socket)));
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  await new Promise<void>((resolve) => notPostgres.listen(0, '127.0.0.1', resolve));
  notPostgresPort = (notPostgres.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => notPostgres.close(resolve));
});
afterEach(async () => {
  await target.reset();
});

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.connection-failure', 'op.pg_add_source', 'err.invalid-configuration.source-connection'],
  'a source URL that cannot be read (an unclosed IPv6 address, a port out of range, a certificate file that is missing or is no certificate) is refused with the one message, never a 5xx',
  async () => {
    const urls = [
      'postgres://engine:pw@[::1/db',
      'postgres://engine:pw@127.0.0.1:99999/db',
      'postgres://engine:pw@127.0.0.1:-1/db',
      'postgres://engine:pw@127.0.0.1:1/db?sslmode=verify-full&sslrootcert=/no/such/directory/root.crt',
      'postgres://engine:pw@127.0.0.1:1/db?sslmode=verify-full&sslrootcert=/etc/hostname',
    ];
    for (const url of urls) expectResponse(await addSource('odd', url), 400, couldNotConnect('odd'));
    expectResponse(
      await run('pg_add_source', {
        name: 'odd',
        configuration: { connection_info: { database_url: { connection_parameters: { host: '127.0.0.1', port: 99999, username: 'u', database: 'd' } } } },
      }),
      400,
      couldNotConnect('odd'),
    );
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.connection-failure', 'op.pg_add_source', 'op.pg_update_source', 'err.invalid-configuration.source-connection'],
  'a closed port, a port where something else answers, an unknown host and a PostgreSQL that refuses the database all answer the same',
  async () => {
    const otherDatabase = new URL(second.url);
    otherDatabase.pathname = '/engine_no_such_database';
    const unreachable = [
      'postgres://engine:pw@127.0.0.1:1/db',
      `postgres://engine:pw@127.0.0.1:${notPostgresPort}/db`,
      'postgres://engine:pw@no-such-host.invalid:5432/db',
      otherDatabase.toString(),
    ];
    for (const url of unreachable) expectResponse(await addSource('lost', url), 400, couldNotConnect('lost'));
    expectResponse(await addSource('kept', second.url), 200, { message: 'success' });
    for (const url of unreachable) {
      expectResponse(await run('pg_update_source', { name: 'kept', configuration: { connection_info: { database_url: url } } }), 400, couldNotConnect('kept'));
    }
    expect(await exported()).toEqual({
      version: 2,
      tables: [],
      sources: [{ name: 'kept', kind: 'postgres', configuration: { connection_info: { database_url: second.url } }, tables: [] }],
    });
  },
);

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['dec.environment.values-unquoted', 'dec.source.connection-failure', 'op.add_remote_schema', 'op.pg_add_source'],
  `a value of the engine's environment that is no URL (${SECRET_VARIABLE}) is named by its variable, never shown`,
  async () => {
    const secret = target.adminSecret!;
    const remote = await run('add_remote_schema', { name: 'env', definition: { url_from_env: SECRET_VARIABLE } });
    expectResponse(remote, 400, {
      path: '$.args',
      error: `the remote schema "env" cannot be used: the environment variable ${SECRET_VARIABLE} (url_from_env) does not hold an http or https URL`,
      code: 'remote-schema-error',
    });
    const template = await run('add_remote_schema', { name: 'tpl', definition: { url: `{{${SECRET_VARIABLE}}}/graphql` } });
    expectResponse(template, 400, {
      path: '$.args',
      error: `the remote schema "tpl" cannot be used: the address made with the environment variable ${SECRET_VARIABLE} is not an http or https URL`,
      code: 'remote-schema-error',
    });
    const source = await addSource('env', { from_env: SECRET_VARIABLE });
    expectResponse(source, 400, couldNotConnect('env'));
    for (const answer of [remote, template, source]) expect(answer.text).not.toContain(secret);
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.connection-failure', 'op.pg_add_source', 'op.pg_update_source'],
  'a read replica that cannot be connected to is refused like the primary, and nothing changes',
  async () => {
    const withReplica = (replica: string) => ({ connection_info: { database_url: second.url }, read_replicas: [{ database_url: replica }] });
    expectResponse(
      await run('pg_add_source', { name: 'lost', configuration: withReplica('postgres://engine:pw@127.0.0.1:1/db') }),
      400,
      couldNotConnect('lost'),
    );
    expectResponse(await addSource('kept', second.url), 200, { message: 'success' });
    expectResponse(
      await run('pg_update_source', { name: 'kept', configuration: withReplica(`postgres://engine:pw@127.0.0.1:${notPostgresPort}/db`) }),
      400,
      couldNotConnect('kept'),
    );
    expect(await exported()).toEqual({
      version: 2,
      tables: [],
      sources: [{ name: 'kept', kind: 'postgres', configuration: { connection_info: { database_url: second.url } }, tables: [] }],
    });
  },
);

caseNeeding(
  { met: makesDatabases, needs: 'a run that makes its own databases (a managed run)' },
  ['dec.source.connection-failure', 'dec.source.forms'],
  'reads of a source whose read replica went away are answered by its primary, never with an error',
  async () => {
    const replica = await makeDatabase();
    const table = 'create table public.shelf (id int primary key, place text)';
    await second.sql(`${table}; insert into public.shelf values (1, 'primary')`);
    const onReplica = new Client({ connectionString: replica.url });
    await onReplica.connect();
    await onReplica.query(`${table}; insert into public.shelf values (1, 'replica')`);
    await onReplica.end();
    try {
      const configuration = { connection_info: { database_url: second.url }, read_replicas: [{ database_url: replica.url }] };
      expectResponse(await run('pg_add_source', { name: 'books', configuration }), 200, { message: 'success' });
      expectResponse(await run('pg_track_table', { source: 'books', table: 'shelf' }), 200, { message: 'success' });
      expectResponse(await target.graphql('{ shelf { place } }'), 200, { data: { shelf: [{ place: 'replica' }] } });
      await replica.drop();
      for (let i = 0; i < 3; i++) expectResponse(await target.graphql('{ shelf { place } }'), 200, { data: { shelf: [{ place: 'primary' }] } });
    } finally {
      await target.reset();
      await second.sql('drop table if exists public.shelf');
      await replica.drop().catch(() => {});
    }
  },
);
