// `npm run mutation [-- MODULE... [--tests FILE,FILE]]`: Stryker over modules of the reference with
// the jest suites as the tests. With no module, every module of MODULE_TESTS is scored, each with
// the tests mapped to it, one Stryker run after another; with modules, those, with `--tests` or the
// tests mapped to them. Incremental (Stryker's `--incremental`, one file per module under
// reports/mutation/): a rerun after a small change tests only the mutants the change touched. One
// PostgreSQL cluster serves the whole run; its URL reaches the jest runs through the environment.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { provisionDatabase } from '../reference/src/db/provision';
import { CLUSTER_URL_VARIABLE } from '../conformance/harness/environment';
import { SERVER_PER_FILE_VARIABLE } from '../conformance/harness/sharedServer';

const cases = (...names: string[]) => names.map((n) => `conformance/cases/${n}.test.ts`);

/** The modules scored by default, and the test files that exercise each (the measured runs of docs/mutation.md). */
export const MODULE_TESTS: Readonly<Record<string, readonly string[]>> = {
  'reference/src/auth/session.ts': cases('auth', 'auth-jwt', 'auth-webhook', 'permissions'),
  'reference/src/metadata/permissions.ts': cases('permissions', 'dml-roles', 'metadata'),
  'reference/src/metadata/tables.ts': cases('tables', 'relationships', 'metadata', 'functions', 'computed-fields'),
  'reference/src/metadata/relationships.ts': cases('tables', 'relationships', 'metadata'),
  'reference/src/sql/graphql/permissions.ts': [
    ...cases('permissions', 'dml-roles', 'permission-combination', 'graphql-mutations'),
    'reference/src/sql/graphql/sessionList.test.ts',
  ],
  'reference/src/sql/dml/boolExp.ts': cases('dml', 'dml-roles', 'permissions', 'fuzz-boolexp'),
  'reference/src/metadata/customTypes.ts': cases('actions'),
  'reference/src/metadata/actions.ts': cases('actions'),
  'reference/src/metadata/cron.ts': [...cases('cron-triggers'), 'reference/src/metadata/cron.test.ts'],
  'reference/src/operations/transactionControl.ts': [...cases('run-sql', 'fuzz-run-sql'), 'reference/src/operations/transactionControl.test.ts'],
  'reference/src/execute/roleGate.ts': [...cases('limits'), 'reference/src/execute/roleGate.test.ts'],
  'reference/src/execute/abandonment.ts': [...cases('limits'), 'reference/src/execute/abandonment.test.ts', 'reference/src/execute/roleGate.test.ts'],
  'reference/src/http/clientGone.ts': ['reference/src/http/clientGone.test.ts'],
  'reference/src/engine/sessionReset.ts': ['reference/src/engine/giveBack.test.ts', 'reference/src/engine/sessionReset.test.ts'],
  'reference/src/engine/commitRouting.ts': ['reference/src/engine/commitRouting.test.ts'],
  'reference/src/engine/commitEffects.ts': ['reference/src/engine/commitEffects.test.ts'],
  'reference/src/engine/abandonmentSignal.ts': ['reference/src/engine/abandonmentSignal.test.ts'],
  'reference/src/http/bodyLimit.ts': ['reference/src/http/bodyLimit.test.ts', ...cases('errors')],
  'reference/src/execute/remote.ts': [...cases('remote-schemas'), ...cases('remote-schema-customization'), 'reference/src/execute/remote.test.ts'],
  'reference/src/actions/worker.ts': ['reference/src/actions/worker.test.ts', 'reference/src/events/staleCopy.test.ts'],
  'reference/src/events/scheduler.ts': ['reference/src/events/scheduler.test.ts', 'reference/src/events/staleCopy.test.ts'],
  'reference/src/events/worker.ts': [
    'reference/src/events/worker.test.ts',
    'reference/src/events/delivery.test.ts',
    'reference/src/events/holds.test.ts',
    'reference/src/events/staleCopy.test.ts',
  ],
  'reference/src/http/allowedHosts.ts': [...cases('cross-origin'), 'reference/src/http/allowedHosts.test.ts'],
  'reference/src/http/graphqlLog.ts': ['reference/src/http/graphqlLog.test.ts', 'reference/src/requestLog.test.ts'],
  'reference/src/execute/weightedCache.ts': ['reference/src/execute/weightedCache.test.ts'],
  'spec/document-forms.ts': [...cases('metadata', 'errors'), 'spec/document-forms.test.ts'],
  'reference/src/metadata/computedFields.ts': cases('computed-fields'),
  'reference/src/metadata/collections.ts': cases('query-collections', 'rest-endpoints'),
  'reference/src/events/polling.ts': [
    'reference/src/events/polling.test.ts',
    'reference/src/events/staleCopy.test.ts',
    'reference/src/events/announcedWork.test.ts',
    'reference/src/events/holds.test.ts',
  ],
  'reference/src/events/batches.ts': ['reference/src/events/batches.test.ts', 'reference/src/events/delivery.test.ts'],
  'reference/src/sql/instances.ts': ['reference/src/events/holds.test.ts'],
  'reference/src/execute/liveQueries.ts': ['reference/src/server.test.ts', ...cases('subscriptions')],
  'reference/src/execute/cohorts.ts': [
    'reference/src/execute/cohorts.test.ts',
    'reference/src/execute/cohortVariables.test.ts',
    'reference/src/server.test.ts',
    ...cases('subscriptions', 'sources'),
  ],
  'reference/src/execute/cohortVariables.ts': [
    'reference/src/execute/cohortVariables.test.ts',
    'reference/src/sql/graphql/golden.test.ts',
    ...cases('subscriptions'),
  ],
  'reference/src/sql/graphql/cohort.ts': ['reference/src/sql/graphql/golden.test.ts', ...cases('subscriptions')],
  'reference/src/remote/rolePermission.ts': ['reference/src/remote/rolePermission.test.ts'],
  'reference/src/remote/presetDirectives.ts': ['reference/src/remote/rolePermission.test.ts', ...cases('remote-schema-permissions')],
  'reference/src/remote/customization.ts': ['reference/src/remote/customization.test.ts', ...cases('remote-schema-customization')],
  'reference/src/execute/remoteNames.ts': ['reference/src/execute/remoteNames.test.ts', ...cases('remote-schema-customization')],
  'reference/src/execute/remotePresets.ts': ['reference/src/execute/remotePresets.test.ts', ...cases('remote-schema-permissions')],
  'reference/src/execute/remoteJoins.ts': ['reference/src/execute/remoteJoins.test.ts'],
  'reference/src/execute/remoteJoinPlan.ts': ['reference/src/execute/remoteJoinPlan.test.ts', 'reference/src/execute/remoteJoinPlanSources.test.ts'],
  'reference/src/metadata/sources.ts': cases('sources', 'operation-forms', 'fuzz-metadata-replace'),
  'reference/src/execute/sourceModels.ts': cases('sources', 'fuzz-metadata-replace'),
  'reference/src/db/sourcePools.ts': [
    'reference/src/db/sourcePools.test.ts',
    'reference/src/db/sourcePoolSets.test.ts',
    'reference/src/execute/sourceReads.test.ts',
    'reference/src/execute/runPlanParts.test.ts',
    'reference/src/engine/atomicCommit.test.ts',
    ...cases('source-connections'),
  ],
  'reference/src/schema/sourceRelationships.ts': cases('source-relationships', 'fuzz-metadata-replace'),
  'reference/src/execute/sourceJoins.ts': ['reference/src/execute/sourceJoins.test.ts'],
  'reference/src/sql/graphql/sourceJoin.ts': cases('source-relationships'),
  'reference/src/metadata/sourceRelationshipDependents.ts': cases('source-relationships'),
  'reference/src/events/sourceCapture.ts': [...cases('source-events'), 'reference/src/events/sourceCapture.test.ts'],
  'reference/src/schema/remoteRelationshipField.ts': ['reference/src/schema/remoteRelationshipField.test.ts', ...cases('remote-relationships')],
  'reference/src/metadata/remoteRelationships.ts': ['reference/src/schema/remoteRelationshipField.test.ts', ...cases('remote-relationships')],
  'spec/remote-relationships.ts': ['reference/src/schema/remoteRelationshipField.test.ts', ...cases('remote-relationships')],
  'reference/src/engine/sourceTransactions.ts': [
    'reference/src/engine/sourceTransactions.test.ts',
    'reference/src/engine/sourceConnections.test.ts',
    'reference/src/engine/sourceGuard.test.ts',
    'reference/src/engine/atomicCommit.test.ts',
  ],
  'reference/src/schema/typeShare.ts': [
    'reference/src/schema/typeShare.test.ts',
    'reference/src/schema/typeShareView.test.ts',
    'reference/src/schema/schemaValidation.test.ts',
  ],
  'reference/src/remote/validity.ts': ['reference/src/remote/validity.test.ts', 'reference/src/remote/introspectionProblem.test.ts'],
  'reference/src/remote/client.ts': ['reference/src/remote/client.test.ts'],
  'reference/src/remote/store.ts': ['reference/src/remote/store.test.ts'],
  'reference/src/remote/view.ts': ['reference/src/remote/view.test.ts'],
  'reference/src/remote/perSchema.ts': ['reference/src/remote/perSchema.test.ts'],
  'reference/src/remote/answerBytes.ts': ['reference/src/remote/answerBytes.test.ts'],
  'reference/src/remote/outgoingTls.ts': ['reference/src/remote/outgoingTls.test.ts'],
  'reference/src/remote/relationshipProblems.ts': ['reference/src/remote/relationshipProblems.test.ts'],
  'reference/src/execute/externalValidity.ts': ['reference/src/execute/externalValidity.test.ts', 'reference/src/engine/externalProblems.test.ts'],
  'reference/src/execute/schemaValidity.ts': [
    'reference/src/execute/schemaValidity.test.ts',
    'reference/src/schema/typeShare.test.ts',
    'reference/src/engine/externalProblems.test.ts',
    ...cases('schema-validity'),
  ],
  'reference/src/execute/runPlan.ts': [
    'reference/src/execute/runPlanStatements.test.ts',
    'reference/src/execute/runPlanParts.test.ts',
    'reference/src/execute/runPlan.test.ts',
  ],
};

const USAGE = `Usage: npm run mutation [-- MODULE[:LINES]... [--tests FILE,FILE]]

  (no module)     score every module of mutation/run.ts MODULE_TESTS, each with its tests
  MODULE...       score these (reference/src/x.ts, or reference/src/x.ts:10-20 for lines)
  --tests A,B     the test files to run for each mutant (default: those mapped to the modules)
  --full          test every mutant again instead of only those a change touched
  --help          this text

Reports: reports/mutation/ (HTML and JSON per module). Scores and survivors: docs/mutation.md.`;

interface Run {
  modules: string[];
  tests: string[];
}

function plan(args: string[]): Run[] {
  const testsAt = args.indexOf('--tests');
  const tests = testsAt >= 0 ? args.splice(testsAt, 2)[1]!.split(',').filter(Boolean) : undefined;
  const modules = args.filter((a) => !a.startsWith('-'));
  if (modules.length === 0) return Object.entries(MODULE_TESTS).map(([module, mapped]) => ({ modules: [module], tests: tests ?? [...mapped] }));
  const mapped = [...new Set(modules.flatMap((m) => MODULE_TESTS[m.split(':')[0]!] ?? []))];
  return [{ modules, tests: tests ?? mapped }];
}

async function main(): Promise<void> {
  // The arguments after this script's own path (it runs through scripts/run-ts.js).
  const argv = process.argv;
  const args = argv.slice(argv.findIndex((a) => /mutation[\\/]run\.ts$/.test(a)) + 1);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const full = args.includes('--full');
  const runs = plan(args.filter((a) => a !== '--full'));
  const cluster = await provisionDatabase({
    databaseUrl: process.env.ENGINE_GRAPHQL_DATABASE_URL ?? process.env.DATABASE_URL,
    log: (m) => process.stdout.write(`${m}\n`),
  });
  let status = 0;
  try {
    const stryker = join(__dirname, '..', 'node_modules', '.bin', 'stryker');
    for (const run of runs) {
      const name = run.modules.map((m) => m.replace(/^reference\/src\//, '').replace(/[^A-Za-z0-9]+/g, '-')).join('+');
      process.stdout.write(`mutation: ${run.modules.join(' ')} with ${run.tests.length ? run.tests.join(', ') : 'every test file'}\n`);
      const result = spawnSync(
        stryker,
        [
          'run',
          'mutation/stryker.config.json',
          // The runner itself is not mutated.
          '--mutate',
          [...run.modules, '!mutation/**'].join(','),
          '--incremental',
          '--incrementalFile',
          `reports/mutation/${name}.incremental.json`,
          ...(full ? ['--force'] : []),
        ],
        {
          stdio: 'inherit',
          // Mutants are active in the test process only: each file starts its server there.
          env: {
            ...process.env,
            [CLUSTER_URL_VARIABLE]: cluster.url,
            [SERVER_PER_FILE_VARIABLE]: '1',
            ...(run.tests.length ? { ENGINE_JEST_ONLY: run.tests.join(',') } : {}),
          },
          cwd: join(__dirname, '..'),
        },
      );
      if (result.status !== 0) status = result.status ?? 1;
    }
  } finally {
    await cluster.stop();
  }
  process.exitCode = status;
}

void main();
