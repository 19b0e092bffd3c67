// A socket speaking the legacy GraphQL over WebSocket subprotocol graphql-ws
// (subscriptions-transport-ws) against the target's /v1/graphql, message by message.
import WebSocket from 'ws';
import type { Target } from './target';
import { socketUrl } from './websocket';

export interface LegacySocket {
  ws: WebSocket;
  /** Messages received and not yet taken. */
  messages: Record<string, unknown>[];
  /** The next message that is not a keep-alive, or `{closed: {code, reason}}` once the socket is closed. */
  next(timeoutMs?: number): Promise<Record<string, unknown>>;
  send(message: unknown): void;
}

export async function legacySocket(target: Target): Promise<LegacySocket> {
  const ws = new WebSocket(socketUrl(target), 'graphql-ws');
  const messages: Record<string, unknown>[] = [];
  const waiting: (() => void)[] = [];
  let closed: { code: number; reason: string } | undefined;
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    waiting.splice(0).forEach((w) => w());
  });
  ws.on('close', (code, reason) => {
    closed = { code, reason: String(reason) };
    waiting.splice(0).forEach((w) => w());
  });
  await new Promise<void>((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = async (timeoutMs = 10_000): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = messages.findIndex((m) => m.type !== 'ka');
      if (i >= 0) return messages.splice(0, i + 1).pop()!;
      if (closed) return { closed };
      if (Date.now() > deadline) throw new Error('no message in time');
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  return { ws, messages, next, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}
