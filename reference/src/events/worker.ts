// Delivery of event trigger events (SPEC.md §6): take due events from the event log, POST each to
// its trigger's webhook with the configured headers, and settle it with the attempt logged. A 2xx
// is success; otherwise the event is retried num_retries times, interval_sec apart (or as the
// webhook's Retry-After says, or doubling with exponential backoff), and then dead: a visible
// dead letter. Events are taken with SKIP LOCKED and held until a deadline, so several servers
// share the work and the events of a server that died are taken again: at least once.
import type { EventTrigger, TlsAllow } from '../../../spec';
import type { EventSettings } from '../config';
import { addressFromVariable, resolveAddress, resolveHeaderValues, type Resolved } from '../metadata/environmentTemplate';
import { everyEventTriggerOf } from '../metadata/eventTriggers';
import { tlsAllowlistOf } from '../metadata/network';
import { outgoingFetch } from '../remote/outgoingTls';
import * as q from '../sql';
import { Batches } from './batches';
import { PollingWorker } from './polling';

/** How much of a webhook's answer the invocation log keeps. */
const RESPONSE_BYTES = 64 * 1024;
const CLEANUP_EVERY_MS = 60_000;
/** The most attempts one statement settles (each logs a request and up to 64 KiB of answer). */
const SETTLE_AT_MOST = 100;

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

/** Headers of a delivery, values taken from the engine's environment where configured so. */
export function resolveHeaders(headers: EventTrigger['headers'], env: NodeJS.ProcessEnv): Resolved<Record<string, string>> {
  const configured = resolveHeaderValues(headers, env);
  if ('problem' in configured) return configured;
  return { 'content-type': 'application/json', 'user-agent': 'engine-reference-events', ...configured };
}

/** The webhook and headers, resolved from the environment where the trigger says so. */
export function resolveDelivery(trigger: EventTrigger, env: NodeJS.ProcessEnv): Resolved<{ url: string; headers: Record<string, string> }> {
  const url = trigger.webhook !== undefined ? resolveAddress(trigger.webhook, env) : addressFromVariable(trigger.webhook_from_env!, 'webhook_from_env', env);
  if (typeof url !== 'string') return url;
  const headers = resolveHeaders(trigger.headers, env);
  return 'problem' in headers ? { problem: headers.problem as string } : { url, headers };
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

export interface Attempt {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Why the attempt failed; null when the webhook answered 2xx. */
  error: string | null;
  retryAfter: string | null;
  durationMs: number;
}

/**
 * One POST of a JSON body, ended after `timeoutSeconds` (0: no limit), its answer read up to 64 KiB;
 * a self-signed certificate accepted where the metadata's TLS allow-list says so.
 */
export async function attempt(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutSeconds: number,
  allowlist: readonly TlsAllow[] = [],
): Promise<Attempt> {
  const started = Date.now();
  const out: Attempt = { status: null, headers: {}, body: '', error: null, retryAfter: null, durationMs: 0 };
  try {
    const response = await outgoingFetch(
      url,
      {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        redirect: 'manual',
        ...(timeoutSeconds > 0 ? { signal: AbortSignal.timeout(timeoutSeconds * 1000) } : {}),
      },
      allowlist,
    );
    out.status = response.status;
    out.headers = Object.fromEntries(response.headers.entries());
    out.retryAfter = response.headers.get('retry-after');
    out.body = await readLimited(response);
    if (out.status < 200 || out.status > 299) out.error = `the webhook answered ${out.status}`;
  } catch (e) {
    const name = (e as Error).name;
    out.error = name === 'TimeoutError' ? `no answer within ${timeoutSeconds} s` : `the webhook could not be reached: ${(e as Error).message}`;
  }
  out.durationMs = Date.now() - started;
  return out;
}

export class EventWorker extends PollingWorker {
  private lastCleanup = 0;
  /** Attempts that end together are settled in one statement. */
  private readonly settlements = new Batches<q.Settlement>(
    (batch) => q.run(this.pool, q.settleEvents(batch, this.instance)).then(() => undefined),
    SETTLE_AT_MOST,
  );

  protected readonly name = 'event-delivery';
  /** Moves the events other sources captured into the log before each look (events/sourceCapture.ts). */
  fromSources?: () => Promise<void>;

  protected release(): Promise<void> {
    return q.run(this.pool, q.releaseEvents(this.instance)).then(() => undefined);
  }

  protected async keepHolds(ids: readonly string[], seconds: number): Promise<void> {
    await q.run(this.pool, q.keepEventHolds(this.instance, ids, seconds));
  }

  protected async poll(): Promise<number> {
    let taken = 0;
    if (this.fromSources) await this.fromSources().catch(() => {});
    if (this.free > 0) {
      const longest = Math.max(1, ...everyEventTriggerOf(this.document()).map((t) => t.trigger.retry_conf.timeout_sec));
      const rows = await q.run<q.EventRow>(
        this.pool,
        q.claimEvents(this.free, this.holding(longest + this.settings.lockMarginSeconds), this.instance, this.held),
      );
      taken = rows.length;
      if (taken > 0) {
        const document = await this.currentDocument();
        const byName = new Map(everyEventTriggerOf(document).map((t) => [t.trigger.name, t.trigger]));
        for (const row of rows) this.track(row.id, this.deliver(row, byName.get(row.trigger_name), tlsAllowlistOf(document)));
      }
    }
    if (this.settings.retentionSeconds > 0 && Date.now() - this.lastCleanup > CLEANUP_EVERY_MS) {
      this.lastCleanup = Date.now();
      await q.run(this.pool, q.cleanupDelivered(this.settings.retentionSeconds));
    }
    return taken;
  }

  private async deliver(row: q.EventRow, trigger: EventTrigger | undefined, allowlist: readonly TlsAllow[]): Promise<void> {
    if (!trigger) {
      await q.run(this.pool, q.orphanEvent(row.id, this.instance, `the event trigger ${JSON.stringify(row.trigger_name)} no longer exists`));
      return;
    }
    const attemptNumber = row.tries + 1;
    const payload = eventPayload(row, trigger);
    const resolved = resolveDelivery(trigger, this.env);
    const result: Attempt =
      'problem' in resolved
        ? { status: null, headers: {}, body: '', error: resolved.problem, retryAfter: null, durationMs: 0 }
        : await attempt(resolved.url, resolved.headers, payload, trigger.retry_conf.timeout_sec, allowlist);
    const { status, body, error, retryAfter, durationMs } = result;
    const responseHeaders = result.headers;
    const outcome: q.Outcome =
      error === null
        ? { state: 'delivered' }
        : attemptNumber > trigger.retry_conf.num_retries
          ? { state: 'dead' }
          : { retryInSeconds: retryDelay(retryAfter, trigger.retry_conf.interval_sec, attemptNumber, this.settings.backoff) };
    const request = { url: 'problem' in resolved ? null : resolved.url, headers: 'problem' in resolved ? {} : resolved.headers, payload };
    await this.settlements.add({
      invocation: {
        eventId: row.id,
        trigger: trigger.name,
        attempt: attemptNumber,
        status,
        request,
        response: { status, headers: responseHeaders, body, error },
        durationMs,
      },
      outcome,
      error,
    });
    this.logger.log(error === null ? 'info' : 'warn', 'event-delivery', {
      event_id: row.id,
      trigger: trigger.name,
      attempt: attemptNumber,
      status,
      duration_ms: durationMs,
      outcome: 'state' in outcome ? outcome.state : `retry in ${outcome.retryInSeconds} s`,
      ...(error ? { error } : {}),
    });
  }
}
