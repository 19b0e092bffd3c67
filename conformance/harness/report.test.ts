import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../reference/src/packageRoot';
import { curlLine } from './client';
import { buildReport, renderHtml, renderJUnit, shortenFailure, summaryTable, type CaseResult } from './report';
import ConformanceReporter from './reporter';

const results: CaseResult[] = [
  { file: 'conformance/cases/a.test.ts', title: 'a passes [op.run_sql]', ids: ['op.run_sql'], status: 'passed' },
  { file: 'conformance/cases/a.test.ts', title: 'a needs a profile [op.run_sql]', ids: ['op.run_sql'], status: 'skipped' },
  {
    file: 'conformance/cases/b.test.ts',
    title: 'b fails <&> [op.bulk]',
    ids: ['op.bulk'],
    status: 'failed',
    failure: '\u001b[31mexpected 200\u001b[39m\nReproduce with:\n  curl -X POST x',
  },
  { file: 'conformance/cases/b.test.ts', title: 'b passes [op.export_metadata.v1]', ids: ['op.export_metadata.v1'], status: 'passed' },
];
const report = buildReport(results, 'http://t', new Date('2026-01-02T03:04:05Z'));
const item = (id: string) => report.sections.flatMap((s) => s.items).find((i) => i.id === id)!;

test('an item with a case not run is partial, never pass; failures win', () => {
  expect([item('op.run_sql').status, item('op.bulk').status, item('op.export_metadata.v1').status]).toEqual(['partial', 'fail', 'pass']);
  expect(report.totals).toEqual(expect.objectContaining({ pass: 1, partial: 1, fail: 1, tests: 4, tests_failed: 1 }));
  expect(summaryTable(report).split('\n')[0]).toBe('section  pass  partial  fail  not-run  not-covered');
});

test('with a filter, items that unselected cases check are not selected, not uncovered', () => {
  const filtered = buildReport(results, 'http://t', new Date(), new Set(['op.track_table.v1']));
  const status = (id: string) => filtered.sections.flatMap((s) => s.items).find((i) => i.id === id)!.status;
  expect([status('op.track_table.v1'), status('op.untrack_table')]).toEqual(['not-selected', 'not-covered']);
  expect(filtered.totals['not-selected']).toBe(1);
});

test('the HTML report has the summary, the filter, and each failure with its answer and curl line', () => {
  const html = renderHtml(report);
  expect(html).toContain(
    '<table class="summary"><tr><th>section</th><th>pass</th><th>partial</th><th>fail</th><th>not-run</th><th>not-selected</th><th>not-covered</th><th>reference</th></tr>',
  );
  expect(html).toContain('<select id="status-filter">');
  expect(html).toContain('<a href="#failure-0">b fails &lt;&amp;&gt; [op.bulk]</a>');
  expect(html).toContain(
    '<h3 id="failure-0">b fails &lt;&amp;&gt; [op.bulk]</h3><p><code>conformance/cases/b.test.ts</code></p><pre>expected 200\nReproduce with:\n  curl -X POST x</pre>',
  );
});

test('JUnit XML: a suite per file, failures with their message, skipped cases', () => {
  expect(renderJUnit(results)).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<!-- The curl lines read secrets from the environment; set those a line names before running it: ENGINE_ADMIN_SECRET (the admin secret given with the flag admin-secret), ENGINE_CONFORMANCE_HOOK_SECRET (the webhook secret of the target's environment), ENGINE_JWT (the token the case sent: sign one with the header and claims written after its line). psql lines read ENGINE_DATABASE_URL (the URL given with the flag database). -->
<testsuites name="conformance" tests="4" failures="1">
  <testsuite name="conformance/cases/a.test.ts" tests="2" failures="0" skipped="1">
    <testcase classname="conformance/cases/a.test.ts" name="a passes [op.run_sql]"></testcase>
    <testcase classname="conformance/cases/a.test.ts" name="a needs a profile [op.run_sql]"><skipped/></testcase>
  </testsuite>
  <testsuite name="conformance/cases/b.test.ts" tests="2" failures="1" skipped="0">
    <testcase classname="conformance/cases/b.test.ts" name="b fails &lt;&amp;&gt; [op.bulk]"><failure message="expected 200">expected 200
Reproduce with:
  curl -X POST x</failure></testcase>
    <testcase classname="conformance/cases/b.test.ts" name="b passes [op.export_metadata.v1]"></testcase>
  </testsuite>
</testsuites>
`);
});

test('the reporter finds the IDs that the case files a filtered run left out would check', () => {
  const reporter = new ConformanceReporter({ rootDir: PACKAGE_ROOT });
  reporter.onTestResult(undefined, {
    testFilePath: join(PACKAGE_ROOT, 'conformance', 'cases', 'config.test.ts'),
    testResults: [{ title: 'x [rule.config.fields]', fullName: 'x [rule.config.fields]', status: 'passed', failureMessages: [] }],
  });
  const unselected = reporter.unselectedIds();
  // Named only by auth.test.ts and other files, never by config.test.ts alone.
  expect([unselected.has('err.admin-secret.missing'), unselected.has('op.track_table.v2'), unselected.size > 200]).toEqual([true, true, true]);
});

describe('a failure keeps its reproduction', () => {
  const curl = "curl -sS -i -X POST 'http://t/v1/metadata' -H 'content-type: application/json' --data-binary '{\"type\":\"bulk\"}'";

  test('a long difference is shortened above the curl line, which stays whole', () => {
    const diff = `- Expected\n+ Received\n${'x'.repeat(9000)}`;
    const shortened = shortenFailure(`${diff}\n\nReproduce with:\n  ${curl}`);
    expect(shortened).toBe(`${diff.slice(0, 4000)}\n… (${diff.length - 4000} more characters of the difference left out)\n\nReproduce with:\n  ${curl}`);
    expect(shortenFailure(`short\nReproduce with:\n  ${curl}`)).toBe(`short\nReproduce with:\n  ${curl}`);
    expect(shortenFailure('y'.repeat(4001))).toBe(`${'y'.repeat(4000)}\n… (1 more characters of the difference left out)`);
  });

  test('a long body goes to a file beside the report; the curl line sends that file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curl-'));
    const before = process.env.ENGINE_CONFORMANCE_REPORT_DIR;
    process.env.ENGINE_CONFORMANCE_REPORT_DIR = dir;
    try {
      const payload = JSON.stringify({ type: 'run_sql', args: { sql: `select '${'a'.repeat(3000)}'` } });
      const line = curlLine('http://t/v2/query', 'POST', { 'content-type': 'application/json' }, payload);
      const files = readdirSync(join(dir, 'conformance-requests'));
      expect(files).toHaveLength(1);
      expect(readFileSync(join(dir, 'conformance-requests', files[0]!), 'utf8')).toBe(payload);
      expect(line).toBe(
        `curl -sS -i -X POST 'http://t/v2/query' -H 'content-type: application/json' --data-binary @'${join(dir, 'conformance-requests', files[0]!)}'`,
      );
      expect(curlLine('http://t/x', 'POST', {}, `{"q":"it's"}`)).toBe(`curl -sS -i -X POST 'http://t/x' --data-binary '{"q":"it'\\''s"}'`);
    } finally {
      if (before === undefined) delete process.env.ENGINE_CONFORMANCE_REPORT_DIR;
      else process.env.ENGINE_CONFORMANCE_REPORT_DIR = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the HTML page starts with the list of failures, opens only sections with a problem, and escapes quotes', () => {
    const html = renderHtml(
      buildReport(
        [
          ...results,
          { file: "conformance/cases/c'q.test.ts", title: "it's [op.track_table.v1]", ids: ['op.track_table.v1'], status: 'failed', failure: "it's" },
        ],
        'http://t',
        new Date(),
      ),
    );
    const list = html.indexOf('<ol class="failure-list">');
    expect(list).toBeGreaterThan(0);
    expect(list).toBeLessThan(html.indexOf('<table class="summary">'));
    expect(html).toContain(
      '<h2>2 failed</h2><ol class="failure-list"><li><a href="#failure-0">b fails &lt;&amp;&gt; [op.bulk]</a> <code>conformance/cases/b.test.ts</code></li>',
    );
    expect(html).toContain('<a href="#failure-1">it&#39;s [op.track_table.v1]</a> <code>conformance/cases/c&#39;q.test.ts</code>');
    expect(html).toContain('<pre>it&#39;s</pre>');
    expect(html).not.toContain("it's");
    const section = (id: string) => new RegExp(`<details id="s-${id.replace(/\./g, '-')}"( open)?>`).exec(html)?.[1];
    const sectionOf = (itemId: string) => report.sections.find((s) => s.items.some((i) => i.id === itemId))!.section;
    expect(section(sectionOf('op.bulk'))).toBe(' open');
    const quiet = report.sections.find((s) => s.items.every((i) => i.status !== 'fail' && i.status !== 'partial'))!;
    expect(section(quiet.section)).toBeUndefined();
    expect(html).toContain(`<details id="s-${quiet.section.replace(/[^0-9a-z]+/gi, '-')}"><summary>`);
  });
});
