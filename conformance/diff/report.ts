// The report of a differential run, in the suite's forms: JSON (everything, with the seed and the
// scenario), HTML (the summary and the reproduction) and JUnit XML (one case: the run).
import { escape, renderJUnit } from '../harness/report';
import type { DiffResult } from './differ';
import type { Area } from './scenario';

export interface DiffReport extends DiffResult {
  target: string;
  against: string;
  areas: Area[];
  generated_at: string;
  /** How the curl lines get their secrets (harness/secrets.ts). */
  reproduce?: string;
  seconds: number;
  /** The difference as something to paste (differ.ts `reproduction`), when there is one. */
  reproduction?: string;
  /** The command line that runs the same scenarios again. */
  replay: string;
}

/** One line: what the run found. */
export function verdict(r: DiffReport): string {
  if (r.failure) return `could not compare: ${r.failure}`;
  if (r.difference) return `difference found after ${r.checked} alike scenarios, shrunk in ${r.difference.shrinks} steps`;
  return `no difference in ${r.checked} scenarios`;
}

export function renderDiffJson(r: DiffReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

export function renderDiffHtml(r: DiffReport): string {
  const rows: [string, string][] = [
    ['target (A)', r.target],
    ['against (B)', r.against],
    ['areas', r.areas.join(', ')],
    ['seed', String(r.seed)],
    ['scenarios', `${r.checked} alike of ${r.runs} asked`],
    ['time', `${r.seconds.toFixed(1)} s`],
    ['replay', r.replay],
  ];
  const body = r.reproduction
    ? `<h2>Reproduction</h2><pre>${escape(r.reproduction)}</pre><h2>Scenario</h2><pre>${escape(JSON.stringify(r.difference?.scenario, null, 2))}</pre>`
    : r.failure
      ? `<h2>Could not compare</h2><pre>${escape(r.failure)}</pre>`
      : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>Differential report</title>
<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:8px;overflow-x:auto;white-space:pre-wrap}</style></head>
<body><h1>Differential report</h1><p><strong>${escape(verdict(r))}</strong> — ${escape(r.generated_at)}</p>
${r.reproduce ? `<p>${escape(r.reproduce)}</p>` : ''}
<table>${rows.map(([k, v]) => `<tr><th>${escape(k)}</th><td><code>${escape(v)}</code></td></tr>`).join('')}</table>
${body}
</body></html>
`;
}

export function renderDiffJUnit(r: DiffReport): string {
  const failed = r.difference !== undefined || r.failure !== undefined;
  return renderJUnit(
    [
      {
        file: 'engine-conformance diff',
        title: `${r.target} against ${r.against}: ${r.runs} scenarios (${r.areas.join(', ')}), seed ${r.seed}`,
        ids: [],
        status: failed ? 'failed' : 'passed',
        ...(failed ? { failure: `${verdict(r)}\n\n${r.reproduction ?? r.failure ?? ''}\n\nReplay: ${r.replay}` } : {}),
      },
    ],
    r.reproduce,
  );
}
