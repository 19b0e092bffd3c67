import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, FLAGS, loadConfig } from './config';
import { FLAG_HELP } from './flagHelp';

describe('loadConfig', () => {
  test('defaults', () => {
    const c = loadConfig({});
    expect({
      port: c.port,
      apis: [...c.enabledApis],
      infer: c.inferFunctionPermissions,
      allowList: c.enableAllowList,
      live: c.liveQueries,
      streaming: c.streamingQueries,
      secret: c.adminSecret,
      jwt: c.jwt,
    }).toEqual({
      port: 8080,
      apis: ['graphql', 'metadata', 'pgdump', 'config'],
      infer: true,
      allowList: false,
      live: { batchSize: 100, refetchDelaySeconds: 1 },
      streaming: { batchSize: 100, refetchDelaySeconds: 1 },
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

  test('pooled connections are closed after 180 s idle unless ENGINE_GRAPHQL_PG_TIMEOUT (or --pg-timeout) says otherwise; 0 keeps them', () => {
    expect(loadConfig({}).pgTimeoutSeconds).toBe(180);
    expect(loadConfig({ ENGINE_GRAPHQL_PG_TIMEOUT: '30' }).pgTimeoutSeconds).toBe(30);
    expect(loadConfig({ ENGINE_GRAPHQL_PG_TIMEOUT: '30' }, ['--pg-timeout', '0']).pgTimeoutSeconds).toBe(0);
  });

  test('streaming subscriptions have their own batch size and refetch interval (ms), from the environment or flags [dec.graphql.stream.multiplexed]', () => {
    const given = { ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE: '7', ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '250' };
    expect([loadConfig(given).streamingQueries, loadConfig(given).liveQueries]).toEqual([
      { batchSize: 7, refetchDelaySeconds: 0.25 },
      { batchSize: 100, refetchDelaySeconds: 1 },
    ]);
    expect(loadConfig({}, ['--streaming-queries-multiplexed-batch-size', '3']).streamingQueries.batchSize).toBe(3);
    expect(() => loadConfig({ ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE: '0' })).toThrow(ConfigError);
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

  test('every port from 0 to 65535 is one; every JWT type the engine knows, or none with a JWK set, is taken', () => {
    expect(['0', '1', '65535'].map((p) => loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: p }).port)).toEqual([0, 1, 65535]);
    expect(loadConfig({}, ['--server-port', '65535']).port).toBe(65535);
    for (const type of ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'Ed25519']) {
      expect(loadConfig({ ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({ type, key: 'k' }) }).jwt?.raw.type).toBe(type);
    }
    expect(loadConfig({ ENGINE_GRAPHQL_JWT_SECRET: '{"jwk_url":"http://keys.test/jwks"}' }).jwt?.raw).toEqual({ jwk_url: 'http://keys.test/jwks' });
  });

  test('JWT settings report their namespace and format', () => {
    const c = loadConfig({ ENGINE_GRAPHQL_JWT_SECRET: '{"type":"HS256","key":"x","claims_format":"stringified_json","claims_namespace":"ns"}' });
    expect(c.jwt).toMatchObject({ claims_namespace: 'ns', claims_format: 'stringified_json' });
  });

  describe('the compatibility setting [dec.compat.headers, dec.compat.settings]', () => {
    test('is off by default: HASURA_GRAPHQL_* variables are not read', () => {
      const c = loadConfig({ HASURA_GRAPHQL_ADMIN_SECRET: 's', HASURA_GRAPHQL_SERVER_PORT: '9100' });
      expect([c.compatHeaders, c.adminSecret, c.port, c.hasuraVariables]).toEqual([undefined, undefined, 8080, undefined]);
    });

    test('hasura reads every setting from its HASURA_GRAPHQL_* name too; the ENGINE_GRAPHQL_* one or its flag wins', () => {
      const c = loadConfig(
        {
          ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura',
          HASURA_GRAPHQL_ADMIN_SECRET: 'from-hasura',
          HASURA_GRAPHQL_SERVER_PORT: '9100',
          ENGINE_GRAPHQL_SERVER_PORT: '9200',
          HASURA_GRAPHQL_ENABLED_APIS: 'graphql',
          HASURA_GRAPHQL_LOG_LEVEL: 'warn',
        },
        ['--log-level', 'error'],
      );
      expect([c.compatHeaders, c.adminSecret, c.port, [...c.enabledApis], c.logLevel]).toEqual(['hasura', 'from-hasura', 9200, ['graphql'], 'error']);
      expect(c.hasuraVariables).toEqual({
        read: ['HASURA_GRAPHQL_ADMIN_SECRET', 'HASURA_GRAPHQL_ENABLED_APIS'],
        overridden: ['HASURA_GRAPHQL_LOG_LEVEL', 'HASURA_GRAPHQL_SERVER_PORT'],
      });
    });

    test('--compat-headers hasura is the same; a HASURA_GRAPHQL_COMPAT_HEADERS does not turn it on', () => {
      expect(loadConfig({}, ['--compat-headers', 'hasura']).compatHeaders).toBe('hasura');
      expect(loadConfig({ HASURA_GRAPHQL_COMPAT_HEADERS: 'hasura' }).compatHeaders).toBeUndefined();
      expect(loadConfig({ ENGINE_GRAPHQL_COMPAT_HEADERS: '' }).compatHeaders).toBeUndefined();
    });

    test("the JWT claims namespace defaults to the compatibility brand's; a configured one wins", () => {
      const secret = '{"type":"HS256","key":"x"}';
      expect(loadConfig({ ENGINE_GRAPHQL_JWT_SECRET: secret }).jwt?.claims_namespace).toBe('https://engine.example/jwt/claims');
      expect(loadConfig({ ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura', HASURA_GRAPHQL_JWT_SECRET: secret }).jwt?.claims_namespace).toBe(
        'https://hasura.io/jwt/claims',
      );
      const configured = '{"type":"HS256","key":"x","claims_namespace":"https://example.test/ns"}';
      expect(loadConfig({ ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura', ENGINE_GRAPHQL_JWT_SECRET: configured }).jwt?.claims_namespace).toBe(
        'https://example.test/ns',
      );
    });

    test.each(['Hasura', 'engine', 'yes'])('ENGINE_GRAPHQL_COMPAT_HEADERS=%s is refused, naming the setting', (value) => {
      expect(() => loadConfig({ ENGINE_GRAPHQL_COMPAT_HEADERS: value })).toThrow(
        `ENGINE_GRAPHQL_COMPAT_HEADERS must be hasura (or empty: off), got ${JSON.stringify(value)}`,
      );
    });
  });

  test.each([
    [{ ENGINE_GRAPHQL_ENABLED_APIS: 'graphql,sql' }, 'unknown API "sql"'],
    [{ ENGINE_GRAPHQL_SERVER_PORT: 'eighty' }, 'ENGINE_GRAPHQL_SERVER_PORT (--server-port) must be a port from 0 to 65535, got "eighty"'],
    [{ ENGINE_GRAPHQL_ENABLE_ALLOWLIST: 'maybe' }, 'must be true or false'],
    [{ ENGINE_GRAPHQL_JWT_SECRET: 'not json' }, 'must be a JSON object'],
    [{ ENGINE_GRAPHQL_LOG_LEVEL: 'loud' }, 'ENGINE_GRAPHQL_LOG_LEVEL'],
    [{ ENGINE_GRAPHQL_PG_TIMEOUT: '-1' }, 'ENGINE_GRAPHQL_PG_TIMEOUT'],
    [{ ENGINE_GRAPHQL_PG_TIMEOUT: 'soon' }, 'ENGINE_GRAPHQL_PG_TIMEOUT must be an integer'],
    [{ ENGINE_GRAPHQL_SERVER_PORT: '99999' }, 'ENGINE_GRAPHQL_SERVER_PORT (--server-port) must be a port from 0 to 65535, got "99999"'],
    [{ ENGINE_GRAPHQL_SERVER_PORT: '65536' }, 'ENGINE_GRAPHQL_SERVER_PORT (--server-port) must be a port from 0 to 65535, got "65536"'],
    [
      { ENGINE_GRAPHQL_JWT_SECRET: '{"type":"HS257","key":"x"}' },
      'ENGINE_GRAPHQL_JWT_SECRET: unknown type "HS257"; the types are HS256, HS384, HS512, RS256, RS384, RS512, Ed25519',
    ],
    [{ ENGINE_GRAPHQL_JWT_SECRET: '{"type":7,"key":"x"}' }, 'ENGINE_GRAPHQL_JWT_SECRET: unknown type 7; the types are HS256'],
    [{ ENGINE_GRAPHQL_JWT_SECRET: '{"type":"hs256","key":"x"}' }, 'unknown type "hs256"'],
    [{ ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION: 'camel' }, 'ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION must be hasura-default or graphql-default, got "camel"'],
  ])('bad settings are refused with a clear message: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test('the default naming convention is hasura-default unless told, graphql-default too (decision 048); in compatibility mode under its HASURA_GRAPHQL_ name too', () => {
    expect(loadConfig({}).defaultNamingConvention).toBe('hasura-default');
    expect(loadConfig({ ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION: 'hasura-default' }).defaultNamingConvention).toBe('hasura-default');
    expect(loadConfig({}, ['--default-naming-convention=graphql-default']).defaultNamingConvention).toBe('graphql-default');
    expect(loadConfig({ ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura', HASURA_GRAPHQL_DEFAULT_NAMING_CONVENTION: 'graphql-default' }).defaultNamingConvention).toBe(
      'graphql-default',
    );
    expect(loadConfig({ ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura', HASURA_GRAPHQL_DEFAULT_NAMING_CONVENTION: 'hasura-default' }).hasuraVariables?.read).toEqual([
      'HASURA_GRAPHQL_DEFAULT_NAMING_CONVENTION',
    ]);
  });

  test('unknown flags are refused', () => {
    expect(() => loadConfig({}, ['--no-such-flag=1'])).toThrow('unknown flag --no-such-flag');
  });
});

test('--help says the default of every flag, and docs/SERVER.md lists every flag with that default', () => {
  const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'SERVER.md'), 'utf8');
  const rows = docs.split('\n').filter((line) => line.startsWith('| `ENGINE_GRAPHQL_'));
  const missing: string[] = [];
  for (const flag of Object.keys(FLAGS)) {
    const help = FLAG_HELP[flag];
    const row = rows.find((r) => r.includes(`\`--${flag}\``));
    // The default's first word is what the table's default column starts with (or names, for paired rows).
    if (help === undefined || row === undefined || !row.replace(/`/g, '').includes(help.split(/[ (:,]/)[0]!)) missing.push(flag);
  }
  expect(missing).toEqual([]);
  expect(Object.keys(FLAG_HELP).filter((flag) => !(flag in FLAGS))).toEqual([]);
});

test('a bad flag value is a usage error: exit 2 and one line, no stack', () => {
  const r = spawnSync(process.execPath, [join(__dirname, '..', '..', 'bin', 'engine-reference.js'), '--server-port', '99999'], { encoding: 'utf8' });
  expect({ status: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({
    status: 2,
    stderr:
      'engine-reference: ENGINE_GRAPHQL_SERVER_PORT (--server-port) must be a port from 0 to 65535, got "99999"\n(engine-reference --help lists the flags)\n',
    stdout: '',
  });
});

test('engine-reference --help prints each flag with its variable and default', () => {
  const r = spawnSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'run-ts.js'), join(__dirname, 'main.ts'), '--help'], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('  --server-port (ENGINE_GRAPHQL_SERVER_PORT)\n      default: 8080\n');
  expect(r.stdout).toContain('  --max-query-cost (ENGINE_GRAPHQL_MAX_QUERY_COST)\n      default: 10000000 (');
  expect(r.stdout.match(/^ {2}--/gm)).toHaveLength(Object.keys(FLAGS).length);
});
