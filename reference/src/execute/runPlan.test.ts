// What runPlan holds of the remotes' answers for a role: counted while the answer is made, and,
// when the caller says so, until it has been written to the client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RemoteAnswerBytes } from '../remote/answerBytes';
import type { CompiledPlan } from './plan';
import { runPlan, type PlanPools } from './runPlan';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { a: 'x'.repeat(1000) } })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const plan = (): CompiledPlan => ({
  kind: 'query',
  bounded: true,
  operation: 'query',
  statements: [],
  literals: new Map(),
  order: ['a'],
  remote: [
    {
      endpoint: { name: 'r', url, headers: {}, forwardClientHeaders: false, timeoutMs: 2000, shown: url },
      aliases: ['a'],
      body: { query: '{ a }', variables: {} },
    },
  ],
});
const session = { role: 'user', variables: {} };

test('the bytes of remote answers stay counted for the role until the answer has been written, when the caller tells when that is', async () => {
  const bytes = new RemoteAnswerBytes(1_000_000, 1_000_000);
  const pools = { remoteAnswers: bytes } as unknown as PlanPools;
  let written: (() => void) | undefined;
  const answer = await runPlan(pools, plan(), { session, headers: {}, whenWritten: (done) => (written = done) });
  expect(answer).toBe(`{"data":{"a":"${'x'.repeat(1000)}"}}`);
  const held = bytes.heldBy('user');
  expect(held).toBeGreaterThanOrEqual(4 * 1000);
  written!();
  expect(bytes.heldBy('user')).toBe(0);
  // Without a caller that writes, given back as soon as the answer is made.
  await runPlan(pools, plan(), { session, headers: {} });
  expect(bytes.heldBy('user')).toBe(0);
});

test('a request that fails gives its bytes back at once, even when it would have been written', async () => {
  const bytes = new RemoteAnswerBytes(100, 1_000_000);
  const pools = { remoteAnswers: bytes } as unknown as PlanPools;
  let written = false;
  await expect(runPlan(pools, plan(), { session, headers: {}, whenWritten: () => (written = true) })).rejects.toThrow(
    'the remote answers of this request are larger than 100 bytes together',
  );
  expect([written, bytes.heldBy('user')]).toEqual([false, 0]);
});
