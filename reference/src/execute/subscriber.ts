// One subscription's results as graphql-ws reads them: what its poller offers, sent only when it
// differs from the last result sent.
import type { ExecutionResult } from 'graphql';

/** A result as graphql-ws sends it: the parsed JSON of an answer, its errors as GraphQLErrors. */
export type LiveResult = ExecutionResult;

/** One subscription's results, as the async iterator graphql-ws reads. */
export class Subscriber implements AsyncIterableIterator<LiveResult> {
  private readonly queue: LiveResult[] = [];
  private waiting: ((r: IteratorResult<LiveResult>) => void) | undefined;
  private done = false;

  /** Set by the poller it belongs to (it may move to another when the metadata changes). */
  leave: (s: Subscriber) => void = () => {};

  constructor(private lastText: string) {}

  /** A polled result (parsed only when it is sent): passed on only when it differs from the last one sent. */
  offer(text: string, result: LiveResult | ((text: string) => LiveResult)): void {
    if (text === this.lastText) return;
    this.lastText = text;
    this.push(typeof result === 'function' ? result(text) : result);
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
    this.leave(this);
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
