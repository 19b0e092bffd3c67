// Delivery of event trigger events (SPEC.md §6): take due events from the event log, POST each to
// its trigger's webhook with the configured headers, and settle it with the attempt logged. A 2xx
// is success; otherwise the event is retried num_retries times, interval_sec apart (or as the
// webhook's Retry-After says, or doubling with exponential backoff), and then dead: a visible
// dead letter. Events are taken with SKIP LOCKED and held until a deadline, so several servers
// share the work and the events of a server that died are taken again: at least once.
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { EventTrigger, MetadataDocument } from '../../../spec';
import type { EventSettings } from '../config';
import type { Logger } from '../log';
import { eventTriggersOf } from '../metadata/eventTriggers';
import * as q from '../sql';

/** How much of a webhook's answer the invocation log keeps. */
const RESPONSE_BYTES = 64 * 1024;
const CLEANUP_EVERY_MS = 60_000;

export interface Delivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The body POSTed to the webhook: the engine's event shape. */
export function eventPayload(row: q.EventRow, trigger: EventTrigger): Record<string, unknown> {
  return {
    id: row.id,
    created_at: row.created_at,
    trigger: { name: trigger.name },
    table: { schema: row.schema_name, name: row.table_name },
    event: { op: row.op, data: { old: row.data.old ?? null, new: row.data.new ?? null }, session_variables: row.session_variables },
    delivery_info: { max_retries: trigger.retry_conf.num_retries, current_retry: row.tries },
  };
}

/** The webhook and headers, resolved from the environment where the trigger says so. */
export function resolveDelivery(trigger: EventTrigger, env: NodeJS.ProcessEnv): { url: string; headers: Record<string, string> } | { problem: string } {
  const url = trigger.webhook ?? env[trigger.webhook_from_env!];
  if (!url) return { problem: `the environment variable ${trigger.webhook_from_env} (webhook_from_env) is not set` };
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'engine-reference-events' };
  for (const h of trigger.headers ?? []) {
    const value = 'value' in h ? h.value : env[h.value_from_env];
    if (value === undefined) return { problem: `the environment variable ${(h as { value_from_env: string }).value_from_env} (header ${h.name}) is not set` };
    headers[h.name.toLowerCase()] = value;
  }
  return { url, headers };
}

/** Seconds to wait before the next attempt: Retry-After when the webhook gives one, else the trigger's interval. */
export function retryDelay(retryAfter: string | null, intervalSeconds: number, attempt: number, backoff: EventSettings['backoff'], now = Date.now()): number {
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter.trim())) return Math.min(Number(retryAfter.trim()), 24 * 3600);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), 24 * 3600);
  }
  return backoff === 'exponential' ? Math.min(intervalSeconds * 2 ** (attempt - 1), 3600) : intervalSeconds;
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString('utf8');
}

export class EventWorker {
  private readonly instance = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private inFlight = new Set<Promise<void>>();
  private lastCleanup = 0;
  private ticking: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly settings: EventSettings,
    private readonly document: () => MetadataDocument,
    private readonly logger: Logger,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Stop taking events; wait up to `graceMs` for deliveries in flight; give back what is still held. */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    await q.run(this.pool, q.releaseEvents(this.instance)).catch(() => {});
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick();
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let taken = 0;
    try {
      const free = this.settings.httpPoolSize - this.inFlight.size;
      if (free > 0) {
        const triggers = eventTriggersOf(this.document());
        const byName = new Map(triggers.map((t) => [t.trigger.name, t.trigger]));
        const longest = Math.max(1, ...triggers.map((t) => t.trigger.retry_conf.timeout_sec));
        const rows = await q.run<q.EventRow>(this.pool, q.claimEvents(free, longest + this.settings.lockMarginSeconds, this.instance));
        taken = rows.length;
        for (const row of rows) {
          const delivery = this.deliver(row, byName.get(row.trigger_name)).catch((error: unknown) => {
            // The event stays held until its deadline, then is taken again.
            this.logger.log('error', 'event-delivery', { event_id: row.id, trigger: row.trigger_name, error: String(error) });
          });
          this.inFlight.add(delivery);
          void delivery.finally(() => this.inFlight.delete(delivery));
        }
      }
      if (this.settings.retentionSeconds > 0 && Date.now() - this.lastCleanup > CLEANUP_EVERY_MS) {
        this.lastCleanup = Date.now();
        await q.run(this.pool, q.cleanupDelivered(this.settings.retentionSeconds));
      }
    } catch (error) {
      if (!this.stopped) this.logger.log('warn', 'event-worker', { error: String(error) });
    }
    // More may be waiting when a full batch came: look again at once.
    this.schedule(taken > 0 && taken >= this.settings.httpPoolSize - this.inFlight.size ? 0 : this.settings.fetchIntervalMs);
  }

  /** The trigger as the stored metadata has it: this server's copy may lag behind another server's change. */
  private async storedTrigger(name: string): Promise<EventTrigger | undefined> {
    const [row] = await q.run<{ metadata: MetadataDocument }>(this.pool, q.readMetadata);
    return row ? eventTriggersOf(row.metadata).find((t) => t.trigger.name === name)?.trigger : undefined;
  }

  private async deliver(row: q.EventRow, known: EventTrigger | undefined): Promise<void> {
    const trigger = known ?? (await this.storedTrigger(row.trigger_name));
    if (!trigger) {
      await q.run(this.pool, q.orphanEvent(row.id, this.instance, `the event trigger ${JSON.stringify(row.trigger_name)} no longer exists`));
      return;
    }
    const attempt = row.tries + 1;
    const payload = eventPayload(row, trigger);
    const resolved = resolveDelivery(trigger, this.env);
    const started = Date.now();
    let status: number | null = null;
    let responseHeaders: Record<string, string> = {};
    let body = '';
    let error: string | null = null;
    let retryAfter: string | null = null;
    if ('problem' in resolved) {
      error = resolved.problem;
    } else {
      const timeout = trigger.retry_conf.timeout_sec;
      try {
        const response = await fetch(resolved.url, {
          method: 'POST',
          headers: resolved.headers,
          body: JSON.stringify(payload),
          redirect: 'manual',
          ...(timeout > 0 ? { signal: AbortSignal.timeout(timeout * 1000) } : {}),
        });
        status = response.status;
        responseHeaders = Object.fromEntries(response.headers.entries());
        retryAfter = response.headers.get('retry-after');
        body = await readLimited(response);
        if (status < 200 || status > 299) error = `the webhook answered ${status}`;
      } catch (e) {
        const name = (e as Error).name;
        error = name === 'TimeoutError' || name === 'AbortError' ? `no answer within timeout_sec (${timeout} s)` : `the webhook could not be reached: ${(e as Error).message}`;
      }
    }
    const durationMs = Date.now() - started;
    const outcome: { state: 'delivered' | 'dead' } | { retryInSeconds: number } =
      error === null
        ? { state: 'delivered' }
        : attempt > trigger.retry_conf.num_retries
          ? { state: 'dead' }
          : { retryInSeconds: retryDelay(retryAfter, trigger.retry_conf.interval_sec, attempt, this.settings.backoff) };
    const request = { url: 'problem' in resolved ? null : resolved.url, headers: 'problem' in resolved ? {} : resolved.headers, payload };
    await q.run(this.pool, q.settleEvent({ eventId: row.id, trigger: trigger.name, attempt, status, request, response: { status, headers: responseHeaders, body, error }, durationMs }, this.instance, outcome, error));
    this.logger.log(error === null ? 'info' : 'warn', 'event-delivery', {
      event_id: row.id,
      trigger: trigger.name,
      attempt,
      status,
      duration_ms: durationMs,
      outcome: 'state' in outcome ? outcome.state : `retry in ${outcome.retryInSeconds} s`,
      ...(error ? { error } : {}),
    });
  }
}
