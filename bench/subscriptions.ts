// Subscriptions at scale: 1,000 / 5,000 / 10,000 subscribers of one document over graphql-transport-ws,
// each on a connection of its own with its own session variables (role `user`, its own
// X-Engine-User-Id, a row of its own). For each count: how long opening them took, the statements
// PostgreSQL ran per refetch interval, the server's and PostgreSQL's CPU, the server's memory per
// subscription, and the time from a committed change to its delivery (p50 / p99 over a sample).
import { createClient, type Client as SocketClient } from 'graphql-ws';
import { Client, Pool } from 'pg';
import WebSocket from 'ws';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { cpuBetween, cpuOf, cpuSeconds, postgresPids, postmasterOf } from './cpu';
import { median, rssMiB, startReference, stop, waitFor } from './processes';

const SIZES = (process.env.BENCH_SUBSCRIPTIONS ?? '1000,5000,10000').split(',').map(Number);
const INTERVAL_MS = 1000;
const STEADY_SECONDS = 5;
const SAMPLES = 200;
const OPEN_AT_ONCE = 200;
const DOCUMENT = 'subscription { bench_counter { owner value } }';
/** The same rows chosen by a GraphQL variable instead of the permission. */
const BY_VARIABLE = 'subscription ($owner: Int!) { bench_counter(where: {owner: {_eq: $owner}}) { owner value } }';

/**
 * Who subscribes: each to its own row (the permission reads the session, or the document compares a
 * variable with the column), or all to one row (the permission reads no session variable).
 */
const SCENARIOS = [
  { name: 'own row', role: 'user', filter: { owner: { _eq: 'X-Engine-User-Id' } }, shared: false, byVariable: false },
  { name: 'one row for all', role: 'viewer', filter: { owner: { _eq: 1 } }, shared: true, byVariable: false },
  { name: 'own row by a variable', role: 'reader', filter: {}, shared: false, byVariable: true },
] as const;
/** Changes of the row all see, one at a time: each reaches every subscriber. */
const SHARED_SAMPLES = 10;

interface Subscriber {
  socket: SocketClient;
  /** The value of its row in the last result it got, and when the result came. */
  last: { value: number; at: number } | undefined;
  waiting: ((value: number) => void) | undefined;
}

async function subscribe(url: string, owner: number, role: string, byVariable: boolean): Promise<Subscriber> {
  const subscriber: Subscriber = {
    socket: createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { headers: { 'x-engine-role': role, 'x-engine-user-id': String(owner) } },
      retryAttempts: 0,
      lazy: false,
    }),
    last: undefined,
    waiting: undefined,
  };
  await new Promise<void>((resolve, reject) => {
    subscriber.socket.subscribe(byVariable ? { query: BY_VARIABLE, variables: { owner } } : { query: DOCUMENT }, {
      next: (result) => {
        const value = (result.data as { bench_counter: { value: number }[] } | undefined)?.bench_counter[0]?.value ?? -1;
        subscriber.last = { value, at: performance.now() };
        subscriber.waiting?.(value);
        resolve();
      },
      error: (error) => reject(new Error(`subscriber ${owner}: ${JSON.stringify(error)}`)),
      complete: () => undefined,
    });
  });
  return subscriber;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

export async function subscriptionsScale(log: (line: string) => void): Promise<string> {
  const most = Math.max(...SIZES);
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const port = await freePort();
  const server = startReference(database.url, port, { ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS) });
  const admin = new Client({ connectionString: database.url });
  /** The sample's changes, several at a time. */
  const writers = new Pool({ connectionString: database.url, max: 8 });
  const subscribers: Subscriber[] = [];
  const rows: string[] = [];
  try {
    await admin.connect();
    await admin.query(`drop schema if exists bench cascade; create schema bench;
      create table bench.counter (owner integer primary key, value integer not null);
      insert into bench.counter select g, 0 from generate_series(1, ${most}) g;`);
    const postmaster = await postmasterOf(admin);
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    const metadata = async (type: string, args: unknown) => {
      const r = await fetch(`http://127.0.0.1:${port}/v1/metadata`, {
        method: 'POST',
        headers: { 'x-engine-role': 'admin' },
        body: JSON.stringify({ type, args }),
      });
      if (r.status !== 200) throw new Error(`${type}: ${r.status} ${await r.text()}`);
    };
    await metadata('track_table', { table: { schema: 'bench', name: 'counter' } });
    for (const scenario of SCENARIOS)
      await metadata('create_select_permission', {
        table: { schema: 'bench', name: 'counter' },
        role: scenario.role,
        permission: { columns: ['owner', 'value'], filter: scenario.filter },
      });
    const wsUrl = `ws://127.0.0.1:${port}/v1/graphql`;
    /** From the commit of a change of `owner`'s row to its delivery to `subscriber` (NaN: not within ten intervals). */
    const changeSeenBy = async (subscriber: Subscriber, owner: number): Promise<number> => {
      const next = (subscriber.last?.value ?? 0) + 1;
      const delivered = new Promise<number>((resolve) => {
        subscriber.waiting = (value) => {
          if (value === next) resolve(performance.now());
        };
      });
      await writers.query('update bench.counter set value = $2 where owner = $1', [owner, next]);
      const committed = performance.now();
      const at = await Promise.race([delivered, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 10 * INTERVAL_MS))]);
      subscriber.waiting = undefined;
      return at - committed;
    };
    /** The row all see, changed at random moments one after another, as the last subscriber gets it. */
    const sharedLatencies = async (): Promise<number[]> => {
      const out: number[] = [];
      for (let n = 0; n < SHARED_SAMPLES; n++) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * INTERVAL_MS));
        out.push(await changeSeenBy(subscribers[subscribers.length - 1]!, 1));
      }
      return out;
    };
    const pids = () => postgresPids(postmaster);
    // Memory per subscription from the first scenario only: a server's heap does not shrink at once after the subscriptions before it.
    const baseRss = server.pid ? rssMiB(server.pid) : 0;
    for (const scenario of SCENARIOS)
      for (const size of SIZES) {
        log(`subscriptions (${scenario.name}): opening up to ${size}`);
        const opening = performance.now();
        while (subscribers.length < size) {
          const from = subscribers.length;
          const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, size - from) }, (_, i) =>
            subscribe(wsUrl, from + i + 1, scenario.role, scenario.byVariable),
          );
          subscribers.push(...(await Promise.all(batch)));
        }
        const openSeconds = (performance.now() - opening) / 1000;
        // Steady state: statements, CPU.
        await new Promise((resolve) => setTimeout(resolve, 2 * INTERVAL_MS));
        const xacts = async () =>
          Number((await admin.query('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()')).rows[0].n);
        const before = { xacts: await xacts(), server: server.pid ? cpuSeconds(server.pid) : 0, postgres: cpuOf(pids()) };
        await new Promise((resolve) => setTimeout(resolve, STEADY_SECONDS * 1000));
        const after = { xacts: await xacts(), server: server.pid ? cpuSeconds(server.pid) : 0, postgres: cpuOf(pids()) };
        const perInterval = Math.round(((after.xacts - before.xacts) * INTERVAL_MS) / (STEADY_SECONDS * 1000));
        const serverCpu = Math.round(((after.server - before.server) / STEADY_SECONDS) * 100);
        const postgresCpu = Math.round((cpuBetween(before.postgres, after.postgres) / STEADY_SECONDS) * 100);
        const rss = server.pid ? rssMiB(server.pid) : 0;
        // From a committed change of one subscriber's row to its delivery, for a sample of subscribers,
        // each changed at a random moment of two refetch intervals (not in step with the polls).
        const latencies = scenario.shared
          ? await sharedLatencies()
          : await Promise.all(
              Array.from({ length: Math.min(SAMPLES, subscribers.length) }, async (_, n) => {
                const owner = Math.floor((n * subscribers.length) / Math.min(SAMPLES, subscribers.length)) + 1;
                await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * INTERVAL_MS));
                return changeSeenBy(subscribers[owner - 1]!, owner);
              }),
            );
        const lost = latencies.filter((l) => Number.isNaN(l)).length;
        const seen = latencies.filter((l) => !Number.isNaN(l));
        const line = `| ${scenario.name} | ${size} | ${openSeconds.toFixed(1)} | ${perInterval} | ${serverCpu} % | ${postgresCpu} % | ${rss} | ${scenario === SCENARIOS[0] ? Math.round(((rss - baseRss) * 1024) / size) : '–'} | ${seen.length ? Math.round(median(seen)) : '–'} / ${seen.length ? Math.round(percentile(seen, 0.99)) : '–'}${lost ? ` (${lost} not delivered in 10 s)` : ''} |`;
        log(line);
        rows.push(line);
        if (size === SIZES[SIZES.length - 1]) await Promise.all(subscribers.splice(0).map((x) => x.socket.dispose()));
      }
    return [
      `One document (\`${DOCUMENT}\`), each subscriber on a connection of its own with its own X-Engine-User-Id: role \`user\` sees its own row (the permission reads X-Engine-User-Id), role \`viewer\` sees row 1 (the permission reads no session variable); role \`reader\` (no filter) subscribes to \`${BY_VARIABLE}\` with its own row's owner; refetch interval ${INTERVAL_MS} ms; statements counted as PostgreSQL's committed transactions over ${STEADY_SECONDS} s of steady state; latency from an update's commit to the subscriber's message, ${SAMPLES} subscribers spread over all, each changed at a random moment of two intervals (row 1: ${SHARED_SAMPLES} changes one after another, as the last subscriber gets them). The subscribers' client runs on the same machine.`,
      '',
      '| permission | subscriptions | opened in s | statements per interval | server CPU | PostgreSQL CPU | server RSS MiB | KiB per subscription | change to delivery p50 / p99 ms |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    await Promise.all(subscribers.map((s) => s.socket.dispose()));
    await admin.end().catch(() => undefined);
    await writers.end().catch(() => undefined);
    await stop(server);
    await database.stop();
  }
}
