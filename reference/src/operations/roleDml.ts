// The legacy DML of /v1/query and /v2/query for roles other than admin: select, insert, update,
// delete and count (and bulks of only these) under the role's permissions, on the connections of
// roles (with their statement timeout), without the catalog lock that metadata changes take.
import type { Pool } from 'pg';
import { DEFAULT_SOURCE, type MetadataDocument } from '../../../spec';
import { sourceArgumentProblem } from '../metadata/sources';
import { shareOf, type Session } from '../auth/session';
import type { PlanPools } from '../execute/runPlan';
import { SourceRemoved } from '../execute/answers';
import type { Introspection } from '../db/introspection';
import { engineError, EngineError } from '../errors';
import * as q from '../sql';
import { dmlCount, dmlDelete, dmlInsert, dmlSelect, dmlUpdate, type DmlContext } from './dml';
import type { ParsedOperation } from './envelope';
import { postgresError } from './runSql';

type DmlHandler = (ctx: DmlContext, args: never) => Promise<unknown>;

const DML: Readonly<Record<string, DmlHandler>> = { select: dmlSelect, insert: dmlInsert, update: dmlUpdate, delete: dmlDelete, count: dmlCount };

/** Whether a role other than admin may send the operation: DML, or a bulk of DML only. */
export function isRoleDml(operation: ParsedOperation): boolean {
  if (operation.type === 'bulk') return (operation.children ?? []).length > 0 && operation.children!.every(isRoleDml);
  return operation.type in DML;
}

/** What DML runs against: the metadata and database as last loaded, with each other source's part. */
interface DmlInput {
  document: MetadataDocument;
  introspection: Introspection;
  sources?: readonly { name: string; document: MetadataDocument; db: Introspection }[];
}

/** The one source a request's DML names (undefined: the server's own); one over two sources is refused, as its transaction is one. */
function dmlSourceOf(operation: ParsedOperation): string | undefined {
  const named = new Set<string | undefined>();
  const visit = (op: ParsedOperation): void => {
    if (op.type === 'bulk') op.children?.forEach(visit);
    else named.add(op.source === DEFAULT_SOURCE ? undefined : op.source);
  };
  visit(operation);
  if (named.size > 1) throw engineError('not-supported.not-implemented', '$.args', ['legacy DML on tables of more than one source in one request']);
  return [...named][0];
}

/**
 * The operation under the role's permissions, on the source it names (decision dec.source.forms):
 * that source's part and connections, or the server's own.
 */
export async function runAsRoleIn(pools: PlanPools, input: DmlInput, operation: ParsedOperation, session: Session): Promise<unknown> {
  const source = dmlSourceOf(operation);
  if (source === undefined) return runAsRole(pools, input, operation, session);
  const problem = sourceArgumentProblem(input.document, { source, path: '$' });
  if (problem) throw problem;
  const part = input.sources?.find((s) => s.name === source);
  let own: PlanPools | undefined;
  try {
    own = part && pools.sourcePools?.(source, true);
  } catch (error) {
    // Gone from the metadata since this request read it (decision dec.source.in-flight).
    if (error instanceof SourceRemoved) throw engineError('not-exists.source', '$', [source]);
    throw error;
  }
  if (!part || !own) throw engineError('postgres-error.connection', '$', [], { message: `the source ${JSON.stringify(source)} cannot be reached` });
  try {
    return await runAsRole(own, { document: part.document, introspection: part.db }, operation, session);
  } finally {
    own.release?.();
  }
}

/** Runs the operation in one transaction of `pool` against the metadata and database as last loaded. */
export async function runAsRole(
  pools: Pick<PlanPools, 'roles' | 'gate'>,
  state: { document: MetadataDocument; introspection: Introspection },
  operation: ParsedOperation,
  session: Session,
): Promise<unknown> {
  // Within the role's share of the connections, as its GraphQL is.
  const leave = await pools.gate.enter(shareOf(session));
  try {
    return await runOnConnection(pools.roles, state, operation, session);
  } finally {
    leave();
  }
}

async function runOnConnection(
  pool: Pool,
  state: { document: MetadataDocument; introspection: Introspection },
  operation: ParsedOperation,
  session: Session,
): Promise<unknown> {
  let client;
  try {
    client = await pool.connect();
  } catch (error) {
    throw engineError('postgres-error.connection', '$', [], { message: error instanceof Error ? error.message : String(error) });
  }
  const ctx: DmlContext = { db: client, document: state.document, introspect: async () => state.introspection, session };
  let open = false;
  try {
    await q.run(client, q.begin);
    open = true;
    const response = await dispatch(ctx, operation);
    await q.run(client, q.commit);
    open = false;
    return response;
  } catch (error) {
    if (open) await q.run(client, q.rollback).catch(() => {});
    throw error instanceof EngineError ? error : postgresError(error, '');
  } finally {
    client.release();
  }
}

async function dispatch(ctx: DmlContext, operation: ParsedOperation): Promise<unknown> {
  if (operation.type !== 'bulk') return DML[operation.type]!(ctx, operation.args as never);
  const responses: unknown[] = [];
  for (const child of operation.children!) {
    try {
      responses.push(await dispatch(ctx, child));
    } catch (error) {
      throw error instanceof EngineError && !error.path.startsWith(child.path) ? error.under(child.path) : error;
    }
  }
  return responses;
}
