// Handlers of pg_add_source, pg_update_source, rename_source and pg_drop_source (decision
// dec.source.forms). Whether a new or changed connection answers is checked when the change is
// committed (engine/metadataCommit.ts), so that a bulk is judged as a whole.
import type { SourceConfiguration } from '../../../spec';
import * as S from '../metadata/sources';
import { SUCCESS, type OperationContext } from './context';

export async function addSource(
  ctx: OperationContext,
  args: { name: string; configuration: SourceConfiguration; replace_configuration?: boolean },
): Promise<unknown> {
  ctx.document = S.addSource(ctx.document, args.name, args.configuration, args.replace_configuration === true);
  return SUCCESS;
}

export async function updateSource(ctx: OperationContext, args: { name: string; configuration?: SourceConfiguration }): Promise<unknown> {
  ctx.document = S.updateSource(ctx.document, args.name, args.configuration);
  return SUCCESS;
}

export async function renameSource(ctx: OperationContext, args: { name: string; new_name: string }): Promise<unknown> {
  ctx.document = S.renameSource(ctx.document, args.name, args.new_name);
  return SUCCESS;
}

export async function dropSource(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  ctx.document = S.dropSource(ctx.document, args.name);
  return SUCCESS;
}
