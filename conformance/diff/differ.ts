// Differential runs: the same generated scenarios against two targets, their answers compared
// (normalise.ts); on the first difference fast-check shrinks the scenario to the smallest that
// still differs, and the run ends with a self-contained reproduction of it.
import fc from 'fast-check';
import { Client } from 'pg';
import * as sql from 'pg-sql2';
import { curlLine } from '../harness/client';
import { comparable, differ, type Answer } from './normalise';
import { changesRows, httpCall, metadataDocument, printedSql, rowsQuery, setupStatements, type HttpCall } from './render';
import { scenarioArbitrary, tablesOf, type Area, type Scenario } from './scenario';

export interface DiffTarget {
  url: string;
  database: string;
  adminSecret?: string;
  /** The environment variable the curl lines read the admin secret from (ENGINE_ADMIN_SECRET unless said). */
  secretVariable?: string;
}

/** One thing asked of a target in a scenario, and what it answered. */
export interface Step {
  label: string;
  /** The index of the scenario's request this step asked or follows. */
  request?: number;
  /** The HTTP request; absent for the rows read from the database after a change. */
  call?: HttpCall;
  answer: Answer;
}

export interface DiffOptions {
  runs: number;
  seed: number;
  areas: readonly Area[];
  /** fast-check's path of one scenario: replays it alone (printed with a difference). */
  path?: string;
  /** Called after each scenario checked before a difference. */
  progress?(checked: number): void;
  /** Given the first target's steps of each scenario checked before a difference (for statistics). */
  observe?(steps: Step[]): void;
  /** Called after each scenario tried while shrinking a difference. */
  shrinking?(tried: number): void;
}

export interface Difference {
  scenario: Scenario;
  /** The step whose answers differ, and both targets' steps up to it. */
  step: number;
  steps: [Step[], Step[]];
  shrinks: number;
  /** fast-check's path of the shrunk scenario (`--path`). */
  path: string;
}

export interface DiffResult {
  seed: number;
  runs: number;
  /** Scenarios run to their end on both targets before the first difference (all when none differ). */
  checked: number;
  difference?: Difference;
  /** Set when a scenario could not be run at all (a target or its database failing). */
  failure?: string;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** A target as the runs see it: HTTP requests as admin or a role, and its database. */
export class TargetRunner {
  private client: Client | undefined;

  constructor(readonly target: DiffTarget) {}

  headers(as: HttpCall['as']): Record<string, string> {
    const admin: Record<string, string> =
      this.target.adminSecret !== undefined ? { 'x-engine-admin-secret': this.target.adminSecret } : { 'x-engine-role': 'admin' };
    return 'userId' in as ? { ...admin, 'x-engine-role': as.role, 'x-engine-user-id': as.userId } : admin;
  }

  curl(call: HttpCall): string {
    const secrets = this.target.adminSecret ? [{ value: this.target.adminSecret, variable: this.target.secretVariable ?? 'ENGINE_ADMIN_SECRET' }] : [];
    return curlLine(this.target.url + call.path, call.method, this.headers(call.as), call.body === undefined ? undefined : JSON.stringify(call.body), secrets);
  }

  async send(call: HttpCall): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(this.target.url + call.path, {
        method: call.method,
        headers: { ...this.headers(call.as), ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      // No answer is an answer too: the other target may well give one.
      return { status: 0, body: `no answer: ${(error as Error).message}` };
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: compared as text
    }
    return { status: response.status, body };
  }

  private async database(): Promise<Client> {
    if (!this.client) {
      const client = new Client({ connectionString: this.target.database });
      await client.connect();
      this.client = client;
    }
    return this.client;
  }

  /** The scenario's tables and metadata, then its requests; every answer, and the rows after each change. */
  async run(s: Scenario): Promise<Step[]> {
    // No clear_metadata first: replace_metadata replaces whatever the last scenario left, also
    // tables it tracked that the SQL below drops (a fifth of a scenario's time saved).
    const db = await this.database();
    await db.query('begin');
    try {
      for (const statement of setupStatements(s)) await db.query(sql.compile(statement));
      await db.query('commit');
    } catch (error) {
      await db.query('rollback');
      throw error;
    }
    const steps: Step[] = [];
    const ask = async (label: string, call: HttpCall, request?: number) =>
      steps.push({ label, call, answer: await this.send(call), ...(request !== undefined ? { request } : {}) });
    await ask('replace_metadata', {
      method: 'POST',
      path: '/v1/metadata',
      as: { role: 'admin' },
      body: { type: 'replace_metadata', args: metadataDocument(s) },
    });
    for (const [i, request] of s.requests.entries()) {
      await ask(`request ${i + 1} (${request.kind})`, httpCall(request, s), i);
      if (changesRows(request)) steps.push({ label: `rows after request ${i + 1}`, request: i, answer: { status: 200, body: await this.rows(s) } });
      if (request.kind === 'metadata') {
        const exported: HttpCall = { method: 'POST', path: '/v1/metadata', as: { role: 'admin' }, body: { type: 'export_metadata', args: {} } };
        await ask(`metadata after request ${i + 1}`, exported, i);
      }
    }
    return steps;
  }

  private async rows(s: Scenario): Promise<unknown[]> {
    const db = await this.database();
    const all: unknown[] = [];
    for (const i of tablesOf(s)) all.push((await db.query<{ rows: unknown }>(sql.compile(rowsQuery(i)))).rows[0]!.rows);
    return all;
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}

/** The index of the first step whose answers differ, or -1. */
export function firstDifference(a: Step[], b: Step[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.label !== y.label || differ(x.answer, y.answer)) return i;
  }
  return -1;
}

class DifferenceFound extends Error {
  constructor(readonly step: number) {
    super(`answers differ at step ${step}`);
  }
}

/** Run generated scenarios against both targets until they answer differently, then shrink. */
export async function diffTargets(a: TargetRunner, b: TargetRunner, options: DiffOptions): Promise<DiffResult> {
  let checked = 0;
  let shrinks = 0;
  let failedOnce = false;
  const property = fc.asyncProperty(scenarioArbitrary(options.areas), async (s) => {
    let alike = false;
    try {
      const [x, y] = await Promise.all([a.run(s), b.run(s)]);
      const step = firstDifference(x, y);
      if (step >= 0) throw new DifferenceFound(step);
      alike = true;
      if (!failedOnce) options.observe?.(x);
    } finally {
      // Runs before the first failure are scenarios checked; every run after it is a step of shrinking.
      if (failedOnce) {
        shrinks++;
        options.shrinking?.(shrinks);
      } else if (alike) {
        checked++;
        options.progress?.(checked);
      } else {
        failedOnce = true;
      }
    }
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: options.seed,
    ...(options.path !== undefined ? { path: options.path } : {}),
    endOnFailure: false,
  });
  const result: DiffResult = { seed: options.seed, runs: options.runs, checked };
  if (!details.failed) return result;
  const cause = details.errorInstance;
  const scenario = details.counterexample?.[0];
  if (!(cause instanceof DifferenceFound) || !scenario) return { ...result, failure: cause instanceof Error ? cause.message : String(cause) };
  // The shrunk scenario once more, for both targets' answers in full, without the requests after
  // the first difference (they play no part in it).
  const steps: [Step[], Step[]] = await Promise.all([a.run(scenario), b.run(scenario)]);
  const step = firstDifference(...steps);
  if (step < 0)
    return {
      ...result,
      failure: 'the shrunk scenario answered alike when run again: a difference that comes and goes (timing, or state the scenario does not set)',
    };
  const shorter = { ...scenario, requests: scenario.requests.slice(0, (steps[0][step]?.request ?? -1) + 1) };
  const again: [Step[], Step[]] = await Promise.all([a.run(shorter), b.run(shorter)]);
  const [shown, shownSteps] = firstDifference(...again) === step ? [shorter, again] : [scenario, steps];
  return {
    ...result,
    difference: {
      scenario: shown,
      step,
      steps: [shownSteps[0].slice(0, step + 1), shownSteps[1].slice(0, step + 1)],
      shrinks: details.numShrinks,
      path: details.counterexamplePath ?? '',
    },
  };
}

/** The difference as something to paste: the SQL, the metadata, the requests as curl lines, both answers. */
export function reproduction(d: Difference, a: TargetRunner, b: TargetRunner): string {
  const [stepsA, stepsB] = d.steps;
  const shown = (answer: Answer) => `${answer.status} ${typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)}`;
  const lines = [
    `1. The database (run on each target's database):`,
    '',
    indent(printedSql(setupStatements(d.scenario))),
    '',
    '2. Then, in order, on each target (the first answers were alike, the last differ):',
  ];
  for (const [i, step] of stepsA.entries()) {
    const last = i === stepsA.length - 1;
    lines.push('', `-- ${step.label}`);
    if (step.call) lines.push(indent(a.curl(step.call)));
    if (!last) {
      lines.push(indent(`# both: ${shown(step.answer)}`));
      continue;
    }
    const other = stepsB[i];
    if (step.call && other?.call) lines.push(indent(b.curl(other.call)));
    lines.push(indent(`# A (${a.target.url}): ${shown(step.answer)}`), indent(`# B (${b.target.url}): ${other ? shown(other.answer) : '(no such step)'}`));
    if (other) {
      const [x, y] = comparable(step.answer, other.answer);
      lines.push(indent(`# compared, A: ${JSON.stringify(x)}`), indent(`# compared, B: ${JSON.stringify(y)}`));
    }
  }
  return lines.join('\n');
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
