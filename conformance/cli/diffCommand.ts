// `engine-conformance diff`: compare two implementations on generated scenarios (conformance/diff),
// with a progress line, the reproduction of the first difference, and the reports; both targets
// are checked first and left as they were found (also after a failure or Ctrl-C).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffTargets, reproduction, TargetRunner, type DiffResult } from '../diff/differ';
import { renderDiffHtml, renderDiffJson, renderDiffJUnit, verdict, type DiffReport } from '../diff/report';
import { DIFF_USAGE, parseDiffArguments, UsageError, type DiffCliOptions } from './diffArguments';
import { redact, secretsNote } from '../harness/secrets';
import { ProbeError, probeTarget } from './probe';
import { readTargetState, refusalOf, restoreTarget, type TargetConnection, type TargetState } from './targetState';

interface Side {
  name: 'A' | 'B';
  flag: string;
  url: string;
  database: string;
  adminSecret?: string;
  /** The flags that gave this side's secret and database, as refusals name them. */
  flags: { adminSecret: string; database: string };
}

/** The environment variables the reports' curl lines read each side's admin secret from. */
const SECRET_VARIABLE = { A: 'ENGINE_ADMIN_SECRET', B: 'ENGINE_AGAINST_ADMIN_SECRET' } as const;
const SECRETS_NOTE = secretsNote({
  ENGINE_ADMIN_SECRET: "A's admin secret, given with --admin-secret",
  ENGINE_AGAINST_ADMIN_SECRET: "B's admin secret, given with --against-admin-secret (or A's)",
});

const headersOf = (s: Side): Record<string, string> =>
  s.adminSecret !== undefined ? { 'x-engine-admin-secret': s.adminSecret } : { 'x-engine-role': 'admin' };
const connectionOf = (s: Side): TargetConnection => ({ target: s.url, database: s.database, headers: headersOf(s) });

/** The interruption of a run by Ctrl-C: the scenario in progress ends the run. */
class Interrupted extends Error {}

export async function diffMain(
  argv: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  let options: DiffCliOptions | 'help';
  try {
    options = parseDiffArguments(argv, process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`engine-conformance diff: ${error.message}\n\n${DIFF_USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    out.write(`${DIFF_USAGE}\n`);
    return 0;
  }
  const sides: Side[] = [
    {
      name: 'A',
      flag: '--target',
      flags: { adminSecret: '--admin-secret', database: '--database' },
      url: options.target,
      database: options.database,
      ...(options.adminSecret !== undefined ? { adminSecret: options.adminSecret } : {}),
    },
    {
      name: 'B',
      flag: '--against',
      flags: { adminSecret: options.againstAdminSecretFlag ?? '--against-admin-secret', database: '--against-database' },
      url: options.against,
      database: options.againstDatabase,
      ...(options.againstAdminSecret !== undefined ? { adminSecret: options.againstAdminSecret } : {}),
    },
  ];
  const before: TargetState[] = [];
  for (const side of sides) {
    try {
      const probe = await probeTarget({
        target: side.url,
        database: side.database,
        ...(side.adminSecret !== undefined ? { adminSecret: side.adminSecret } : {}),
        flags: side.flags,
      });
      if (probe.adminSecret === undefined) delete side.adminSecret;
      before.push(await readTargetState(connectionOf(side)));
    } catch (error) {
      const message = error instanceof ProbeError ? error.message : `cannot read its metadata and database: ${(error as Error).message}`;
      err.write(`engine-conformance diff: ${side.name} (${side.flag} ${side.url}): ${message}\n`);
      return 2;
    }
    const refusal = refusalOf(before.at(-1)!);
    if (refusal !== undefined && !options.allowClear) {
      err.write(`engine-conformance diff: ${side.name} (${side.flag} ${side.url}): ${refusal}\n`);
      return 2;
    }
  }
  mkdirSync(options.reportDir, { recursive: true });
  for (const [i, side] of sides.entries()) {
    writeFileSync(join(options.reportDir, `diff-${side.name}-metadata-before.json`), `${JSON.stringify(before[i]!.metadata, null, 2)}\n`);
  }
  out.write(`A ${options.target} against B ${options.against}: ${options.runs} scenarios (${options.areas.join(', ')}), seed ${options.seed}\n`);

  const runners = sides.map(
    (s) =>
      new TargetRunner({
        url: s.url,
        database: s.database,
        ...(s.adminSecret !== undefined ? { adminSecret: s.adminSecret } : {}),
        secretVariable: SECRET_VARIABLE[s.name],
      }),
  );
  // Ctrl-C ends the run at the next request; the targets are restored before the CLI exits.
  let interrupted = false;
  const interrupt = () => (interrupted = true);
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  for (const runner of runners) {
    const send = runner.send.bind(runner);
    runner.send = (call) => (interrupted ? Promise.reject(new Interrupted('interrupted')) : send(call));
  }
  const started = Date.now();
  let result: DiffResult;
  try {
    result = await diffTargets(runners[0]!, runners[1]!, {
      runs: options.runs,
      seed: options.seed,
      areas: options.areas,
      ...(options.path !== undefined ? { path: options.path } : {}),
      progress: (n) => {
        if (n % 10 === 0 || n === options.runs) out.write(`  ${n}/${options.runs} scenarios alike (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
      },
      shrinking: (n) => {
        if (n === 1 || n % 25 === 0) out.write(`  a difference: shrinking it (${n} scenarios tried)\n`);
      },
    });
  } catch (error) {
    result = { seed: options.seed, runs: options.runs, checked: 0, failure: (error as Error).message };
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await Promise.all(runners.map((r) => r.close()));
  }
  const secrets = sides.flatMap((s) => (s.adminSecret !== undefined ? [{ value: s.adminSecret, variable: SECRET_VARIABLE[s.name] }] : []));
  if (result.failure !== undefined) result = { ...result, failure: redact(result.failure, secrets) };
  const code = interrupted ? 130 : writeReports(options, result, runners, (Date.now() - started) / 1000, out);
  for (const [i, side] of sides.entries()) {
    try {
      out.write(`${side.name}: ${await restoreTarget(connectionOf(side), before[i]!)}\n`);
    } catch (error) {
      err.write(
        `engine-conformance diff: restoring ${side.name} (${side.flag} ${side.url}) failed: ${(error as Error).message}; its metadata from before is in ${options.reportDir}\n`,
      );
      return 1;
    }
  }
  return code;
}

function writeReports(options: DiffCliOptions, result: DiffResult, runners: TargetRunner[], seconds: number, out: NodeJS.WritableStream): number {
  const replay = [
    'engine-conformance diff',
    `--target ${options.target} --against ${options.against}`,
    `--seed ${options.seed} --runs ${options.runs} --areas ${options.areas.join(',')}`,
    ...(result.difference ? [`--path ${result.difference.path}`] : []),
  ].join(' ');
  const report: DiffReport = {
    ...result,
    target: options.target,
    against: options.against,
    areas: options.areas,
    generated_at: new Date().toISOString(),
    reproduce: SECRETS_NOTE,
    seconds,
    replay,
    ...(result.difference ? { reproduction: reproduction(result.difference, runners[0]!, runners[1]!) } : {}),
  };
  writeFileSync(join(options.reportDir, 'diff-report.json'), renderDiffJson(report));
  writeFileSync(join(options.reportDir, 'diff-report.html'), renderDiffHtml(report));
  if (options.junit) writeFileSync(options.junit, renderDiffJUnit(report));
  out.write(`\n${verdict(report)} (${seconds.toFixed(1)} s)\n`);
  if (report.reproduction) out.write(`\n${report.reproduction}\n\nreplay: ${replay}\n`);
  out.write(`report: ${join(options.reportDir, 'diff-report.html')}\n`);
  return result.difference || result.failure ? 1 : 0;
}
