// A directory that `engine-reference metadata apply|diff` cannot read whole is work that could not
// be done: exit 2 naming the file, before the server is asked anything, and its metadata unchanged.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { useMetadataCli } from '../../test-support/metadataCli';

const PROJECT = join(__dirname, '..', '..', '..', 'fixtures', 'projects', 'cli-v3');
const harness = useMetadataCli('all');

const BEFORE = { version: 2, tables: [{ table: { schema: 'public', name: 'users' } }] };

beforeAll(async () => {
  const sql = readFileSync(join(PROJECT, 'migrations', 'default', '1700000000000_init', 'up.sql'), 'utf8');
  expect((await harness.post({ type: 'run_sql', args: { sql } }, '/v2/query')).status).toBe(200);
});
beforeEach(async () => {
  expect(await harness.post({ type: 'replace_metadata', args: BEFORE })).toEqual({ status: 200, body: { message: 'success' } });
  cpSync(join(PROJECT, 'metadata'), harness.dir, { recursive: true });
});

/** apply and diff both refuse the directory with `message`, and the server keeps its metadata. */
async function refused(message: string) {
  const { dir } = harness;
  expect(await harness.cli('apply', dir)).toEqual({ code: 2, out: '', err: `${dir}: ${message}` });
  expect(await harness.cli('diff', dir)).toEqual({ code: 2, out: '', err: `${dir}: ${message}` });
  expect(await harness.exported()).toEqual(BEFORE);
}

test('no version.yaml: the layout is unknown', async () => {
  rmSync(join(harness.dir, 'version.yaml'));
  await refused('version.yaml is missing: it says which layout the directory has (version: 2 or version: 3)');
});

test('a version.yaml of another version, or without one', async () => {
  writeFileSync(join(harness.dir, 'version.yaml'), 'version: 4\n');
  await refused('version.yaml: version 4 is no layout this command reads (2 or 3)');
  writeFileSync(join(harness.dir, 'version.yaml'), 'versoin: 3\n');
  await refused('version.yaml: unknown key versoin (expected version)');
  writeFileSync(join(harness.dir, 'version.yaml'), '- 3\n');
  await refused('version.yaml must hold an object');
});

const write = (file: string, text: string) => () => {
  mkdirSync(dirname(join(harness.dir, file)), { recursive: true });
  writeFileSync(join(harness.dir, file), text);
};
const edit = (file: string, from: string, to: string) => () => {
  const text = readFileSync(join(harness.dir, file), 'utf8');
  expect(text).toContain(from);
  writeFileSync(join(harness.dir, file), text.replace(from, to));
};
const TABLES = 'databases/default/tables/tables.yaml';

test.each<[string, () => void, string]>([
  ['a file of no layout at the top', write('notes.txt', 'remember'), 'notes.txt is no file of the version 3 layout, and no !include names it'],
  [
    'a table file no !include names',
    edit(TABLES, '- "!include public_users.yaml"\n', ''),
    'databases/default/tables/public_users.yaml is no file of the version 3 layout, and no !include names it',
  ],
  [
    'a file in a folder of its own',
    write('databases/default/tables/old/public_users.yaml', 'table: {schema: public, name: users}\n'),
    'databases/default/tables/old/public_users.yaml is no file of the version 3 layout, and no !include names it',
  ],
  [
    'no databases.yaml',
    () => rmSync(join(harness.dir, 'databases', 'databases.yaml')),
    'databases/databases.yaml is missing: it lists the databases and what is tracked in each',
  ],
  [
    'a table file that is not valid YAML',
    edit('databases/default/tables/public_posts.yaml', '  name: posts\n', ' name: posts\n'),
    'databases/default/tables/public_posts.yaml is not valid YAML (line 3, column 1): All mapping items must start at the same column',
  ],
  [
    'a key twice',
    edit('cron_triggers.yaml', '  schedule: 0 3 * * *\n', '  schedule: 0 3 * * *\n  schedule: 0 4 * * *\n'),
    'cron_triggers.yaml is not valid YAML (line 4, column 3): Map keys must be unique',
  ],
  [
    'two documents in one file',
    write('api_limits.yaml', '{}\n---\n{}\n'),
    'api_limits.yaml is not valid YAML (line 2, column 1): it holds more than one document',
  ],
  ['a list where an object must be', write('network.yaml', '[]\n'), 'network.yaml must hold an object'],
  ['an object where a list must be', write('cron_triggers.yaml', 'name: nightly_digest\n'), 'cron_triggers.yaml must hold a list'],
  ['databases.yaml not a list', write('databases/databases.yaml', 'name: default\n'), 'databases/databases.yaml must hold a list'],
  ['a source without a name', write('databases/databases.yaml', '- kind: postgres\n'), 'databases/databases.yaml: source 1 must be an object with a name'],
  [
    'a table file holding a list',
    write('databases/default/tables/public_users.yaml', '- table: {schema: public, name: users}\n'),
    'databases/default/tables/public_users.yaml must hold an object (a table)',
  ],
  ['a table list that is no list', write(TABLES, 'users: "!include public_users.yaml"\n'), `${TABLES}: tables of source default must hold a list`],
  ['a table that is a bare name', edit(TABLES, '"!include public_users.yaml"', 'public_users.yaml'), `${TABLES}: item 4 must be an object (a table)`],
  [
    'an !include of a file that is not there',
    edit(TABLES, 'public_users.yaml', 'public_user.yaml'),
    `${TABLES}: !include public_user.yaml: there is no file databases/default/tables/public_user.yaml`,
  ],
  [
    'an !include out of the directory',
    edit(TABLES, '"!include public_users.yaml"', '"!include ../../../../users.yaml"'),
    `${TABLES}: !include ../../../../users.yaml leads outside the directory`,
  ],
  [
    'an !include of itself',
    edit('databases/default/tables/public_post_status.yaml', 'is_enum: true\n', 'is_enum: true\narray_relationships: "!include tables.yaml"\n'),
    'databases/default/tables/public_post_status.yaml: !include tables.yaml includes itself: databases/databases.yaml → databases/default/tables/tables.yaml → ' +
      'databases/default/tables/public_post_status.yaml → databases/default/tables/tables.yaml',
  ],
  [
    'a key actions.yaml does not have',
    edit('actions.yaml', 'custom_types:', 'custom_typse:'),
    'actions.yaml: unknown key custom_typse (expected actions, custom_types)',
  ],
  [
    'a key graphql_schema_introspection.yaml does not have',
    write('graphql_schema_introspection.yaml', 'disabled_for_role: []\n'),
    'graphql_schema_introspection.yaml: unknown key disabled_for_role (expected disabled_for_roles)',
  ],
  ['an action without its field in actions.graphql', write('actions.graphql', ''), 'the action "publish_post" of actions.yaml has no field in actions.graphql'],
])('version 3: %s', async (_title, breakIt, message) => {
  breakIt();
  await refused(message);
});

test.each<[string, Record<string, string>, string]>([
  ['a file of no layout', { 'databases/databases.yaml': '[]\n' }, 'databases/databases.yaml is no file of the version 2 layout'],
  ['a list where an object must be', { 'tables.yaml': 'table: users\n' }, 'tables.yaml must hold a list'],
  ['a key actions.yaml does not have', { 'actions.yaml': 'action: []\n' }, 'actions.yaml: unknown key action (expected actions, custom_types)'],
])('version 2: %s', async (_title, files, message) => {
  rmSync(harness.dir, { recursive: true });
  mkdirSync(harness.dir);
  for (const [file, text] of Object.entries({ 'version.yaml': 'version: 2\n', ...files })) write(file, text)();
  await refused(message);
});
