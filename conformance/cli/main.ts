// `engine-conformance`: run the conformance suite against any engine, with a progress line,
// and print the summary table per SPEC.md section.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { branded } from '../harness/brand';
import type { ConformanceReport } from '../harness/report';
import { summaryTable } from '../harness/report';
import { FROM_SOURCE, PACKAGE_ROOT } from '../../reference/src/packageRoot';
import { parseCliArguments, suiteEnvironment, USAGE, UsageError, type CliOptions } from './arguments';
import { ProbeError, probeTarget } from './probe';
import { readTargetState, refusalOf, restoreTarget, type TargetConnection } from './targetState';

async function main(): Promise<number> {
  // `engine-conformance diff …`: two implementations compared on generated scenarios.
  if (process.argv[2] === 'diff') return (require('./diffCommand') as typeof import('./diffCommand')).diffMain(process.argv.slice(3));
  let options;
  try {
    options = parseCliArguments(process.argv.slice(2), process.cwd());
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`engine-conformance: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options === 'version') {
    const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    process.stdout.write(`engine-conformance ${version}\n`);
    return 0;
  }
  let probe;
  try {
    probe = await probeTarget(options);
  } catch (error) {
    if (!(error instanceof ProbeError)) throw error;
    process.stderr.write(`engine-conformance: ${error.message}\n`);
    return 2;
  }
  const version = probe.config?.version;
  process.stdout.write(`target ${options.target}${typeof version === 'string' ? ` (version ${version})` : ''}: reached, credentials accepted\n`);
  for (const note of probe.notes) process.stdout.write(`note: ${note}\n`);
  const { adminSecret: _given, ...rest } = options;
  options = { ...rest, ...(probe.adminSecret !== undefined ? { adminSecret: probe.adminSecret } : {}) };
  mkdirSync(options.reportDir, { recursive: true });
  const connection: TargetConnection = {
    target: options.target,
    database: options.database,
    headers: branded<Record<string, string>>(
      options.adminSecret !== undefined ? { 'x-engine-admin-secret': options.adminSecret } : { 'x-engine-role': 'admin' },
      options.brand,
    ),
  };
  let before;
  try {
    before = await readTargetState(connection);
  } catch (error) {
    process.stderr.write(`engine-conformance: cannot read the target's metadata and database before the run: ${(error as Error).message}\n`);
    return 2;
  }
  const refusal = refusalOf(before);
  if (refusal !== undefined && !options.allowClear) {
    process.stderr.write(`engine-conformance: ${refusal}\n`);
    return 2;
  }
  // Should even the restore fail, the metadata from before is here to replace by hand.
  const saved = join(options.reportDir, 'target-metadata-before.json');
  writeFileSync(saved, `${JSON.stringify(before.metadata, null, 2)}\n`);
  const code = await runSuite(options);
  const reported = code === INTERRUPTED ? code : printReport(options, code);
  try {
    process.stdout.write(`${await restoreTarget(connection, before)}\n`);
  } catch (error) {
    process.stderr.write(`engine-conformance: restoring the target failed: ${(error as Error).message}; its metadata from before is in ${saved}\n`);
    return 1;
  }
  return reported;
}

/** The summary table and the failures of the report the cases wrote; the run's exit code. */
function printReport(options: CliOptions, code: number): number {
  let report: ConformanceReport;
  try {
    report = JSON.parse(readFileSync(join(options.reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
  } catch {
    process.stderr.write('engine-conformance: the suite wrote no report; see the output above\n');
    return code || 1;
  }
  process.stdout.write(`\n${summaryTable(report)}\n`);
  if (report.failures.length > 0 && report.reproduce) process.stdout.write(`\n${report.reproduce}\n`);
  for (const f of report.failures) process.stdout.write(`\n✘ ${f.title}\n${(f.failure ?? '').split('\n').slice(0, 30).join('\n')}\n`);
  process.stdout.write(`\nreport: ${join(options.reportDir, 'conformance-report.html')}\n`);
  return code;
}

/** The exit code of a run stopped by Ctrl-C. */
const INTERRUPTED = 130;

/** The cases, in a jest process of their own; its exit code. */
function runSuite(options: CliOptions): Promise<number> {
  // A source checkout runs the TypeScript cases; an installed package the compiled ones in dist/.
  const harness = FROM_SOURCE ? join(PACKAGE_ROOT, 'conformance', 'harness') : join(PACKAGE_ROOT, 'dist', 'conformance', 'harness');
  const jestArgs = [
    require.resolve('jest/bin/jest'),
    ...(FROM_SOURCE ? ['--selectProjects', 'conformance'] : ['--config', join(PACKAGE_ROOT, 'conformance', 'jest.dist.config.js')]),
    '--runInBand',
    '--reporters',
    join(harness, 'progress-reporter.js'),
    '--reporters',
    join(harness, 'reporter.js'),
    ...(options.filter ? ['--testPathPatterns', options.filter] : []),
  ];
  return new Promise<number>((resolve) => {
    const child = spawn(process.execPath, jestArgs, {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, ...suiteEnvironment(options) },
      stdio: 'inherit',
    });
    // Ctrl-C stops the cases, not the run: the target is restored before the CLI exits.
    let interrupted = false;
    const interrupt = () => {
      interrupted = true;
      child.kill('SIGINT');
    };
    process.on('SIGINT', interrupt);
    process.on('SIGTERM', interrupt);
    child.on('exit', (c) => {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      resolve(interrupted ? INTERRUPTED : (c ?? 1));
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`engine-conformance: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
