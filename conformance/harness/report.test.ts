import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../reference/src/packageRoot';
import { buildReport, renderHtml, renderJUnit, summaryTable, type CaseResult } from './report';
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
