// add_remote_schema, remove_remote_schema, reload_remote_schema (SPEC.md §4.3): the remote is
// introspected at once, so that an unusable one is refused before it reaches the metadata.
import type { RemoteSchema } from '../../../spec';
import { engineError } from '../errors';
import * as R from '../metadata/remoteSchemas';
import { SUCCESS, type OperationContext } from './context';

export async function addRemoteSchema(ctx: OperationContext, args: RemoteSchema): Promise<unknown> {
  ctx.document = R.addRemoteSchema(ctx.document, args);
  await introspectOrRefuse(ctx, args);
  return SUCCESS;
}

export async function removeRemoteSchema(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  ctx.document = R.removeRemoteSchema(ctx.document, args.name);
  return SUCCESS;
}

export async function reloadRemoteSchema(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  await introspectOrRefuse(ctx, R.findRemoteSchema(ctx.document, args.name));
  return SUCCESS;
}

async function introspectOrRefuse(ctx: OperationContext, remote: RemoteSchema): Promise<void> {
  const state = await ctx.remotes.load(remote, true);
  ctx.remotesChanged = true;
  if ('problem' in state) throw engineError('remote-schema-error.unusable', '$.args', [JSON.stringify(remote.name), state.problem]);
}
