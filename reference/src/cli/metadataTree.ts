// The metadata directory on disk: every file under it read as text, and an export's files written
// with those it replaces removed. The layouts themselves are metadata/directory.ts's, without I/O.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DirectoryError, type DirectoryTexts } from '../metadata/directory';

/** Every file under `dir`, by its path relative to it with `/` between parts. */
export function readTree(dir: string): DirectoryTexts {
  if (!existsSync(dir)) throw new DirectoryError('no such directory');
  if (!statSync(dir).isDirectory()) throw new DirectoryError('not a directory');
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      // A link is read as the file it leads to; one to a folder is not followed (it could lead back up).
      try {
        if (statSync(join(dir, path)).isDirectory()) throw new DirectoryError(`${path} is a link to a folder, which this command does not follow`);
        files[path] = readFileSync(join(dir, path), 'utf8');
      } catch (error) {
        if (error instanceof DirectoryError) throw error;
        throw new DirectoryError(`${path} cannot be read: ${(error as Error).message}`);
      }
    }
  };
  walk('');
  return files;
}

/** Writes `files` under `dir` and removes `stale`, and the folders that removing leaves empty. */
export function writeTree(dir: string, files: Record<string, string>, stale: readonly string[]): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const path of stale) {
    unlinkSync(join(dir, path));
    for (let folder = dirname(path); folder !== '.' && readdirSync(join(dir, folder)).length === 0; folder = dirname(folder)) rmdirSync(join(dir, folder));
  }
}
