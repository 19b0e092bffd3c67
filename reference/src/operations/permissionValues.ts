// The values of a new permission must fit their columns (`{"author_id": {"_eq": "abc"}}` on an
// integer column is refused when the permission is created, not by every later request). The
// database is the judge: planning a query over the table folds the permission's constant casts.
import { DatabaseError } from 'pg';
import type { PermissionType } from '../../../spec';
import type { DbColumn } from '../db/introspection';
import { sql, typedValue } from '../sql/graphql/context';
import { engineError } from '../errors';
import type { Models, TableModel } from '../schema/model';
import * as q from '../sql';
import { permissionValueProbes } from '../sql/graphql/permissions';
import type { OperationContext } from './context';

/** Runs a probe in a savepoint: the database's refusal of a value, or undefined when it takes it. */
async function refusal(ctx: OperationContext, query: q.Fragment): Promise<DatabaseError | undefined> {
  await q.run(ctx.db, q.savepoint('permission_values'));
  try {
    await q.run(ctx.db, query);
    await q.run(ctx.db, q.releaseSavepoint('permission_values'));
    return undefined;
  } catch (error) {
    await q.run(ctx.db, q.rollbackToSavepoint('permission_values'));
    // Class 22: data exceptions (invalid input syntax, out of range, …); 42804: datatype mismatch.
    if (error instanceof DatabaseError && ((error.code ?? '').startsWith('22') || error.code === '42804')) return error;
    throw error;
  }
}

/** A literal value of a permission, its column, and where it sits in the request. */
export interface PermissionValue {
  column: DbColumn;
  value: unknown;
  path: string;
}

/**
 * replace_metadata: the literal values of every permission must fit their columns. Each distinct
 * value of a type is cast once, in batches; a batch the database refuses is cast value by value to
 * name the permission that holds the bad one.
 */
export async function checkPermissionValueList(ctx: OperationContext, values: readonly PermissionValue[]): Promise<void> {
  const distinct = new Map<string, PermissionValue>();
  for (const v of values) {
    const id = `${v.column.type_schema}.${v.column.type}\u0000${JSON.stringify(v.value)}`;
    if (!distinct.has(id)) distinct.set(id, v);
  }
  const all = [...distinct.values()];
  for (let start = 0; start < all.length; start += 500) {
    const batch = all.slice(start, start + 500);
    if (
      !(await refusal(
        ctx,
        sql.query`select ${sql.join(
          batch.map((v) => typedValue(v.column, v.value)),
          ', ',
        )}`,
      ))
    )
      continue;
    for (const v of batch) {
      const error = await refusal(ctx, sql.query`select ${typedValue(v.column, v.value)}`);
      if (error) throw engineError('parse-failed.permission-value', v.path, [error.message]);
    }
  }
}

export async function checkPermissionValues(
  ctx: OperationContext,
  models: Models,
  table: TableModel,
  type: PermissionType,
  permission: Record<string, unknown>,
): Promise<void> {
  for (const [key, query] of permissionValueProbes(models, table, type, permission, ctx.config.compatHeaders)) {
    await q.run(ctx.db, q.savepoint('permission_values'));
    try {
      await q.run(ctx.db, q.planOf(query));
      await q.run(ctx.db, q.releaseSavepoint('permission_values'));
    } catch (error) {
      await q.run(ctx.db, q.rollbackToSavepoint('permission_values'));
      // Class 22: data exceptions (invalid input syntax, out of range, …); 42804: datatype mismatch.
      if (error instanceof DatabaseError && ((error.code ?? '').startsWith('22') || error.code === '42804')) {
        throw engineError('parse-failed.permission-value', `$.args.permission.${key}`, [error.message]);
      }
      throw error;
    }
  }
}
