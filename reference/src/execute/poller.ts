// What every poller of subscriptions does, live or streaming: it holds its subscribers, polls every
// interval while it has any, stops with its last, and hands them over to be compiled again when the
// metadata changed under the plan it polls (execute/liveQueries.ts, execute/streamingQueries.ts).
import { GraphQLError } from 'graphql';
import type { CompiledPlan, SchemaCache } from './schemaCache';
import type { PlanPools } from './runPlan';
import type { LiveResult, Subscriber } from './subscriber';

/** The poller's owner: told when it stops, and given its members when the metadata changed. */
export interface PollerOwner<M> {
  stopped: () => void;
  changed: (members: readonly M[]) => void;
}

/** Where and how often a poller polls: its statements' pools, the interval, the most rows of a cohort per statement. */
export interface PollerRun {
  pools: PlanPools;
  intervalMs: number;
  batchSize: number;
}

export abstract class Poller<M extends { subscriber: Subscriber }> {
  protected readonly members = new Map<Subscriber, M>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    protected readonly run: PollerRun,
    private readonly schemas: () => SchemaCache,
    /** The schemas the plan was compiled under: when they are not the current ones, its subscriptions are compiled again. */
    private readonly cache: SchemaCache,
    protected readonly plan: CompiledPlan,
    private readonly owner: PollerOwner<M>,
  ) {}

  /** One poll of the members, under the schemas the plan was compiled for. */
  protected abstract pollMembers(): Promise<void>;

  join(member: M): void {
    this.members.set(member.subscriber, member);
    member.subscriber.leave = (s) => this.leave(s);
    this.schedule();
  }

  leave(subscriber: Subscriber): void {
    this.members.delete(subscriber);
    if (this.members.size === 0) this.stop();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.owner.stopped();
    for (const s of [...this.members.keys()]) s.end();
  }

  /** Look now rather than at the next interval (subscriptions just compiled again joined it). */
  pollSoon(current: SchemaCache): void {
    if (this.stopped || current !== this.cache) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule(0);
  }

  private schedule(ms = this.run.intervalMs): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.poll()
        .catch(() => this.finish({ errors: [new GraphQLError('internal error', { extensions: { path: '$', code: 'unexpected' } })] }))
        .finally(() => {
          this.timer = undefined;
          this.schedule();
        });
    }, ms);
  }

  private async poll(): Promise<void> {
    if (this.schemas() !== this.cache) return this.handOver();
    return this.pollMembers();
  }

  /** The metadata changed: this poller ends, its subscriptions go on with plans compiled again. */
  private handOver(): void {
    const members = [...this.members.values()];
    this.members.clear();
    this.stop();
    this.owner.changed(members);
  }

  /** Send every subscriber a last result and end them. */
  protected finish(result: LiveResult): void {
    for (const s of [...this.members.keys()]) {
      s.push(result);
      s.end();
    }
    this.stop();
  }
}

/**
 * The pollers of one kind of subscription, by the key of their plans: a subscription joins the
 * poller of its plan (made if there is none); after a metadata change each subscription of a poller
 * is compiled again for its own session and joins the poller of its new plan (they may part, or join
 * others), or is sent the error and ended; the pollers they join look at once.
 */
export abstract class Pollers<M extends { subscriber: Subscriber }, P extends Poller<M>> {
  private readonly pollers = new Map<string, P>();
  protected closed = false;

  constructor(
    protected readonly run: PollerRun,
    protected readonly schemas: () => SchemaCache,
  ) {}

  /** The poller of `plan`, compiled under `cache`, made with this owner. */
  protected abstract make(cache: SchemaCache, plan: CompiledPlan, owner: PollerOwner<M>): P;

  /** What makes plans share a poller. */
  protected abstract keyOf(plan: CompiledPlan): string;

  /** A member's request compiled again under `current` (the plan it then polls), or the result that ends it. */
  protected abstract compileAgain(member: M, current: SchemaCache): { plan: CompiledPlan } | { result: LiveResult };

  /** Put a subscription with the poller of its plan (made if there is none); that poller. */
  protected place(member: M, cache: SchemaCache, plan: CompiledPlan): P {
    const key = this.keyOf(plan);
    let poller = this.pollers.get(key);
    if (!poller) {
      const made: P = this.make(cache, plan, {
        stopped: () => this.pollers.get(key) === made && this.pollers.delete(key),
        changed: (members) => this.recompile(members),
      });
      this.pollers.set(key, made);
      poller = made;
    }
    poller.join(member);
    return poller;
  }

  private recompile(members: readonly M[]): void {
    const current = this.schemas();
    const joined = new Set<P>();
    for (const member of members) {
      if (this.closed) {
        member.subscriber.end();
        continue;
      }
      const compiled = this.compileAgain(member, current);
      if ('result' in compiled) {
        member.subscriber.push(compiled.result);
        member.subscriber.end();
        continue;
      }
      joined.add(this.place(member, current, compiled.plan));
    }
    for (const poller of joined) poller.pollSoon(current);
  }

  /** The number of pollers running (one per distinct plan subscribed to). */
  get size(): number {
    return this.pollers.size;
  }

  close(): void {
    this.closed = true;
    for (const poller of [...this.pollers.values()]) poller.stop();
  }
}
