// The records `migrate` shares with the engine's CLI (the CLI's catalog state): what that CLI wrote
// is read as applied and kept whole; the migrations of another database run there and are recorded
// under its name; --version and --goto choose single steps.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { CLI_V3_PROJECT, useMetadataCli } from '../../test-support/metadataCli';

const harness = useMetadataCli('each');
const { migrate, query, post } = harness;
const records = async () => (await query('select cli_state from engine_catalog.engine_version'))[0]!.cli_state;
const exists = async (relation: string) => (await query(`select to_regclass('${relation}') is not null as there`))[0]!.there;

test('records the engine’s CLI wrote are read as applied, and kept whole: other databases, its settings and flags', async () => {
  // As the engine's CLI leaves them after applying the first migration here and one of another database.
  const written = {
    settings: { migration_mode: 'true' },
    migrations: { default: { '1700000000000': false }, archive: { '1690000000000': false } },
    isStateCopyCompleted: true,
  };
  expect(await post({ type: 'set_catalog_state', args: { type: 'cli', state: written } })).toEqual({ status: 200, body: { message: 'success' } });
  const init = await post(
    { type: 'run_sql', args: { sql: readFileSync(join(CLI_V3_PROJECT, 'migrations/default/1700000000000_init/up.sql'), 'utf8') } },
    '/v2/query',
  );
  expect(init.status).toBe(200);
  expect((await migrate('status', '--project', CLI_V3_PROJECT)).out.split('\n').slice(3)).toEqual([
    '1700000000000  init          Present        Present',
    '1700000000001  search_posts  Present        Not Present',
  ]);
  expect(await migrate('apply', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: 'applied 1700000000001_search_posts\n1 migration applied on database default',
    err: '',
  });
  expect(await records()).toEqual({ ...written, migrations: { ...written.migrations, default: { '1700000000000': false, '1700000000001': false } } });
  // And what this command wrote is what get_catalog_state answers the engine's CLI.
  expect(await post({ type: 'get_catalog_state', args: {} })).toEqual({
    status: 200,
    body: { id: expect.any(String), cli_state: await records(), console_state: {} },
  });
});

test('--version V runs that migration alone, --type down rolls it back; --goto V steps up or down to V', async () => {
  expect(await migrate('apply', '--version', '1700000000000', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: 'applied 1700000000000_init\n1 migration applied on database default',
    err: '',
  });
  expect(await exists('public.posts')).toBe(true);
  expect(await migrate('apply', '--version', '1700000000000', '--project', CLI_V3_PROJECT)).toEqual({
    code: 2,
    out: '',
    err: `${join(CLI_V3_PROJECT, 'migrations', 'default')}: 1700000000000_init is already applied on database default`,
  });
  expect(await migrate('apply', '--goto', '1700000000001', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: 'applied 1700000000001_search_posts\n1 migration applied on database default',
    err: '',
  });
  expect(await migrate('apply', '--goto', '1700000000000', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: 'rolled back 1700000000001_search_posts\n1 migration rolled back on database default',
    err: '',
  });
  expect(await migrate('apply', '--version', '1700000000000', '--type', 'down', '--project', CLI_V3_PROJECT)).toEqual({
    code: 0,
    out: 'rolled back 1700000000000_init\n1 migration rolled back on database default',
    err: '',
  });
  expect(await exists('public.posts')).toBe(false);
  expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { default: {} } });
});

test('--database-name: the migrations of another database run on it and are recorded under its name', async () => {
  const cluster = process.env[CLUSTER_URL_VARIABLE]!;
  const archive = await createDatabase(cluster);
  try {
    const added = await post({ type: 'pg_add_source', args: { name: 'archive', configuration: { connection_info: { database_url: archive.url } } } });
    expect(added).toEqual({ status: 200, body: { message: 'success' } });
    const { dir } = harness;
    cpSync(CLI_V3_PROJECT, dir, { recursive: true });
    mkdirSync(join(dir, 'migrations', 'archive', '1690000000000_old_posts'), { recursive: true });
    writeFileSync(join(dir, 'migrations', 'archive', '1690000000000_old_posts', 'up.sql'), 'create table public.old_posts (id int primary key);\n');
    writeFileSync(join(dir, 'migrations', 'archive', '1690000000000_old_posts', 'down.sql'), 'drop table public.old_posts;\n');
    expect(await migrate('apply', '--database-name', 'archive', '--project', dir)).toEqual({
      code: 0,
      out: 'applied 1690000000000_old_posts\n1 migration applied on database archive',
      err: '',
    });
    const client = new Client({ connectionString: archive.url });
    await client.connect();
    try {
      expect((await client.query(`select to_regclass('public.old_posts') is not null as there`)).rows).toEqual([{ there: true }]);
    } finally {
      await client.end();
    }
    expect(await exists('public.old_posts')).toBe(false);
    expect(await records()).toEqual({ settings: { migration_mode: 'true' }, migrations: { archive: { '1690000000000': false } } });
    expect((await migrate('status', '--database-name', 'archive', '--project', dir)).out).toBe(
      ['', 'Database: archive', 'VERSION        NAME       SOURCE STATUS  DATABASE STATUS', '1690000000000  old_posts  Present        Present'].join('\n'),
    );
    // The server's own database is another: nothing of it is applied.
    expect((await migrate('status', '--project', dir)).out.split('\n').slice(3)).toEqual([
      '1700000000000  init          Present        Not Present',
      '1700000000001  search_posts  Present        Not Present',
    ]);
  } finally {
    await post({ type: 'pg_drop_source', args: { name: 'archive' } });
    await dropDatabase(cluster, archive.name);
  }
});
