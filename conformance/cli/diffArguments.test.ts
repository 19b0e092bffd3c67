// `engine-conformance diff` flags: what is required, the defaults, and each refusal's message.
import { parseDiffArguments } from './diffArguments';

const base = ['--target', 'http://a:8080/', '--database', 'postgres://a/db', '--against', 'https://b', '--against-database', 'postgres://b/db'];

test('the defaults: 100 runs, a seed from the clock, every area, A’s secret for B too', () => {
  expect(parseDiffArguments([...base, '--admin-secret', 's'], '/work', 2 ** 31 + 5)).toEqual({
    target: 'http://a:8080',
    database: 'postgres://a/db',
    adminSecret: 's',
    against: 'https://b',
    againstDatabase: 'postgres://b/db',
    againstAdminSecret: 's',
    againstAdminSecretFlag: '--admin-secret (taken for B too: no --against-admin-secret was given)',
    runs: 100,
    seed: 5,
    areas: ['graphql', 'mutations', 'dml', 'rest', 'metadata'],
    reportDir: '/work',
    allowClear: false,
  });
});

test('every flag given', () => {
  expect(
    parseDiffArguments(
      [
        ...base,
        '--against-admin-secret',
        't',
        '--runs',
        '7',
        '--seed',
        '42',
        '--areas',
        'graphql, dml',
        '--path',
        '3:0:1',
        '--report-dir',
        'r',
        '--junit',
        'j.xml',
        '--allow-clear',
      ],
      '/work',
    ),
  ).toEqual({
    target: 'http://a:8080',
    database: 'postgres://a/db',
    against: 'https://b',
    againstDatabase: 'postgres://b/db',
    againstAdminSecret: 't',
    againstAdminSecretFlag: '--against-admin-secret',
    runs: 7,
    seed: 42,
    areas: ['graphql', 'dml'],
    path: '3:0:1',
    reportDir: '/work/r',
    junit: '/work/j.xml',
    allowClear: true,
  });
  expect(parseDiffArguments(['--help'], '/work')).toBe('help');
});

test.each([
  [['--target', 'http://a', '--database', 'x', '--against', 'http://b'], '--against-database is required'],
  [base.slice(2), '--target is required'],
  [[...base.slice(0, 1), 'a:8080', ...base.slice(2)], '--target takes an http(s) URL, got "a:8080"'],
  [[...base.slice(0, 5), 'b:8080', ...base.slice(6)], '--against takes an http(s) URL, got "b:8080"'],
  [[...base.slice(0, 7), 'postgres://a/db'], '--database and --against-database must be two databases: each target makes the same tables in its own'],
  [[...base, '--runs', '0'], '--runs takes a positive whole number, got "0"'],
  [[...base, '--runs', 'ten'], '--runs takes a positive whole number, got "ten"'],
  [[...base, '--seed', '1.5'], '--seed takes a whole number, got "1.5"'],
  [[...base, '--seed', ''], '--seed takes a whole number, got ""'],
  [[...base, '--areas', 'graphql,subscriptions'], 'unknown area "subscriptions": the areas are graphql, mutations, dml, rest, metadata'],
  [[...base, '--nope'], 'unknown flag --nope'],
])('refused: %j', (argv, message) => {
  expect(() => parseDiffArguments(argv, '/work')).toThrow(message);
});
