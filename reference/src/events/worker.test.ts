import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attempt, eventPayload, resolveDelivery, retryDelay } from './worker';

// A loopback webhook whose path says how it answers: /status/<n>, /big (100 KiB), /slow (2 s), /echo.
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = req.url ?? '';
      if (url.startsWith('/status/')) {
        res.writeHead(Number(url.slice('/status/'.length)), { 'retry-after': '7', 'x-hook': 'yes' });
        res.end('status body');
      } else if (url === '/big') {
        res.writeHead(200);
        res.end('x'.repeat(100 * 1024));
      } else if (url === '/slow') {
        setTimeout(() => res.end('late'), 2000).unref();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body: JSON.parse(body) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const trigger = {
  name: 't',
  definition: { enable_manual: false },
  retry_conf: { num_retries: 2, interval_sec: 10, timeout_sec: 60 },
  webhook: 'http://127.0.0.1:1/x',
};

describe('event delivery', () => {
  test('the next attempt: Retry-After in seconds or as a date wins; else the interval, fixed or doubling', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryDelay('5', 10, 1, 'fixed', now)).toBe(5);
    expect(retryDelay('Sun, 22 Nov 2026 10:00:30 GMT', 10, 1, 'fixed', now)).toBe(30);
    expect(retryDelay('Sun, 22 Nov 2026 09:00:00 GMT', 10, 1, 'fixed', now)).toBe(0);
    expect(retryDelay('soon', 10, 3, 'fixed', now)).toBe(10);
    expect(retryDelay(null, 10, 1, 'exponential', now)).toBe(10);
    expect(retryDelay(null, 10, 3, 'exponential', now)).toBe(40);
    expect(retryDelay(null, 10, 30, 'exponential', now)).toBe(3600);
    expect(retryDelay('999999999', 10, 1, 'fixed', now)).toBe(86400);
    // Seconds are digits alone (blanks around them aside); anything else is a date or nothing.
    expect(retryDelay(' 5 ', 10, 1, 'fixed', now)).toBe(5);
    expect(retryDelay('5s', 10, 1, 'fixed', now)).toBe(10);
    expect(retryDelay('x5', 10, 1, 'fixed', now)).toBe(10);
  });

  test('webhook and headers from the environment; a missing variable is a failed attempt, named', () => {
    const env = { HOOK: 'http://127.0.0.1:2/y', SECRET: 's' };
    expect(
      resolveDelivery(
        {
          ...trigger,
          webhook: undefined,
          webhook_from_env: 'HOOK',
          headers: [
            { name: 'X-A', value: 'a' },
            { name: 'X-Secret', value_from_env: 'SECRET' },
          ],
        },
        env,
      ),
    ).toEqual({
      url: 'http://127.0.0.1:2/y',
      headers: { 'content-type': 'application/json', 'user-agent': 'engine-reference-events', 'x-a': 'a', 'x-secret': 's' },
    });
    expect(resolveDelivery({ ...trigger, webhook: undefined, webhook_from_env: 'NOPE' }, env)).toEqual({
      problem: 'the environment variable NOPE (webhook_from_env) is not set',
    });
    expect(resolveDelivery({ ...trigger, headers: [{ name: 'X-B', value_from_env: 'GONE' }] }, env)).toEqual({
      problem: 'the environment variable GONE (header X-B) is not set',
    });
  });

  test('the body: the event with its retry count', () => {
    const row = {
      id: 'e1',
      trigger_name: 't',
      schema_name: 's',
      table_name: 'n',
      op: 'DELETE',
      data: { old: { id: 1 }, new: null },
      session_variables: null,
      created_at: '2026-11-22T10:00:00.000000Z',
      tries: 1,
    };
    expect(eventPayload(row, trigger)).toEqual({
      id: 'e1',
      created_at: '2026-11-22T10:00:00.000000Z',
      trigger: { name: 't' },
      table: { schema: 's', name: 'n' },
      event: { op: 'DELETE', data: { old: { id: 1 }, new: null }, session_variables: null },
      delivery_info: { max_retries: 2, current_retry: 1 },
    });
  });

  test('an insert carries its new row and a delete its old one', () => {
    const row = {
      id: 'e2',
      trigger_name: 't',
      schema_name: 's',
      table_name: 'n',
      op: 'INSERT',
      data: { old: null, new: { id: 2 } },
      session_variables: null,
      created_at: 'c',
      tries: 0,
    };
    expect((eventPayload(row, trigger).event as { data: unknown }).data).toEqual({ old: null, new: { id: 2 } });
    expect((eventPayload({ ...row, op: 'DELETE', data: { old: { id: 2 }, new: null } }, trigger).event as { data: unknown }).data).toEqual({
      old: { id: 2 },
      new: null,
    });
  });

  test('an attempt: POSTs the JSON body with the headers and reads the answer; only 2xx is delivered', async () => {
    const ok = await attempt(`${base}/echo`, { 'content-type': 'application/json', 'x-a': 'a' }, { n: 1 }, 5);
    expect({ ...ok, durationMs: typeof ok.durationMs, body: JSON.parse(ok.body) }).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      body: { method: 'POST', headers: expect.objectContaining({ 'x-a': 'a', 'content-type': 'application/json' }), body: { n: 1 } },
      error: null,
      retryAfter: null,
      durationMs: 'number',
    });
    for (const status of [200, 299]) expect((await attempt(`${base}/status/${status}`, {}, {}, 5)).error).toBeNull();
    // An answer without a body.
    const empty = await attempt(`${base}/status/204`, {}, {}, 5);
    expect([empty.status, empty.error, empty.body]).toEqual([204, null, '']);
    for (const status of [300, 404, 503]) {
      const failed = await attempt(`${base}/status/${status}`, {}, {}, 5);
      expect([failed.status, failed.error, failed.retryAfter, failed.body, failed.headers['x-hook']]).toEqual([
        status,
        `the webhook answered ${status}`,
        '7',
        'status body',
        'yes',
      ]);
    }
  });

  test('an attempt reads at most 64 KiB of the answer, stops at its timeout (0: none) and says when the webhook cannot be reached', async () => {
    const big = await attempt(`${base}/big`, {}, {}, 5);
    expect([big.error, big.body.length]).toEqual([null, 64 * 1024]);
    const slow = await attempt(`${base}/slow`, {}, {}, 1);
    expect([slow.status, slow.error, slow.durationMs >= 900 && slow.durationMs < 1900]).toEqual([null, 'no answer within 1 s', true]);
    const patient = await attempt(`${base}/slow`, {}, {}, 0);
    expect([patient.status, patient.error, patient.body]).toEqual([200, null, 'late']);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = await attempt(`http://127.0.0.1:${port}/x`, {}, {}, 5);
    expect([gone.status, gone.error, gone.body, gone.headers]).toEqual([null, 'the webhook could not be reached: fetch failed', '', {}]);
  });
});
