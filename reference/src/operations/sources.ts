// Handlers of pg_add_source, pg_update_source, rename_source and pg_drop_source (decision
// dec.source.forms). Whether a new or changed connection answers is checked when the change is
// committed (engine/metadataCommit.ts), so that a bulk is judged as a whole.
import type { SourceConfiguration, SourceCustomization } from '../../../spec';
import { relationKey } from '../db/introspection';
import { databaseTriggersOf } from '../metadata/eventTriggers';
import * as S from '../metadata/sources';
import * as q from '../sql';
import { SUCCESS, type OperationContext } from './context';

export async function addSource(
  ctx: OperationContext,
  args: { name: string; configuration: SourceConfiguration; replace_configuration?: boolean; customization?: SourceCustomization },
): Promise<unknown> {
  ctx.document = S.addSource(ctx.document, args.name, args.configuration, args.replace_configuration === true, args.customization);
  return SUCCESS;
}

export async function updateSource(
  ctx: OperationContext,
  args: { name: string; configuration?: SourceConfiguration; customization?: SourceCustomization },
): Promise<unknown> {
  ctx.document = S.updateSource(ctx.document, args.name, args.configuration, args.customization);
  return SUCCESS;
}

export async function renameSource(ctx: OperationContext, args: { name: string; new_name: string }): Promise<unknown> {
  ctx.document = S.renameSource(ctx.document, args.name, args.new_name);
  return SUCCESS;
}

export async function dropSource(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  await dropDatabaseTriggers(ctx, args.name);
  ctx.document = S.dropSource(ctx.document, args.name);
  return SUCCESS;
}

/** The triggers of a source's event triggers leave its database with it, when it answers (decision dec.source.forms). */
async function dropDatabaseTriggers(ctx: OperationContext, name: string): Promise<void> {
  const source = S.sourcesOf(ctx.document).find((s) => s.name === name);
  if (!source) return;
  const view = S.sourceView(ctx.document, name);
  const triggers = databaseTriggersOf(view);
  if (triggers.length === 0) return;
  const db = await ctx.introspectSource(source, view);
  if (!db) return;
  await ctx.onSource(name, async (client) => {
    for (const d of triggers) if (db.relations.has(relationKey(d.table))) await q.run(client, q.dropSourceTrigger(d.table, d.trigger, d.op));
  });
}
