// Handlers of the cron trigger and scheduled event operations (SPEC.md §2.5, the engine's forms).
import { isDeepStrictEqual } from 'node:util';
import type { PoolClient } from 'pg';
import { SCHEDULED_RETRY_DEFAULTS, type CronTrigger, type MetadataDocument } from '../../../spec';
import { engineError } from '../errors';
import * as C from '../metadata/cronTriggers';
import * as q from '../sql';
import { SUCCESS, type OperationContext } from './context';

export async function createCronTrigger(ctx: OperationContext, args: C.CreateCronTriggerArgs): Promise<unknown> {
  // A replaced trigger's invocations yet to come follow the new schedule: syncCronTriggers.
  ctx.document = C.createCronTrigger(ctx.document, args);
  return SUCCESS;
}

export async function deleteCronTrigger(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  ctx.document = C.deleteCronTrigger(ctx.document, args.name);
  return SUCCESS;
}

/**
 * In the transaction of a metadata change (create_cron_trigger with replace, delete_cron_trigger,
 * clear_metadata, replace_metadata), after the document is written: the invocations of cron
 * triggers `after` no longer has are archived, and those yet to come of a trigger defined anew go.
 */
export async function syncCronTriggers(db: PoolClient, before: MetadataDocument, after: MetadataDocument): Promise<void> {
  const now = new Map(C.cronTriggersOf(after).map((t) => [t.name, t]));
  const removed: string[] = [];
  for (const t of C.cronTriggersOf(before)) {
    const kept = now.get(t.name);
    if (!kept) removed.push(t.name);
    else if (!isDeepStrictEqual(kept, t)) await q.run(db, q.deleteCronInvocations(t.name));
  }
  for (const step of removed.length > 0 ? q.removeCronInvocations(removed) : []) await q.run(db, step);
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export async function createScheduledEvent(
  ctx: OperationContext,
  args: {
    webhook: string;
    schedule_at: string;
    payload?: unknown;
    headers?: CronTrigger['headers'];
    retry_conf?: CronTrigger['retry_conf'];
    comment?: string | null;
  },
): Promise<unknown> {
  if (!ISO_WITH_ZONE.test(args.schedule_at) || Number.isNaN(Date.parse(args.schedule_at)))
    throw engineError('parse-failed.schedule-at', '$.args.schedule_at', [JSON.stringify(args.schedule_at)]);
  const [row] = await q.run<{ event_id: string }>(
    ctx.db,
    q.insertOneOff({
      webhook: args.webhook,
      scheduleAt: args.schedule_at,
      payload: args.payload ?? null,
      headers: args.headers ?? [],
      retryConf: { ...SCHEDULED_RETRY_DEFAULTS, ...(args.retry_conf ?? {}) },
      comment: typeof args.comment === 'string' ? args.comment : null,
    }),
  );
  return { event_id: row!.event_id };
}

export async function deleteScheduledEvent(ctx: OperationContext, args: { type: 'one_off' | 'cron'; event_id: string }): Promise<unknown> {
  const rows = /^[0-9a-f-]{36}$/i.test(args.event_id) ? await q.run(ctx.db, q.deleteScheduled(args.type, args.event_id)) : [];
  if (rows.length === 0) throw engineError('not-exists.scheduled-event', '$.args', [JSON.stringify(args.event_id)]);
  return SUCCESS;
}

export async function getCronTriggers(ctx: OperationContext): Promise<unknown> {
  return { cron_triggers: C.cronTriggersOf(ctx.document) };
}

export async function getScheduledEvents(
  ctx: OperationContext,
  args: { type: 'one_off' | 'cron'; trigger_name?: string; status?: string; limit?: number; offset?: number },
): Promise<unknown> {
  const limit = Math.min(Math.max(args.limit ?? 100, 0), 1000);
  const [row] = await q.run<{ events: unknown }>(
    ctx.db,
    q.scheduledEvents(args.type, args.trigger_name, args.status ?? 'all', limit, Math.max(args.offset ?? 0, 0)),
  );
  return { events: row!.events };
}
