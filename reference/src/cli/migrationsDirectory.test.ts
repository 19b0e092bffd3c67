// The migrations folder of a database read whole: every entry a migration, or an error naming it.
import { compareVersions, MigrationsError, newMigrationFolder, parseVersion, readMigrations, type ListedEntry } from './migrationsDirectory';

const folder = (name: string, files: Record<string, string | null>): ListedEntry => ({ name, files: new Map(Object.entries(files)) });
const refused = (entries: ListedEntry[]) => {
  try {
    readMigrations(entries);
  } catch (error) {
    expect(error).toBeInstanceOf(MigrationsError);
    return (error as Error).message;
  }
  throw new Error('read');
};

test('migrations come in order of version, as numbers; leading zeros dropped; a folder may hold one direction', () => {
  expect(
    readMigrations([
      folder('1700000000010_b', { 'up.sql': 'create table b ();', 'down.sql': 'drop table b;' }),
      folder('999_first', { 'up.sql': '' }),
      folder('01700000000009_a', { 'down.sql': 'drop table a;', 'up.sql': 'create table a ();' }),
      folder('1700000000011_only down', { 'down.sql': 'select 1;' }),
    ]),
  ).toEqual([
    { version: '999', name: 'first', folder: '999_first', up: '' },
    { version: '1700000000009', name: 'a', folder: '01700000000009_a', up: 'create table a ();', down: 'drop table a;' },
    { version: '1700000000010', name: 'b', folder: '1700000000010_b', up: 'create table b ();', down: 'drop table b;' },
    { version: '1700000000011', name: 'only down', folder: '1700000000011_only down', down: 'select 1;' },
  ]);
  expect(readMigrations([])).toEqual([]);
  // The name is everything after the first underscore.
  expect(readMigrations([folder('1_a_b_c', { 'up.sql': 'x' })])[0]).toEqual({ version: '1', name: 'a_b_c', folder: '1_a_b_c', up: 'x' });
});

test('an entry that is no migration folder is named', () => {
  const hint = 'not a migration, which is a folder <version>_<name> (such as 1700000000000_init) holding up.sql and down.sql';
  expect(refused([folder('1_a', { 'up.sql': '' }), { name: 'README.md' }])).toBe(`README.md: ${hint}`);
  expect(refused([{ name: '.gitkeep' }])).toBe(`.gitkeep: ${hint}`);
  expect(refused([{ name: '1700000000000_init' }])).toBe(`1700000000000_init: ${hint}`);
  expect(refused([folder('init', { 'up.sql': '' })])).toBe(`init: ${hint}`);
  expect(refused([folder('1700000000000_', { 'up.sql': '' })])).toBe(`1700000000000_: ${hint}`);
  expect(refused([folder('_init', { 'up.sql': '' })])).toBe(`_init: ${hint}`);
  expect(refused([folder('17e3_init', { 'up.sql': '' })])).toBe(`17e3_init: ${hint}`);
  expect(refused([folder('-1_init', { 'up.sql': '' })])).toBe(`-1_init: ${hint}`);
  // Of several, the first by name, whatever order the disk lists them in.
  expect(refused([{ name: 'b.txt' }, folder('1_a', { 'up.sql': '' }), { name: 'a.txt' }])).toBe(`a.txt: ${hint}`);
});

test('a migration folder holds up.sql and down.sql and nothing else; the config v1 files are named as such', () => {
  expect(refused([folder('1_a', { 'up.sql': '', 'notes.txt': 'x' })])).toBe('1_a/notes.txt: a migration holds only up.sql and down.sql');
  expect(refused([folder('1_a', { 'up.sql': '', sub: null })])).toBe('1_a/sub: a migration holds only up.sql and down.sql');
  expect(refused([folder('1_a', { 'up.sql': null })])).toBe('1_a/up.sql: a migration holds only up.sql and down.sql');
  expect(refused([folder('1_a', { 'UP.SQL': '' })])).toBe('1_a/UP.SQL: a migration holds only up.sql and down.sql');
  expect(refused([folder('1_a', {})])).toBe('1_a: holds neither up.sql nor down.sql');
  // Of several, the first by name, whatever order the disk lists them in.
  expect(refused([folder('1_a', { 'z.txt': '', 'up.sql': '', 'b.txt': '' })])).toBe('1_a/b.txt: a migration holds only up.sql and down.sql');
  expect(refused([folder('1_a', { 'b.txt': '', 'up.sql': '', 'z.txt': '' })])).toBe('1_a/b.txt: a migration holds only up.sql and down.sql');
  for (const file of ['up.yaml', 'down.yaml']) {
    expect(refused([folder('1_a', { 'up.sql': '', [file]: '- type: track_table' })])).toBe(
      `1_a/${file}: metadata steps of the CLI's config v1, which this command does not run; move them into the metadata directory and keep the SQL in up.sql and down.sql`,
    );
  }
});

test('two folders of one version, or a version a bigint cannot hold, are refused', () => {
  expect(refused([folder('2_b', { 'up.sql': '' }), folder('02_a', { 'up.sql': '' })])).toBe('02_a and 2_b have the same version 2');
  expect(refused([folder('2_a', { 'up.sql': '' }), folder('2_b', { 'up.sql': '' })])).toBe('2_a and 2_b have the same version 2');
  expect(readMigrations([folder('9223372036854775807_max', { 'up.sql': '' })])[0]!.version).toBe('9223372036854775807');
  expect(refused([folder('9223372036854775808_over', { 'up.sql': '' })])).toBe(
    '9223372036854775808_over: the version 9223372036854775808 is larger than a bigint holds',
  );
});

test('versions compare as numbers, beyond what a double holds exactly', () => {
  expect(compareVersions('9', '10')).toBe(-1);
  expect(compareVersions('10', '9')).toBe(1);
  expect(compareVersions('9007199254740993', '9007199254740992')).toBe(1);
  expect(compareVersions('7', '7')).toBe(0);
  expect(parseVersion('0017')).toBe('17');
  expect(parseVersion('9223372036854775807')).toBe('9223372036854775807');
  for (const bad of ['', '1.5', '-1', 'x', '9223372036854775808', ' 1']) expect(parseVersion(bad)).toBeUndefined();
});

test('a new migration folder is <version>_<name>; a name that would leave the folder, or none, is refused', () => {
  expect(newMigrationFolder('1700000000000', 'add likes')).toBe('1700000000000_add likes');
  for (const bad of ['', 'a/b', 'a\\b', 'a\0b']) {
    expect(() => newMigrationFolder('1', bad)).toThrow(new MigrationsError(`${JSON.stringify(bad)} cannot name a migration: give a name without / or \\`));
  }
});
