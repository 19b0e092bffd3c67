// The conformance report: per SPEC.md section, each item with its tests and a status.
import { stripVTControlCharacters } from 'node:util';
import { ITEMS, type SpecItem } from '../../spec';
import { secretsNote } from './secrets';

export type TestStatus = 'passed' | 'failed' | 'skipped';
/** `partial`: some cases passed and others were not run (a profile the target lacks); never `pass`. */
export type ItemStatus = 'pass' | 'partial' | 'fail' | 'not-run' | 'not-selected' | 'not-covered' | 'reference';

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
  /** How the curl lines of the failures get their secrets (secrets.ts). */
  reproduce: string;
  totals: Record<ItemStatus, number> & { items: number; tests: number; tests_failed: number };
  sections: { section: string; items: ItemReport[] }[];
  failures: CaseResult[];
}

function statusOf(item: SpecItem, tests: CaseResult[], unselected: ReadonlySet<string>): ItemStatus {
  if (tests.some((t) => t.status === 'failed')) return 'fail';
  if (tests.some((t) => t.status === 'passed')) return tests.some((t) => t.status === 'skipped') ? 'partial' : 'pass';
  if (tests.length > 0) return 'not-run';
  if (unselected.has(item.id)) return 'not-selected';
  return item.verifiedBy === 'reference' ? 'reference' : 'not-covered';
}

const sectionOrder = (s: string) =>
  s
    .split('.')
    .map((n) => n.padStart(3, '0'))
    .join('.');

/** `unselected`: IDs that cases left out of this run (by a filter) would check. */
export function buildReport(results: CaseResult[], target: string, now = new Date(), unselected: ReadonlySet<string> = new Set()): ConformanceReport {
  const byId = new Map<string, CaseResult[]>();
  for (const r of results) for (const id of r.ids) byId.set(id, [...(byId.get(id) ?? []), r]);
  const items: ItemReport[] = ITEMS.map((item) => {
    const tests = byId.get(item.id) ?? [];
    return { ...item, status: statusOf(item, tests, unselected), tests: tests.map(({ title, file, status }) => ({ title, file, status })) };
  });
  const sections = [...new Set(items.map((i) => i.section))]
    .sort((a, b) => sectionOrder(a).localeCompare(sectionOrder(b)))
    .map((section) => ({ section, items: items.filter((i) => i.section === section) }));
  const count = (s: ItemStatus) => items.filter((i) => i.status === s).length;
  return {
    target,
    generated_at: now.toISOString(),
    reproduce: secretsNote(),
    totals: {
      items: items.length,
      tests: results.length,
      tests_failed: results.filter((r) => r.status === 'failed').length,
      pass: count('pass'),
      partial: count('partial'),
      fail: count('fail'),
      'not-run': count('not-run'),
      'not-selected': count('not-selected'),
      'not-covered': count('not-covered'),
      reference: count('reference'),
    },
    sections,
    failures: results.filter((r) => r.status === 'failed'),
  };
}

export const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What a failure message says last: how to send the request again. It is never shortened. */
const REPRODUCE = 'Reproduce with:\n';

/**
 * A failure message for the report: the diff above the curl line shortened to `limit` characters
 * when it is longer, the curl line (and anything after it) kept whole.
 */
export function shortenFailure(message: string, limit = 4000): string {
  const at = message.lastIndexOf(REPRODUCE);
  const head = at < 0 ? message : message.slice(0, at).replace(/\n+$/, '');
  if (head.length <= limit) return message;
  const cut = `${head.slice(0, limit)}\n… (${head.length - limit} more characters of the difference left out)`;
  return at < 0 ? cut : `${cut}\n\n${message.slice(at)}`;
}

const STATUSES: readonly ItemStatus[] = ['pass', 'partial', 'fail', 'not-run', 'not-selected', 'not-covered', 'reference'];
const anchor = (section: string) => `s-${section.replace(/[^0-9a-z]+/gi, '-')}`;

/**
 * The HTML report: the list of failures first, the summary per section (with links), a filter by
 * status, the items of each section (collapsed where all passed), then every failure with the
 * expected and actual answers and the curl line that reproduces it (as jest printed them).
 */
export function renderHtml(report: ConformanceReport): string {
  const t = report.totals;
  const summary = `<table class="summary"><tr><th>section</th>${STATUSES.map((st) => `<th>${st}</th>`).join('')}</tr>
${report.sections
  .map(
    (s) =>
      `<tr><td><a href="#${anchor(s.section)}">§${escape(s.section)}</a></td>${STATUSES.map((st) => `<td>${s.items.filter((i) => i.status === st).length || ''}</td>`).join('')}</tr>`,
  )
  .join('\n')}
<tr><th>total</th>${STATUSES.map((st) => `<th>${t[st]}</th>`).join('')}</tr></table>`;
  const failureIndex = new Map(report.failures.map((f, k) => [`${f.file}\u0000${f.title}`, k]));
  // Sections where all is well start collapsed; those with a failure or a gap start open.
  const rows = report.sections
    .map((s) => {
      const open = s.items.some((i) => i.status === 'fail' || i.status === 'partial');
      return `<details id="${anchor(s.section)}"${open ? ' open' : ''}><summary><h2>§${escape(s.section)}</h2></summary>
<table><tr><th>item</th><th>level</th><th>status</th><th>tests</th></tr>
${s.items
  .map(
    (i) =>
      `<tr class="item ${i.status}"><td><code>${escape(i.id)}</code><br>${escape(i.summary)}${i.decision ? `<br><em>decision: ${escape(i.decision)}</em>` : ''}</td><td>${i.level}</td><td>${i.status}</td><td>${i.tests
        .map((x) => {
          const k = failureIndex.get(`${x.file}\u0000${x.title}`);
          const title = k === undefined ? escape(x.title) : `<a href="#failure-${k}">${escape(x.title)}</a>`;
          return `${x.status === 'passed' ? '✔' : x.status === 'failed' ? '✘' : '–'} ${title}`;
        })
        .join('<br>')}</td></tr>`,
  )
  .join('\n')}
</table></details>`;
    })
    .join('\n');
  const failureList = report.failures.length
    ? `<h2>${report.failures.length} failed</h2><ol class="failure-list">${report.failures
        .map((f, k) => `<li><a href="#failure-${k}">${escape(f.title)}</a> <code>${escape(f.file)}</code></li>`)
        .join('')}</ol>`
    : '';
  const failures = report.failures.length
    ? `<h2 id="failures">Failures</h2>\n${report.failures
        .map(
          (f, k) =>
            `<h3 id="failure-${k}">${escape(f.title)}</h3><p><code>${escape(f.file)}</code></p><pre>${escape(stripVTControlCharacters(f.failure ?? ''))}</pre>`,
        )
        .join('\n')}`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>Conformance report</title>
<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px;vertical-align:top;text-align:left}
table.summary{width:auto}summary h2{display:inline}details{margin:1em 0}pre{background:#f6f6f6;padding:8px;overflow-x:auto}
.pass td:nth-child(3){color:#070}.fail td:nth-child(3){color:#b00;font-weight:bold}.partial td:nth-child(3),.not-selected td:nth-child(3),.not-covered td:nth-child(3),.not-run td:nth-child(3){color:#a60}</style></head>
<body><h1>Conformance report</h1><p>Target: ${escape(report.target)} — ${escape(report.generated_at)}</p>
<p class="reproduce">${escape(report.reproduce)}</p>
<p>${t.items} items: ${t.pass} pass, ${t.partial} partial, ${t.fail} fail, ${t['not-run']} not run, ${t['not-selected']} not selected, ${t['not-covered']} not covered, ${t.reference} checked by reference tests; ${t.tests} tests, ${t.tests_failed} failed.${report.failures.length ? ' <a href="#failures">Failures</a>.' : ''}</p>
${failureList}
${summary}
<p><label>Show <select id="status-filter"><option value="">every status</option>${STATUSES.map((st) => `<option>${st}</option>`).join('')}</select></label></p>
${rows}
${failures}
<script>document.getElementById('status-filter').addEventListener('change',function(e){var v=e.target.value;document.querySelectorAll('tr.item').forEach(function(r){r.style.display=!v||r.classList.contains(v)?'':'none'})})</script>
</body></html>`;
}

/** JUnit XML for CI systems: one test case per case, grouped by file; `note` (how the curl lines get their secrets) in a comment at the top. */
export function renderJUnit(results: readonly CaseResult[], note: string = secretsNote()): string {
  const xml = (text: string) => escape(stripVTControlCharacters(text));
  const files = [...new Set(results.map((r) => r.file))];
  const suites = files.map((file) => {
    const cases = results.filter((r) => r.file === file);
    const count = (st: TestStatus) => cases.filter((c) => c.status === st).length;
    return `  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${count('failed')}" skipped="${count('skipped')}">
${cases
  .map((c) => {
    const body =
      c.status === 'failed'
        ? `<failure message="${xml((c.failure ?? '').split('\n')[0] ?? '')}">${xml(c.failure ?? '')}</failure>`
        : c.status === 'skipped'
          ? '<skipped/>'
          : '';
    return `    <testcase classname="${xml(file)}" name="${xml(c.title)}">${body}</testcase>`;
  })
  .join('\n')}
  </testsuite>`;
  });
  const failed = results.filter((r) => r.status === 'failed').length;
  // A comment may not hold "--": a flag is named in words there.
  const comment = note ? `<!-- ${note.replace(/--([a-z-]+)/g, 'the flag $1').replace(/--/g, '- -')} -->\n` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n${comment}<testsuites name="conformance" tests="${results.length}" failures="${failed}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The summary table the CLI prints. */
export function summaryTable(report: ConformanceReport): string {
  const lines = ['section  pass  partial  fail  not-run  not-covered'];
  for (const s of report.sections) {
    const n = (st: ItemStatus) => String(s.items.filter((i) => i.status === st).length);
    lines.push(
      `§${s.section.padEnd(7)}${n('pass').padStart(4)}${n('partial').padStart(9)}${n('fail').padStart(6)}${n('not-run').padStart(9)}${n('not-covered').padStart(13)}`,
    );
  }
  const t = report.totals;
  lines.push(
    `total   ${String(t.pass).padStart(4)}${String(t.partial).padStart(9)}${String(t.fail).padStart(6)}${String(t['not-run']).padStart(9)}${String(t['not-covered']).padStart(13)}`,
  );
  return lines.join('\n');
}
