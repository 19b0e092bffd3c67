// `engine-reference migrate apply|status|create`: the migrations of a project of the engine's CLI
// (PROJECT/migrations/<database>/<version>_<name>/{up,down}.sql) run on a server, each in its own
// transaction with its record, the records kept where the engine's CLI keeps them (the server's
// catalog state for the CLI), so that either tool sees what the other applied (decision 037).
// Exit codes as `metadata`'s: 0 done, 1 a migration failed (the ones before it kept), 2 could not be
// done (bad usage, a folder that cannot be read whole, a missing file, an unreachable server).
import { existsSync } from 'node:fs';
import { DEFAULT_SOURCE, schema } from '../../../spec';
import { UsageError, parseFlags } from '../flags';
import { adminApi, couldNotBeDone, type AdminApi } from './adminApi';
import { cliStateOf, migrationModeOff, recordedVersions } from './cliState';
import { applySteps } from './migrateApply';
import { planMigrations, type PlanRequest } from './migrationPlan';
import { dryRunLines, statusLines } from './migrationStatus';
import { compareVersions, MigrationsError, newMigrationFolder, parseVersion, readMigrations } from './migrationsDirectory';
import { listMigrations, migrationsFolder, writeMigration } from './migrationsTree';

export const MIGRATE_USAGE = `Usage: engine-reference migrate <apply|status|create> [options]

  apply         run the migrations not applied yet, oldest first, each in one transaction with its record
  status        list the versions of the migrations folder and of the server's records
  create NAME   write a new migration <now>_NAME/ with up.sql and down.sql

A project keeps the migrations of a database in PROJECT/migrations/<database>/, a folder
<version>_<name> per migration holding up.sql and down.sql, as the engine's CLI (config v3) writes
them. apply and status read the whole folder or nothing: an entry that is not such a folder, a file
in one other than up.sql and down.sql (up.yaml and down.yaml of config v1 included), or a file a step
needs that is missing is an error that names it, before the server is asked anything. The server
records the versions applied where the engine's CLI records them (get_catalog_state's cli_state):
either tool sees what the other applied. Then \`engine-reference metadata apply PROJECT/metadata\`.

apply, one of (default: --up all):
  --up N|all            the first N migrations not applied yet
  --down N|all          the last N applied, newest first: their down.sql, and their records go
  --version V           only migration V, with --type up (default) or --type down
  --goto V              every step up (or down) to migration V
and:
  --skip-execution      only record (or forget) them, without running their SQL (not with --goto)
  --dry-run             print what would run, and change nothing

Options:
  --database-name NAME  the database (source) of the migrations (default: default)
  --project DIR         the project (default: the current folder)
  --up-sql SQL          create only: the new migration's up.sql (default: empty)
  --down-sql SQL        create only: its down.sql (default: empty)
  --endpoint URL        the server (default: ENGINE_ENDPOINT, or http://127.0.0.1:8080)
  --admin-secret SECRET its admin secret (default: ENGINE_GRAPHQL_ADMIN_SECRET)
  --help                this text

Exit codes: 0 done, or nothing to do; 1 a migration failed: the ones before it stay applied and
recorded, it is neither; 2 could not be done: bad usage, a migrations folder that cannot be read
whole or lacks a file a step needs, an unreachable server or refused credentials.`;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

const FLAGS = {
  up: { type: 'string' },
  down: { type: 'string' },
  version: { type: 'string' },
  type: { type: 'string' },
  goto: { type: 'string' },
  'skip-execution': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'database-name': { type: 'string' },
  project: { type: 'string' },
  'up-sql': { type: 'string' },
  'down-sql': { type: 'string' },
  endpoint: { type: 'string' },
  'admin-secret': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Every command takes these, as the engine's CLI takes its global flags (create asks no server). */
const COMMON_FLAGS = ['database-name', 'project', 'endpoint', 'admin-secret', 'help'];
/** The flags of each command besides those. */
const COMMAND_FLAGS: Record<string, readonly string[]> = {
  apply: ['up', 'down', 'version', 'type', 'goto', 'skip-execution', 'dry-run'],
  status: [],
  create: ['up-sql', 'down-sql'],
};

type Values = ReturnType<typeof parseFlags<typeof FLAGS>>['values'];

export async function migrateCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const usage = (problem: string) => {
    io.err(`engine-reference migrate: ${problem}\n\n${MIGRATE_USAGE}`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseFlags(argv, FLAGS, true);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usage(error.message);
  }
  const { values } = parsed;
  if (values.help) {
    io.out(MIGRATE_USAGE);
    return 0;
  }
  const [command, ...rest] = parsed.positionals;
  if (!command || !(command in COMMAND_FLAGS)) return usage('expected apply, status or create');
  if (command === 'create' ? rest.length !== 1 : rest.length) return usage(command === 'create' ? 'create takes one NAME' : `unexpected argument ${rest[0]}`);
  const foreign = Object.keys(values).find((flag) => ![...COMMON_FLAGS, ...COMMAND_FLAGS[command]!].includes(flag));
  if (foreign) return usage(`--${foreign} is not a flag of ${command}`);
  const database = values['database-name'] ?? DEFAULT_SOURCE;
  const folder = migrationsFolder(values.project ?? '.', database);
  let request: PlanRequest | undefined;
  if (command === 'apply') {
    const chosen = requestOf(values);
    if (typeof chosen === 'string') return usage(chosen);
    request = chosen;
  }
  const api = adminApi(values, env);
  try {
    if (command === 'create') return create(folder, rest[0]!, values, io);
    // The folder is read whole before the server is asked anything.
    const migrations = readMigrations(listMigrations(folder));
    const state = await serverState(api, database);
    const recorded = recordedVersions(state, database);
    if (command === 'status') {
      for (const line of statusLines(database, migrations, recorded)) io.out(line);
      return 0;
    }
    const off = migrationModeOff(state);
    if (off)
      throw new MigrationsError(`migration mode is off on the server (the CLI's setting migration_mode is ${off}): the engine's CLI would not migrate either`);
    const skipExecution = values['skip-execution'] === true;
    const steps = planMigrations({ migrations, recorded, database, skipExecution }, request!);
    if (steps.length === 0) {
      io.out(`nothing to apply on database ${database}`);
      return 0;
    }
    if (values['dry-run']) {
      for (const line of dryRunLines(steps)) io.out(line);
      return 0;
    }
    return await applySteps(api, database, steps, skipExecution, io);
  } catch (error) {
    return couldNotBeDone(error, MigrationsError, folder, api.endpoint, (line) => io.err(line));
  }
}

/** What apply's flags ask for, or what is wrong with them. */
function requestOf(values: Values): PlanRequest | string {
  const chosen = (['up', 'down', 'version', 'goto'] as const).filter((flag) => values[flag] !== undefined);
  if (chosen.length > 1) return `one of --up, --down, --version and --goto at a time, not ${chosen.map((f) => `--${f}`).join(' and ')}`;
  if (values.type !== undefined && values.version === undefined) return '--type goes with --version';
  if (values.type !== undefined && values.type !== 'up' && values.type !== 'down') return `--type ${values.type}: up or down`;
  if (values['skip-execution'] && values['dry-run']) return '--skip-execution and --dry-run cannot be used together';
  if (values['skip-execution'] && values.goto !== undefined) return '--skip-execution goes with --up, --down or --version, not --goto';
  const kind = chosen[0] ?? 'up';
  if (kind === 'up' || kind === 'down') {
    const text = values[kind] ?? 'all';
    if (text === 'all') return { kind };
    if (!/^[1-9]\d{0,8}$/.test(text)) return `--${kind} ${text}: a number of migrations (1 or more), or all`;
    return { kind, count: Number(text) };
  }
  const version = parseVersion(values[kind]!);
  if (version === undefined) return `--${kind} ${values[kind]}: a version, the number a migration's folder name begins with`;
  return kind === 'goto' ? { kind, version } : { kind, version, direction: values.type === 'down' ? 'down' : 'up' };
}

/** The CLI's state on the server, after checking that the database is one of its sources. */
async function serverState(api: AdminApi, database: string) {
  const ask = async (type: string) => {
    const answer = await api.post('/v1/metadata', { type, args: {} });
    if (answer.status !== 200) throw new MigrationsError(`the server refused ${type} (${answer.status}): ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  if (database !== DEFAULT_SOURCE) {
    const exported = await ask('export_metadata');
    const sources = schema.isPlainObject(exported) && Array.isArray(exported.sources) ? (exported.sources as { name?: unknown }[]) : [];
    if (!sources.some((s) => s.name === database)) throw new MigrationsError(`the server at ${api.endpoint} has no database (source) named ${database}`);
  }
  return cliStateOf(await ask('get_catalog_state'));
}

/** A new migration, versioned now, or after the folder's last one when that is later (a clock behind, two in one millisecond). */
function create(folder: string, name: string, values: Values, io: Output): number {
  // A database's first migration makes its folder.
  const existing = existsSync(folder) ? readMigrations(listMigrations(folder)) : [];
  const last = existing.at(-1)?.version;
  const now = String(Date.now());
  const version = last !== undefined && compareVersions(last, now) >= 0 ? String(BigInt(last) + 1n) : now;
  const path = writeMigration(folder, newMigrationFolder(version, name), values['up-sql'] ?? '', values['down-sql'] ?? '');
  io.out(`created ${path} (up.sql, down.sql): version ${version}`);
  return 0;
}
