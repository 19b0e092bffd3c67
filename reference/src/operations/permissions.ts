// Handlers of the permission operations (SPEC.md §4.3).
import type { MetadataDocument, PermissionType, QualifiedName } from '../../../spec';
import { relationKey, type Introspection } from '../db/introspection';
import * as P from '../metadata/permissions';
import { relationshipsOf, targetOf } from '../metadata/relationships';
import { buildModels } from '../schema/model';
import { validatePermission } from '../sql/permissionCheck';
import { SUCCESS, type OperationContext, type OperationHandler } from './context';
import { checkPermissionValues } from './permissionValues';

/** Tables named by `_table` anywhere in a permission's expressions. */
function existsTables(value: unknown, out: QualifiedName[] = []): QualifiedName[] {
  if (Array.isArray(value)) value.forEach((v) => existsTables(v, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '_table' && v) out.push(typeof v === 'string' ? { schema: 'public', name: v } : (v as QualifiedName));
      else existsTables(v, out);
    }
  }
  return out;
}

/**
 * The part of the document a permission on `start` can reach (its table, the tables its
 * relationships lead to, and `_exists` tables, transitively): validating against it costs the
 * same with 10 tables tracked as with 5,000.
 */
function reachable(document: MetadataDocument, db: Introspection, start: QualifiedName[]): MetadataDocument {
  const byKey = new Map(document.tables.map((t) => [relationKey(t.table), t]));
  const seen = new Set<string>();
  const queue = start.map(relationKey);
  while (queue.length) {
    const key = queue.pop()!;
    const entry = byKey.get(key);
    if (!entry || seen.has(key)) continue;
    seen.add(key);
    for (const { rel, kind } of relationshipsOf(entry)) {
      const target = targetOf(entry, rel, kind, db);
      if (target) queue.push(relationKey(target));
    }
    // The table a computed field returns: whether it returns one decides what a permission may list.
    for (const field of entry.computed_fields ?? []) {
      const overloads = db.functions.get(relationKey(field.definition.function));
      const returned = overloads?.length === 1 ? overloads[0]!.return_relation : null;
      if (returned) queue.push(relationKey(returned));
    }
  }
  return { ...document, tables: document.tables.filter((t) => seen.has(relationKey(t.table))) };
}

export const createPermission = (type: PermissionType): OperationHandler =>
  (async (ctx: OperationContext, args: P.PermissionArgs) => {
    const db = await ctx.introspect([args.table]);
    const models = buildModels(reachable(ctx.document, db, [args.table, ...existsTables(args.permission)]), db, new Map());
    ctx.document = P.createPermission(ctx.document, type, args, (permission) => {
      const table = models.get(relationKey(args.table));
      if (table) validatePermission(models, table, type, args.role, permission, undefined, ctx.config.compatHeaders);
    });
    const table = models.get(relationKey(args.table));
    if (table) await checkPermissionValues(ctx, models, table, type, args.permission as unknown as Record<string, unknown>);
    return SUCCESS;
  }) as OperationHandler;

export const dropPermission = (type: PermissionType): OperationHandler =>
  (async (ctx: OperationContext, args: { table: QualifiedName; role: string }) => {
    ctx.document = P.dropPermission(ctx.document, type, args);
    return SUCCESS;
  }) as OperationHandler;

export async function setPermissionComment(
  ctx: OperationContext,
  args: { table: QualifiedName; role: string; type: PermissionType; comment?: string | null },
): Promise<unknown> {
  ctx.document = P.setPermissionComment(ctx.document, args);
  return SUCCESS;
}
