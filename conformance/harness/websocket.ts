// GraphQL over WebSocket (the graphql-transport-ws protocol) against the target's /v1/graphql:
// what a subscription delivers, as a queue the cases take events from in order.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { branded, brandedText } from './brand';
import type { Target } from './target';

export type SocketEvent =
  { type: 'next'; payload: unknown } | { type: 'error'; errors: unknown } | { type: 'complete' } | { type: 'closed'; code: number; reason: string };

export interface Operation {
  /** The next event, or a rejection after `timeoutMs`. */
  take(timeoutMs?: number): Promise<SocketEvent>;
  /** Events that arrive within `ms` (for checking that nothing more comes). */
  drain(ms: number): Promise<SocketEvent[]>;
  /** Stop the operation (sends complete). */
  stop(): void;
}

export interface GraphQLSocket {
  start(query: string, variables?: Record<string, unknown>): Operation;
  /** The close event of the connection, once it has closed. */
  closed(timeoutMs?: number): Promise<SocketEvent>;
  close(): Promise<void>;
}

export function socketUrl(target: Target, path = '/v1/graphql'): string {
  return `${target.url.replace(/^http/, 'ws')}${path}`;
}

/** Open a connection whose connection_init carries `headers` (the target's admin headers by default). */
export function openSocket(target: Target, headers: Record<string, string> = target.adminHeaders(), path = '/v1/graphql'): GraphQLSocket {
  const closeEvents = new Queue();
  const client: Client = createClient({
    url: socketUrl(target, path),
    webSocketImpl: WebSocket,
    connectionParams: { headers: branded(headers) },
    retryAttempts: 0,
    lazy: true,
    on: {
      closed: (event) => {
        const e = event as { code?: number; reason?: string };
        closeEvents.push({ type: 'closed', code: e.code ?? 0, reason: String(e.reason ?? '') });
      },
    },
  });
  return {
    start(query, variables) {
      const events = new Queue();
      const stop = client.subscribe(
        { query: brandedText(query), ...(variables ? { variables: branded(variables) } : {}) },
        {
          next: (payload) => events.push({ type: 'next', payload }),
          error: (errors) =>
            events.push(
              Array.isArray(errors) ? { type: 'error', errors } : { type: 'error', errors: String((errors as { reason?: string }).reason ?? errors) },
            ),
          complete: () => events.push({ type: 'complete' }),
        },
      );
      return { take: (ms) => events.take(ms), drain: (ms) => events.drain(ms), stop };
    },
    closed: (ms) => closeEvents.take(ms),
    close: () => client.dispose() as Promise<void>,
  };
}

class Queue {
  private readonly items: SocketEvent[] = [];
  private readonly waiting: ((event: SocketEvent) => void)[] = [];

  push(event: SocketEvent): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(event);
    else this.items.push(event);
  }

  take(timeoutMs = 5000): Promise<SocketEvent> {
    const item = this.items.shift();
    if (item) return Promise.resolve(item);
    return new Promise((resolve, reject) => {
      const waiter = (event: SocketEvent) => {
        clearTimeout(timer);
        resolve(event);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(new Error(`no event within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.push(waiter);
    });
  }

  async drain(ms: number): Promise<SocketEvent[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.items.splice(0);
  }
}
