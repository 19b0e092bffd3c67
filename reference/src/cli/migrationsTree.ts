// The migrations folder of a database on disk: listed with the texts of its files for
// migrationsDirectory.ts to read, and a new migration written into it.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MigrationsError, type ListedEntry } from './migrationsDirectory';

/** Where a project keeps the migrations of a database: `migrations/<database>/`, as the CLI's config v3 does. */
export const migrationsFolder = (project: string, database: string) => join(project, 'migrations', database);

/** Every entry of the folder, a folder's files with their texts; what cannot be read is named. */
export function listMigrations(folder: string): ListedEntry[] {
  if (!existsSync(folder)) throw new MigrationsError('does not exist: the migrations of a database are in migrations/<database>/ of the project');
  if (!statSync(folder).isDirectory()) throw new MigrationsError('not a folder');
  return readdirSync(folder).map((name) => {
    const path = join(folder, name);
    if (!isFolder(path, name)) return { name };
    const files = new Map<string, string | null>();
    for (const file of readdirSync(path)) {
      files.set(file, isFolder(join(path, file), `${name}/${file}`) ? null : readText(join(path, file), `${name}/${file}`));
    }
    return { name, files };
  });
}

/** Whether a path is a folder, a link followed (two levels down, a link cannot lead round). */
function isFolder(path: string, named: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    throw new MigrationsError(`${named} cannot be read: ${(error as Error).message}`);
  }
}

function readText(path: string, named: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new MigrationsError(`${named} cannot be read: ${(error as Error).message}`);
  }
}

/** Writes `<folder>/<name>/up.sql` and `down.sql`; a folder already there is not written over. */
export function writeMigration(folder: string, name: string, up: string, down: string): string {
  const path = join(folder, name);
  if (existsSync(path)) throw new MigrationsError(`${path} already exists`);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'up.sql'), up);
  writeFileSync(join(path, 'down.sql'), down);
  return path;
}
