// A directory that `engine-reference metadata apply|diff` cannot read whole is work that could not
// be done: exit 2 naming the file, before the server is asked anything, and its metadata unchanged.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

test('a directory of version 3 is not read as one of version 2', async () => {
  await refused('version.yaml: version 3 is a layout this command does not read yet');
});
