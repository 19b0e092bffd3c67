// What `migrate status` and `migrate apply --dry-run` print, as the engine's CLI prints them: a
// table whose columns are as wide as their widest cell plus two spaces (Go's tabwriter, which the
// CLI uses), the last column as it is.
import { compareVersions, type Migration } from './migrationsDirectory';
import type { Step } from './migrationPlan';

/** Rows of cells aligned in columns; a cell's width is its number of characters. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) => row.map((cell, i) => (i < row.length - 1 ? cell + ' '.repeat(widths[i]! - [...cell].length + 2) : cell)).join(''));
}

const presence = (present: boolean) => (present ? 'Present' : 'Not Present');

/** Every version of the folder or of the server's records, oldest first: its name (none when only recorded), and where it is. */
export function statusLines(database: string, migrations: readonly Migration[], recorded: ReadonlyMap<string, boolean>): string[] {
  const names = new Map(migrations.map((m) => [m.version, m.name]));
  const versions = [...new Set([...names.keys(), ...recorded.keys()])].sort(compareVersions);
  return [
    '',
    `Database: ${database}`,
    ...table([
      ['VERSION', 'NAME', 'SOURCE STATUS', 'DATABASE STATUS'],
      ...versions.map((v) => [v, names.get(v) ?? '', presence(names.has(v)), presence(recorded.has(v))]),
    ]),
  ];
}

/** The steps apply would run. */
export function dryRunLines(steps: readonly Step[]): string[] {
  return table([['VERSION', 'TYPE', 'NAME'], ...steps.map((s) => [s.migration.version, s.direction, s.migration.name])]);
}
