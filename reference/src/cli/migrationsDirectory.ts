// The migrations of one database in a project of the engine's CLI: `migrations/<database>/` holds a
// folder `<version>_<name>` per migration (the version a number, by default the milliseconds of its
// creation), each with `up.sql` and `down.sql`. Pure: a listing of the folder in, the migrations in
// order of version out; an entry that is not one of them is an error that names it, so that a
// folder is used whole or not at all (decision 037). migrationsTree.ts does the I/O.

/** A folder or a file of the listing: a folder's files with their texts (a folder in it: null). */
export interface ListedEntry {
  name: string;
  files?: ReadonlyMap<string, string | null>;
}

export interface Migration {
  /** The version in decimal, without leading zeros: the key the CLI's state records. */
  version: string;
  name: string;
  /** The folder's name as it is on disk. */
  folder: string;
  /** The SQL of each direction the folder has. */
  up?: string;
  down?: string;
}

export class MigrationsError extends Error {}

/** The largest version the engine's CLI records (a bigint). */
const MAX_VERSION = 2n ** 63n - 1n;
const FOLDER = /^(\d+)_(.+)$/;
const FILES = new Set(['up.sql', 'down.sql']);

/** The migrations of a listing, in order of version; the first entry that is none is an error naming it. */
export function readMigrations(entries: readonly ListedEntry[]): Migration[] {
  const byVersion = new Map<string, Migration>();
  // In order of name (a folder's names are distinct): the first wrong entry is the one named.
  for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const migration = migrationOf(entry);
    const other = byVersion.get(migration.version);
    if (other) throw new MigrationsError(`${other.folder} and ${entry.name} have the same version ${migration.version}`);
    byVersion.set(migration.version, migration);
  }
  return [...byVersion.values()].sort((a, b) => compareVersions(a.version, b.version));
}

function migrationOf(entry: ListedEntry): Migration {
  const match = FOLDER.exec(entry.name);
  if (!entry.files || !match) {
    throw new MigrationsError(`${entry.name}: not a migration, which is a folder <version>_<name> (such as 1700000000000_init) holding up.sql and down.sql`);
  }
  const version = BigInt(match[1]!);
  if (version > MAX_VERSION) throw new MigrationsError(`${entry.name}: the version ${match[1]} is larger than a bigint holds`);
  const migration: Migration = { version: version.toString(), name: match[2]!, folder: entry.name };
  for (const [file, text] of [...entry.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (file === 'up.yaml' || file === 'down.yaml') {
      throw new MigrationsError(
        `${entry.name}/${file}: metadata steps of the CLI's config v1, which this command does not run; move them into the metadata directory and keep the SQL in up.sql and down.sql`,
      );
    }
    if (text === null || !FILES.has(file)) throw new MigrationsError(`${entry.name}/${file}: a migration holds only up.sql and down.sql`);
    migration[file === 'up.sql' ? 'up' : 'down'] = text;
  }
  if (migration.up === undefined && migration.down === undefined) throw new MigrationsError(`${entry.name}: holds neither up.sql nor down.sql`);
  return migration;
}

/** Versions in decimal, compared as numbers. */
export function compareVersions(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A version as a user gives it (`--version`, `--goto`): its decimal form, or undefined when it is none. */
export function parseVersion(text: string): string | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const version = BigInt(text);
  return version > MAX_VERSION ? undefined : version.toString();
}

/** The folder name of a new migration: refused when it would not read back as one, or would leave its folder. */
export function newMigrationFolder(version: string, name: string): string {
  if (name === '' || /[/\\\0]/.test(name)) {
    throw new MigrationsError(`${JSON.stringify(name)} cannot name a migration: give a name without / or \\`);
  }
  return `${version}_${name}`;
}
