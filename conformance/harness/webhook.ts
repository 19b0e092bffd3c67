// A webhook on loopback for the event trigger cases, served by msw like the other mocks: each path
// answers as the case says (status, headers, a delay, or held until the case lets it go), by the
// number of the call on that path, and every call is recorded.
import { http, HttpResponse } from 'msw';
import { startMockServer } from './mockServer';
import { scaled } from './wait';

export interface WebhookCall {
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  /** The answer waits until this settles: the case decides when the target hears back. */
  hold?: Promise<unknown>;
}

export interface WaitOptions {
  /** How long to wait for the next call (scaled to the machine: wait.ts); 15 s unless said. */
  timeoutMs?: number;
  /** What should have made the calls: a request (its curl line is shown) or a sentence. */
  after?: { curl: string } | string;
}

export interface Webhook {
  url: string;
  calls: WebhookCall[];
  /** How `path` answers its n-th call (0-based); 200 unless said otherwise. */
  on(path: string, reply: (n: number) => Reply): void;
  callsTo(path: string): WebhookCall[];
  /**
   * Wait until `path` has at least `count` calls. The wait goes on while calls keep coming (a busy
   * machine delivers slowly, not never): it fails when none came for `timeoutMs`, saying how many
   * came of how many and what should have caused them.
   */
  waitFor(path: string, count: number, options?: number | WaitOptions): Promise<WebhookCall[]>;
  close(): Promise<void>;
}

/** Why a wait for webhook calls ran out: what was expected of what, and what should have caused it. */
export function waitFailure(
  path: string,
  count: number,
  calls: readonly WebhookCall[],
  waitedMs: number,
  quietMs: number,
  after?: WaitOptions['after'],
): string {
  const last = calls.at(-1);
  const since = last ? `; the last came ${((Date.now() - last.at) / 1000).toFixed(1)} s ago` : '';
  const cause = after === undefined ? '' : typeof after === 'string' ? `\nExpected after: ${after}` : `\nExpected after:\n  ${after.curl}`;
  return (
    `the webhook ${path} was called ${calls.length} ${calls.length === 1 ? 'time' : 'times'}, ${count} expected: ` +
    `no call came for ${(quietMs / 1000).toFixed(1)} s (waited ${(waitedMs / 1000).toFixed(1)} s in all${since})${cause}`
  );
}

export async function startWebhook(port = Number(process.env.ENGINE_WEBHOOK_PORT ?? 0)): Promise<Webhook> {
  const calls: WebhookCall[] = [];
  const replies = new Map<string, (n: number) => Reply>();
  const server = await startMockServer(
    [
      http.all('*', async ({ request }) => {
        const path = new URL(request.url).pathname;
        const text = await request.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // kept as text
        }
        const n = calls.filter((c) => c.path === path).length;
        calls.push({ path, headers: Object.fromEntries(request.headers), body, at: Date.now() });
        const reply = replies.get(path)?.(n) ?? { status: 200 };
        if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs).unref());
        if (reply.hold) await reply.hold.catch(() => undefined);
        return HttpResponse.json({ received: true }, { status: reply.status, ...(reply.headers ? { headers: reply.headers } : {}) });
      }),
    ],
    port,
  );
  const callsTo = (path: string) => calls.filter((c) => c.path === path);
  return {
    url: server.url,
    calls,
    on: (path, reply) => replies.set(path, reply),
    callsTo,
    async waitFor(path, count, options = {}) {
      const { timeoutMs = 15_000, after } = typeof options === 'number' ? { timeoutMs: options } : options;
      const quiet = scaled(timeoutMs);
      const began = Date.now();
      let seen = callsTo(path).length;
      let progress = began;
      while (seen < count) {
        if (Date.now() - progress > quiet) throw new Error(waitFailure(path, count, callsTo(path), Date.now() - began, quiet, after));
        await new Promise((resolve) => setTimeout(resolve, 25));
        const now = callsTo(path).length;
        if (now > seen) progress = Date.now();
        seen = now;
      }
      return callsTo(path);
    },
    close: () => server.close(),
  };
}
