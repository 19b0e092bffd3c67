// `npm run mutation [-- MODULE... [--tests FILE,FILE]]`: Stryker over the reference's metadata, permission, auth and
// SQL-compiler modules, with the jest suites as the tests. One PostgreSQL cluster for the whole
// run (every jest run of every mutant reuses it); its URL reaches the runs through the
// environment, so the harness does not start or stop a cluster per mutant.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { provisionDatabase } from '../reference/src/db/provision';
import { CLUSTER_URL_VARIABLE } from '../conformance/harness/environment';

/** The modules scored by default: where metadata, permissions, authentication and SQL are decided. */
export const DEFAULT_MODULES = [
  'reference/src/auth/session.ts',
  'reference/src/metadata/permissions.ts',
  'reference/src/metadata/tables.ts',
  'reference/src/metadata/relationships.ts',
  'reference/src/sql/graphql/permissions.ts',
  'reference/src/sql/dml/boolExp.ts',
];

async function main(): Promise<void> {
  // `--tests a.test.ts,b.test.ts`: the tests to run for each mutant (default: every test file).
  const args = process.argv.slice(2);
  const testsAt = args.indexOf('--tests');
  const tests = testsAt >= 0 ? args.splice(testsAt, 2)[1] : undefined;
  const modules = args.filter((a) => !a.startsWith('-'));
  const cluster = await provisionDatabase({
    databaseUrl: process.env.ENGINE_GRAPHQL_DATABASE_URL ?? process.env.DATABASE_URL,
    log: (m) => process.stdout.write(`${m}\n`),
  });
  try {
    const stryker = join(__dirname, '..', 'node_modules', '.bin', 'stryker');
    // The runner itself is not mutated.
    const mutate = [...(modules.length ? modules : DEFAULT_MODULES), '!mutation/**'].join(',');
    const result = spawnSync(stryker, ['run', 'mutation/stryker.config.json', '--mutate', mutate], {
      stdio: 'inherit',
      env: { ...process.env, [CLUSTER_URL_VARIABLE]: cluster.url, ...(tests ? { ENGINE_JEST_ONLY: tests } : {}) },
      cwd: join(__dirname, '..'),
    });
    process.exitCode = result.status ?? 1;
  } finally {
    await cluster.stop();
  }
}

void main();
