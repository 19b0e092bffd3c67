// Handlers of the permission operations (SPEC.md §4.3).
import type { PermissionType, QualifiedName } from '../../../spec';
import * as P from '../metadata/permissions';
import { buildModels } from '../schema/model';
import { SUCCESS, type OperationContext, type OperationHandler } from './context';

export const createPermission = (type: PermissionType): OperationHandler =>
  (async (ctx: OperationContext, args: P.PermissionArgs) => {
    const models = buildModels(ctx.document, await ctx.introspect([args.table]), new Map());
    ctx.document = P.createPermission(ctx.document, models, type, args);
    return SUCCESS;
  }) as OperationHandler;

export const dropPermission = (type: PermissionType): OperationHandler =>
  (async (ctx: OperationContext, args: { table: QualifiedName; role: string }) => {
    ctx.document = P.dropPermission(ctx.document, type, args);
    return SUCCESS;
  }) as OperationHandler;

export async function setPermissionComment(ctx: OperationContext, args: { table: QualifiedName; role: string; type: PermissionType; comment?: string | null }): Promise<unknown> {
  ctx.document = P.setPermissionComment(ctx.document, args);
  return SUCCESS;
}
