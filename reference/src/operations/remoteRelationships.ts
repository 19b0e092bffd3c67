// Handlers of create_remote_relationship, update_remote_relationship and delete_remote_relationship
// (decision dec.remote-relationship.forms): the table decides names and lhs columns here; whether
// the remote side fits is decided when the change is committed, with the remote schemas.
import type { QualifiedName, RemoteRelationshipDefinition } from '../../../spec';
import * as RR from '../metadata/remoteRelationships';
import { databaseTable, replaceEntry, trackedEntry } from '../metadata/tables';
import { SUCCESS, type OperationContext } from './context';

interface RemoteRelationshipArgs {
  table: QualifiedName;
  name: string;
  definition: RemoteRelationshipDefinition;
}

export async function createRemoteRelationship(ctx: OperationContext, args: RemoteRelationshipArgs): Promise<unknown> {
  const entry = trackedEntry(ctx.document, args.table);
  const table = databaseTable(await ctx.introspect(), args.table);
  ctx.document = replaceEntry(ctx.document, RR.addRemoteRelationship(entry, table, { name: args.name, definition: args.definition }));
  return SUCCESS;
}

export async function updateRemoteRelationship(ctx: OperationContext, args: RemoteRelationshipArgs): Promise<unknown> {
  const entry = trackedEntry(ctx.document, args.table);
  const table = databaseTable(await ctx.introspect(), args.table);
  ctx.document = replaceEntry(ctx.document, RR.updateRemoteRelationship(entry, table, { name: args.name, definition: args.definition }));
  return SUCCESS;
}

export async function deleteRemoteRelationship(ctx: OperationContext, args: { table: QualifiedName; name: string }): Promise<unknown> {
  ctx.document = replaceEntry(ctx.document, RR.deleteRemoteRelationship(trackedEntry(ctx.document, args.table), args.name));
  return SUCCESS;
}
