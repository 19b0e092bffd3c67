// Generated sequences of run_sql DDL, metadata changes (function permissions among them) and remote
// schemas (schemaChanges.ts), on the server's own database and on a second source (sourceSteps.ts),
// with two invariants:
// - after every change, accepted or not, every role's introspected schema builds and is valid
//   GraphQL, a query of every root field it has answers without a 5xx or an `unexpected` error, and
//   so do a mutation of every root field of its mutation_root and the first result of a
//   subscription (live or streaming) of every root field of its subscription_root (decision
//   dec.schema.always-valid);
//   a remote that is no valid GraphQL is refused as
//   remote-schema-error (dec.remote-schema.valid-schema);
// - at the end, a server started afresh on the same database has the same metadata, the same
//   schemas and the same answers as the one that went through the changes: nothing it prepared or
//   cached on the way makes a difference (dec.run_sql.recreated-objects).
// A few sequences in npm test; ENGINE_TEST_LONG=1 (npm run test:long) or ENGINE_FUZZ_RUNS for more:
// the long form with the second source, on a server that does not infer function permissions (where
// they decide what a role sees).
import fc from 'fast-check';
import type { RunningServer } from '../../reference/src/server';
import { caseNeeding, covers } from '../harness/cases';
import { httpRequest } from '../harness/client';
import { useMockServer } from '../harness/mockServer';
import { applyStep, describeStep, PROBED_ROLES, ROW_LITERALS, startSequence, steps, type Step } from '../harness/schemaChanges';
import { askMutations, askSubscriptions, brokenAnswer, probeRole, type Answer, type RoleProbe, type Server } from '../harness/schemaProbe';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { isManaged, useTarget, type Requirement, type Target } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const long = process.env.ENGINE_TEST_LONG === '1';
const handle = useTarget(long ? { profiles: ['no-function-inference'] } : {});
const remote = useMockServer();
// The second source's steps are the long form's (their root fields make every probe longer).
const withSide = long && REQUIRES_SOURCE_DATABASE.met;
const side = withSide ? useSourceDatabase() : undefined;
let target: Target;
let inferred = true;
beforeAll(async () => {
  target = handle.profileTarget('no-function-inference') ?? handle;
  const config = await target.request('GET', '/v1alpha1/config', { headers: target.adminHeaders() });
  inferred = (config.body as { is_function_permissions_inferred: boolean }).is_function_permissions_inferred;
});
// npm test: one short sequence for each invariant (the second checks the first on its way too).
const RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 1, 40);
const FRESH_RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 1, 40);
const STEPS = long ? 12 : 4;
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);

const FRESH_SERVER: Requirement = { met: isManaged, needs: 'a run that starts the reference server itself (the case starts a second one on its database)' };

const running = (): Server => ({ url: target.url, adminSecret: target.adminSecret });
const probeAll = (server: Server, queries?: Map<string, string[]>) =>
  Promise.all(PROBED_ROLES.map((role) => probeRole(server, role, queries?.get(role), ROW_LITERALS)));

/**
 * What a step must answer, where the step alone says it: remotes, by their validity and what is
 * there; a function permission of the server's own, while the engine infers them (§4.4).
 */
function expectedStatus(s: Step, remotes: Set<string>): { status: number; code?: string } | undefined {
  if (s.kind === 'metadata' && s.body.type === 'pg_create_function_permission' && !(s.body.args as { source?: string }).source && inferred)
    return { status: 400, code: 'not-supported' };
  if (s.kind === 'add_remote') {
    // A taken name is refused first, as the engine checks it before it introspects.
    if (remotes.has(s.remote.name)) return { status: 400, code: 'already-exists' };
    return s.remote.flaw === 'none' ? { status: 200 } : { status: 400, code: 'remote-schema-error' };
  }
  if (s.kind === 'remove_remote') return remotes.has(s.name) ? { status: 200 } : { status: 400, code: 'not-exists' };
  return undefined;
}

/** Accepted steps on the side source and function permissions accepted, for the summary. */
const accepted = { side: 0, functionPermissions: 0 };

/** Apply the steps; after each, `check` with what it answered (the mutations after the queries). Failures name the steps so far. */
async function runSequence(sequence: Step[], check: (done: string[], probes: RoleProbe[], mutations: Answer[][]) => void): Promise<void> {
  await startSequence(target, side);
  const remotes = new Set<string>();
  const done: string[] = [];
  for (const s of sequence) {
    const r = await applyStep(target, remote, s, side);
    done.push(`${describeStep(s)} -> ${r.status} ${r.status === 200 ? '' : r.text.slice(0, 200)}`);
    if (r.status === 200 && (s.kind.startsWith('side_') || JSON.stringify(s).includes('"source":"side"'))) accepted.side++;
    if (r.status === 200 && s.kind === 'metadata' && s.body.type === 'pg_create_function_permission') accepted.functionPermissions++;
    const expected = expectedStatus(s, remotes);
    const code = (r.body as { code?: string } | undefined)?.code;
    if (r.status >= 500 || (expected && (expected.status !== r.status || expected.code !== (r.status === 200 ? undefined : code))))
      throw new Error(`a change answered ${r.status} (expected ${JSON.stringify(expected ?? '< 500')}) after:\n${done.join('\n')}\n${r.curl}`);
    if (r.status === 200 && s.kind === 'add_remote') remotes.add(s.remote.name);
    if (r.status === 200 && s.kind === 'remove_remote') remotes.delete(s.name);
    const probes = await probeAll(running());
    if (process.env.ENGINE_FUZZ_DEBUG) process.stdout.write(`step ${done.at(-1)}\n`);
    if (process.env.ENGINE_FUZZ_DEBUG)
      for (const p of probes) for (const a of p.answers) process.stdout.write(`${p.role} ${a.query} -> ${a.status} ${JSON.stringify(a.body).slice(0, 160)}\n`);
    const mutations = [];
    for (const p of probes) mutations.push(await askMutations(running(), p, ROW_LITERALS));
    // The subscriptions after the mutations: their first results are of the rows the mutations left.
    for (const [i, p] of probes.entries()) mutations[i]!.push(...(await askSubscriptions(running(), p, ROW_LITERALS)));
    if (process.env.ENGINE_FUZZ_DEBUG)
      for (const [i, m] of mutations.entries())
        for (const a of m) process.stdout.write(`${probes[i]!.role} ${a.query} -> ${a.status} ${JSON.stringify(a.body).slice(0, 160)}\n`);
    check(done, probes, mutations);
  }
}

/** The first invariant: every role's schema builds and is valid, and no root field answers as a failure of the server. */
function everySchemaWorks(done: string[], probes: RoleProbe[], mutations: Answer[][]): void {
  for (const [i, p] of probes.entries()) {
    if (p.problems.length) throw new Error(`role ${p.role}'s schema is not valid: ${p.problems.join('; ')}\nafter:\n${done.join('\n')}`);
    // The functions of the generated database never raise: a postgres-error is SQL the server got wrong.
    // A mutation may be refused by the rows (a key taken, a check failed), never by the server or by PostgreSQL.
    const broken = [...p.answers.filter((a) => brokenAnswer(a, true)), ...mutations[i]!.filter((a) => brokenAnswer(a, true))];
    if (broken.length)
      throw new Error(
        `role ${p.role}: ${broken.map((a) => `${a.query} answered ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`).join('\n')}\nafter:\n${done.join('\n')}`,
      );
  }
}

test(
  covers(
    [
      'dec.schema.always-valid',
      'dec.remote-schema.valid-schema',
      'err.remote-schema-error.unusable',
      'op.run_sql',
      'op.add_remote_schema',
      'dec.source.forms',
      'dec.metadata.source-prefixed',
    ],
    `after every generated DDL, metadata change and remote schema, every role's schema is valid and every root field answers (${RUNS} sequences)`,
  ),
  async () => {
    await fc.assert(
      fc.asyncProperty(steps(STEPS, side?.url), async (sequence) => {
        await runSequence(sequence, everySchemaWorks);
      }),
      { numRuns: RUNS, seed },
    );
    process.stdout.write(
      `schema changes: ${RUNS} generated sequences${withSide ? ` (${accepted.side} changes on a second source accepted)` : ''}, ${accepted.functionPermissions} function permissions created (${inferred ? '' : 'not '}inferred), every schema valid after every change, seed ${seed}\n`,
    );
  },
  long ? 1_200_000 : 120_000,
);

caseNeeding(
  FRESH_SERVER,
  ['dec.run_sql.recreated-objects', 'dec.schema.always-valid'],
  `after generated DDL and metadata changes, a server started afresh on the database answers as the running one (${FRESH_RUNS} sequence${FRESH_RUNS === 1 ? '' : 's'})`,
  async () => {
    const { startOwnServer } = require('../harness/ownServer') as typeof import('../harness/ownServer');
    await fc.assert(
      fc.asyncProperty(steps(STEPS, side?.url), async (sequence) => {
        // The running server asks every query after every change: what it prepares and keeps is in use.
        const done: string[] = [];
        await runSequence(sequence, (sofar, probes, mutations) => {
          done.splice(0, done.length, ...sofar);
          everySchemaWorks(sofar, probes, mutations);
        });
        const before = await probeAll(running());
        const queries = new Map(before.map((p) => [p.role, p.answers.map((a) => a.query)]));
        const parts = async (server: Server) => {
          const admin = { 'x-engine-admin-secret': server.adminSecret! };
          const metadata = async (type: string) => (await httpRequest(server.url, 'POST', '/v1/metadata', { body: { type, args: {} }, headers: admin })).body;
          return { metadata: await metadata('export_metadata'), inconsistent: await metadata('get_inconsistent_metadata') };
        };
        const fresh: RunningServer = await startOwnServer(target.databaseUrl, {
          ENGINE_GRAPHQL_ADMIN_SECRET: target.adminSecret!,
          ...(inferred ? {} : { ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS: 'false' }),
        });
        try {
          const other: Server = { url: fresh.url, adminSecret: target.adminSecret };
          const [mine, theirs] = [
            { ...(await parts(running())), probes: before },
            { ...(await parts(other)), probes: await probeAll(other, queries) },
          ];
          const context = `after:\n${done.join('\n')}`;
          expect({ context, metadata: theirs.metadata, inconsistent: theirs.inconsistent }).toEqual({
            context,
            metadata: mine.metadata,
            inconsistent: mine.inconsistent,
          });
          for (const [i, p] of mine.probes.entries()) {
            const q = theirs.probes[i]!;
            expect({ context, role: p.role, introspection: q.introspection }).toEqual({ context, role: p.role, introspection: p.introspection });
            expect({ context, role: p.role, answers: q.answers }).toEqual({ context, role: p.role, answers: p.answers });
          }
        } finally {
          await fresh.close();
        }
      }),
      { numRuns: FRESH_RUNS, seed },
    );
  },
  long ? 1_200_000 : 180_000,
);
