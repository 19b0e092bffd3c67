// What the event worker and the scheduler share: a loop that looks for due work every
// fetch interval (at once again while it finds some, and when new work is announced: `wake`),
// tracks deliveries in flight, and on stop waits for them a while and gives back what it still holds.
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { EventSettings } from '../config';
import type { Logger } from '../log';
import type { MetadataDocument } from '../../../spec';
import { isConnectionLoss } from '../db/connectionLoss';
import * as q from '../sql';

/** How often a worker looks for work while the database does not answer. */
const OUTAGE_POLL_MS = 2000;
const PRUNE_EVERY_MS = 60_000;
/**
 * How soon after announced work the worker looks once more. The database announces at most one
 * capture per short window (sql/work.ts): one made just after an announcement is not announced
 * itself, and its transaction may commit after the look the announcement brought.
 */
export const LOOK_AGAIN_AFTER_ANNOUNCED_MS = 250;

export abstract class PollingWorker {
  /** Who holds what this server took: only the holder settles it. */
  protected readonly instance = randomUUID();
  /** Deliveries in flight, by the id of what each holds. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** How long the last claim held what it took: the beat renews the hold of what is still in flight. */
  private holdSeconds = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private ticking: Promise<void> = Promise.resolve();
  /** A look is under way: a wake now means one more look when it ends. */
  private looking = false;
  private wakeAgain = false;
  /** When the database stopped answering this worker, while it does not. */
  private outageSince: number | undefined;
  private lastBeat = 0;
  private lastPrune = 0;
  /** The last look left no place free: more may be due than this worker could take. */
  private wasFull = false;
  /** Work was announced: the first look that finds nothing is followed by one more soon. */
  private announcedSince = false;

  /** What the log calls this worker's deliveries. */
  protected abstract readonly name: string;

  constructor(
    protected readonly pool: Pool,
    protected readonly settings: EventSettings,
    /** This server's copy of the metadata and the version it was read or committed at. */
    private readonly snapshot: () => { document: MetadataDocument; resourceVersion: number },
    protected readonly logger: Logger,
    protected readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** This server's copy of the metadata: enough to size a claim's lock. */
  protected document(): MetadataDocument {
    return this.snapshot().document;
  }

  /**
   * The metadata that decides what taken work is delivered to: this server's copy, unless another
   * server has committed a newer one that this server has not read yet (its notice may still be on
   * the way). A trigger changed elsewhere is never delivered with its old webhook or headers.
   */
  protected async currentDocument(): Promise<MetadataDocument> {
    return (await this.currentSnapshot()).document;
  }

  /** currentDocument, with the resource version it was stored at. */
  protected async currentSnapshot(): Promise<{ document: MetadataDocument; resourceVersion: number }> {
    const mine = this.snapshot();
    const [stored] = await q.run<{ resource_version: number }>(this.pool, q.readResourceVersion);
    if (!stored || stored.resource_version <= mine.resourceVersion) return mine;
    const [newer] = await q.run<{ metadata: MetadataDocument; resource_version: number }>(this.pool, q.readMetadata);
    return newer ? { document: newer.metadata, resourceVersion: newer.resource_version } : mine;
  }

  /** Take what is due and start delivering it; how many were taken. */
  protected abstract poll(): Promise<number>;
  /** Give back what this server holds and has not settled. */
  protected abstract release(): Promise<void>;
  /** Renew this server's hold of `ids` for `seconds` from now. */
  protected abstract keepHolds(ids: readonly string[], seconds: number): Promise<void>;

  start(): void {
    this.schedule(0);
  }

  /** Stop taking work; wait up to `graceMs` for deliveries in flight; give back what is still held. */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.race([Promise.all(this.inFlight.values()), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    await this.release().catch(() => {});
    await q.run(this.pool, q.forgetInstance(this.instance)).catch(() => {});
  }

  /** Tell the other servers this one lives (before it takes anything), now and then. */
  private async beat(): Promise<void> {
    const now = Date.now();
    if (now - this.lastBeat < q.HEARTBEAT_MS) return;
    await q.run(this.pool, q.heartbeat(this.instance));
    if (this.inFlight.size > 0) await this.keepHolds(this.held, this.holdSeconds);
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await q.run(this.pool, q.pruneInstances);
    }
    this.lastBeat = now;
  }

  /** A delivery in flight; its failure is logged (what it held is taken again at its deadline). */
  protected track(id: string, delivery: Promise<void>): void {
    const tracked = delivery.catch((error: unknown) => this.logger.log('error', this.name, { event_id: id, error: String(error) }));
    this.inFlight.set(id, tracked);
    void tracked.finally(() => {
      this.inFlight.delete(id);
      // A worker that was full looks again as soon as a tenth of its places is free, not at its
      // next interval: otherwise it would deliver at most one pool of work per fetch interval.
      // (The look that follows says again whether it left the worker full.)
      if (this.wasFull && this.free >= Math.max(1, Math.ceil(this.settings.httpPoolSize / 10))) this.wake();
    });
  }

  /** The ids of what is in flight: a claim never takes them again, however long they wait. */
  protected get held(): string[] {
    return [...this.inFlight.keys()];
  }

  /** The hold a claim is about to take: `seconds` from now, renewed by each beat while in flight. */
  protected holding(seconds: number): number {
    this.holdSeconds = seconds;
    return seconds;
  }

  protected get free(): number {
    return this.settings.httpPoolSize - this.inFlight.size;
  }

  /** The database announced new work of this worker's kind: look now, and once more soon after. */
  announced(): void {
    this.announcedSince = true;
    this.wake();
  }

  /** Look now (or once more after the look under way) instead of at the next interval. */
  wake(): void {
    if (this.looking) {
      this.wakeAgain = true;
      return;
    }
    clearTimeout(this.timer);
    // After stop, schedule looks no more.
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.looking = true;
      this.wakeAgain = false;
      this.ticking = this.tick();
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let taken = 0;
    // While it holds work, the worker beats at least every HEARTBEAT_MS: others would take what it holds.
    let wait = this.inFlight.size > 0 ? Math.min(this.settings.fetchIntervalMs, q.HEARTBEAT_MS) : this.settings.fetchIntervalMs;
    try {
      await this.beat();
      taken = await this.poll();
      this.wasFull = this.free <= 0;
      if (this.outageSince !== undefined) {
        this.logger.log('info', this.name, { message: `the database answers again after ${Date.now() - this.outageSince} ms` });
        this.outageSince = undefined;
      }
    } catch (error) {
      if (this.stopped) return;
      if (!isConnectionLoss(error)) {
        this.logger.log('warn', this.name, { error: String(error) });
      } else {
        // While the database is away: one line, and a slower look, not a warning every interval.
        if (this.outageSince === undefined) {
          this.outageSince = Date.now();
          this.logger.log('warn', this.name, { error: String(error), message: 'the database does not answer; looking again every few seconds' });
        }
        wait = Math.max(wait, OUTAGE_POLL_MS);
      }
    }
    // More may be waiting when some came, or was announced meanwhile: look again at once.
    this.looking = false;
    if (taken > 0 || this.wakeAgain) return this.schedule(0);
    if (this.announcedSince) wait = Math.min(wait, LOOK_AGAIN_AFTER_ANNOUNCED_MS);
    this.announcedSince = false;
    this.schedule(wait);
  }
}
