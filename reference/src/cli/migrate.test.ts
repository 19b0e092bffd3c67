// `engine-reference migrate` over a project of the engine's CLI (fixtures/projects/cli-v3): a
// project is two commands, `migrate apply` then `metadata apply`; each migration commits with its
// record, kept where the engine's CLI keeps it; a failing one stops there, the ones before it stay.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_V3_PROJECT, useMetadataCli } from '../../test-support/metadataCli';

const harness = useMetadataCli('each');
const { migrate, query } = harness;
const APPLIED = JSON.parse(readFileSync(join(CLI_V3_PROJECT, 'export_metadata.json'), 'utf8')) as unknown;
/** The CLI's state in the server's catalog, as the row holds it. */
const records = async () => (await query('select cli_state from engine_catalog.engine_version'))[0]!.cli_state;
const exists = async (relation: string) => (await query(`select to_regclass('${relation}') is not null as there`))[0]!.there;
const searchPostsExists = async () => (await query(`select to_regprocedure('public.search_posts(text)') is not null as there`))[0]!.there;
const project = () => {
  cpSync(CLI_V3_PROJECT, harness.dir, { recursive: true });
  return harness.dir;
};
/** What status prints for the project, with whether each of its two migrations is applied. */
const statusOut = (init: string, searchPosts: string) =>
  [
    '',
    'Database: default',
    'VERSION        NAME          SOURCE STATUS  DATABASE STATUS',
    `1700000000000  init          Present        ${init}`,
    `1700000000001  search_posts  Present        ${searchPosts}`,
  ].join('\n');
const addMigration = (dir: string, folder: string, up: string, down = '') => {
  mkdirSync(join(dir, 'migrations', 'default', folder));
  writeFileSync(join(dir, 'migrations', 'default', folder, 'up.sql'), up);
  writeFileSync(join(dir, 'migrations', 'default', folder, 'down.sql'), down);
};

test('a project is two commands: migrate apply, then metadata apply; the export is the project’s, the records as the engine’s CLI writes them', async () => {
  expect(await migrate('status', '--project', CLI_V3_PROJECT)).toEqual({ code: 0, out: statusOut('Not Present', 'Not Present'), err: '' });
  expect(await migrate('apply', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: ['applied 1700000000000_init', 'applied 1700000000001_search_posts', '2 migrations applied on database default'].join('\n'),
    err: '',
  });
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000000': false, '1700000000001': false } } });
  expect(await query(`select cli_state::text from engine_catalog.engine_version`)).toEqual([
    { cli_state: '{"settings": {"migration_mode": "true"}, "migrations": {"default": {"1700000000000": false, "1700000000001": false}}}' },
  ]);
  expect(await migrate('status', '--project', CLI_V3_PROJECT)).toEqual({ code: 0, out: statusOut('Present', 'Present'), err: '' });
  const metadata = join(project(), 'metadata');
  expect((await harness.cli('apply', metadata)).code).toBe(0);
  expect(await harness.exported()).toEqual(APPLIED);
  expect(await migrate('apply', '--project', CLI_V3_PROJECT)).toEqual({ code: 0, out: 'nothing to apply on database default', err: '' });
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000000': false, '1700000000001': false } } });
});

test('an up.sql that fails stops there: the migrations before it stay applied and recorded, it is neither, the rest do not run', async () => {
  const dir = project();
  addMigration(dir, '1700000000002_half_done', 'create table public.half_done (id int primary key);\nselect * from public.no_such_table;\n');
  addMigration(dir, '1700000000003_after', 'create table public.after (id int primary key);\n');
  expect(await migrate('apply', '--project', dir)).toEqual({
    code: 1,
    out: ['applied 1700000000000_init', 'applied 1700000000001_search_posts'].join('\n'),
    err: [
      '1700000000002_half_done: up.sql failed, so it is neither applied nor recorded: relation "public.no_such_table" does not exist (SQLSTATE 42P01)',
      'stopped after 2 of 4 migrations on database default (each committed with its record); not run: 1700000000003_after',
    ].join('\n'),
  });
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000000': false, '1700000000001': false } } });
  expect(await exists('public.posts')).toBe(true);
  expect(await searchPostsExists()).toBe(true);
  // The failed migration's first statement went with it.
  expect(await exists('public.half_done')).toBe(false);
  expect(await exists('public.after')).toBe(false);
  // Fixed, it applies from where it stopped.
  writeFileSync(join(dir, 'migrations', 'default', '1700000000002_half_done', 'up.sql'), 'create table public.half_done (id int primary key);\n');
  expect(await migrate('apply', '--project', dir)).toEqual({
    code: 0,
    out: ['applied 1700000000002_half_done', 'applied 1700000000003_after', '2 migrations applied on database default'].join('\n'),
    err: '',
  });
  expect(await exists('public.after')).toBe(true);
});

test('the first migration failing leaves nothing: no table, no record', async () => {
  const dir = project();
  writeFileSync(
    join(dir, 'migrations', 'default', '1700000000000_init', 'up.sql'),
    'create table public.first (id int);\ncreate table public.first (id int);\n',
  );
  expect(await migrate('apply', '--project', dir)).toEqual({
    code: 1,
    out: '',
    err: [
      '1700000000000_init: up.sql failed, so it is neither applied nor recorded: relation "first" already exists (SQLSTATE 42P07)',
      'stopped after 0 of 2 migrations on database default; not run: 1700000000001_search_posts',
    ].join('\n'),
  });
  expect(await records()).toEqual({});
  expect(await exists('public.first')).toBe(false);
});

test('--down 1 runs the down.sql of the last applied and forgets it; again, the one before', async () => {
  expect((await migrate('apply', '--project', CLI_V3_PROJECT)).code).toBe(0);
  expect(await migrate('apply', '--down', '1', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: ['rolled back 1700000000001_search_posts', '1 migration rolled back on database default'].join('\n'),
    err: '',
  });
  expect(await searchPostsExists()).toBe(false);
  expect(await exists('public.posts')).toBe(true);
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000000': false } } });
  expect(await migrate('status', '--project', CLI_V3_PROJECT)).toEqual({ code: 0, out: statusOut('Present', 'Not Present'), err: '' });
  expect(await migrate('apply', '--down', '1', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: ['rolled back 1700000000000_init', '1 migration rolled back on database default'].join('\n'),
    err: '',
  });
  expect(await exists('public.posts')).toBe(false);
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: {} } });
  expect(await migrate('apply', '--down', '1', '--project', CLI_V3_PROJECT)).toEqual({ code: 0, out: 'nothing to apply on database default', err: '' });
  // --down all, after applying again: newest first.
  expect((await migrate('apply', '--project', CLI_V3_PROJECT)).code).toBe(0);
  expect(await migrate('apply', '--down', 'all', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: ['rolled back 1700000000001_search_posts', 'rolled back 1700000000000_init', '2 migrations rolled back on database default'].join('\n'),
    err: '',
  });
});

test('--skip-execution records a database made by hand as migrated, without running anything; down forgets without running down.sql', async () => {
  const made = await harness.post({ type: 'run_sql', args: { sql: 'create table public.users (id serial primary key);' } }, '/v2/query');
  expect(made.status).toBe(200);
  expect(await migrate('apply', '--skip-execution', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: [
      'recorded 1700000000000_init as applied, without running its up.sql',
      'recorded 1700000000001_search_posts as applied, without running its up.sql',
      '2 migrations recorded as applied on database default',
    ].join('\n'),
    err: '',
  });
  // Had init run, its CREATE TABLE public.users would have failed; posts would be there.
  expect(await exists('public.posts')).toBe(false);
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000000': false, '1700000000001': false } } });
  expect(await migrate('apply', '--version', '1700000000000', '--type', 'down', '--skip-execution', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: ['recorded 1700000000000_init as not applied, without running its down.sql', '1 migration recorded as not applied on database default'].join('\n'),
    err: '',
  });
  expect(await exists('public.users')).toBe(true);
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: { '1700000000001': false } } });
});
