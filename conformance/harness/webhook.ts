// A webhook on loopback for the event trigger cases, served by msw like the other mocks: each path
// answers as the case says (status, headers, a delay), by the number of the call on that path, and
// every call is recorded.
import { http, HttpResponse } from 'msw';
import { startMockServer } from './mockServer';

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
}

export interface Webhook {
  url: string;
  calls: WebhookCall[];
  /** How `path` answers its n-th call (0-based); 200 unless said otherwise. */
  on(path: string, reply: (n: number) => Reply): void;
  callsTo(path: string): WebhookCall[];
  /** Wait until `path` has at least `count` calls (or fail after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<WebhookCall[]>;
  close(): Promise<void>;
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
    async waitFor(path, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (callsTo(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${path}: ${callsTo(path).length} of ${count} calls after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return callsTo(path);
    },
    close: () => server.close(),
  };
}
