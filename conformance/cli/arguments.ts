// Command-line arguments of `engine-conformance`.
import { resolve } from 'node:path';

export interface CliOptions {
  target: string;
  adminSecret?: string;
  database: string;
  profiles: Record<string, string>;
  reportDir: string;
  /** Only the case files whose path contains this text. */
  filter?: string;
  /** Where the JUnit XML goes, if anywhere. */
  junit?: string;
}

export const USAGE = `usage: engine-conformance --target URL --database POSTGRES_URL [--admin-secret SECRET]
                          [--profile NAME=URL]... [--report-dir DIR] [--filter TEXT] [--junit FILE]

Runs the conformance suite against the engine at URL, whose database is POSTGRES_URL.
--profile   an engine configured as profile NAME (see conformance/harness/profiles.ts);
            cases needing a profile without one are reported as not run
--report-dir where conformance-report.json and .html go (default: the current directory)
--filter    run only the case files whose path contains TEXT
--junit     also write the results as JUnit XML to FILE, for CI systems`;

export class UsageError extends Error {}

export function parseCliArguments(argv: readonly string[], cwd: string): CliOptions | 'help' {
  const values: Record<string, string> = {};
  const profiles: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return 'help';
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    const name = m[1]!;
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (name === 'profile') {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new UsageError(`--profile takes NAME=URL, got ${JSON.stringify(value)}`);
      profiles[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (['target', 'admin-secret', 'database', 'report-dir', 'filter', 'junit'].includes(name)) {
      values[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  if (!values.target) throw new UsageError('--target is required');
  if (!values.database) throw new UsageError('--database is required: the suite sets up fixtures and checks results in SQL');
  for (const url of [values.target, ...Object.values(profiles)]) {
    if (!/^https?:\/\//.test(url)) throw new UsageError(`not an http(s) URL: ${url}`);
  }
  return {
    target: values.target,
    ...(values['admin-secret'] !== undefined ? { adminSecret: values['admin-secret'] } : {}),
    database: values.database,
    profiles,
    reportDir: values['report-dir'] ?? cwd,
    ...(values.filter !== undefined ? { filter: values.filter } : {}),
    ...(values.junit !== undefined ? { junit: resolve(cwd, values.junit) } : {}),
  };
}

/** The environment that points the suite at the target. */
export function suiteEnvironment(options: CliOptions): Record<string, string> {
  const env: Record<string, string> = {
    ENGINE_URL: options.target,
    ENGINE_DATABASE_URL: options.database,
    ENGINE_CONFORMANCE_REPORT_DIR: options.reportDir,
    ENGINE_TEST_NO_CLUSTER: '1',
  };
  if (options.adminSecret !== undefined) env.ENGINE_ADMIN_SECRET = options.adminSecret;
  if (options.junit !== undefined) env.ENGINE_CONFORMANCE_JUNIT = options.junit;
  for (const [name, url] of Object.entries(options.profiles)) env[`ENGINE_URL_${name.toUpperCase().replace(/-/g, '_')}`] = url;
  return env;
}
