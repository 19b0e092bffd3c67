import { eventPayload, resolveDelivery, retryDelay } from './worker';

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
});
