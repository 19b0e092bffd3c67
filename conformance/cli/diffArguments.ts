// Command-line arguments of `engine-conformance diff`.
import { resolve } from 'node:path';
import { parseFlags, UsageError } from '../../reference/src/flags';
import { AREAS, type Area } from '../diff/scenario';

export interface DiffCliOptions {
  target: string;
  database: string;
  adminSecret?: string;
  against: string;
  againstDatabase: string;
  againstAdminSecret?: string;
  /** The flag B's admin secret came from, as refusals name it. */
  againstAdminSecretFlag?: string;
  runs: number;
  seed: number;
  areas: Area[];
  /** fast-check's path of one scenario, printed with a difference: replays it alone. */
  path?: string;
  reportDir: string;
  junit?: string;
  allowClear: boolean;
}

const AREA_NAMES = Object.keys(AREAS) as Area[];

export const DIFF_USAGE = `usage: engine-conformance diff --target URL --database POSTGRES_URL --against URL --against-database POSTGRES_URL
                               [--admin-secret SECRET] [--against-admin-secret SECRET] [--runs N] [--seed S]
                               [--areas ${AREA_NAMES.join(',')}] [--path P] [--report-dir DIR] [--junit FILE] [--allow-clear]

Sends the same generated scenarios to two implementations and compares their answers: each
scenario makes up to three related tables with rows (in the schema engine_diff of each target's
own database), replaces the metadata with a generated document (permissions with generated
BoolExps, relationships, REST endpoints) and sends generated requests — GraphQL queries, aggregates
and mutations per role, legacy DML, REST calls, metadata operations (refused ones too) — reading
the tables' rows after each change. Answers are compared on status, data, and the first error's
code and path (its message too where the specification fixes it). On the first difference the
scenario is shrunk to the smallest that still differs and printed as a reproduction: the SQL, the
requests as curl lines, both answers. Both targets are left as they were found.

--target, --database          implementation A and its database
--against, --against-database implementation B and its database (another database than A's)
--admin-secret                A's admin secret; --against-admin-secret B's (default: A's)
--runs      scenarios to try (default 100)
--seed      the seed of the scenarios (default: from the clock; printed, to run the same again)
--areas     which requests to make, comma-separated (default: all): ${AREA_NAMES.join(', ')}
--path      replay one scenario: the path printed with a difference (with its --seed)
--report-dir where diff-report.json and .html go (default: the current directory)
--junit     also write the result as JUnit XML to FILE
--allow-clear run against targets whose metadata is not empty (it is restored afterwards)

Exit codes: 0 no difference, 1 a difference (or the scenarios could not be run), 2 bad usage or
a target or database unreachable or in use, 130 interrupted (the targets restored).`;

const positive = (flag: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${flag} takes a positive whole number, got ${JSON.stringify(value)}`);
  return Number(value);
};

export function parseDiffArguments(argv: readonly string[], cwd: string, now = Date.now()): DiffCliOptions | 'help' {
  const { values } = parseFlags(argv, {
    target: { type: 'string' },
    database: { type: 'string' },
    'admin-secret': { type: 'string' },
    against: { type: 'string' },
    'against-database': { type: 'string' },
    'against-admin-secret': { type: 'string' },
    runs: { type: 'string' },
    seed: { type: 'string' },
    areas: { type: 'string' },
    path: { type: 'string' },
    'report-dir': { type: 'string' },
    junit: { type: 'string' },
    'allow-clear': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  for (const flag of ['target', 'database', 'against', 'against-database'] as const) {
    if (!values[flag]) throw new UsageError(`--${flag} is required`);
  }
  for (const flag of ['target', 'against'] as const) {
    if (!/^https?:\/\//.test(values[flag]!)) throw new UsageError(`--${flag} takes an http(s) URL, got ${JSON.stringify(values[flag])}`);
  }
  if (values.database === values['against-database']) {
    throw new UsageError('--database and --against-database must be two databases: each target makes the same tables in its own');
  }
  const areas = values.areas === undefined ? AREA_NAMES : values.areas.split(',').map((a) => a.trim());
  for (const area of areas) {
    if (!AREA_NAMES.includes(area as Area)) throw new UsageError(`unknown area ${JSON.stringify(area)}: the areas are ${AREA_NAMES.join(', ')}`);
  }
  if (areas.length === 0) throw new UsageError('--areas names no area');
  const seed = values.seed === undefined ? now % 2 ** 31 : Number(values.seed);
  if (!Number.isSafeInteger(seed) || (values.seed !== undefined && !/^-?\d+$/.test(values.seed)))
    throw new UsageError(`--seed takes a whole number, got ${JSON.stringify(values.seed)}`);
  const adminSecret = values['admin-secret'];
  const againstAdminSecret = values['against-admin-secret'] ?? adminSecret;
  return {
    target: values.target!.replace(/\/+$/, ''),
    database: values.database!,
    ...(adminSecret !== undefined ? { adminSecret } : {}),
    against: values.against!.replace(/\/+$/, ''),
    againstDatabase: values['against-database']!,
    ...(againstAdminSecret !== undefined
      ? {
          againstAdminSecret,
          againstAdminSecretFlag:
            values['against-admin-secret'] !== undefined ? '--against-admin-secret' : '--admin-secret (taken for B too: no --against-admin-secret was given)',
        }
      : {}),
    runs: positive('runs', values.runs, 100),
    seed,
    areas: areas as Area[],
    ...(values.path !== undefined ? { path: values.path } : {}),
    reportDir: resolve(cwd, values['report-dir'] ?? '.'),
    ...(values.junit !== undefined ? { junit: resolve(cwd, values.junit) } : {}),
    allowClear: values['allow-clear'] === true,
  };
}

export { UsageError };
