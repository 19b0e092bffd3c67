import { startWebhook, waitFailure, type Webhook } from './webhook';

let hook: Webhook;
beforeAll(async () => {
  hook = await startWebhook(0);
});
afterAll(async () => {
  await hook.close();
});

test('a wait for calls that do not come says how many came of how many, for how long none came, and what should have caused them', async () => {
  await fetch(`${hook.url}/once`, { method: 'POST', body: '{}' });
  const curl = "curl -sS -i -X POST 'http://127.0.0.1:1/v1/metadata' --data-binary '{}'";
  await expect(hook.waitFor('/once', 2, { timeoutMs: 50, after: { curl } })).rejects.toThrow(
    new RegExp(
      `^the webhook /once was called 1 time, 2 expected: no call came for \\d+\\.\\d s \\(waited \\d+\\.\\d s in all; the last came \\d+\\.\\d s ago\\)\\nExpected after:\\n  ${curl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
    ),
  );
  expect(waitFailure('/none', 3, [], 2000, 1500, 'the insert of 3 rows into evt.item')).toBe(
    'the webhook /none was called 0 times, 3 expected: no call came for 1.5 s (waited 2.0 s in all)\nExpected after: the insert of 3 rows into evt.item',
  );
});

test('a held answer waits until the case lets it go; the wait for calls goes on while calls keep coming', async () => {
  let answer!: () => void;
  hook.on('/held', () => ({ status: 201, hold: new Promise<void>((resolve) => (answer = resolve)) }));
  const response = fetch(`${hook.url}/held`, { method: 'POST', body: '{}' });
  await hook.waitFor('/held', 1, 5000);
  const early = await Promise.race([response.then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 200, 'held'))]);
  expect(early).toBe('held');
  answer();
  expect((await response).status).toBe(201);
  // Five calls, one every 100 ms: each comes within the quiet time of 400 ms, all five take longer (unscaled).
  const sending = (async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await fetch(`${hook.url}/steady`, { method: 'POST', body: '{}' });
    }
  })();
  expect(await hook.waitFor('/steady', 5, { timeoutMs: 400 })).toHaveLength(5);
  await sending;
});
