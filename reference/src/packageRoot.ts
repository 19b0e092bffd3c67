// The folder the package lives in: the source checkout, or an installed package whose code is in
// dist/. Files shipped beside the code (fixtures, the console's assets) are found from here.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'engine-reference.js'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package root above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(__dirname);

/** Whether this is a source checkout (TypeScript run as is) rather than an installed package. */
export const FROM_SOURCE = existsSync(join(PACKAGE_ROOT, 'reference', 'src', 'main.ts'));
