// The legacy DML of /v1/query: select, insert, update, delete and count over tracked tables.
import { DatabaseError, type PoolClient } from 'pg';
import { quoteQualified, type MetadataDocument, type QualifiedName } from '../../../spec';
import type { Session } from '../auth/session';
import { dmlRole } from '../sql/dml/roleAccess';
import { relationKey, type Introspection } from '../db/introspection';
import { engineError, EngineError } from '../errors';
import { buildModels, type TableModel } from '../schema/model';
import { modelsForRole } from '../schema/roles';
import * as q from '../sql';
import type { BoolExpEnvironment } from '../sql/dml/boolExp';
import * as D from '../sql/dml/statements';
import { CompileError, type Fragment } from '../sql/graphql/context';
import { postgresError } from './runSql';
import { spokenVariables } from '../sessionNames';

/** What DML needs: the transaction, the metadata and database, and the caller when not admin. */
export interface DmlContext {
  readonly db: PoolClient;
  readonly document: MetadataDocument;
  introspect(): Promise<Introspection>;
  /** A role other than admin, whose permissions apply; absent for admin. */
  readonly session?: Session;
}

async function tracked(ctx: DmlContext, name: QualifiedName): Promise<{ env: BoolExpEnvironment; table: TableModel }> {
  const models = buildModels(ctx.document, await ctx.introspect(), new Map());
  const table = models.get(relationKey(name));
  if (!table) throw engineError('not-exists.table', '$.args.table', [quoteQualified(name)]);
  const session = ctx.session;
  const role =
    session &&
    dmlRole(session.role, modelsForRole(models, session.role, { backendOnly: session.backendOnly === true }), {
      allModels: models,
      sessionVariables: session.variables,
      ...(session.compatHeaders ? { compatHeaders: session.compatHeaders } : {}),
    });
  return { env: { models, path: '$.args', ...(role ? { role } : {}) }, table };
}

/** Run a DML statement in the request's transaction; a not-null violation gets the §7.2 message. */
async function result(ctx: DmlContext, build: () => Fragment): Promise<unknown> {
  let statement: Fragment;
  try {
    statement = build();
  } catch (error) {
    // Session variables a role's permission needs and the request lacks (SPEC.md §7.2 invalid-headers).
    if (error instanceof CompileError) {
      const id = error.message.startsWith('missing header') ? 'err.invalid-headers.missing' : 'err.invalid-headers.user-id-integer';
      throw new EngineError(id, 400, error.code, error.message, '$');
    }
    throw error;
  }
  let row: { result: unknown; ok?: boolean } | undefined;
  // Who makes the change, for event triggers.
  const by = ctx.session ? { ...ctx.session.variables, 'x-engine-role': ctx.session.role } : { 'x-engine-role': 'admin' };
  await q.run(ctx.db, q.setSessionVariables(spokenVariables(by, ctx.session?.compatHeaders)));
  try {
    [row] = await q.run<{ result: unknown; ok?: boolean }>(ctx.db, statement);
  } catch (error) {
    if (error instanceof DatabaseError && error.code === '23502') {
      throw engineError('postgres-error.not-null', '$.args', [JSON.stringify(error.column ?? '')]);
    }
    throw postgresError(error, '');
  }
  // A changed row that fails the role's check undoes the request (the caller rolls back).
  if (row?.ok === false) throw engineError('permission-error.check-failed', '$.args');
  return row?.result;
}

export async function dmlSelect(
  ctx: DmlContext,
  args: { table: QualifiedName; columns: unknown[]; where?: Record<string, unknown>; order_by?: unknown; limit?: number; offset?: number },
): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, () => D.selectStatement(env, table, args));
}

export async function dmlInsert(ctx: DmlContext, args: { table: QualifiedName } & D.InsertSpec): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, () => D.insertStatement(env, table, args));
}

export async function dmlUpdate(ctx: DmlContext, args: { table: QualifiedName } & D.UpdateSpec): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, () => D.updateStatement(env, table, args));
}

export async function dmlDelete(ctx: DmlContext, args: { table: QualifiedName; where: Record<string, unknown>; returning?: string[] }): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, () => D.deleteStatement(env, table, args));
}

export async function dmlCount(ctx: DmlContext, args: { table: QualifiedName; where?: Record<string, unknown>; distinct?: string[] }): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, () => D.countStatement(env, table, args));
}
