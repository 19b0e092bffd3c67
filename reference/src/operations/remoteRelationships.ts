// Handlers of create_remote_relationship, update_remote_relationship and delete_remote_relationship
// (decisions dec.remote-relationship.forms and dec.remote-relationship.to-source): the table decides
// names and lhs columns here, and a source's table the other side of to_source; whether a remote
// schema's side fits is decided when the change is committed, with the remote schemas.
import { DEFAULT_SOURCE, sourceTarget, type QualifiedName, type RemoteRelationship, type RemoteRelationshipDefinition, type TableEntry } from '../../../spec';
import { relationKey, type DbTable } from '../db/introspection';
import * as RR from '../metadata/remoteRelationships';
import { sourcesOf, sourceView, withSourceView } from '../metadata/sources';
import { databaseTable, replaceEntry, trackedEntry } from '../metadata/tables';
import { sourceTargetProblem } from '../schema/sourceRelationships';
import { SUCCESS, type OperationContext } from './context';

interface RemoteRelationshipArgs {
  table: QualifiedName;
  name: string;
  definition: RemoteRelationshipDefinition;
}

/** A to_source relationship's target is a table tracked in its source, with the columns field_mapping names. */
async function checkSourceTarget(ctx: OperationContext, entry: TableEntry, own: DbTable, rel: RemoteRelationship): Promise<void> {
  const to = sourceTarget(rel.definition);
  if (!to) return;
  // On another source's part, the target is looked up in the whole document, with the request's own context.
  const outer = ctx.within?.outer ?? ctx;
  const whole = ctx.within ? withSourceView(outer.document, ctx.within.source, ctx.document) : ctx.document;
  let db;
  if (to.source === DEFAULT_SOURCE) db = await outer.introspect([to.table]);
  else {
    const source = sourcesOf(whole).find((s) => s.name === to.source);
    db = source && (await outer.introspectSource(source, sourceView(whole, source.name)));
  }
  const table = db?.tables.get(relationKey(to.table));
  const problem = sourceTargetProblem(whole, own, rel, table && { db: table });
  if (problem !== undefined) throw RR.unservedError(entry, rel, problem);
}

export async function createRemoteRelationship(ctx: OperationContext, args: RemoteRelationshipArgs): Promise<unknown> {
  const entry = trackedEntry(ctx.document, args.table);
  const table = databaseTable(await ctx.introspect(), args.table);
  const rel = { name: args.name, definition: args.definition };
  const added = RR.addRemoteRelationship(entry, table, rel);
  await checkSourceTarget(ctx, entry, table, rel);
  ctx.document = replaceEntry(ctx.document, added);
  return SUCCESS;
}

export async function updateRemoteRelationship(ctx: OperationContext, args: RemoteRelationshipArgs): Promise<unknown> {
  const entry = trackedEntry(ctx.document, args.table);
  const table = databaseTable(await ctx.introspect(), args.table);
  const rel = { name: args.name, definition: args.definition };
  const updated = RR.updateRemoteRelationship(entry, table, rel);
  await checkSourceTarget(ctx, entry, table, rel);
  ctx.document = replaceEntry(ctx.document, updated);
  return SUCCESS;
}

export async function deleteRemoteRelationship(ctx: OperationContext, args: { table: QualifiedName; name: string }): Promise<unknown> {
  ctx.document = replaceEntry(ctx.document, RR.deleteRemoteRelationship(trackedEntry(ctx.document, args.table), args.name));
  return SUCCESS;
}
