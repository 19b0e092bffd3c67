// A real authentication webhook on loopback for the webhook cases (an msw handler served by the
// harness's mock server). It admits `Bearer user-<id>` as role user, answers 401 to `Bearer deny`
// and 500 to `Bearer broken`, admits no token as anonymous, and records what it was asked.
import { http, HttpResponse } from 'msw';
import { branded } from './brand';
import { startMockServer } from './mockServer';

export interface HookCall {
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface AuthHook {
  url: string;
  calls: HookCall[];
  close(): Promise<void>;
}

export async function startAuthHook(port = Number(process.env.ENGINE_AUTH_HOOK_PORT ?? 0)): Promise<AuthHook> {
  const answer = (authorization: string) => {
    const user = /^Bearer user-(\d+)$/.exec(authorization);
    if (user) return HttpResponse.json(branded({ 'X-Engine-Role': 'user', 'X-Engine-User-Id': user[1] }));
    if (authorization === 'Bearer deny') return HttpResponse.json({ error: 'no' }, { status: 401 });
    if (authorization === 'Bearer broken') return HttpResponse.json({ error: 'broken' }, { status: 500 });
    return HttpResponse.json(branded({ 'X-Engine-Role': 'anonymous' }));
  };
  const calls: HookCall[] = [];
  const headersOf = (request: Request) => Object.fromEntries(request.headers.entries());
  const server = await startMockServer(
    [
      http.get('/auth', ({ request }) => {
        calls.push({ method: 'GET', headers: headersOf(request), body: undefined });
        return answer(request.headers.get('authorization') ?? '');
      }),
      http.post('/auth', async ({ request }) => {
        const text = await request.text();
        const body = text ? (JSON.parse(text) as { headers?: Record<string, string> }) : undefined;
        calls.push({ method: 'POST', headers: headersOf(request), body });
        return answer(body?.headers?.authorization ?? '');
      }),
    ],
    port,
  );
  return {
    url: `${server.url}/auth`,
    calls,
    close: () => server.close(),
  };
}
