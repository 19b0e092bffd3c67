// set_custom_types, create_action, update_action, drop_action and the action permissions: the
// document changes of metadata/actions.ts; drop_action also forgets the action's asynchronous results.
import type { Action, CustomTypes } from '../../../spec';
import * as A from '../metadata/actions';
import { tablesOfCustomTypes, typeNamesUsed } from '../metadata/customTypes';
import { postgresTypeOfScalar } from '../schema/scalars';
import * as q from '../sql';
import { SUCCESS, type OperationContext } from './context';

type ActionArgs = { name: string; definition: Action['definition']; comment?: string | null };

/**
 * The names among `names` that are scalars of PostgreSQL types in the server's database, which
 * custom types and actions may use as scalars (decision dec.action.postgres-scalars).
 */
export async function postgresScalars(ctx: OperationContext, names: readonly string[]): Promise<ReadonlySet<string>> {
  const byType = new Map(names.flatMap((n) => (postgresTypeOfScalar(n) ? [[postgresTypeOfScalar(n)!, n] as const] : [])));
  if (byType.size === 0) return new Set();
  const found = await q.run<{ name: string }>(ctx.db, q.baseTypesNamed([...byType.keys()]));
  return new Set(found.map((r) => byType.get(r.name)!));
}

export async function setCustomTypes(ctx: OperationContext, args: CustomTypes): Promise<unknown> {
  const scalars = await postgresScalars(ctx, typeNamesUsed(args, A.actionsOf(ctx.document)));
  ctx.document = A.setCustomTypes(ctx.document, await ctx.introspect(tablesOfCustomTypes(args)), args, scalars);
  return SUCCESS;
}

export async function createAction(ctx: OperationContext, args: ActionArgs): Promise<unknown> {
  ctx.document = A.createAction(ctx.document, args, await postgresScalars(ctx, typeNamesUsed(undefined, [args])));
  return SUCCESS;
}

export async function updateAction(ctx: OperationContext, args: ActionArgs): Promise<unknown> {
  ctx.document = A.updateAction(ctx.document, args, await postgresScalars(ctx, typeNamesUsed(undefined, [args])));
  return SUCCESS;
}

export async function dropAction(ctx: OperationContext, args: { name: string; clear_data?: boolean }): Promise<unknown> {
  ctx.document = A.dropAction(ctx.document, args.name);
  if (args.clear_data !== false) await q.run(ctx.db, q.clearActionLog(args.name));
  return SUCCESS;
}

export async function createActionPermission(ctx: OperationContext, args: { action: string; role: string; comment?: string | null }): Promise<unknown> {
  ctx.document = A.createActionPermission(ctx.document, args);
  return SUCCESS;
}

export async function dropActionPermission(ctx: OperationContext, args: { action: string; role: string }): Promise<unknown> {
  ctx.document = A.dropActionPermission(ctx.document, args);
  return SUCCESS;
}
