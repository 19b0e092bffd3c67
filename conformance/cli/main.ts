// `engine-conformance`: run the conformance suite against any engine, with a progress line,
// and print the summary table per SPEC.md section.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../harness/report';
import { summaryTable } from '../harness/report';
import { parseCliArguments, suiteEnvironment, USAGE, UsageError } from './arguments';

const packageRoot = join(__dirname, '..', '..');

async function main(): Promise<number> {
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
  const jestArgs = [
    require.resolve('jest/bin/jest'),
    '--selectProjects',
    'conformance',
    '--runInBand',
    '--reporters',
    join(packageRoot, 'conformance', 'harness', 'progress-reporter.js'),
    '--reporters',
    join(packageRoot, 'conformance', 'harness', 'reporter.js'),
    ...(options.filter ? ['--testPathPatterns', options.filter] : []),
  ];
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, jestArgs, {
      cwd: packageRoot,
      env: { ...process.env, ...suiteEnvironment(options) },
      stdio: 'inherit',
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  let report: ConformanceReport;
  try {
    report = JSON.parse(readFileSync(join(options.reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
  } catch {
    process.stderr.write('engine-conformance: the suite wrote no report; see the output above\n');
    return code || 1;
  }
  process.stdout.write(`\n${summaryTable(report)}\n`);
  for (const f of report.failures) process.stdout.write(`\n✘ ${f.title}\n${(f.failure ?? '').split('\n').slice(0, 30).join('\n')}\n`);
  process.stdout.write(`\nreport: ${join(options.reportDir, 'conformance-report.html')}\n`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`engine-conformance: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
