// The CLI's state in the server's catalog: read, and one version recorded or forgotten, every
// other key (other databases, other settings, the CLI's own flags) kept.
import { cliStateOf, migrationModeOff, recordedVersions, withVersion } from './cliState';
import { MigrationsError } from './migrationsDirectory';

const written = {
  settings: { migration_mode: 'true' },
  migrations: { default: { '1700000000000': false, '1700000000001': true }, archive: { '5': false } },
  isStateCopyCompleted: true,
};

test('the state of get_catalog_state’s answer: an object, the first one {}', () => {
  expect(cliStateOf({ id: 'x', cli_state: written, console_state: {} })).toBe(written);
  expect(cliStateOf({ id: 'x', cli_state: {}, console_state: {} })).toEqual({});
  for (const bad of [null, [], 'x', 1]) {
    expect(() => cliStateOf({ id: 'x', cli_state: bad })).toThrow(
      new MigrationsError(`the server's catalog state for the CLI is not an object: ${JSON.stringify(bad)}`),
    );
  }
  expect(() => cliStateOf({ id: 'x' })).toThrow(new MigrationsError(`the server's catalog state for the CLI is not an object: null`));
  expect(() => cliStateOf(null)).toThrow(MigrationsError);
});

test('the versions recorded for a database, with whether each is dirty; none before the first', () => {
  expect(recordedVersions(written, 'default')).toEqual(
    new Map([
      ['1700000000000', false],
      ['1700000000001', true],
    ]),
  );
  expect(recordedVersions(written, 'archive')).toEqual(new Map([['5', false]]));
  expect(recordedVersions(written, 'other')).toEqual(new Map());
  expect(recordedVersions({}, 'default')).toEqual(new Map());
  expect(recordedVersions({ migrations: { default: { '007': false } } }, 'default')).toEqual(new Map([['7', false]]));
});

test('a state the CLI would not have written is named, not guessed at', () => {
  expect(() => recordedVersions({ migrations: [] }, 'default')).toThrow(
    new MigrationsError(`the server's catalog state for the CLI: "migrations" is not an object`),
  );
  expect(() => recordedVersions({ migrations: { default: ['1'] } }, 'default')).toThrow(
    new MigrationsError(`the server's catalog state for the CLI: the migrations of default are not an object`),
  );
  expect(() => recordedVersions({ migrations: { default: { v1: false } } }, 'default')).toThrow(
    new MigrationsError(`the server's catalog state for the CLI: default records "v1": false, not a version and whether it is dirty`),
  );
  expect(() => recordedVersions({ migrations: { default: { '12a': false } } }, 'default')).toThrow(
    new MigrationsError(`the server's catalog state for the CLI: default records "12a": false, not a version and whether it is dirty`),
  );
  expect(() => recordedVersions({ migrations: { default: { '1': 'no' } } }, 'default')).toThrow(
    new MigrationsError(`the server's catalog state for the CLI: default records "1": "no", not a version and whether it is dirty`),
  );
});

test('migration mode: off only when the setting says something else than "true"', () => {
  expect(migrationModeOff(written)).toBeUndefined();
  expect(migrationModeOff({})).toBeUndefined();
  expect(migrationModeOff({ settings: {} })).toBeUndefined();
  expect(migrationModeOff({ settings: { migration_mode: 'false' } })).toBe('"false"');
  expect(migrationModeOff({ settings: { migration_mode: true } })).toBe('true');
});

test('recording a version: clean, the CLI’s default setting added, everything else kept', () => {
  expect(withVersion({}, 'default', '1700000000000', true)).toEqual({
    settings: { migration_mode: 'true' },
    migrations: { default: { '1700000000000': false } },
  });
  expect(withVersion(written, 'default', '1700000000002', true)).toEqual({
    ...written,
    migrations: { ...written.migrations, default: { '1700000000000': false, '1700000000001': true, '1700000000002': false } },
  });
  // A dirty record made clean; a setting the user chose stays as it is.
  expect(withVersion({ ...written, settings: { migration_mode: 'true', other: 'x' } }, 'default', '1700000000001', true)).toEqual({
    ...written,
    settings: { migration_mode: 'true', other: 'x' },
    migrations: { ...written.migrations, default: { '1700000000000': false, '1700000000001': false } },
  });
  expect(withVersion(written, 'archive', '6', true).migrations).toEqual({ ...written.migrations, archive: { '5': false, '6': false } });
  // The state read is not changed.
  expect(written.migrations.default).toEqual({ '1700000000000': false, '1700000000001': true });
});

test('forgetting a version: it goes, the database stays (empty), everything else kept', () => {
  expect(withVersion(written, 'default', '1700000000001', false)).toEqual({
    ...written,
    migrations: { ...written.migrations, default: { '1700000000000': false } },
  });
  expect(withVersion({ migrations: { default: { '1': false } } }, 'default', '1', false)).toEqual({
    settings: { migration_mode: 'true' },
    migrations: { default: {} },
  });
});
