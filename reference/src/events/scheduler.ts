// Cron triggers and one-off scheduled events (SPEC.md §2.5, §6 rule 4): invocations of each cron
// trigger are written ahead into the catalog (every server may write them: one row per trigger and
// time), and due invocations are taken with SKIP LOCKED and POSTed like events. An invocation later
// than its tolerance_seconds is dead, not sent. Removing a trigger archives its invocations
// (sql/scheduled.ts): a new trigger of the same name never lists or sends them.
import { SCHEDULED_RETRY_DEFAULTS, type CronTrigger, type MetadataDocument } from '../../../spec';
import { cronTriggersOf } from '../metadata/cronTriggers';
import * as q from '../sql';
import { occurrences, parseCron } from '../metadata/cron';
import { resolveAddress } from '../metadata/environmentTemplate';
import { tlsAllowlistOf } from '../metadata/network';
import { PollingWorker } from './polling';
import { attempt, resolveHeaders, retryDelay, type Attempt } from './worker';

/** How far ahead invocations are written. */
const AHEAD_MS = 10 * 60_000;
const GENERATE_EVERY_MS = 1000;

type Headers = CronTrigger['headers'];

export class Scheduler extends PollingWorker {
  private lastGenerated = 0;

  protected readonly name = 'scheduled-delivery';

  protected release(): Promise<void> {
    return q.run(this.pool, q.releaseScheduled(this.instance)).then(() => undefined);
  }

  protected async keepHolds(ids: readonly string[], seconds: number): Promise<void> {
    await q.run(this.pool, q.keepScheduledHolds(this.instance, ids, seconds));
  }

  /**
   * Invocations of every cron trigger up to AHEAD_MS from now, from its latest one (or now), as the
   * stored metadata defines them: times computed from a copy that a change has overtaken are not
   * written (insertCronInvocations), so a trigger removed or re-created meanwhile gets none of them.
   */
  private async generate(): Promise<void> {
    if (cronTriggersOf(this.document()).length === 0) return;
    const { document, resourceVersion } = await this.currentSnapshot();
    const triggers = cronTriggersOf(document);
    if (triggers.length === 0) return;
    const latest = new Map(
      (await q.run<{ trigger_name: string; latest: Date }>(this.pool, q.latestCronInvocations)).map((r) => [r.trigger_name, new Date(r.latest)]),
    );
    const now = new Date();
    const until = new Date(now.getTime() + AHEAD_MS);
    for (const t of triggers) {
      const last = latest.get(t.name);
      if (last && last.getTime() >= until.getTime() - 60_000) continue;
      // After a pause, invocations missed within the tolerance are made too (and found late when due).
      const from = new Date(Math.max(last?.getTime() ?? now.getTime(), now.getTime() - t.retry_conf.tolerance_seconds * 1000));
      const schedule = parseCron(t.schedule);
      let times = occurrences(schedule, from, until);
      // A trigger whose next time is further off gets that one, so that it shows in get_scheduled_events.
      if (times.length === 0 && !last) times = occurrences(schedule, from, new Date(now.getTime() + 366 * 24 * 3600_000), 1);
      if (times.length > 0) await q.run(this.pool, q.insertCronInvocations(t.name, times, resourceVersion));
    }
  }

  protected async poll(): Promise<number> {
    if (Date.now() - this.lastGenerated >= GENERATE_EVERY_MS) {
      this.lastGenerated = Date.now();
      await this.generate();
    }
    if (this.free <= 0) return 0;
    const longest = Math.max(1, ...cronTriggersOf(this.document()).map((t) => t.retry_conf.timeout_seconds), SCHEDULED_RETRY_DEFAULTS.timeout_seconds);
    const rows = await q.run<q.ScheduledRow>(
      this.pool,
      q.claimScheduled(this.free, this.holding(longest + this.settings.lockMarginSeconds), this.instance, this.held),
    );
    if (rows.length === 0) return 0;
    const document = await this.currentDocument();
    for (const row of rows) this.track(row.id, this.deliver(row, document));
    return rows.length;
  }

  private async deliver(row: q.ScheduledRow, document: MetadataDocument): Promise<void> {
    // A one-off event has no trigger name, so no trigger.
    const trigger = cronTriggersOf(document).find((t) => t.name === row.trigger_name);
    if (row.kind === 'cron' && !trigger) {
      await q.run(
        this.pool,
        q.settleScheduled(undefined, row.id, this.instance, { state: 'dead' }, `the cron trigger ${JSON.stringify(row.trigger_name)} no longer exists`),
      );
      return;
    }
    const config = trigger ?? {
      webhook: row.webhook!,
      payload: row.payload,
      headers: row.headers as Headers,
      retry_conf: { ...SCHEDULED_RETRY_DEFAULTS, ...(row.retry_conf as object) } as CronTrigger['retry_conf'],
      comment: row.comment ?? undefined,
    };
    const retry = config.retry_conf;
    if (row.tries === 0 && row.late_seconds > retry.tolerance_seconds) {
      const error = `the invocation is ${Math.round(row.late_seconds)} s late, past its tolerance of ${retry.tolerance_seconds} s`;
      await q.run(this.pool, q.settleScheduled(undefined, row.id, this.instance, { state: 'dead' }, error));
      this.logger.log('warn', 'scheduled-delivery', { event_id: row.id, trigger: row.trigger_name, outcome: 'dead', error });
      return;
    }
    const body = {
      id: row.id,
      ...(trigger ? { name: trigger.name } : {}),
      scheduled_time: row.scheduled_time,
      payload: config.payload ?? null,
      ...(config.comment ? { comment: config.comment } : {}),
    };
    const url = resolveAddress(config.webhook, this.env);
    const headers = resolveHeaders(config.headers, this.env);
    const problem = typeof url !== 'string' ? url.problem : 'problem' in headers ? (headers.problem as string) : undefined;
    const result: Attempt = problem
      ? { status: null, headers: {}, body: '', error: problem, retryAfter: null, durationMs: 0 }
      : await attempt(url as string, headers as Record<string, string>, body, retry.timeout_seconds, tlsAllowlistOf(document));
    const number = row.tries + 1;
    const outcome: { state: 'delivered' | 'dead' } | { retryInSeconds: number } =
      result.error === null
        ? { state: 'delivered' }
        : number > retry.num_retries
          ? { state: 'dead' }
          : { retryInSeconds: retryDelay(result.retryAfter, retry.retry_interval_seconds, number, this.settings.backoff) };
    await q.run(
      this.pool,
      q.settleScheduled(
        {
          eventId: row.id,
          attempt: number,
          status: result.status,
          request: { url: typeof url === 'string' ? url : null, payload: body },
          response: { status: result.status, headers: result.headers, body: result.body, error: result.error },
          durationMs: result.durationMs,
        },
        row.id,
        this.instance,
        outcome,
        result.error,
      ),
    );
    this.logger.log(result.error === null ? 'info' : 'warn', 'scheduled-delivery', {
      event_id: row.id,
      trigger: row.trigger_name,
      attempt: number,
      status: result.status,
      outcome: 'state' in outcome ? outcome.state : `retry in ${outcome.retryInSeconds} s`,
      ...(result.error ? { error: result.error } : {}),
    });
  }
}
