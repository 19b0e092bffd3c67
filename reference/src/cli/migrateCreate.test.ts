// `migrate create` writes a migration apply then runs; `--dry-run` shows what would run.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_V3_PROJECT, useMetadataCli } from '../../test-support/metadataCli';

const harness = useMetadataCli('all');
const { migrate, query, post } = harness;
const records = async () => (await query('select cli_state from engine_catalog.engine_version'))[0]!.cli_state;

beforeEach(async () => {
  await post({ type: 'run_sql', args: { sql: 'drop schema public cascade; create schema public;' } }, '/v2/query');
  await post({ type: 'set_catalog_state', args: { type: 'cli', state: {} } });
});

test('create writes <now>_<name>/ with up.sql and down.sql; apply runs it; a database’s first migration makes its folder', async () => {
  const { dir } = harness;
  const before = Date.now();
  const created = await migrate(
    'create',
    'add likes',
    '--up-sql',
    'create table public.likes (id int);',
    '--down-sql',
    'drop table public.likes;',
    '--project',
    dir,
  );
  const after = Date.now();
  const folder = join(dir, 'migrations', 'default');
  const [name] = readdirSync(folder);
  const version = Number(name!.split('_')[0]);
  expect(version).toBeGreaterThanOrEqual(before);
  expect(version).toBeLessThanOrEqual(after);
  expect(name).toBe(`${version}_add likes`);
  expect(created).toEqual({ code: 0, out: `created ${join(folder, name!)} (up.sql, down.sql): version ${version}`, err: '' });
  expect(readFileSync(join(folder, name!, 'up.sql'), 'utf8')).toBe('create table public.likes (id int);');
  expect(readFileSync(join(folder, name!, 'down.sql'), 'utf8')).toBe('drop table public.likes;');
  expect(await migrate('apply', '--project', dir)).toEqual({ code: 0, out: `applied ${name}\n1 migration applied on database default`, err: '' });
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { [String(version)]: false } } });
});

test('create without SQL writes empty files, which apply records without running anything; a later version than the folder’s last', async () => {
  const { dir } = harness;
  const folder = join(dir, 'migrations', 'default');
  // A folder whose last migration is ahead of the clock: the new one comes after it.
  mkdirSync(join(folder, '9999999999999_future'), { recursive: true });
  writeFileSync(join(folder, '9999999999999_future', 'up.sql'), '');
  expect(await migrate('create', 'next', '--project', dir)).toEqual({
    code: 0,
    out: `created ${join(folder, '10000000000000_next')} (up.sql, down.sql): version 10000000000000`,
    err: '',
  });
  expect(readFileSync(join(folder, '10000000000000_next', 'up.sql'), 'utf8')).toBe('');
  expect(readFileSync(join(folder, '10000000000000_next', 'down.sql'), 'utf8')).toBe('');
  expect(await migrate('apply', '--project', dir)).toEqual({
    code: 0,
    out: ['applied 9999999999999_future', 'applied 10000000000000_next', '2 migrations applied on database default'].join('\n'),
    err: '',
  });
});

test('create refuses a name that would leave the folder, and a folder it cannot read whole', async () => {
  const { dir } = harness;
  const folder = join(dir, 'migrations', 'default');
  expect(await migrate('create', '../escape', '--project', dir)).toEqual({
    code: 2,
    out: '',
    err: `${folder}: "../escape" cannot name a migration: give a name without / or \\`,
  });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'notes.txt'), '');
  expect(await migrate('create', 'x', '--project', dir)).toEqual({
    code: 2,
    out: '',
    err: `${folder}: notes.txt: not a migration, which is a folder <version>_<name> (such as 1700000000000_init) holding up.sql and down.sql`,
  });
  expect(readdirSync(folder)).toEqual(['notes.txt']);
});

test('--dry-run prints the steps as the engine’s CLI does and changes nothing', async () => {
  const { dir } = harness;
  cpSync(CLI_V3_PROJECT, dir, { recursive: true });
  expect(await migrate('apply', '--dry-run', '--project', dir)).toEqual({
    code: 0,
    out: ['VERSION        TYPE  NAME', '1700000000000  up    init', '1700000000001  up    search_posts'].join('\n'),
    err: '',
  });
  expect(await records()).toEqual({});
  expect((await query(`select to_regclass('public.posts') is null as gone`))[0]!.gone).toBe(true);
  expect((await migrate('apply', '--project', dir)).code).toBe(0);
  expect(await migrate('apply', '--down', '2', '--dry-run', '--project', dir)).toEqual({
    code: 0,
    out: ['VERSION        TYPE  NAME', '1700000000001  down  search_posts', '1700000000000  down  init'].join('\n'),
    err: '',
  });
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000000': false, '1700000000001': false } } });
});
