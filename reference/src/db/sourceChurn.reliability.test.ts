// A longer storm of GraphQL queries, inserts and subscriptions on a source that the metadata drops,
// renames and adds again meanwhile (decision dec.source.in-flight), on a server process of its own:
// no answer is a server failure, every insert answered 200 is in the table and no other, the
// subscriptions end (if they end) with a GraphQL error of the request, nothing is left on the
// source's database once it is dropped, and the server logged no error and is still running.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createDatabase, dropDatabase, onCluster } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { CHURN_ROLE, CHURN_TABLE_SQL, churn, churnSource, CLEAR_CODES, type ChurnTarget } from '../../../conformance/harness/sourceChurn';
import { children, post, startServerOn } from '../../test-support/serverProcess';

jest.setTimeout(180_000);

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
const STORM_MS = Number(process.env.ENGINE_CHURN_MS ?? 20_000);
const made: { name: string; url: string }[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await Promise.all(made.map((d) => dropDatabase(cluster(), d.name)));
});

const rows = (url: string, text: string): Promise<Record<string, unknown>[]> => onCluster(url, async (c) => (await c.query(text)).rows);

/** The server's connections to the source's database. */
const connectionsTo = async (url: string) =>
  (await rows(url, "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'engine-reference-source'"))[0]!
    .n as number;

test('queries, inserts and subscriptions on a source dropped, renamed and added again for seconds: no server failure, no write lost or left, no connection left [dec.source.in-flight]', async () => {
  const [own, source] = await Promise.all([createDatabase(cluster()), createDatabase(cluster())]);
  made.push(own, source);
  await rows(source.url, CHURN_TABLE_SQL);
  const server = await startServerOn(own.url);
  const target: ChurnTarget = {
    graphql: async (query, role) => {
      const headers = { 'content-type': 'application/json', ...(role ? { 'x-engine-role': role } : {}) };
      const r = await fetch(`${server.url}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query }), headers });
      return { status: r.status, body: await r.json().catch(() => undefined) };
    },
    metadata: (envelope) => post(server.url, envelope),
  };
  expect(await post(server.url, { type: 'replace_metadata', args: { version: 2, tables: [], sources: [churnSource('churned', source.url)] } })).toEqual({
    status: 200,
    body: { message: 'success' },
  });

  // Subscriptions started again and again through the storm, as admin and as the role.
  const ended: unknown[] = [];
  let delivered = 0;
  let subscribing = true;
  const clients = [{}, { 'x-engine-role': CHURN_ROLE }].map((headers) =>
    createClient({ url: `${server.url.replace('http', 'ws')}/v1/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { headers } }),
  );
  const subscriber = (async () => {
    for (let i = 0; subscribing; i++) {
      await new Promise<void>((done) => {
        const stop = clients[i % 2]!.subscribe(
          { query: 'subscription { churn_item(limit: 1, order_by: {id: desc}) { id } }' },
          { next: () => void delivered++, error: (e) => (ended.push(e), done()), complete: done },
        );
        setTimeout(() => (stop(), done()), 700);
      });
    }
  })();

  const counts = await churn(target, source.url, { workers: 16, turns: 10, minMs: STORM_MS, tag: 'storm' });
  subscribing = false;
  await subscriber;
  await Promise.all(clients.map((c) => c.dispose()));
  process.stdout.write(
    `source churn: ${JSON.stringify({ turns: counts.turns, requests: counts.requests, outcomes: counts.outcomes, delivered, ended: ended.length })}\n`,
  );

  expect(counts.failures).toEqual([]);
  expect(Object.keys(counts.outcomes).filter((k) => !['200 data', ...CLEAR_CODES.map((c) => `200 ${c}`)].includes(k))).toEqual([]);
  expect(delivered).toBeGreaterThan(0);
  // A subscription that ended did so with a GraphQL error of the request, never a server failure.
  const codes = ended.flatMap((e) => (Array.isArray(e) ? e.map((x: { extensions?: { code?: string } }) => x.extensions?.code) : [String(e)]));
  expect(codes.filter((c) => !CLEAR_CODES.includes(String(c)))).toEqual([]);
  const stored = await rows(source.url, "select note from public.churn_item where note like 'storm-%' order by note");
  expect(stored.map((r) => r.note)).toEqual([...counts.inserted].sort());

  // Dropped for good, the source keeps no connection; nothing waits on a retired pool.
  expect(await post(server.url, { type: 'pg_drop_source', args: { name: 'churned', cascade: true } })).toMatchObject({ status: 200 });
  const deadline = Date.now() + 10_000;
  while ((await connectionsTo(source.url)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await connectionsTo(source.url)).toBe(0);
  expect(server.child.exitCode).toBeNull();
  expect(server.output()).not.toMatch(/unhandled|"level":"error"|internal error/i);
  server.child.kill('SIGTERM');
  await server.exit;
});
