// Where the engine's CLI (config v3) records the migrations it applied: the server's catalog state
// for the CLI (get_catalog_state's `cli_state`, replaced whole by set_catalog_state), of the form
// {"settings": {"migration_mode": "true"}, "migrations": {"<database>": {"<version>": <dirty>}},
// "isStateCopyCompleted": <bool>}. Pure: the state read, and the state with one version recorded or
// forgotten, every other key kept, so that either tool sees what the other applied (decision 037).
import { schema } from '../../../spec';
import { MigrationsError } from './migrationsDirectory';

/** The CLI's state as the server answers it. */
export type CliState = Record<string, unknown>;

/** The CLI's state of get_catalog_state's answer: an object (the server's first state is {}). */
export function cliStateOf(answer: unknown): CliState {
  const state = schema.isPlainObject(answer) ? answer.cli_state : undefined;
  if (!schema.isPlainObject(state)) throw new MigrationsError(`the server's catalog state for the CLI is not an object: ${JSON.stringify(state ?? null)}`);
  return state;
}

/** The versions recorded for a database, each with whether the CLI left it dirty (begun, not finished). */
export function recordedVersions(state: CliState, database: string): Map<string, boolean> {
  const migrations = state.migrations ?? {};
  if (!schema.isPlainObject(migrations)) throw new MigrationsError(`the server's catalog state for the CLI: "migrations" is not an object`);
  const recorded = migrations[database] ?? {};
  if (!schema.isPlainObject(recorded)) throw new MigrationsError(`the server's catalog state for the CLI: the migrations of ${database} are not an object`);
  const versions = new Map<string, boolean>();
  for (const [version, dirty] of Object.entries(recorded)) {
    if (!/^\d+$/.test(version) || typeof dirty !== 'boolean') {
      throw new MigrationsError(
        `the server's catalog state for the CLI: ${database} records ${JSON.stringify(version)}: ${JSON.stringify(dirty)}, not a version and whether it is dirty`,
      );
    }
    versions.set(BigInt(version).toString(), dirty);
  }
  return versions;
}

/** The CLI refuses to migrate unless its `migration_mode` setting is "true" (the default it writes). */
export function migrationModeOff(state: CliState): string | undefined {
  const mode = schema.isPlainObject(state.settings) ? state.settings.migration_mode : undefined;
  return mode === undefined || mode === 'true' ? undefined : JSON.stringify(mode);
}

/** The state with a version of a database recorded as applied (clean), or forgotten. */
export function withVersion(state: CliState, database: string, version: string, applied: boolean): CliState {
  const migrations = schema.isPlainObject(state.migrations) ? state.migrations : {};
  const recorded = { ...(schema.isPlainObject(migrations[database]) ? migrations[database] : {}) };
  if (applied) recorded[version] = false;
  else delete recorded[version];
  // The setting the CLI writes on its first use, so that it migrates this database too.
  const settings = schema.isPlainObject(state.settings) ? state.settings : {};
  return { ...state, settings: { migration_mode: 'true', ...settings }, migrations: { ...migrations, [database]: recorded } };
}
