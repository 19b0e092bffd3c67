// The compiled-source cache of a source checkout (scripts/register-ts.js): each case runs node in a
// process of its own, as the binaries do, on files and a cache folder of its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REGISTER = join(__dirname, 'register-ts.js');
let dir: string;
let cache: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'register-ts-'));
  cache = join(dir, 'cache');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(file: string): { status: number | null; stdout: string; stderr: string } {
  const script = `require(${JSON.stringify(REGISTER)}).register(${JSON.stringify(cache)}); require(${JSON.stringify(file)});`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a TypeScript file and what it imports run; each compiled file is kept once under its hash', () => {
  writeFileSync(join(dir, 'helper.ts'), 'export const twice = (n: number): number => n * 2;\n');
  writeFileSync(join(dir, 'main.ts'), "import { twice } from './helper';\ninterface P { n: number }\nconst p: P = { n: 21 };\nconsole.log(twice(p.n));\n");
  expect(run(join(dir, 'main.ts'))).toEqual({ status: 0, stdout: '42\n', stderr: '' });
  const kept = readdirSync(cache).sort();
  expect(kept).toHaveLength(2);
  expect(kept.every((name) => /^[0-9a-f]{64}\.js$/.test(name))).toBe(true);
  // Run again: nothing new is written, and what is kept is what runs.
  for (const name of kept) writeFileSync(join(cache, name), readFileSync(join(cache, name), 'utf8').replace('n * 2', 'n * 3'));
  expect(run(join(dir, 'main.ts'))).toEqual({ status: 0, stdout: '63\n', stderr: '' });
  expect(readdirSync(cache).sort()).toEqual(kept);
});

test('a changed file is compiled again; the unchanged one is read from the cache', () => {
  writeFileSync(join(dir, 'helper.ts'), 'export const twice = (n: number): number => n * 2;\n');
  writeFileSync(join(dir, 'main.ts'), "import { twice } from './helper';\nconsole.log(twice(1));\n");
  expect(run(join(dir, 'main.ts')).stdout).toBe('2\n');
  writeFileSync(join(dir, 'main.ts'), "import { twice } from './helper';\nconsole.log(twice(5));\n");
  expect(run(join(dir, 'main.ts'))).toEqual({ status: 0, stdout: '10\n', stderr: '' });
  expect(readdirSync(cache)).toHaveLength(3);
});

test('an error names the TypeScript line it comes from', () => {
  writeFileSync(join(dir, 'fails.ts'), "type Unused = { a: string };\n\nthrow new Error('from line three');\n");
  const r = run(join(dir, 'fails.ts'));
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('from line three');
  expect(r.stderr).toContain(`${join(dir, 'fails.ts')}:3`);
});

test('a file that is not TypeScript is refused with its place, and nothing is kept for it', () => {
  writeFileSync(join(dir, 'broken.ts'), 'const x: = 1;\n');
  const r = run(join(dir, 'broken.ts'));
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('broken.ts');
  expect(readdirSync(dir)).not.toContain('cache');
});

test('a cache folder that cannot be written costs only the compilation', () => {
  writeFileSync(join(dir, 'cache'), 'a file where the folder would be');
  writeFileSync(join(dir, 'main.ts'), 'const n: number = 7;\nconsole.log(n);\n');
  expect(run(join(dir, 'main.ts'))).toEqual({ status: 0, stdout: '7\n', stderr: '' });
});
