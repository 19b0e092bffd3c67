// Running a compiled plan: its statements on the pool of the caller's kind (admin, or the roles'
// with the statement timeout), the answer assembled from the JSON texts PostgreSQL built; the
// parts a remote schema or an action answers run beside them.
import { DatabaseError, type Pool } from 'pg';
import type { Session } from '../auth/session';
import { isConnectionLoss } from '../db/connectionLoss';
import * as q from '../sql';
import { runActionParts } from './actions';
import { CheckFailed, ConnectionLost, StatementTimedOut } from './answers';
import { runRemoteParts } from './remote';
import type { CompiledPlan } from './schemaCache';

/** Where plans run: admin's SQL as it is, other roles' on connections with the statement timeout. */
export interface PlanPools {
  admin: Pool;
  roles: Pool;
  statementTimeoutMs: number;
  /** At log level debug: each statement a plan sends, with its bound values. */
  logSql?: (statement: { text: string; values: unknown[] }) => void;
}

/** Assemble `{"data": {...}}` from JSON texts without parsing them (with the remotes' errors, if any). */
function assemble(plan: CompiledPlan, values: Map<string, string>, errors: readonly unknown[] = []): string {
  const data = `{"data":{${plan.order.map((alias) => `${JSON.stringify(alias)}:${values.get(alias) ?? 'null'}`).join(',')}}`;
  return errors.length ? `${data},"errors":${JSON.stringify(errors)}}` : `${data}}`;
}

/** Who asks, for the remote schemas a plan calls. */
export interface PlanCaller {
  session: Session;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Run a compiled plan: the JSON text of the answer. */
export async function runPlan(pools: PlanPools, plan: CompiledPlan, caller?: PlanCaller): Promise<string> {
  if (plan.remote || plan.actions) {
    const own = { ...plan, remote: undefined, actions: undefined };
    const local = async () =>
      (JSON.parse(plan.statements.length || plan.literals.size ? await runPlan(pools, own) : '{"data":{}}') as { data: Record<string, unknown> }).data;
    const session = caller?.session ?? { role: 'admin', variables: {} };
    const headers = caller?.headers ?? {};
    const remote = async () => (plan.remote ? runRemoteParts(plan.remote, session, headers) : { values: new Map<string, string>(), errors: [] });
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
  try {
    if (pools.logSql) for (const statement of plan.statements) pools.logSql({ text: statement.text, values: statement.values });
    return await runPlanOn(plan.bounded ? pools.roles : pools.admin, plan);
  } catch (error) {
    if (plan.bounded && error instanceof DatabaseError && error.code === '57014') throw new StatementTimedOut(pools.statementTimeoutMs);
    if (lostConnection(error)) throw new ConnectionLost();
    throw error;
  }
}

/** A lost connection, or a socket error of ours (bugs are TypeErrors and the like, a failed check is CheckFailed). */
function lostConnection(error: unknown): boolean {
  if (error instanceof DatabaseError) return isConnectionLoss(error);
  // Not `instanceof Error`: Node's socket errors may come from another realm (a test sandbox).
  return (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof CheckFailed || error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError)
  );
}

async function runPlanOn(pool: Pool, plan: CompiledPlan): Promise<string> {
  const values = new Map(plan.literals);
  if (plan.kind === 'query') {
    if (plan.statements.length === 0) return assemble(plan, values);
    const statement = plan.statements[0]!;
    const result = await pool.query<{ data: string }>({ name: statement.name, text: statement.text, values: statement.values });
    // The statement's object holds the fields in order; splice the literals in by alias.
    if (values.size === 0) return `{"data":${result.rows[0]!.data}}`;
    const data = JSON.parse(result.rows[0]!.data) as Record<string, unknown>;
    for (const [alias, v] of Object.entries(data)) values.set(alias, JSON.stringify(v));
    return assemble(plan, values);
  }
  const client = await pool.connect();
  try {
    await q.run(client, q.begin);
    try {
      if (plan.sessionVariables) await q.run(client, q.setSessionVariables({ 'x-engine-role': 'admin', ...plan.sessionVariables }));
      for (const statement of plan.statements) {
        const result = await client.query<{ data: string; ok: boolean }>({ name: statement.name, text: statement.text, values: statement.values });
        if (result.rows[0]!.ok === false) throw new CheckFailed();
        values.set(statement.alias, result.rows[0]!.data);
      }
      await q.run(client, q.commit);
    } catch (error) {
      await q.run(client, q.rollback).catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
  return assemble(plan, values);
}
