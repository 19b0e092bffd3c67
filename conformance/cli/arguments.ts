// Command-line arguments of `engine-conformance`.
import { resolve } from 'node:path';
import { parseFlags, UsageError } from '../../reference/src/flags';
import { BRANDS, type Brand } from '../harness/brand';

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
  /** Run against a target whose metadata is not empty (it is restored afterwards). */
  allowClear: boolean;
  /** A second database the target can reach, for the cases of sources. */
  sourceDatabase?: string;
  /** The names the target speaks: X-Engine-* or X-Hasura-* (conformance/harness/brand.ts). */
  brand: Brand;
}

export const USAGE = `usage: engine-conformance --target URL --database POSTGRES_URL [--admin-secret SECRET]
                          [--profile NAME=URL]... [--report-dir DIR] [--filter TEXT] [--junit FILE]
                          [--allow-clear] [--source-database POSTGRES_URL] [--brand engine|hasura]
       engine-conformance diff --target URL --database DB --against URL --against-database DB [...]
       engine-conformance --help | --version

Runs the conformance suite against the engine at URL, whose database is POSTGRES_URL. It first
reads the engine's /v1alpha1/config and checks the admin credentials once; cases the engine's
configuration does not allow are reported as "not run: needs …". The target is left as it was
found: its metadata is exported first and replaced back at the end (also after a failure or
Ctrl-C), and what the cases made in its database is dropped.

--profile   an engine configured as profile NAME (see conformance/harness/profiles.ts);
            cases needing a profile without one are reported as not run
--report-dir where conformance-report.json and .html go (default: the current directory)
--filter    run only the case files whose path contains TEXT
--junit     also write the results as JUnit XML to FILE, for CI systems
--allow-clear run against a target whose metadata is not empty, or whose database has a schema
            the cases replace (music, blog, …): the metadata is restored afterwards, those schemas not
--source-database a second database the target and the suite both reach, added to the target as a
            source by the cases of sources (they drop what they make in it); without it those
            cases are reported as not run
--brand     the names the target speaks: engine (default: X-Engine-Role, x-engine-admin-secret,
            X-Engine-* session variables and JWT claims) or hasura (X-Hasura-*: the engine this API
            comes from, or a server started with ENGINE_GRAPHQL_COMPAT_HEADERS=hasura); the suite
            sends and expects every such name so

\`engine-conformance diff --help\` tells how to compare two implementations on generated scenarios.

Exit codes: 0 every case run passed, 1 a case failed or the suite could not run,
2 bad usage, or the target or its database could not be reached or refused the credentials,
or the target is in use and --allow-clear was not given; 130 interrupted (the target restored).`;

export { UsageError };

export function parseCliArguments(argv: readonly string[], cwd: string): CliOptions | 'help' | 'version' {
  const { values } = parseFlags(argv, {
    target: { type: 'string' },
    'admin-secret': { type: 'string' },
    database: { type: 'string' },
    profile: { type: 'string', multiple: true },
    'report-dir': { type: 'string' },
    filter: { type: 'string' },
    junit: { type: 'string' },
    'allow-clear': { type: 'boolean' },
    'source-database': { type: 'string' },
    brand: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  const profiles: Record<string, string> = {};
  for (const value of values.profile ?? []) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new UsageError(`--profile takes NAME=URL, got ${JSON.stringify(value)}`);
    profiles[value.slice(0, eq)] = value.slice(eq + 1);
  }
  if (!values.target) throw new UsageError('--target is required');
  const brand = values.brand ?? 'engine';
  if (!(BRANDS as readonly string[]).includes(brand)) throw new UsageError(`--brand takes ${BRANDS.join(' or ')}, got ${JSON.stringify(brand)}`);
  if (!values.database) throw new UsageError('--database is required: the suite sets up fixtures and checks results in SQL');
  for (const url of [values.target, ...Object.values(profiles)]) {
    if (!/^https?:\/\//.test(url)) throw new UsageError(`not an http(s) URL: ${url}`);
  }
  return {
    target: values.target.replace(/\/+$/, ''),
    ...(values['admin-secret'] !== undefined ? { adminSecret: values['admin-secret'] } : {}),
    database: values.database,
    profiles,
    reportDir: resolve(cwd, values['report-dir'] ?? '.'),
    ...(values.filter !== undefined ? { filter: values.filter } : {}),
    ...(values.junit !== undefined ? { junit: resolve(cwd, values.junit) } : {}),
    allowClear: values['allow-clear'] === true,
    ...(values['source-database'] !== undefined ? { sourceDatabase: values['source-database'] } : {}),
    brand: brand as Brand,
  };
}

/** The environment that points the suite at the target. */
export function suiteEnvironment(options: CliOptions): Record<string, string> {
  const env: Record<string, string> = {
    ENGINE_URL: options.target,
    ENGINE_DATABASE_URL: options.database,
    ENGINE_CONFORMANCE_REPORT_DIR: options.reportDir,
    ENGINE_TEST_NO_CLUSTER: '1',
    ENGINE_BRAND: options.brand,
  };
  if (options.adminSecret !== undefined) env.ENGINE_ADMIN_SECRET = options.adminSecret;
  if (options.junit !== undefined) env.ENGINE_CONFORMANCE_JUNIT = options.junit;
  if (options.sourceDatabase !== undefined) env.ENGINE_SOURCE_DATABASE_URL = options.sourceDatabase;
  for (const [name, url] of Object.entries(options.profiles)) env[`ENGINE_URL_${name.toUpperCase().replace(/-/g, '_')}`] = url;
  return env;
}
