import { parseCliArguments, suiteEnvironment, UsageError } from './arguments';

describe('engine-conformance arguments', () => {
  test('target, secret, database and profiles become the suite environment', () => {
    const options = parseCliArguments(
      ['--target', 'http://127.0.0.1:8080', '--admin-secret=s', '--database', 'postgres://x/y', '--profile', 'graphql-only=http://127.0.0.1:8081'],
      '/tmp',
    );
    expect(options).not.toBe('help');
    expect(suiteEnvironment(options as Exclude<typeof options, 'help' | 'version'>)).toEqual({
      ENGINE_URL: 'http://127.0.0.1:8080',
      ENGINE_ADMIN_SECRET: 's',
      ENGINE_DATABASE_URL: 'postgres://x/y',
      ENGINE_CONFORMANCE_REPORT_DIR: '/tmp',
      ENGINE_TEST_NO_CLUSTER: '1',
      ENGINE_BRAND: 'engine',
      ENGINE_URL_GRAPHQL_ONLY: 'http://127.0.0.1:8081',
    });
  });

  test.each([
    [[], '--target is required'],
    [['--target', 'http://h'], '--database is required'],
    [['--target', 'ftp://h', '--database', 'postgres://x'], 'not an http(s) URL'],
    [['--target', 'http://h', '--database', 'p', '--profile', 'noequals'], '--profile takes NAME=URL'],
    [['--target', 'http://h', '--database', 'p', '--colour', 'red'], 'unknown flag --colour'],
    [['--target'], '--target needs a value'],
    [['--target', '--database', 'postgres://x'], '--target needs a value'],
    [['--target', 'http://h', '--database', 'p', 'stray'], 'unexpected argument stray'],
    [['--target', 'http://h', '--database', 'p', '--brand', 'Hasura'], '--brand takes engine or hasura, got "Hasura"'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseCliArguments(argv, '/')).toThrow(UsageError);
    expect(() => parseCliArguments(argv, '/')).toThrow(message);
  });

  test('--source-database is the second database of the cases of sources', () => {
    const options = parseCliArguments(['--target', 'http://h', '--database', 'postgres://x', '--source-database', 'postgres://x/second'], '/work');
    expect(suiteEnvironment(options as Exclude<typeof options, 'help' | 'version'>).ENGINE_SOURCE_DATABASE_URL).toBe('postgres://x/second');
    const without = parseCliArguments(['--target', 'http://h', '--database', 'postgres://x'], '/work');
    expect(suiteEnvironment(without as Exclude<typeof without, 'help' | 'version'>).ENGINE_SOURCE_DATABASE_URL).toBeUndefined();
  });

  test('--brand hasura makes the suite speak X-Hasura-* (ENGINE_BRAND); engine is the default', () => {
    const options = parseCliArguments(['--target', 'http://h', '--database', 'postgres://x', '--brand', 'hasura'], '/work');
    expect(suiteEnvironment(options as Exclude<typeof options, 'help' | 'version'>).ENGINE_BRAND).toBe('hasura');
  });

  test('--junit takes a file, relative to the working directory', () => {
    const options = parseCliArguments(['--target', 'http://h', '--database', 'postgres://x', '--junit', 'out/junit.xml'], '/work');
    expect(suiteEnvironment(options as Exclude<typeof options, 'help' | 'version'>).ENGINE_CONFORMANCE_JUNIT).toBe('/work/out/junit.xml');
  });

  test('--help and --version need nothing else', () => {
    expect(parseCliArguments(['--target', 'http://h', '--help'], '/')).toBe('help');
    expect(parseCliArguments(['-h'], '/')).toBe('help');
    expect(parseCliArguments(['--version'], '/')).toBe('version');
  });

  test('the report directory is taken relative to the working directory; a trailing slash of the target goes', () => {
    const options = parseCliArguments(['--target', 'http://h:1/', '--database', 'postgres://x', '--report-dir', 'out'], '/work') as Exclude<
      ReturnType<typeof parseCliArguments>,
      'help' | 'version'
    >;
    expect([options.target, options.reportDir]).toEqual(['http://h:1', '/work/out']);
  });

  test('--allow-clear is off unless given; it takes no value', () => {
    const base = ['--target', 'http://h', '--database', 'postgres://x'];
    expect((parseCliArguments(base, '/') as { allowClear: boolean }).allowClear).toBe(false);
    expect((parseCliArguments([...base, '--allow-clear'], '/') as { allowClear: boolean }).allowClear).toBe(true);
    expect(() => parseCliArguments([...base, '--allow-clear=yes'], '/')).toThrow(UsageError);
  });
});
