// The values of a new permission must fit their columns (`{"author_id": {"_eq": "abc"}}` on an
// integer column is refused when the permission is created, not by every later request). The
// database is the judge: planning a query over the table folds the permission's constant casts.
import { DatabaseError } from 'pg';
import type { PermissionType } from '../../../spec';
import { engineError } from '../errors';
import type { Models, TableModel } from '../schema/model';
import * as q from '../sql';
import { permissionValueProbes } from '../sql/graphql/permissions';
import type { OperationContext } from './context';

export async function checkPermissionValues(ctx: OperationContext, models: Models, table: TableModel, type: PermissionType, permission: Record<string, unknown>): Promise<void> {
  for (const [key, query] of permissionValueProbes(models, table, type, permission)) {
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
