// add_remote_schema, remove_remote_schema, reload_remote_schema (SPEC.md §4.3): the remote is
// introspected at once, so that an unusable one is refused before it reaches the metadata.
// add_remote_schema_permissions and drop_remote_schema_permissions (dec.remote-schema.permissions):
// a role's SDL is checked against the remote's schema as this server introspected it.
import type { RemoteSchema, RemoteSchemaPermission } from '../../../spec';
import { engineError } from '../errors';
import * as R from '../metadata/remoteSchemas';
import { reasonsText, roleRemote, sdlSyntaxProblem } from '../remote/rolePermission';
import { remoteRefusal } from '../remote/store';
import { SUCCESS, type OperationContext } from './context';
import { tlsAllowlistOf } from '../metadata/network';

export async function addRemoteSchema(ctx: OperationContext, args: RemoteSchema): Promise<unknown> {
  ctx.document = R.addRemoteSchema(ctx.document, args);
  await introspectOrRefuse(ctx, args);
  return SUCCESS;
}

export async function updateRemoteSchema(ctx: OperationContext, args: RemoteSchema): Promise<unknown> {
  ctx.document = R.updateRemoteSchema(ctx.document, args);
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
  const state = await ctx.remotes.load(remote, true, { ...ctx.remoteLoading, allowlist: tlsAllowlistOf(ctx.document) });
  ctx.remotesChanged = true;
  if ('problem' in state) throw remoteRefusal(remote.name, state);
}

export async function addRemoteSchemaPermissions(
  ctx: OperationContext,
  args: { remote_schema: string; role: string; definition: { schema: string }; comment?: string | null },
): Promise<unknown> {
  // The engine reads the SDL with the arguments, before anything else.
  const syntax = sdlSyntaxProblem(args.definition.schema);
  if (syntax) throw engineError('parse-failed.schema-document', '$.args.definition.schema', [syntax]);
  if (!ctx.config.enableRemoteSchemaPermissions) throw engineError('constraint-violation.remote-schema-permissions-disabled', '$.args');
  const permission: RemoteSchemaPermission = {
    role: args.role,
    definition: { schema: args.definition.schema },
    ...(typeof args.comment === 'string' ? { comment: args.comment } : {}),
  };
  ctx.document = R.addRemoteSchemaPermission(ctx.document, args.remote_schema, permission);
  const remote = R.findRemoteSchema(ctx.document, args.remote_schema);
  const state = await ctx.remotes.load(remote, false, { allowlist: tlsAllowlistOf(ctx.document) });
  if ('problem' in state) throw remoteRefusal(remote.name, state);
  const role = roleRemote(state.schema, permission.definition.schema, ctx.config.compatHeaders);
  if ('reasons' in role) throw engineError('validation-failed.remote-schema-permission', '$.args.definition.schema', [reasonsText(role.reasons)]);
  return SUCCESS;
}

export async function dropRemoteSchemaPermissions(ctx: OperationContext, args: { remote_schema: string; role: string }): Promise<unknown> {
  ctx.document = R.dropRemoteSchemaPermission(ctx.document, args.remote_schema, args.role);
  return SUCCESS;
}
