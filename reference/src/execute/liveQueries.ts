// Subscriptions as live queries: each subscription's statement runs again every refetch interval
// and a result is sent when it differs from the last one that subscriber got. Subscriptions that
// compile to the same plan (role, session variables, document, operation, variables) share one
// poller, so they cost one statement per interval together. When the metadata changes, a poller
// compiles its request again; a request that no longer compiles ends its subscriptions.
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Session } from '../auth/session';
import { prepareGraphQLRequest, type GraphQLRequest } from './graphql';
import { databaseErrorAnswer } from './answers';
import { runPlan, type PlanCaller, type PlanPools } from './runPlan';
import type { CompiledPlan, SchemaCache } from './schemaCache';

/** A result as graphql-ws sends it: the parsed JSON of an answer, its errors as GraphQLErrors. */
export type LiveResult = ExecutionResult;

/** The result of an answer's JSON text. */
export function resultOf(text: string): LiveResult {
  const parsed = JSON.parse(text) as { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  if (!parsed.errors) return parsed as LiveResult;
  return { ...parsed, errors: parsed.errors.map((e) => new GraphQLError(e.message, { extensions: e.extensions ?? {} })) };
}

export class LiveQueries {
  private readonly pollers = new Map<string, Poller>();
  private closed = false;

  constructor(
    private readonly pool: PlanPools,
    private readonly schemas: () => SchemaCache,
    private readonly intervalMs: number,
  ) {}

  /**
   * Start a subscription whose request compiled to `plan` under `cache`: the first result is
   * taken at once, then the iterator yields each changed result until it is returned or ends.
   */
  async subscribe(session: Session, request: GraphQLRequest, cache: SchemaCache, plan: CompiledPlan): Promise<AsyncIterableIterator<LiveResult> | LiveResult> {
    const first = await answerOf(this.pool, plan);
    if (first.final) return first.result;
    const key = JSON.stringify([
      session.role,
      session.backendOnly === true,
      session.variables,
      request.query,
      request.operationName ?? null,
      request.variables ?? {},
    ]);
    let poller = this.pollers.get(key);
    if (!poller) {
      poller = new Poller(this.pool, this.schemas, this.intervalMs, session, request, cache, plan, () => this.pollers.delete(key));
      this.pollers.set(key, poller);
    }
    const subscriber = new Subscriber(first.text, (s) => poller.leave(s));
    subscriber.push(first.result);
    poller.join(subscriber);
    if (this.closed) subscriber.end();
    return subscriber;
  }

  /** The number of pollers running (one per distinct subscribed plan). */
  get size(): number {
    return this.pollers.size;
  }

  close(): void {
    this.closed = true;
    for (const poller of [...this.pollers.values()]) poller.stop();
  }
}

/** Run a plan: its text and parsed result, `final` when it is an error that ends the subscription. */
export async function answerOf(pool: PlanPools, plan: CompiledPlan, caller?: PlanCaller): Promise<{ text: string; result: LiveResult; final: boolean }> {
  let text: string;
  let final = false;
  try {
    text = await runPlan(pool, plan, caller);
  } catch (error) {
    text = databaseErrorAnswer(error).body;
    final = true;
  }
  return { text, result: resultOf(text), final };
}

class Poller {
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly pool: PlanPools,
    private readonly schemas: () => SchemaCache,
    private readonly intervalMs: number,
    private readonly session: Session,
    private readonly request: GraphQLRequest,
    private cache: SchemaCache,
    private plan: CompiledPlan,
    private readonly onStop: () => void,
  ) {}

  join(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
    this.schedule();
  }

  leave(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) this.stop();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.onStop();
    for (const s of [...this.subscribers]) s.end();
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.poll()
        .catch(() => this.finish({ errors: [new GraphQLError('internal error', { extensions: { path: '$', code: 'unexpected' } })] }))
        .finally(() => {
          this.timer = undefined;
          this.schedule();
        });
    }, this.intervalMs);
  }

  private async poll(): Promise<void> {
    const current = this.schemas();
    if (current !== this.cache) {
      const prepared = prepareGraphQLRequest(current, this.session, this.request);
      if ('answer' in prepared) return this.finish(resultOf(prepared.answer.body));
      this.cache = current;
      this.plan = prepared.plan;
    }
    const answer = await answerOf(this.pool, this.plan);
    if (answer.final) return this.finish(answer.result);
    for (const s of this.subscribers) s.offer(answer.text, answer.result);
  }

  /** Send every subscriber a last result and end them. */
  private finish(result: LiveResult): void {
    for (const s of [...this.subscribers]) {
      s.push(result);
      s.end();
    }
    this.stop();
  }
}

/** One subscription's results, as the async iterator graphql-ws reads. */
class Subscriber implements AsyncIterableIterator<LiveResult> {
  private readonly queue: LiveResult[] = [];
  private waiting: ((r: IteratorResult<LiveResult>) => void) | undefined;
  private done = false;

  constructor(
    private lastText: string,
    private readonly onLeave: (s: Subscriber) => void,
  ) {}

  /** A polled result: passed on only when it differs from the last one sent. */
  offer(text: string, result: LiveResult): void {
    if (text === this.lastText) return;
    this.lastText = text;
    this.push(result);
  }

  push(result: LiveResult): void {
    if (this.done) return;
    const waiter = this.waiting;
    if (waiter) {
      this.waiting = undefined;
      waiter({ value: result, done: false });
    } else this.queue.push(result);
  }

  /** No more results: the iterator ends after what is queued. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.onLeave(this);
    const waiter = this.waiting;
    this.waiting = undefined;
    waiter?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<LiveResult>> {
    const value = this.queue.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<LiveResult>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<LiveResult> {
    return this;
  }
}
