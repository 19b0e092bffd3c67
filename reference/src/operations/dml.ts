// The legacy DML of /v1/query: select, insert, update, delete and count over tracked tables.
import { DatabaseError } from 'pg';
import { quoteQualified, type QualifiedName } from '../../../spec';
import { relationKey } from '../db/introspection';
import { engineError } from '../errors';
import { buildModels, type TableModel } from '../schema/model';
import * as q from '../sql';
import type { BoolExpEnvironment } from '../sql/dml/boolExp';
import * as D from '../sql/dml/statements';
import type { Fragment } from '../sql/graphql/context';
import type { OperationContext } from './context';
import { postgresError } from './runSql';

async function tracked(ctx: OperationContext, name: QualifiedName): Promise<{ env: BoolExpEnvironment; table: TableModel }> {
  const models = buildModels(ctx.document, await ctx.introspect(), new Map());
  const table = models.get(relationKey(name));
  if (!table) throw engineError('not-exists.table', '$.args.table', [quoteQualified(name)]);
  return { env: { models, path: '$.args' }, table };
}

/** Run a DML statement in the request's transaction; a not-null violation gets the §7.2 message. */
async function result(ctx: OperationContext, statement: Fragment): Promise<unknown> {
  try {
    const [row] = await q.run<{ result: unknown }>(ctx.db, statement);
    return row?.result;
  } catch (error) {
    if (error instanceof DatabaseError && error.code === '23502') {
      throw engineError('postgres-error.not-null', '$.args', [JSON.stringify(error.column ?? '')]);
    }
    throw postgresError(error, '');
  }
}

export async function dmlSelect(ctx: OperationContext, args: { table: QualifiedName; columns: unknown[]; where?: Record<string, unknown>; order_by?: unknown; limit?: number; offset?: number }): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, D.selectStatement(env, table, args));
}

export async function dmlInsert(ctx: OperationContext, args: { table: QualifiedName } & D.InsertSpec): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, D.insertStatement(env, table, args));
}

export async function dmlUpdate(ctx: OperationContext, args: { table: QualifiedName } & D.UpdateSpec): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, D.updateStatement(env, table, args));
}

export async function dmlDelete(ctx: OperationContext, args: { table: QualifiedName; where: Record<string, unknown>; returning?: string[] }): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, D.deleteStatement(env, table, args));
}

export async function dmlCount(ctx: OperationContext, args: { table: QualifiedName; where?: Record<string, unknown>; distinct?: string[] }): Promise<unknown> {
  const { env, table } = await tracked(ctx, args.table);
  return result(ctx, D.countStatement(env, table, args));
}
