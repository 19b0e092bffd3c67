// A source's connection info as node-postgres pool settings: the engine's pool_settings and their
// defaults (50 connections, 180 s idle, 600 s lifetime), and the three forms of database_url.
import { poolConfigOf, SourcePools } from './sourcePools';

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
