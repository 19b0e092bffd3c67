// Which migrations `migrate apply` runs, in which direction and order, as the engine's CLI chooses
// them: every migration not applied yet, oldest first (--up N: the first N); the last N applied,
// newest first (--down N); one version (--version V --type up|down); or every step to a version
// (--goto V). Pure: the migrations folder and the versions the server records in, the steps out;
// anything that keeps a step from running (a file it needs, a version that is not there) is an
// error before any of them runs.
import { compareVersions, MigrationsError, type Migration } from './migrationsDirectory';

export type Direction = 'up' | 'down';

export type PlanRequest =
  | { kind: 'up'; count?: number }
  | { kind: 'down'; count?: number }
  | { kind: 'version'; version: string; direction: Direction }
  | { kind: 'goto'; version: string };

export interface Step {
  migration: Migration;
  direction: Direction;
}

export interface PlanInput {
  migrations: readonly Migration[];
  /** The versions recorded as applied, each with whether the engine's CLI left it dirty. */
  recorded: ReadonlyMap<string, boolean>;
  database: string;
  /** Only the records change (--skip-execution): a dirty record may be set right this way. */
  skipExecution: boolean;
}

export function planMigrations(input: PlanInput, request: PlanRequest): Step[] {
  const { migrations, recorded, database } = input;
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  const dirty = [...recorded].filter(([, isDirty]) => isDirty).map(([version]) => version);
  const settlesDirty = request.kind === 'version' && input.skipExecution && recorded.get(request.version) === true;
  if (dirty.length > 0 && !settlesDirty) {
    const version = dirty.sort(compareVersions)[0]!;
    throw new MigrationsError(
      `version ${version} is recorded as dirty on database ${database}: a migration of the engine's CLI began there and did not finish. ` +
        `Make the database right by hand, then record it with --version ${version} --skip-execution (--type up: applied, --type down: not applied)`,
    );
  }
  const applied = [...recorded.keys()].sort(compareVersions).reverse();
  const pending = migrations.filter((m) => !recorded.has(m.version));
  const inFolder = (version: string) => {
    const migration = byVersion.get(version);
    if (!migration) throw new MigrationsError(`the migrations of database ${database} have no folder of version ${version}`);
    return migration;
  };
  const up = (m: Migration): Step => {
    if (m.up === undefined) throw new MigrationsError(`${m.folder} has no up.sql`);
    return { migration: m, direction: 'up' };
  };
  const down = (version: string): Step => {
    const m = inFolder(version);
    if (m.down === undefined) throw new MigrationsError(`${m.folder} has no down.sql`);
    return { migration: m, direction: 'down' };
  };
  const counted = <T>(all: T[], count: number | undefined, flag: string, what: string): T[] => {
    if (count !== undefined && all.length > 0 && count > all.length) {
      throw new MigrationsError(`--${flag} ${count}: only ${all.length} migration${all.length === 1 ? ' is' : 's are'} ${what} on database ${database}`);
    }
    return all.slice(0, count);
  };
  switch (request.kind) {
    case 'up':
      return counted(pending, request.count, 'up', 'not applied').map(up);
    case 'down':
      return counted(applied, request.count, 'down', 'applied').map(down);
    case 'version': {
      const { version } = request;
      if (request.direction === 'up') {
        const migration = inFolder(version);
        if (recorded.get(version) === false) throw new MigrationsError(`${migration.folder} is already applied on database ${database}`);
        return [up(migration)];
      }
      if (!recorded.has(version)) throw new MigrationsError(`version ${version} is not applied on database ${database}`);
      return [down(version)];
    }
    case 'goto': {
      const target = inFolder(request.version).version;
      const current = applied[0];
      if (current === undefined || compareVersions(current, target) <= 0) return pending.filter((m) => compareVersions(m.version, target) <= 0).map(up);
      return applied.filter((v) => compareVersions(v, target) > 0).map(down);
    }
  }
}
