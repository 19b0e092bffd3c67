// Running a compiled plan: its statements on the pool of the caller's kind (admin, or the roles'
// with the statement timeout), the answer assembled from the JSON texts PostgreSQL built; the
// parts a remote schema or an action answers run beside them.
import { DatabaseError, type Pool, type PoolClient } from 'pg';
import { shareOf, type Session } from '../auth/session';
import { isConnectionLoss } from '../db/connectionLoss';
import * as q from '../sql';
import { runActionParts } from './actions';
import { CheckFailed, ConnectionLost, QueryTooCostly, StatementRefused, StatementTimedOut, TimeLimitExceeded } from './answers';
import { runRemoteParts } from './remote';
import { withRemoteJoins } from './remoteJoins';
import { timeLimited, type Abandonment } from './abandonment';
import type { RoleGate } from './roleGate';
import type { PlanStatement } from './plan';
import type { CompiledPlan } from './schemaCache';
import type { StatementGenerations } from './preparedStatements';
import type { AnswerBudget, RemoteAnswerBytes } from '../remote/answerBytes';
import { onSource } from './sourceReads';

/**
 * Where plans run: admin's GraphQL on connections with the admin statement timeout (`admin`, with no
 * timeout, serves metadata and cancellations), other roles' on connections with theirs, each role
 * within its share of them.
 */
export interface PlanPools {
  admin: Pool;
  adminGraphql: Pool;
  roles: Pool;
  gate: RoleGate;
  statementTimeoutMs: number;
  adminStatementTimeoutMs: number;
  /** The most a role's plan may cost by PostgreSQL's estimate; 0: no limit. */
  maxQueryCost: number;
  /** The generations of the statements prepared on these pools' connections (preparedStatements.ts). */
  statements: StatementGenerations;
  /** False: statements are sent unnamed (decision dec.source.prepared-statements). */
  preparedStatements?: boolean;
  /** At log level debug: each statement a plan sends, with its bound values. */
  logSql?: (statement: { text: string; values: unknown[] }) => void;
  /**
   * Where the plans of another source run (decision dec.source.forms): mutations (`write`) on its primary, reads on a
   * read replica when it has any; undefined when it cannot be reached. Throws SourceRemoved when the source is no longer
   * in the metadata; the pools given are held until `release` (decision dec.source.in-flight).
   */
  sourcePools?: (source: string, write: boolean) => PlanPools | undefined;
  /** A source's pools: given back once the plan's work on them is done (decision dec.source.in-flight). */
  release?: () => void;
  /** The bytes of remote answers held per request and per role (decision dec.limits.remote-answers). */
  remoteAnswers?: RemoteAnswerBytes;
  /** A read replica's pools: called when a read could not be had there (it then runs on the primary). */
  unreachable?: () => void;
}

/** Assemble `{"data": {...}}` from JSON texts without parsing them (with the remotes' errors, if any). */
function assemble(plan: CompiledPlan, values: Map<string, string>, errors: readonly unknown[] = []): string {
  const value = (alias: string): string => {
    const inner = plan.nested?.get(alias);
    if (!inner) return values.get(alias) ?? 'null';
    return `{${inner.map((a) => `${JSON.stringify(a)}:${values.get(`${alias}\u0000${a}`) ?? 'null'}`).join(',')}}`;
  };
  const data = `{"data":{${plan.order.map((alias) => `${JSON.stringify(alias)}:${value(alias)}`).join(',')}}`;
  return errors.length ? `${data},"errors":${JSON.stringify(errors)}}` : `${data}}`;
}

/** Who asks, for the remote schemas a plan calls. */
export interface PlanCaller {
  session: Session;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Abandoned when the client goes away: its statement is cancelled. */
  gone?: Abandonment;
  /** The request's bound on the bytes of remote answers it holds. */
  budget?: AnswerBudget;
  /** Takes what to do once the answer is written (or the client gone): remote answers' bytes stay counted until then, else until it is made. */
  whenWritten?: (done: () => void) => void;
}

/** Run a compiled plan: the JSON text of the answer. */
export async function runPlan(pools: PlanPools, plan: CompiledPlan, caller?: PlanCaller): Promise<string> {
  // A request that asks remotes holds their answers within its role's and its own bounds until its
  // answer is written (the answer made from them is held until then too).
  if (caller && !caller.budget && pools.remoteAnswers && (plan.remote || plan.remoteJoins)) {
    const budget = pools.remoteAnswers.forRequest(shareOf(caller.session));
    let answer: string;
    try {
      answer = await runPlan(pools, plan, { ...caller, budget });
    } catch (error) {
      budget.release();
      throw error;
    }
    if (caller.whenWritten) caller.whenWritten(() => budget.release());
    else budget.release();
    return answer;
  }
  const answer = await runOwn(pools, plan, caller);
  const joins = plan.remoteJoins;
  if (!joins) return answer;
  return withRemoteJoins(answer, joins.joins, {
    session: caller?.session ?? { role: 'admin', variables: {} },
    headers: caller?.headers ?? {},
    endpoints: joins.endpoints,
    ...(joins.presets ? { presets: joins.presets } : {}),
    ...(caller?.budget ? { budget: caller.budget } : {}),
    runSource: (source, part) => (source === undefined ? runOwn(pools, part, caller) : onSource(pools, source, false, (where) => runOwn(where, part, caller))),
  });
}

/** The plan's own answer: its statements, remote root fields and actions. */
async function runOwn(pools: PlanPools, plan: CompiledPlan, caller?: PlanCaller): Promise<string> {
  if (plan.remote || plan.actions) {
    const own = { ...plan, remote: undefined, actions: undefined };
    const local = async () =>
      (JSON.parse(plan.statements.length || plan.literals.size ? await runOwn(pools, own) : '{"data":{}}') as { data: Record<string, unknown> }).data;
    const session = caller?.session ?? { role: 'admin', variables: {} };
    const headers = caller?.headers ?? {};
    const remote = async () =>
      plan.remote ? runRemoteParts(plan.remote, session, headers, caller?.budget) : { values: new Map<string, string>(), errors: [] };
    const actions = async () =>
      plan.actions
        ? runActionParts(plan.actions, { session, headers, pool: pools.admin, rowsPool: plan.bounded ? pools.roles : pools.admin })
        : new Map<string, string>();
    // Mutations run in order: the database's root fields, then the actions', then the remotes'.
    const [data, fromActions, fromRemotes] =
      plan.kind === 'mutation' ? [await local(), await actions(), await remote()] : await Promise.all([local(), actions(), remote()]);
    const values = new Map([...Object.entries(data).map(([alias, v]): [string, string] => [alias, JSON.stringify(v)]), ...fromActions, ...fromRemotes.values]);
    return assemble(plan, values, fromRemotes.errors);
  }
  if (plan.sourceParts) return runSourceParts(pools, plan, plan.sourceParts, caller);
  if (pools.logSql) for (const statement of plan.statements) pools.logSql({ text: statement.text, values: statement.values });
  if (plan.statements.length === 0) return assemble(plan, new Map(plan.literals));
  return guarded(pools, plan, caller, (pool, gone) => runPlanOn(pool, plan, pools, gone));
}

/**
 * Run `work` with the plan's statements on the pool of the caller's kind: a role's within its share
 * of the connections and under the query cost limit; timeouts and lost connections as the answers
 * know them.
 */
export async function guarded<T>(
  pools: PlanPools,
  plan: CompiledPlan,
  caller: PlanCaller | undefined,
  work: (pool: Pool, gone: Abandonment | undefined) => Promise<T>,
): Promise<T> {
  const gone = caller?.gone;
  if (plan.bounded && pools.maxQueryCost > 0) {
    plan.estimatedCost ??= await estimatedCost(pools.roles, pools.admin, plan);
    if (plan.estimatedCost > pools.maxQueryCost) throw new QueryTooCostly(plan.estimatedCost, pools.maxQueryCost);
  }
  const leave = plan.bounded ? await pools.gate.enter(caller ? shareOf(caller.session) : '', gone) : () => {};
  // A role's time limit below the statement timeout cancels its statements when it runs out.
  const limit = plan.bounded && plan.timeLimitMs !== undefined && (pools.statementTimeoutMs === 0 || plan.timeLimitMs < pools.statementTimeoutMs);
  const timed = limit ? timeLimited(gone, plan.timeLimitMs!) : undefined;
  try {
    return await pools.statements.retryingStale(() => work(plan.bounded ? pools.roles : pools.adminGraphql, timed?.gone ?? gone));
  } catch (error) {
    if (timed?.ranOut && error instanceof DatabaseError && error.code === '57014') throw new TimeLimitExceeded(plan.timeLimitMs! / 1000);
    if (error instanceof DatabaseError && error.code === '57014')
      throw new StatementTimedOut(plan.bounded ? pools.statementTimeoutMs : pools.adminStatementTimeoutMs);
    if (lostConnection(error)) throw new ConnectionLost();
    throw error;
  } finally {
    timed?.stop();
    leave();
  }
}

/** The server's own part of a plan and each other source's, each on its database, at once; one answer of them. */
async function runSourceParts(pools: PlanPools, plan: CompiledPlan, parts: NonNullable<CompiledPlan['sourceParts']>, caller?: PlanCaller): Promise<string> {
  const own = { ...plan, sourceParts: undefined };
  const answers = await Promise.all([
    own.statements.length ? runOwn(pools, own, caller) : Promise.resolve(assemble(own, new Map(own.literals))),
    ...parts.map((part) => onSource(pools, part.source, part.plan.kind === 'mutation', (where) => runOwn(where, part.plan, caller))),
  ]);
  // The literals under namespace fields are known only by their own keys (plan.nested).
  const values = new Map<string, string>(plan.literals);
  for (const answer of answers) {
    const { data } = JSON.parse(answer) as { data: Record<string, unknown> };
    for (const [alias, value] of Object.entries(data)) if (value !== null || !values.has(alias)) values.set(alias, JSON.stringify(value));
  }
  return assemble(plan, values);
}

/**
 * While the client is there nothing happens; once it is gone, the statement
 * running on `client` is cancelled through another connection. Gives back whether it was.
 */
function cancelOnAbort(gone: Abandonment | undefined, client: PoolClient, other: Pool): () => boolean {
  if (!gone) return () => false;
  let cancelled = false;
  const pid = (client as unknown as { processID?: number }).processID;
  const cancel = () => {
    cancelled = true;
    if (pid !== undefined) void q.run(other, q.cancelBackend(pid)).catch(() => {});
  };
  const stopListening = gone.abandoned ? undefined : gone.onAbandon(cancel);
  if (!stopListening) cancel();
  return () => {
    stopListening?.();
    return cancelled;
  };
}

/**
 * What PostgreSQL's planner expects the plan's statements to cost (their total, in its units),
 * asked once per cached plan: a deep fan-out over relationships costs orders of magnitude more than
 * what a role asks for day to day, and is refused before it holds a connection for long. Tables the
 * database has never analyzed are analyzed first (on `maintenance`, the server's own connections):
 * without statistics the planner takes each for thousands of rows, and a nested query over a few
 * rows would be refused.
 */
async function estimatedCost(pool: Pool, maintenance: Pool, plan: CompiledPlan): Promise<number> {
  let total = 0;
  for (const statement of plan.statements) {
    let estimate = await q.explainCompiled(pool, statement.text, statement.values);
    const fresh = estimate.tables.length ? await q.run<q.ScannedTable>(maintenance, q.neverAnalyzed(estimate.tables)) : [];
    if (fresh.length) {
      // Best effort: a table the server may not analyze keeps the planner's guess.
      for (const table of fresh) await q.run(maintenance, q.analyzeTable(table)).catch(() => {});
      estimate = await q.explainCompiled(pool, statement.text, statement.values);
    }
    total += estimate.cost;
  }
  return total;
}

/** A lost connection, or a socket error of ours (bugs are TypeErrors and the like, a failed check is CheckFailed). */
function lostConnection(error: unknown): boolean {
  if (error instanceof DatabaseError) return isConnectionLoss(error);
  // Not `instanceof Error`: Node's socket errors may come from another realm (a test sandbox).
  return (
    typeof error === 'object' &&
    error !== null &&
    !(
      error instanceof CheckFailed ||
      error instanceof StatementRefused ||
      error instanceof TypeError ||
      error instanceof RangeError ||
      error instanceof SyntaxError
    )
  );
}

/** The answer of a query whose statement built `data`: the statement's object holds the fields in order; the literals are spliced in by alias. */
export function answerOfData(plan: CompiledPlan, data: string): string {
  if (plan.literals.size === 0) return `{"data":${data}}`;
  const values = new Map(plan.literals);
  for (const [alias, v] of Object.entries(JSON.parse(data) as Record<string, unknown>)) values.set(alias, JSON.stringify(v));
  return assemble(plan, values);
}

/** A statement's values, those it reads from earlier statements bound to their data (`answered`, in the plan's order). */
function boundValues(statement: PlanStatement, answered: readonly string[]): unknown[] {
  if (!statement.reads) return statement.values;
  const values = [...statement.values];
  for (const read of statement.reads) values[read.value] = `[${read.from.map((i) => answered[i]).join(',')}]`;
  return values;
}

async function runPlanOn(pool: Pool, plan: CompiledPlan, pools: PlanPools, gone: Abandonment | undefined): Promise<string> {
  const values = new Map(plan.literals);
  const { statements } = pools;
  const prepared = pools.preparedStatements !== false;
  const client = await statements.connect(pool);
  const done = cancelOnAbort(gone, client, pools.admin);
  try {
    if (plan.kind === 'query') {
      const statement = plan.statements[0]!;
      const [row] = await statements.query<{ data: string }>(client, statement, prepared);
      return answerOfData(plan, row!.data);
    }
    await q.run(client, q.begin);
    try {
      if (plan.sessionVariables) await q.run(client, q.setSessionVariables(plan.sessionVariables));
      const elements = new Map<string, string[]>();
      const answered: string[] = [];
      for (const statement of plan.statements) {
        const [row] = await statements.query<{ data: string; ok: boolean }>(client, { ...statement, values: boundValues(statement, answered) }, prepared);
        const { data, ok } = row!;
        if (ok === false) throw new CheckFailed();
        if (statement.refusedWhenEmpty && data === '[]') throw new StatementRefused(statement.refusedWhenEmpty.message, statement.refusedWhenEmpty.code);
        answered.push(data);
        if (statement.part === 'step') continue;
        if (statement.part !== 'element') values.set(statement.alias, data);
        else if (elements.has(statement.alias)) elements.get(statement.alias)!.push(data);
        else elements.set(statement.alias, [data]);
      }
      for (const [alias, list] of elements) values.set(alias, `[${list.join(',')}]`);
      await q.run(client, q.commit);
    } catch (error) {
      await q.run(client, q.rollback).catch(() => {});
      throw error;
    }
  } finally {
    // A connection whose statement was cancelled is not reused: the cancel might reach its next one.
    client.release(done());
  }
  return assemble(plan, values);
}
