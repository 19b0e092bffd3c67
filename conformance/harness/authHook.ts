// A real authentication webhook on loopback for the webhook cases. It admits `Bearer user-<id>`
// as role user, answers 401 to `Bearer deny` and 500 to `Bearer broken`, admits no token as
// anonymous, and records what it was asked.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HookCall {
  method: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface AuthHook {
  url: string;
  calls: HookCall[];
  close(): Promise<void>;
}

export async function startAuthHook(port = Number(process.env.ENGINE_AUTH_HOOK_PORT ?? 0)): Promise<AuthHook> {
  const calls: HookCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as { headers?: Record<string, string> }) : undefined;
      calls.push({ method: req.method ?? '', headers: req.headers, body });
      const authorization = (req.method === 'POST' ? body?.headers?.authorization : req.headers.authorization) ?? '';
      const reply = (status: number, value?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(value === undefined ? '' : JSON.stringify(value));
      };
      const user = /^Bearer user-(\d+)$/.exec(authorization);
      if (user) return reply(200, { 'X-Engine-Role': 'user', 'X-Engine-User-Id': user[1] });
      if (authorization === 'Bearer deny') return reply(401, { error: 'no' });
      if (authorization === 'Bearer broken') return reply(500, { error: 'broken' });
      return reply(200, { 'X-Engine-Role': 'anonymous' });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
