// A jest reporter that writes conformance-report.json and conformance-report.html for the
// conformance cases of a run.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ITEMS_BY_ID, splitSide } from '../../spec';
import { idProblems, idsOfTitle } from './cases';
import { redact } from './secrets';
import { buildReport, renderHtml, renderJUnit, shortenFailure, type CaseResult } from './report';

interface AssertionResult {
  title: string;
  fullName: string;
  status: string;
  failureMessages: string[];
}
interface TestResultLike {
  testFilePath: string;
  testResults: AssertionResult[];
  testExecError?: { message: string };
}

const CASES_DIR = join('conformance', 'cases') + sep;

export default class ConformanceReporter {
  private readonly results: CaseResult[] = [];
  /** Titles that name an ID the spec lacks (or a side of an item without sides): the run fails. */
  private readonly idProblems: string[] = [];

  constructor(private readonly globalConfig: { rootDir: string }) {}

  onTestResult(_test: unknown, result: TestResultLike): void {
    const file = relative(this.globalConfig.rootDir, result.testFilePath);
    for (const a of result.testResults) this.idProblems.push(...idProblems(a.title, ITEMS_BY_ID).map((problem) => `${file}: ${problem}`));
    if (!file.startsWith(CASES_DIR)) return;
    for (const a of result.testResults) {
      const status = a.status === 'passed' ? 'passed' : a.status === 'failed' ? 'failed' : 'skipped';
      this.results.push({
        file,
        title: a.fullName,
        ids: idsOfTitle(a.title),
        status,
        // What a case printed may hold a secret (an answer that echoes a header): its value never reaches a report.
        ...(a.failureMessages.length ? { failure: shortenFailure(redact(a.failureMessages.join('\n'))) } : {}),
      });
    }
    if (result.testExecError && result.testResults.length === 0) {
      this.results.push({ file, title: `${file} could not run`, ids: [], status: 'failed', failure: redact(result.testExecError.message) });
    }
  }

  /** IDs named by case files this run did not run (a --filter left them out). */
  unselectedIds(): Set<string> {
    const ran = new Set(this.results.map((r) => r.file));
    const ids = new Set<string>();
    const dir = join(this.globalConfig.rootDir, CASES_DIR);
    for (const name of readdirSync(dir)) {
      const file = join(CASES_DIR, name);
      if (!/\.test\.[jt]s$/.test(name) || ran.has(file)) continue;
      for (const m of readFileSync(join(dir, name), 'utf8').matchAll(/['[]((?:op|err|rule|dec)\.[A-Za-z0-9_.:-]*[A-Za-z0-9_-])['\]]/g))
        ids.add(splitSide(m[1]!).id);
    }
    return ids;
  }

  /** jest fails the run when a reporter has an error. */
  getLastError(): Error | undefined {
    return this.idProblems.length ? new Error(this.idProblems.join('\n')) : undefined;
  }

  onRunComplete(): void {
    if (this.idProblems.length)
      process.stderr.write(`\nCases naming what the spec does not hold (the run fails):\n${this.idProblems.map((p) => `  ${p}`).join('\n')}\n`);
    if (this.results.length === 0) return;
    const target = process.env.ENGINE_URL ?? 'reference server (started by the suite)';
    const report = buildReport(this.results, target, new Date(), this.unselectedIds());
    const dir = process.env.ENGINE_CONFORMANCE_REPORT_DIR ?? this.globalConfig.rootDir;
    writeFileSync(join(dir, 'conformance-report.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(dir, 'conformance-report.html'), renderHtml(report));
    if (process.env.ENGINE_CONFORMANCE_JUNIT) writeFileSync(process.env.ENGINE_CONFORMANCE_JUNIT, renderJUnit(this.results));
    const t = report.totals;
    process.stderr.write(
      `\nConformance: ${t.items} items — ${t.pass} pass, ${t.partial} partial, ${t.fail} fail, ${t['not-run']} not run, ${t['not-selected']} not selected, ${t['not-covered']} not covered, ${t.reference} by reference tests; report in ${join(dir, 'conformance-report.html')}\n`,
    );
  }
}
