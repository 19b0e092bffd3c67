// Handlers of the event trigger operations (SPEC.md §2.6, §4.3, and the engine's forms for the
// rest), and the step of every metadata change that keeps the database triggers in line with it.
import type { PoolClient } from 'pg';
import type { MetadataDocument } from '../../../spec';
import { relationKey, type Introspection } from '../db/introspection';
import { engineError } from '../errors';
import * as E from '../metadata/eventTriggers';
import { sourcesOf, sourceView, withSourceView } from '../metadata/sources';
import * as q from '../sql';
import { SUCCESS, type OperationContext } from './context';
import { spokenVariables } from '../sessionNames';

export async function createEventTrigger(ctx: OperationContext, args: E.CreateEventTriggerArgs): Promise<unknown> {
  // One namespace for the triggers of every source (decision dec.source.forms): a name another part has is taken.
  const here = ctx.within?.source;
  const whole = ctx.within ? withSourceView(ctx.within.outer.document, ctx.within.source, ctx.document) : ctx.document;
  if (E.everyEventTriggerOf(whole).some((e) => e.trigger.name === args.name && e.source !== here))
    throw engineError('already-exists.event-trigger', '$.args', [JSON.stringify(args.name)]);
  ctx.document = E.createEventTrigger(ctx.document, await ctx.introspect(), args);
  return SUCCESS;
}

export async function deleteEventTrigger(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  ctx.document = E.deleteEventTrigger(ctx.document, args.name);
  return SUCCESS;
}

/** Manual invocation (§6 rule 8): an event with op MANUAL and the payload as its new row. */
export async function invokeEventTrigger(ctx: OperationContext, args: { name: string; payload?: unknown }): Promise<unknown> {
  const { table, trigger } = E.findEventTrigger(ctx.document, args.name);
  if (!trigger.definition.enable_manual) throw engineError('not-supported.manual-invocation', '$.args', [JSON.stringify(args.name)]);
  const [row] = await q.run<{ event_id: string }>(
    ctx.db,
    q.manualEvent(trigger.name, table, args.payload ?? null, spokenVariables({ 'x-engine-role': 'admin' }, ctx.config.compatHeaders)),
  );
  return { event_id: row!.event_id };
}

/** Decision dec.events.pause: delivery stops, capture goes on. */
export async function pauseEventTrigger(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  E.findEventTrigger(ctx.document, args.name);
  await q.run(ctx.db, q.pauseEventTrigger(args.name));
  return SUCCESS;
}

export async function resumeEventTrigger(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  E.findEventTrigger(ctx.document, args.name);
  await q.run(ctx.db, q.resumeEventTriggers([args.name]));
  return SUCCESS;
}

export async function redeliverEvent(ctx: OperationContext, args: { event_id: string }): Promise<unknown> {
  const rows = /^[0-9a-f-]{36}$/i.test(args.event_id) ? await q.run(ctx.db, q.redeliver(args.event_id)) : [];
  if (rows.length === 0) throw engineError('not-exists.event', '$.args', [JSON.stringify(args.event_id)]);
  return SUCCESS;
}

const page = (limit: number | undefined, offset: number | undefined) => [Math.min(Math.max(limit ?? 100, 0), 1000), Math.max(offset ?? 0, 0)] as const;

export async function getEventLogs(ctx: OperationContext, args: { name: string; status?: string; limit?: number; offset?: number }): Promise<unknown> {
  E.findEventTrigger(ctx.document, args.name);
  const [limit, offset] = page(args.limit, args.offset);
  const [row] = await q.run<{ events: unknown }>(ctx.db, q.eventLogs(args.name, args.status ?? 'all', limit, offset));
  return row!.events;
}

export async function getEventInvocationLogs(ctx: OperationContext, args: { name: string; limit?: number; offset?: number }): Promise<unknown> {
  E.findEventTrigger(ctx.document, args.name);
  const [limit, offset] = page(args.limit, args.offset);
  const [row] = await q.run<{ invocations: unknown }>(ctx.db, q.invocationLogs(args.name, limit, offset));
  return row!.invocations;
}

/**
 * In the transaction of a metadata change: drop the database triggers `after` no longer has and
 * create (or replace) the new and changed ones, on the tables the database has; the events of
 * removed triggers are archived.
 */
export async function syncEventTriggers(db: PoolClient, before: MetadataDocument, after: MetadataDocument, introspection: Introspection): Promise<void> {
  const { drop, create } = E.triggerChanges(before, after);
  for (const d of drop) if (introspection.relations.has(relationKey(d.table))) await q.run(db, q.dropTrigger(d.table, d.trigger, d.op));
  for (const d of create) if (introspection.relations.has(relationKey(d.table))) await q.run(db, q.createTrigger(d.table, d.trigger, d.op, d.columns));
  // Removed from any source's tables: the event log is one for all of them.
  const kept = new Set(E.everyEventTriggerOf(after).map((e) => e.trigger.name));
  const removed = E.everyEventTriggerOf(before)
    .map((e) => e.trigger.name)
    .filter((name) => !kept.has(name));
  if (removed.length > 0) {
    await q.run(db, q.archiveEvents(removed));
    await q.run(db, q.resumeEventTriggers(removed));
  }
}

/**
 * The database triggers of other sources' parts, each on its database in the request's transaction
 * there (its capture set up first); a source whose triggers did not change is not reached.
 */
export async function syncSourcesEventTriggers(ctx: OperationContext, before: MetadataDocument, after: MetadataDocument): Promise<void> {
  for (const source of sourcesOf(after)) {
    const now = sourceView(after, source.name);
    const then = sourcesOf(before).some((s) => s.name === source.name) ? sourceView(before, source.name) : { ...now, tables: [] };
    const { drop, create } = E.triggerChanges(then, now);
    if (drop.length === 0 && create.length === 0) continue;
    const introspection = await ctx.introspectSource(source, now);
    if (!introspection) throw engineError('invalid-configuration.source-connection', '$.args', []);
    await ctx.onSource(source.name, async (db) => {
      if (create.length) for (const statement of q.SOURCE_CAPTURE_SETUP) await q.run(db, statement);
      for (const d of drop) if (introspection.relations.has(relationKey(d.table))) await q.run(db, q.dropSourceTrigger(d.table, d.trigger, d.op));
      for (const d of create)
        if (introspection.relations.has(relationKey(d.table))) await q.run(db, q.createSourceTrigger(d.table, d.trigger, d.op, d.columns));
    });
  }
}
