// Differential runs between two reference servers, each on its own database: against each other
// they must find nothing; with a difference planted in one (a proxy that makes `_nin` keep NULLs
// for role r1) they must find it and shrink it to one table, one permission and one request.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capturedOutput } from '../cli/capturedOutput';
import { diffMain } from '../cli/diffCommand';
import { onDatabase } from '../cli/targetState';
import type { DiffReport } from './report';
import type { RunningServer } from '../../reference/src/server';
import { CLUSTER_URL_VARIABLE } from '../harness/environment';
import { createDatabase, dropDatabase } from '../harness/database';
import { startMockServer, type RunningMockServer } from '../harness/mockServer';
import { startOwnServer } from '../harness/ownServer';
import { diffTargets, TargetRunner, type Step } from './differ';
import { plantedProxy } from './plantedProxy';
import { AREAS, type Area } from './scenario';
import { generatedRuns } from '../harness/generatedRuns';

const RUNS = generatedRuns('ENGINE_DIFF_RUNS', 6, 100);
// The long form draws a new seed each run. The short form's 6 scenarios are too few for every
// seed to reach rows and role data (about half the seeds do not), so it takes one that does (seed
// 2: 6 accepted, 4 answers to roles, 3 with rows, 6 refusals).
const SHORT_SEED = 2;
const seed = Number(process.env.ENGINE_DIFF_SEED ?? (process.env.ENGINE_TEST_LONG === '1' ? Date.now() % 2 ** 31 : SHORT_SEED));
// A seed whose scenarios reach the planted difference early (20 scenarios, about 15 s in all);
// ENGINE_DIFF_SEED tries others (found after 20 to 450 scenarios, 15 to 70 s, in the runs measured).
const PLANTED_SEED = Number(process.env.ENGINE_DIFF_SEED ?? 8);
const ALL_AREAS = Object.keys(AREAS) as Area[];

interface Side {
  database: { name: string; url: string };
  server: RunningServer;
  secret: string;
}
const sides: Side[] = [];
let proxy: RunningMockServer;

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const database = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
    const secret = randomBytes(8).toString('hex');
    const server = await startOwnServer(database.url, { ENGINE_GRAPHQL_ADMIN_SECRET: secret });
    sides.push({ database, server, secret });
  }
  proxy = await startMockServer([plantedProxy(sides[1]!.server.url)]);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  for (const side of sides) {
    await side.server.close();
    await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, side.database.name);
  }
});

const runner = (side: Side, url = side.server.url) => new TargetRunner({ url, database: side.database.url, adminSecret: side.secret });

test(`the reference against itself: ${RUNS} generated scenarios, no difference`, async () => {
  const [a, b] = [runner(sides[0]!), runner(sides[1]!)];
  const seen: Step[][] = [];
  const observe = (steps: Step[]) => seen.push(steps);
  try {
    const result = await diffTargets(a, b, { runs: RUNS, seed, areas: ALL_AREAS, observe });
    expect({ ...result, seed: 0 }).toEqual({ seed: 0, runs: RUNS, checked: RUNS });
  } finally {
    await Promise.all([a.close(), b.close()]);
    // The next case starts from targets as a user's would be: empty.
    for (const side of sides) {
      await metadata(side, { type: 'clear_metadata', args: {} });
      await onDatabase(side.database.url, (c) => c.query('drop schema if exists engine_diff cascade'));
    }
  }
  process.stdout.write(`diff: ${RUNS} scenarios, seed ${seed}, no difference\n`);
  // The runs asked real questions: metadata accepted, data answered to roles, rows, refusals.
  const steps = seen.flat();
  const count = (keep: (s: Step) => boolean) => steps.filter(keep).length;
  const text = (s: Step) => JSON.stringify(s.answer.body);
  const health = {
    accepted: count((s) => s.label === 'replace_metadata' && s.answer.status === 200),
    roleData: count((s) => s.call !== undefined && 'userId' in s.call.as && text(s).startsWith('{"data":')),
    rows: count((s) => s.call !== undefined && /^\{"data":\{"[a-z0-9_]+":\[\{/.test(text(s))),
    refusals: count((s) => s.call !== undefined && (s.answer.status !== 200 || text(s).startsWith('{"errors":'))),
  };
  process.stdout.write(`diff: ${steps.length} steps: ${JSON.stringify(health)}\n`);
  expect(seen).toHaveLength(RUNS);
  for (const n of Object.values(health)) expect(n).toBeGreaterThan(0);
}, 300_000);

// Where seed 8's search ends: the shrunk scenario, replayed at once (`--path`). The search itself
// (about 150 scenarios tried while shrinking, 40 s) runs with ENGINE_TEST_LONG=1, as CI runs it; it
// prints the path it ends at, which is this one while the scenario generators stay as they are.
const PLANTED_PATH = '20:0:1:1:5:3:3:2:2:2:2:2:2:2:2:2:2:3:2:2:2:2:2:2:2:2:2:3:3:4:8:6:6:6:6:6:6:6';
const long = process.env.ENGINE_TEST_LONG === '1';

/** A planted run from the command line, A in use with a table of its own (refused without --allow-clear); what it printed and reported. */
async function plantedRun(extra: string[]) {
  const [a, b] = sides as [Side, Side];
  await onDatabase(a.database.url, (c) =>
    c.query('drop schema if exists keep cascade; create schema keep; create table keep.kept (id integer primary key); insert into keep.kept values (7)'),
  );
  const kept = { version: 2, tables: [{ table: { schema: 'keep', name: 'kept' } }] };
  expect((await metadata(a, { type: 'replace_metadata', args: kept })).status).toBe(200);
  const before = [await metadata(a, EXPORT), await metadata(b, EXPORT)];
  const dir = mkdtempSync(join(tmpdir(), 'engine-diff-'));
  const args = [
    ...['--target', a.server.url, '--database', a.database.url, '--admin-secret', a.secret],
    ...['--against', proxy.url, '--against-database', b.database.url, '--against-admin-secret', b.secret],
    ...['--runs', '1000', '--seed', String(PLANTED_SEED), '--areas', 'graphql', '--report-dir', dir, '--junit', join(dir, 'junit.xml'), ...extra],
  ];
  // A target in use is refused unless the run may clear it.
  const refused = capturedOutput();
  expect(await diffMain(args, refused.stream, refused.stream)).toBe(2);
  expect(refused.text()).toBe(
    `engine-conformance diff: A (--target ${a.server.url}): the target is in use: its metadata is not empty (1 table). The cases clear the metadata and replace those schemas while they run; the metadata is restored afterwards, the schemas are not. Give --allow-clear to run anyway\n`,
  );
  const started = Date.now();
  const run = capturedOutput();
  expect(await diffMain([...args, '--allow-clear'], run.stream, run.stream)).toBe(1);
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`diff: planted difference, seed ${PLANTED_SEED}, ${seconds.toFixed(1)} s:\n${run.text()}\n`);
  const report = JSON.parse(readFileSync(join(dir, 'diff-report.json'), 'utf8')) as DiffReport;
  return { a, b, args, dir, before, output: run.text(), report, d: report.difference! };
}

/** The difference is the planted one, shrunk: one table, at most one permission, one request of r1 with `_nin`. */
function expectShrunk(d: DiffReport['difference'] & object) {
  expect(d.scenario.tables.filter(Boolean)).toHaveLength(1);
  expect(d.scenario.permissions.length).toBeLessThanOrEqual(1);
  expect(d.scenario.requests).toHaveLength(1);
  expect(d.scenario.requests[0]).toMatchObject({ kind: expect.stringMatching(/^(select|aggregate)$/), role: 'r1' });
  expect(JSON.stringify(d.scenario.requests[0])).toContain('"_nin"');
  expect(d.steps[0][d.step]!.label).toBe(`request 1 (${d.scenario.requests[0]!.kind})`);
}

test('diff from the command line: a planted difference (_nin keeping NULLs for one role) replayed from its path, reported with its reproduction; a target in use refused without --allow-clear; both targets as found', async () => {
  const { a, b, dir, before, output, report, d } = await plantedRun(['--path', PLANTED_PATH]);
  expectShrunk(d);
  expect(d.path).toBe(PLANTED_PATH);
  expect(report).toMatchObject({ seed: PLANTED_SEED, runs: 1000, areas: ['graphql'], target: a.server.url, against: proxy.url });
  expect(report.replay).toBe(
    `engine-conformance diff --target ${a.server.url} --against ${proxy.url} --seed ${PLANTED_SEED} --runs 1000 --areas graphql --path ${PLANTED_PATH}`,
  );
  // The reproduction: the SQL, the curl lines, both answers; printed, and in the HTML and JUnit reports.
  const text = report.reproduction!;
  expect(text).toMatch(/create table "engine_diff"\."t[012]" \("id" integer primary key, /);
  expect(text).toMatch(/curl -sS -i -X POST '[^']+\/v1\/graphql' .*_nin/);
  expect(text).toContain(`# A (${a.server.url}): 200 {"data":`);
  expect(text).toContain(`# B (${proxy.url}): 200 {"data":`);
  expect(output).toContain(`difference found after ${report.checked} alike scenarios, shrunk in ${d.shrinks} steps`);
  expect(output).toContain(text);
  expect(readFileSync(join(dir, 'diff-report.html'), 'utf8')).toContain('<h2>Reproduction</h2><pre>1. The database');
  expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<testsuites name="conformance" tests="1" failures="1">');
  // The curl lines read each side's admin secret from the environment; no report holds either.
  expect(text).toContain('-H "x-engine-admin-secret: $ENGINE_ADMIN_SECRET"');
  expect(text).toContain('-H "x-engine-admin-secret: $ENGINE_AGAINST_ADMIN_SECRET"');
  for (const name of ['diff-report.json', 'diff-report.html', 'junit.xml']) {
    const written = readFileSync(join(dir, name), 'utf8');
    expect({ name, secrets: [a.secret, b.secret].filter((s) => written.includes(s)), told: written.includes('ENGINE_AGAINST_ADMIN_SECRET (B') }).toEqual({
      name,
      secrets: [],
      told: true,
    });
  }
  expect([a.secret, b.secret].filter((s) => output.includes(s))).toEqual([]);
  // Both targets as they were found: metadata, A's own table, and nothing of the run's schema.
  expect(output).toContain(
    "A: the target is as it was found: its metadata (1 table) restored, the objects the cases made dropped, its catalog's logs as they were (0 rows of the run removed, 0 put back)\n",
  );
  expect(output).toContain(
    "B: the target is as it was found: its metadata (empty) restored, the objects the cases made dropped, its catalog's logs as they were (0 rows of the run removed, 0 put back)\n",
  );
  expect([await metadata(a, EXPORT), await metadata(b, EXPORT)]).toEqual(before);
  expect(await onDatabase(a.database.url, (c) => c.query('select id from keep.kept'))).toMatchObject({ rows: [{ id: 7 }] });
  for (const side of sides) {
    expect(await onDatabase(side.database.url, (c) => c.query("select count(*)::int as n from pg_namespace where nspname = 'engine_diff'"))).toMatchObject({
      rows: [{ n: 0 }],
    });
  }
}, 120_000);

(long ? test : test.skip)(
  'diff from the command line (ENGINE_TEST_LONG=1): the planted difference found by searching from its seed, shrunk to one table, one permission and one request; its path replays it at once',
  async () => {
    const { args, dir, output, report, d } = await plantedRun([]);
    expectShrunk(d);
    expect(report.checked).toBeGreaterThan(0);
    expect(d.shrinks).toBeGreaterThan(0);
    expect(output).toContain(`difference found after ${report.checked} alike scenarios, shrunk in ${d.shrinks} steps`);
    process.stdout.write(`diff: seed ${PLANTED_SEED} ends at --path ${d.path}\n`);
    // The search ends where the short form starts (with another seed, elsewhere).
    if (process.env.ENGINE_DIFF_SEED === undefined) expect(d.path).toBe(PLANTED_PATH);
    // --path (with the same seed) replays that scenario alone: the same difference, at once.
    const replay = capturedOutput();
    const replayDir = mkdtempSync(join(tmpdir(), 'engine-diff-replay-'));
    const replayArgs = args.map((x) => (x === dir ? replayDir : x)).filter((x) => !x.endsWith('junit.xml') && x !== '--junit');
    expect(await diffMain([...replayArgs, '--allow-clear', '--path', d.path], replay.stream, replay.stream)).toBe(1);
    const replayed = JSON.parse(readFileSync(join(replayDir, 'diff-report.json'), 'utf8')) as DiffReport;
    expect(replayed.difference!.scenario).toEqual(d.scenario);
    expect(replayed.reproduction).toBe(report.reproduction);
  },
  300_000,
);

const EXPORT = { type: 'export_metadata', args: {} };

async function metadata(side: Side, envelope: unknown): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${side.server.url}/v1/metadata`, {
    method: 'POST',
    headers: { 'x-engine-admin-secret': side.secret, 'content-type': 'application/json' },
    body: JSON.stringify(envelope),
  });
  return { status: r.status, body: await r.json() };
}
