// A source's connection info as node-postgres pool settings (the engine's pool_settings and their
// defaults, the three forms of database_url, isolation_level), and the checks of a source's database.
import { createServer, type Socket } from 'node:net';
import { useDatabase } from '../../../conformance/harness/database';
import { until } from '../../../conformance/harness/wait';
import { causeOf, poolConfigOf, SourcePools } from './sourcePools';

test("without pool_settings: the engine's defaults", () => {
  expect(poolConfigOf({ database_url: 'postgres://u@h/d' })).toEqual({
    connectionString: 'postgres://u@h/d',
    max: 50,
    idleTimeoutMillis: 180_000,
    connectionTimeoutMillis: 5_000,
    maxLifetimeSeconds: 600,
    application_name: 'engine-reference-source',
  });
});

test('pool_settings given, 0 for idle_timeout and connection_lifetime meaning never', () => {
  const info = { database_url: { from_env: 'SRC_URL' }, pool_settings: { max_connections: 7, idle_timeout: 0, pool_timeout: 2, connection_lifetime: 0 } };
  expect(poolConfigOf(info, { SRC_URL: 'postgres://e/f' })).toEqual({
    connectionString: 'postgres://e/f',
    max: 7,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: 2_000,
    maxLifetimeSeconds: 0,
    application_name: 'engine-reference-source',
  });
  expect(poolConfigOf({ ...info, pool_settings: { idle_timeout: 30, connection_lifetime: 90 } }, { SRC_URL: 'postgres://e/f' })).toMatchObject({
    idleTimeoutMillis: 30_000,
    maxLifetimeSeconds: 90,
  });
});

test('connection_parameters, and an environment variable that is not set', () => {
  expect(poolConfigOf({ database_url: { connection_parameters: { host: 'h', port: 5433, username: 'u', database: 'd' } } })).toMatchObject({
    host: 'h',
    port: 5433,
    user: 'u',
    database: 'd',
  });
  expect(poolConfigOf({ database_url: { from_env: 'NOT_SET_HERE' } }, {})).toEqual({ problem: 'environment variable "NOT_SET_HERE" is not set' });
  expect(poolConfigOf({ database_url: { from_env: 'SET_EMPTY' } }, { SET_EMPTY: '' })).toEqual({ problem: 'environment variable "SET_EMPTY" is not set' });
});

test('a password is passed only when given', () => {
  const parameters = { host: 'h', port: 5433, username: 'u', database: 'd' };
  const defaults = {
    max: 50,
    idleTimeoutMillis: 180_000,
    connectionTimeoutMillis: 5_000,
    maxLifetimeSeconds: 600,
    application_name: 'engine-reference-source',
  };
  expect(poolConfigOf({ database_url: { connection_parameters: parameters } })).toStrictEqual({ host: 'h', port: 5433, user: 'u', database: 'd', ...defaults });
  expect(poolConfigOf({ database_url: { connection_parameters: { ...parameters, password: 'pw' } } })).toEqual({
    host: 'h',
    port: 5433,
    user: 'u',
    database: 'd',
    password: 'pw',
    ...defaults,
  });
});

test("isolation_level: the connection's default for its transactions [dec.source.isolation-level]", () => {
  expect(poolConfigOf({ database_url: 'postgres://u@h/d', isolation_level: 'repeatable-read' })).toMatchObject({
    options: '-c default_transaction_isolation=repeatable\\ read',
  });
  expect(poolConfigOf({ database_url: 'postgres://u@h/d', isolation_level: 'serializable' })).toMatchObject({
    options: '-c default_transaction_isolation=serializable',
  });
  expect(poolConfigOf({ database_url: 'postgres://u@h/d', isolation_level: 'read-committed' })).toMatchObject({
    options: '-c default_transaction_isolation=read\\ committed',
  });
});

test("a failure's cause for the log: its message, or that the database did not answer when it has none", () => {
  // Node's AggregateError of a host whose every address refused has no message.
  expect(causeOf(new AggregateError([], ''))).toBe('the database did not answer');
  expect(causeOf(new Error('connect ECONNREFUSED'))).toBe('connect ECONNREFUSED');
  expect(causeOf('refused')).toBe('refused');
});

describe('a source that cannot be had: one answer, the cause for the log', () => {
  const source = (database_url: string) => ({ name: 's', kind: 'postgres' as const, configuration: { connection_info: { database_url } }, tables: [] });
  const ask = async (url: string) => {
    const pools = new SourcePools();
    const told: [string, string][] = [];
    pools.onConnectionFailure = (name, cause) => told.push([name, cause]);
    const answer = await pools.problemOf(source(url));
    await pools.close();
    return { answer, told };
  };

  test('a refused connection', async () => {
    const { answer, told } = await ask('postgres://u:pw@127.0.0.1:1/x');
    expect(answer).toBe('could not connect to the database');
    expect(told).toEqual([['s', expect.stringContaining('ECONNREFUSED')]]);
  });

  test('a URL that cannot be read, and a port out of range', async () => {
    expect(await ask('postgres://u:pw@[::1/x')).toEqual({
      answer: 'could not connect to the database',
      told: [['s', expect.stringMatching(/^the connection settings cannot be read: /)]],
    });
    expect(poolConfigOf({ database_url: 'postgres://u:pw@[::1/x' })).toEqual({
      problem: 'could not connect to the database',
      cause: expect.stringMatching(/^the connection settings cannot be read: /),
    });
    expect(poolConfigOf({ database_url: { connection_parameters: { host: 'h', port: 0, username: 'u', database: 'd' } } })).toEqual({
      problem: 'could not connect to the database',
      cause: 'port 0 is out of range',
    });
    expect(poolConfigOf({ database_url: { connection_parameters: { host: 'h', port: 65536, username: 'u', database: 'd' } } })).toEqual({
      problem: 'could not connect to the database',
      cause: 'port 65536 is out of range',
    });
    expect(poolConfigOf({ database_url: { connection_parameters: { host: 'h', port: 65535, username: 'u', database: 'd' } } })).toMatchObject({ port: 65535 });
    expect(poolConfigOf({ database_url: { connection_parameters: { host: 'h', port: 1, username: 'u', database: 'd' } } })).toMatchObject({ port: 1 });
  });

  test('a variable that is not set is named, and nothing is told', async () => {
    const pools = new SourcePools();
    const told: unknown[] = [];
    pools.onConnectionFailure = (...args) => told.push(args);
    const unset = {
      name: 's',
      kind: 'postgres' as const,
      configuration: { connection_info: { database_url: { from_env: 'ENGINE_TEST_UNSET_URL' } } },
      tables: [],
    };
    expect(await pools.problemOf(unset)).toBe('environment variable "ENGINE_TEST_UNSET_URL" is not set');
    expect(told).toEqual([]);
  });
});

describe('a source with read replicas, on a database that answers', () => {
  const database = useDatabase('all');
  const withReplicas = (...urls: string[]) => ({
    name: 's',
    kind: 'postgres' as const,
    configuration: { connection_info: { database_url: database.url }, read_replicas: urls.map((database_url) => ({ database_url })) },
    tables: [],
  });

  test('each replica is checked: a later one that cannot be had is the problem', async () => {
    const pools = new SourcePools();
    const told: [string, string][] = [];
    pools.onConnectionFailure = (name, cause) => told.push([name, cause]);
    expect(await pools.problemOf(withReplicas(database.url, database.url))).toBeUndefined();
    expect(await pools.problemOf(withReplicas(database.url, 'postgres://u:pw@127.0.0.1:1/x'))).toBe('could not connect to the database');
    expect(told).toEqual([['s', expect.stringContaining('ECONNREFUSED')]]);
    await pools.close();
  });

  test("a check's connection is closed after it", async () => {
    const pools = new SourcePools();
    expect(await pools.problemOf(withReplicas(database.url))).toBeUndefined();
    // Counted on the database's own connection, which is left out.
    const backends = () =>
      database.client
        .query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
        .then((r) => r.rows[0]!.n);
    const left = await until(backends, (n) => n === 0);
    await pools.close();
    expect(left).toBe(0);
  });
});

/** A message of PostgreSQL's protocol: its type, its length, its body. */
const message = (type: string, body: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
};

test('a database that drops the connection once the check connected is no problem, and no crash', async () => {
  // Authentication ok, ready, then a FATAL error in the same packet: node-postgres emits it as an
  // `error` event on a client that is connected, which ends the process when nothing listens.
  const fatal = Buffer.from('SFATAL\0VFATAL\0C57P01\0Mterminating connection\0\0');
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.once('data', () => socket.write(Buffer.concat([message('R', Buffer.alloc(4)), message('Z', Buffer.from('I')), message('E', fatal)])));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const pools = new SourcePools();
  const source = { name: 's', kind: 'postgres' as const, configuration: { connection_info: { database_url: `postgres://u@127.0.0.1:${port}/x` } }, tables: [] };
  try {
    expect(await pools.problemOf(source)).toBeUndefined();
    expect(sockets).toHaveLength(1);
  } finally {
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => server.close(resolve));
    await pools.close();
  }
});
