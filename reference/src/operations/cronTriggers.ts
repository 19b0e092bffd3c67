// Handlers of the cron trigger and scheduled event operations (SPEC.md §2.5, the engine's forms).
import type { PoolClient } from 'pg';
import { SCHEDULED_RETRY_DEFAULTS, type CronTrigger, type MetadataDocument } from '../../../spec';
import { engineError } from '../errors';
import * as C from '../metadata/cronTriggers';
import * as q from '../sql';
import { SUCCESS, type OperationContext } from './context';

export async function createCronTrigger(ctx: OperationContext, args: C.CreateCronTriggerArgs): Promise<unknown> {
  const replacing = C.cronTriggersOf(ctx.document).some((t) => t.name === args.name);
  ctx.document = C.createCronTrigger(ctx.document, args);
  // A replaced trigger's invocations yet to come follow the new schedule.
  if (replacing) await q.run(ctx.db, q.deleteCronInvocations(args.name));
  return SUCCESS;
}

export async function deleteCronTrigger(ctx: OperationContext, args: { name: string }): Promise<unknown> {
  ctx.document = C.deleteCronTrigger(ctx.document, args.name);
  return SUCCESS;
}

/**
 * In the transaction of a metadata change (delete_cron_trigger, clear_metadata, replace_metadata):
 * the invocations of cron triggers `after` no longer has are archived.
 */
export async function syncCronTriggers(db: PoolClient, before: MetadataDocument, after: MetadataDocument): Promise<void> {
  const kept = new Set(C.cronTriggersOf(after).map((t) => t.name));
  const removed = C.cronTriggersOf(before)
    .map((t) => t.name)
    .filter((name) => !kept.has(name));
  if (removed.length > 0) await q.run(db, q.archiveCronInvocations(removed));
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
