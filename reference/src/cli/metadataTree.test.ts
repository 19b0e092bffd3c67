// The directory on disk: every file under it, links to files followed, links to folders and files
// that cannot be read refused by name; an export's writes and removals, empty folders left out.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeOf } from '../../test-support/metadataCli';
import { readTree, writeTree } from './metadataTree';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-tree-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('every file under the directory by its relative path; a link to a file is read as the file', () => {
  writeTree(dir, { 'version.yaml': 'version: 3\n', 'databases/default/tables/tables.yaml': '[]\n' }, []);
  symlinkSync(join(dir, 'version.yaml'), join(dir, 'linked.yaml'));
  expect(readTree(dir)).toEqual({ 'version.yaml': 'version: 3\n', 'databases/default/tables/tables.yaml': '[]\n', 'linked.yaml': 'version: 3\n' });
});

test('what cannot be read is named', () => {
  expect(() => readTree(join(dir, 'absent'))).toThrow('no such directory');
  writeFileSync(join(dir, 'file'), '');
  expect(() => readTree(join(dir, 'file'))).toThrow('not a directory');
  mkdirSync(join(dir, 'sub'));
  symlinkSync(dir, join(dir, 'sub', 'up'));
  expect(() => readTree(dir)).toThrow('sub/up is a link to a folder, which this command does not follow');
  rmSync(join(dir, 'sub', 'up'));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'broken.yaml'));
  expect(() => readTree(dir)).toThrow(/^broken\.yaml cannot be read: ENOENT/);
});

test('writes files with their folders, removes the stale ones and the folders that leaves empty', () => {
  writeTree(dir, { 'a.yaml': '1', 'databases/old/tables/x.yaml': '2', 'databases/keep/tables/y.yaml': '3', 'databases/keep/tables/z.yaml': '4' }, []);
  writeTree(dir, { 'a.yaml': '5' }, ['databases/old/tables/x.yaml', 'databases/keep/tables/z.yaml']);
  expect(treeOf(dir)).toEqual({ 'a.yaml': '5', 'databases/keep/tables/y.yaml': '3' });
  expect(() => readTree(join(dir, 'databases', 'old'))).toThrow('no such directory');
});
