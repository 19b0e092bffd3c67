// A source's connection info as node-postgres pool settings: the engine's pool_settings and their
// defaults (50 connections, 180 s idle, 600 s lifetime), and the three forms of database_url.
import { poolConfigOf } from './sourcePools';

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
