// Handlers of the relationship operations (decided forms; see spec/operations.ts).
import type { ArrayRelationship, ObjectRelationship, QualifiedName } from '../../../spec';
import { quoteQualified } from '../../../spec';
import { engineError } from '../errors';
import { isTracked } from '../metadata/inconsistency';
import * as R from '../metadata/relationships';
import { replaceEntry, trackedEntry } from '../metadata/tables';
import { SUCCESS, type OperationContext } from './context';

interface CreateArgs {
  table: QualifiedName;
  name: string;
  using: Record<string, unknown>;
  comment?: string | null;
}

const create = (kind: R.RelationshipKind) => async (ctx: OperationContext, args: CreateArgs) => {
  const entry = trackedEntry(ctx.document, args.table);
  const rel = { name: args.name, using: args.using, ...(typeof args.comment === 'string' ? { comment: args.comment } : {}) } as ObjectRelationship &
    ArrayRelationship;
  const extra = Object.values(args.using).flatMap((u) => {
    const o = u as { remote_table?: QualifiedName; table?: QualifiedName };
    return o.remote_table ? [o.remote_table] : o.table ? [o.table] : [];
  });
  const db = await ctx.introspect(extra);
  const next = R.addRelationship(entry, db, kind, rel);
  const remote = R.resolveRelationship(next, rel, kind, db).remote;
  if (!isTracked(ctx.document, remote)) throw engineError('not-exists.table', '$.args', [quoteQualified(remote)]);
  ctx.document = replaceEntry(ctx.document, next);
  return SUCCESS;
};

export const createObjectRelationship = create('object');
export const createArrayRelationship = create('array');

export async function dropRelationship(ctx: OperationContext, args: { table: QualifiedName; relationship: string; cascade?: boolean }): Promise<unknown> {
  ctx.document = replaceEntry(ctx.document, R.dropRelationship(trackedEntry(ctx.document, args.table), args.relationship));
  return SUCCESS;
}

export async function renameRelationship(ctx: OperationContext, args: { table: QualifiedName; name: string; new_name: string }): Promise<unknown> {
  const entry = trackedEntry(ctx.document, args.table);
  ctx.document = replaceEntry(ctx.document, R.renameRelationship(entry, await ctx.introspect(), args.name, args.new_name));
  return SUCCESS;
}

export async function setRelationshipComment(ctx: OperationContext, args: { table: QualifiedName; name: string; comment?: string | null }): Promise<unknown> {
  ctx.document = replaceEntry(ctx.document, R.setRelationshipComment(trackedEntry(ctx.document, args.table), args.name, args.comment));
  return SUCCESS;
}
