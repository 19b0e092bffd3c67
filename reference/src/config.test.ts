import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  test('defaults', () => {
    const c = loadConfig({});
    expect({
      port: c.port,
      apis: [...c.enabledApis],
      infer: c.inferFunctionPermissions,
      allowList: c.enableAllowList,
      live: c.liveQueries,
      secret: c.adminSecret,
      jwt: c.jwt,
    }).toEqual({
      port: 8080,
      apis: ['graphql', 'metadata', 'pgdump', 'config'],
      infer: true,
      allowList: false,
      live: { batchSize: 100, refetchDelaySeconds: 1 },
      secret: undefined,
      jwt: undefined,
    });
  });

  test('the listen host is this machine only without an admin secret, unless given [dec.server.listen-host]', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ ENGINE_GRAPHQL_ADMIN_SECRET: 's' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ENGINE_GRAPHQL_SERVER_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ENGINE_GRAPHQL_ADMIN_SECRET: 's', ENGINE_GRAPHQL_SERVER_HOST: '::1' }).host).toBe('::1');
  });

  test('CORS domains are origins or *', () => {
    expect(loadConfig({ ENGINE_GRAPHQL_CORS_DOMAIN: 'https://a.test, http://*.b.test:3000 ,*' }).corsDomains).toEqual([
      'https://a.test',
      'http://*.b.test:3000',
      '*',
    ]);
    expect(loadConfig({}).corsDomains).toBeUndefined();
    expect(() => loadConfig({ ENGINE_GRAPHQL_CORS_DOMAIN: 'a.test' })).toThrow(
      'ENGINE_GRAPHQL_CORS_DOMAIN: "a.test" is not an origin such as https://app.example.com, http://*.example.org:3000 or *',
    );
  });

  test('a flag wins over its environment variable', () => {
    const c = loadConfig({ ENGINE_GRAPHQL_ENABLED_APIS: 'graphql' }, ['--enabled-apis', 'graphql,metadata', '--server-port=9000']);
    expect([...c.enabledApis]).toEqual(['graphql', 'metadata']);
    expect(c.port).toBe(9000);
  });

  test('DATABASE_URL is used when ENGINE_GRAPHQL_DATABASE_URL is absent', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://a/b' }).databaseUrl).toBe('postgres://a/b');
    expect(loadConfig({ DATABASE_URL: 'postgres://a/b', ENGINE_GRAPHQL_DATABASE_URL: 'postgres://c/d' }).databaseUrl).toBe('postgres://c/d');
  });

  test('JWT settings report their namespace and format', () => {
    const c = loadConfig({ ENGINE_GRAPHQL_JWT_SECRET: '{"type":"HS256","key":"x","claims_format":"stringified_json","claims_namespace":"ns"}' });
    expect(c.jwt).toMatchObject({ claims_namespace: 'ns', claims_format: 'stringified_json' });
  });

  test.each([
    [{ ENGINE_GRAPHQL_ENABLED_APIS: 'graphql,sql' }, 'unknown API "sql"'],
    [{ ENGINE_GRAPHQL_SERVER_PORT: 'eighty' }, 'ENGINE_GRAPHQL_SERVER_PORT must be an integer'],
    [{ ENGINE_GRAPHQL_ENABLE_ALLOWLIST: 'maybe' }, 'must be true or false'],
    [{ ENGINE_GRAPHQL_JWT_SECRET: 'not json' }, 'must be a JSON object'],
    [{ ENGINE_GRAPHQL_LOG_LEVEL: 'loud' }, 'ENGINE_GRAPHQL_LOG_LEVEL'],
  ])('bad settings are refused with a clear message: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test('unknown flags are refused', () => {
    expect(() => loadConfig({}, ['--no-such-flag=1'])).toThrow('unknown flag --no-such-flag');
  });
});
