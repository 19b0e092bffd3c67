// The conformance report: per SPEC.md section, each item with its tests and a status.
import { ITEMS, type SpecItem } from '../../spec';

export type TestStatus = 'passed' | 'failed' | 'skipped';
export type ItemStatus = 'pass' | 'fail' | 'not-run' | 'not-covered' | 'reference';

export interface CaseResult {
  file: string;
  title: string;
  ids: string[];
  status: TestStatus;
  failure?: string;
}

export interface ItemReport extends SpecItem {
  status: ItemStatus;
  tests: { title: string; file: string; status: TestStatus }[];
}

export interface ConformanceReport {
  target: string;
  generated_at: string;
  totals: Record<ItemStatus, number> & { items: number; tests: number; tests_failed: number };
  sections: { section: string; items: ItemReport[] }[];
  failures: CaseResult[];
}

function statusOf(item: SpecItem, tests: CaseResult[]): ItemStatus {
  if (tests.some((t) => t.status === 'failed')) return 'fail';
  if (tests.some((t) => t.status === 'passed')) return 'pass';
  if (tests.length > 0) return 'not-run';
  return item.verifiedBy === 'reference' ? 'reference' : 'not-covered';
}

const sectionOrder = (s: string) => s.split('.').map((n) => n.padStart(3, '0')).join('.');

export function buildReport(results: CaseResult[], target: string, now = new Date()): ConformanceReport {
  const byId = new Map<string, CaseResult[]>();
  for (const r of results) for (const id of r.ids) byId.set(id, [...(byId.get(id) ?? []), r]);
  const items: ItemReport[] = ITEMS.map((item) => {
    const tests = byId.get(item.id) ?? [];
    return { ...item, status: statusOf(item, tests), tests: tests.map(({ title, file, status }) => ({ title, file, status })) };
  });
  const sections = [...new Set(items.map((i) => i.section))]
    .sort((a, b) => sectionOrder(a).localeCompare(sectionOrder(b)))
    .map((section) => ({ section, items: items.filter((i) => i.section === section) }));
  const count = (s: ItemStatus) => items.filter((i) => i.status === s).length;
  return {
    target,
    generated_at: now.toISOString(),
    totals: {
      items: items.length,
      tests: results.length,
      tests_failed: results.filter((r) => r.status === 'failed').length,
      pass: count('pass'),
      fail: count('fail'),
      'not-run': count('not-run'),
      'not-covered': count('not-covered'),
      reference: count('reference'),
    },
    sections,
    failures: results.filter((r) => r.status === 'failed'),
  };
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function renderHtml(report: ConformanceReport): string {
  const t = report.totals;
  const rows = report.sections
    .map(
      (s) => `<h2>§${escape(s.section)}</h2>
<table><tr><th>item</th><th>level</th><th>status</th><th>tests</th></tr>
${s.items
  .map(
    (i) => `<tr class="${i.status}"><td><code>${escape(i.id)}</code><br>${escape(i.summary)}${i.decision ? `<br><em>decision: ${escape(i.decision)}</em>` : ''}</td><td>${i.level}</td><td>${i.status}</td><td>${i.tests
      .map((x) => `${x.status === 'passed' ? '✔' : x.status === 'failed' ? '✘' : '–'} ${escape(x.title)}`)
      .join('<br>')}</td></tr>`,
  )
  .join('\n')}
</table>`,
    )
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Conformance report</title>
<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px;vertical-align:top;text-align:left}
.pass td:nth-child(3){color:#070}.fail td:nth-child(3){color:#b00;font-weight:bold}.not-covered td:nth-child(3),.not-run td:nth-child(3){color:#a60}</style></head>
<body><h1>Conformance report</h1><p>Target: ${escape(report.target)} — ${escape(report.generated_at)}</p>
<p>${t.items} items: ${t.pass} pass, ${t.fail} fail, ${t['not-run']} not run, ${t['not-covered']} not covered, ${t.reference} checked by reference tests; ${t.tests} tests, ${t.tests_failed} failed.</p>
${rows}</body></html>`;
}

/** The summary table the CLI prints. */
export function summaryTable(report: ConformanceReport): string {
  const lines = ['section  pass  fail  not-run  not-covered'];
  for (const s of report.sections) {
    const n = (st: ItemStatus) => String(s.items.filter((i) => i.status === st).length);
    lines.push(`§${s.section.padEnd(7)}${n('pass').padStart(4)}${n('fail').padStart(6)}${n('not-run').padStart(9)}${n('not-covered').padStart(13)}`);
  }
  const t = report.totals;
  lines.push(`total   ${String(t.pass).padStart(4)}${String(t.fail).padStart(6)}${String(t['not-run']).padStart(9)}${String(t['not-covered']).padStart(13)}`);
  return lines.join('\n');
}
