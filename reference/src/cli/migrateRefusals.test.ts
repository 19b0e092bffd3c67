// `engine-reference migrate` refuses before it changes anything: a migrations folder it cannot read
// whole, a file a step needs, flags that do not go together, a database the server does not have,
// records the engine's CLI left dirty or a migration mode it turned off. Exit 2, nothing changed.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_V3_PROJECT, useMetadataCli } from '../../test-support/metadataCli';
import { MIGRATE_USAGE, migrateCommand } from './migrate';

const harness = useMetadataCli('all');
const { migrate, query, post } = harness;
const records = async () => (await query('select cli_state from engine_catalog.engine_version'))[0]!.cli_state;
const tables = async () => (await query(`select count(*)::int as n from pg_tables where schemaname = 'public'`))[0]!.n;
const setRecords = async (state: unknown) =>
  expect(await post({ type: 'set_catalog_state', args: { type: 'cli', state } })).toEqual({ status: 200, body: { message: 'success' } });

beforeEach(async () => {
  cpSync(CLI_V3_PROJECT, harness.dir, { recursive: true });
  await setRecords({});
});

/** A refusal: exit 2, the message, and the database and its records as they were. */
const refused = async (argv: string[], err: string) => {
  expect(await migrate(...argv)).toEqual({ code: 2, out: '', err });
  expect(await tables()).toBe(0);
  expect(await records()).toEqual({});
};

test('a migrations folder with an entry that is no migration is refused whole, naming the entry', async () => {
  const { dir } = harness;
  const folder = join(dir, 'migrations', 'default');
  writeFileSync(join(folder, 'notes.txt'), 'applied by hand on staging\n');
  await refused(
    ['apply', '--project', dir],
    `${folder}: notes.txt: not a migration, which is a folder <version>_<name> (such as 1700000000000_init) holding up.sql and down.sql`,
  );
  await refused(
    ['status', '--project', dir],
    `${folder}: notes.txt: not a migration, which is a folder <version>_<name> (such as 1700000000000_init) holding up.sql and down.sql`,
  );
  rmSync(join(folder, 'notes.txt'));
  writeFileSync(join(folder, '1700000000001_search_posts', 'down.yaml'), '- type: untrack_function\n');
  await refused(
    ['apply', '--project', dir],
    `${folder}: 1700000000001_search_posts/down.yaml: metadata steps of the CLI's config v1, which this command does not run; move them into the metadata directory and keep the SQL in up.sql and down.sql`,
  );
  rmSync(join(folder, '1700000000001_search_posts', 'down.yaml'));
  mkdirSync(join(folder, 'later'));
  await refused(
    ['apply', '--project', dir],
    `${folder}: later: not a migration, which is a folder <version>_<name> (such as 1700000000000_init) holding up.sql and down.sql`,
  );
});

test('a migration without the file a step needs is named, and nothing runs, not even the steps before it', async () => {
  const { dir } = harness;
  const folder = join(dir, 'migrations', 'default');
  rmSync(join(folder, '1700000000001_search_posts', 'up.sql'));
  await refused(['apply', '--project', dir], `${folder}: 1700000000001_search_posts has no up.sql`);
  await refused(['apply', '--version', '1700000000001', '--skip-execution', '--project', dir], `${folder}: 1700000000001_search_posts has no up.sql`);
});

test('a project without migrations for the database, or a database the server does not have', async () => {
  const { dir } = harness;
  await refused(
    ['apply', '--database-name', 'archive', '--project', dir],
    `${join(dir, 'migrations', 'archive')}: does not exist: the migrations of a database are in migrations/<database>/ of the project`,
  );
  mkdirSync(join(dir, 'migrations', 'archive'));
  await refused(
    ['status', '--database-name', 'archive', '--project', dir],
    `${join(dir, 'migrations', 'archive')}: the server at ${harness.url} has no database (source) named archive`,
  );
});

test('records the engine’s CLI left dirty stop apply; --version V --skip-execution sets them right', async () => {
  const { dir } = harness;
  await setRecords({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000000': true } }, isStateCopyCompleted: true });
  const stop =
    `${join(dir, 'migrations', 'default')}: version 1700000000000 is recorded as dirty on database default: a migration of the engine's CLI began there and did not finish. ` +
    'Make the database right by hand, then record it with --version 1700000000000 --skip-execution (--type up: applied, --type down: not applied)';
  expect(await migrate('apply', '--project', dir)).toEqual({ code: 2, out: '', err: stop });
  expect(await tables()).toBe(0);
  expect(await migrate('apply', '--version', '1700000000000', '--type', 'down', '--skip-execution', '--project', dir)).toEqual({
    code: 0,
    out: 'recorded 1700000000000_init as not applied, without running its down.sql\n1 migration recorded as not applied on database default',
    err: '',
  });
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: {} }, isStateCopyCompleted: true });
});

test('a migration mode the engine’s CLI turned off is respected', async () => {
  const { dir } = harness;
  await setRecords({ settings: { migration_mode: 'false' } });
  expect(await migrate('apply', '--project', dir)).toEqual({
    code: 2,
    out: '',
    err: `${join(dir, 'migrations', 'default')}: migration mode is off on the server (the CLI's setting migration_mode is "false"): the engine's CLI would not migrate either`,
  });
  expect(await tables()).toBe(0);
  expect(await records()).toEqual({ settings: { migration_mode: 'false' } });
});

test('flags that do not go together, or values that are none, are usage errors before anything is read', async () => {
  const usage = (problem: string) => ({ code: 2, out: '', err: `engine-reference migrate: ${problem}\n\n${MIGRATE_USAGE}` });
  const { dir } = harness;
  expect(await migrate('--project', dir)).toEqual(usage('expected apply, status or create'));
  expect(await migrate('undo', '--project', dir)).toEqual(usage('expected apply, status or create'));
  expect(await migrate('apply', 'extra', '--project', dir)).toEqual(usage('unexpected argument extra'));
  expect(await migrate('create', '--project', dir)).toEqual(usage('create takes one NAME'));
  expect(await migrate('apply', '--up', '1', '--down', '1', '--project', dir)).toEqual(
    usage('one of --up, --down, --version and --goto at a time, not --up and --down'),
  );
  expect(await migrate('apply', '--type', 'down', '--project', dir)).toEqual(usage('--type goes with --version'));
  expect(await migrate('apply', '--version', '1', '--type', 'sideways', '--project', dir)).toEqual(usage('--type sideways: up or down'));
  expect(await migrate('apply', '--skip-execution', '--dry-run', '--project', dir)).toEqual(usage('--skip-execution and --dry-run cannot be used together'));
  expect(await migrate('apply', '--skip-execution', '--goto', '1', '--project', dir)).toEqual(
    usage('--skip-execution goes with --up, --down or --version, not --goto'),
  );
  for (const bad of ['0', '-1', 'some', '1.5', '']) {
    expect(await migrate('apply', `--up=${bad}`, '--project', dir)).toEqual(usage(`--up ${bad}: a number of migrations (1 or more), or all`));
  }
  expect(await migrate('apply', '--down', '--project', dir)).toEqual(usage('--down needs a value'));
  expect(await migrate('apply', '--version', 'v1', '--project', dir)).toEqual(
    usage("--version v1: a version, the number a migration's folder name begins with"),
  );
  expect(await migrate('apply', '--goto', '99999999999999999999', '--project', dir)).toEqual(
    usage("--goto 99999999999999999999: a version, the number a migration's folder name begins with"),
  );
  expect(await migrate('status', '--dry-run', '--project', dir)).toEqual(usage('--dry-run is not a flag of status'));
  expect(await migrate('create', 'x', '--up', '1', '--project', dir)).toEqual(usage('--up is not a flag of create'));
  expect(await migrate('apply', '--up-sql', 'select 1', '--project', dir)).toEqual(usage('--up-sql is not a flag of apply'));
  expect(await migrate('apply', '--nope', '--project', dir)).toEqual(usage('unknown flag --nope'));
  expect(await tables()).toBe(0);
  expect(await records()).toEqual({});
});

test('--help prints the usage; an unreachable server is named (exit 2)', async () => {
  expect(await migrate('--help')).toEqual({ code: 0, out: MIGRATE_USAGE, err: '' });
  const err: string[] = [];
  const code = await migrateCommand(
    ['status', '--project', CLI_V3_PROJECT, '--endpoint', 'http://127.0.0.1:9'],
    {},
    { out: () => {}, err: (l) => err.push(l) },
  );
  expect(code).toBe(2);
  expect(err.join('\n')).toMatch(/^cannot reach the server at http:\/\/127\.0\.0\.1:9: /);
});
