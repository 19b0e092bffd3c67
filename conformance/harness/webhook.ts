// A webhook on loopback for the event trigger cases: each path answers as the case says (status,
// headers, a delay), by the number of the call on that path, and every call is recorded.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookCall {
  path: string;
  headers: IncomingHttpHeaders;
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
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const n = calls.filter((c) => c.path === path).length;
      calls.push({ path, headers: req.headers, body, at: Date.now() });
      const reply = replies.get(path)?.(n) ?? { status: 200 };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
        res.end(JSON.stringify({ received: true }));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const callsTo = (path: string) => calls.filter((c) => c.path === path);
  return {
    url,
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
