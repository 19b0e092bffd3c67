// docs/ARCHITECTURE.md names every folder of reference/src, and every folder it names exists.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const src = __dirname;
const page = readFileSync(join(src, '..', '..', 'docs', 'ARCHITECTURE.md'), 'utf8');

test('every folder of reference/src is in docs/ARCHITECTURE.md, and every folder it names exists', () => {
  const folders = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory());
  const named = new Set([...page.matchAll(/`([a-z]+)\/`/g)].map((m) => m[1]!));
  // Folders of the repository beside reference/src that the page mentions too.
  const elsewhere = ['graphql', 'dml', 'spec', 'docs'];
  expect(folders.filter((f) => !named.has(f))).toEqual([]);
  expect([...named].filter((f) => !folders.includes(f) && !elsewhere.includes(f))).toEqual([]);
});
