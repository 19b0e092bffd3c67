// Streaming subscriptions at scale (decision dec.graphql.stream.cursor): N subscribers of
// `bench_event_stream` over graphql-transport-ws, each on a connection of its own, while a writer
// inserts rows at a steady rate. For each count: the statements PostgreSQL ran per interval, the
// server's and PostgreSQL's CPU, the delay from a row's insert to its delivery (p50 / p99, every
// row of every subscriber), and every subscriber's rows counted: none missed, none twice, in order.
// `npm run bench -- streams` (BENCH_STREAMS, default 1000,10000; BENCH_STREAM_RATE rows/s, default
// 1000; BENCH_STREAM_SECONDS, default 10).
import { createClient, type Client as SocketClient } from 'graphql-ws';
import { Client } from 'pg';
import WebSocket from 'ws';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { cpuBetween, cpuOf, cpuSeconds, postgresPids, postmasterOf } from './cpu';
import { median, rssMiB, startReference, stop, waitFor } from './processes';

const SIZES = (process.env.BENCH_STREAMS ?? '1000,10000').split(',').map(Number);
const RATE = Number(process.env.BENCH_STREAM_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_STREAM_SECONDS ?? 10);
const INTERVAL_MS = 1000;
const BATCH_SIZE = 100;
const OPEN_AT_ONCE = 200;
const DOCUMENT = 'subscription ($from: bigint!) { bench_event_stream(batch_size: 1000, cursor: {initial_value: {id: $from}}) { id at } }';

interface Subscriber {
  socket: SocketClient;
  /** The last id received; rows out of order or twice, and the delays seen. */
  last: number;
  disorder: number;
  delays: number[];
}

function subscribe(url: string, from: number, opened: () => void): Subscriber {
  const s: Subscriber = {
    socket: createClient({ url, webSocketImpl: WebSocket, connectionParams: { headers: { 'x-engine-role': 'reader' } }, retryAttempts: 0, lazy: false }),
    last: from,
    disorder: 0,
    delays: [],
  };
  let first = true;
  s.socket.subscribe(
    { query: DOCUMENT, variables: { from } },
    {
      next: (result) => {
        const now = Date.now();
        for (const row of (result.data as { bench_event_stream: { id: number; at: string }[] }).bench_event_stream) {
          if (Number(row.id) !== s.last + 1) s.disorder++;
          s.last = Math.max(s.last, Number(row.id));
          s.delays.push(now - Date.parse(row.at));
        }
        if (first) {
          first = false;
          opened();
        }
      },
      error: (error) => process.stderr.write(`stream subscriber: ${JSON.stringify(error)}\n`),
      complete: () => undefined,
    },
  );
  return s;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;

export async function streamsScale(log: (line: string) => void): Promise<string> {
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const port = await freePort();
  const server = startReference(database.url, port, {
    ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
    ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE: String(BATCH_SIZE),
  });
  const admin = new Client({ connectionString: database.url });
  const writer = new Client({ connectionString: database.url });
  const rows: string[] = [];
  let subscribers: Subscriber[] = [];
  try {
    await Promise.all([admin.connect(), writer.connect()]);
    await admin.query(`drop schema if exists bench cascade; create schema bench;
      create table bench.event (id bigserial primary key, at timestamptz not null default clock_timestamp());
      insert into bench.event (at) values (clock_timestamp());`);
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
    const event = { schema: 'bench', name: 'event' };
    await metadata('track_table', { table: event });
    await metadata('create_select_permission', { table: event, role: 'reader', permission: { columns: ['id', 'at'], filter: {} } });
    const wsUrl = `ws://127.0.0.1:${port}/v1/graphql`;
    for (const size of SIZES) {
      // From the row before the last: the first batch, that row alone, tells that a subscriber is open.
      const from = Number((await admin.query('select max(id) as m from bench.event')).rows[0].m) - 1;
      log(`streams: opening ${size} subscribers from id ${from}`);
      const opening = performance.now();
      for (let i = 0; i < size; i += OPEN_AT_ONCE) {
        const batch = Math.min(OPEN_AT_ONCE, size - i);
        // A subscriber counts as open once its first batch came.
        await new Promise<void>((resolve) => {
          let left = batch;
          for (let n = 0; n < batch; n++) subscribers.push(subscribe(wsUrl, from, () => --left === 0 && resolve()));
        });
      }
      const openSeconds = (performance.now() - opening) / 1000;
      // PostgreSQL's backends report their transactions at most once a second: the first batches' are counted before the writing starts.
      await new Promise((resolve) => setTimeout(resolve, 3 * INTERVAL_MS));
      const xacts = async () =>
        Number((await admin.query('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()')).rows[0].n);
      const before = { xacts: await xacts(), server: cpuSeconds(server.pid!), postgres: cpuOf(postgresPids(postmaster)) };
      // The writer: RATE rows a second, in 10 ms steps, one statement a step.
      const started = Date.now();
      let written = 0;
      let steps = 0;
      while (Date.now() - started < SECONDS * 1000) {
        const due = Math.floor(((Date.now() - started) * RATE) / 1000) - written;
        if (due > 0) {
          await writer.query('insert into bench.event (at) select clock_timestamp() from generate_series(1, $1)', [due]);
          written += due;
          steps++;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const after = { xacts: await xacts(), server: cpuSeconds(server.pid!), postgres: cpuOf(postgresPids(postmaster)) };
      const last = Number((await admin.query('select max(id) as m from bench.event')).rows[0].m);
      // Every subscriber is given ten intervals to get the last row.
      for (const deadline = Date.now() + 10 * INTERVAL_MS; Date.now() < deadline && subscribers.some((s) => s.last < last);)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const behind = subscribers.filter((s) => s.last < last).length;
      const disorder = subscribers.reduce((n, s) => n + s.disorder, 0);
      const delays = subscribers.flatMap((s) => s.delays);
      const own = after.xacts - before.xacts - steps;
      const perInterval = Math.round((own * INTERVAL_MS) / (SECONDS * 1000));
      const line = `| ${size} | ${openSeconds.toFixed(1)} | ${written} | ${perInterval} | ${Math.round(((after.server - before.server) / SECONDS) * 100)} % | ${Math.round((cpuBetween(before.postgres, after.postgres) / SECONDS) * 100)} % | ${rssMiB(server.pid!)} | ${Math.round(median(delays))} / ${Math.round(percentile(delays, 0.99))} | ${delays.length} | ${behind} | ${disorder} |`;
      log(line);
      rows.push(line);
      await Promise.all(subscribers.map((s) => s.socket.dispose()));
      subscribers = [];
    }
    return [
      `N subscribers of \`${DOCUMENT}\` (each from the id before the last when it opened, role \`reader\` with no filter, each on a connection of its own) while one writer inserts ${RATE} rows a second for ${SECONDS} s (a statement every 10 ms); refetch interval ${INTERVAL_MS} ms, ${BATCH_SIZE} subscribers a statement (the defaults). Statements per interval: PostgreSQL's transactions during the writing, less the writer's (the server's workers and autovacuum included). Delay: from a row's \`clock_timestamp()\` at insert to its arrival at the subscriber (same machine), over every row of every subscriber. The subscribers' client runs on the same 2 cores.`,
      '',
      '| subscribers | opened in s | rows written | statements per interval | server CPU | PostgreSQL CPU | server RSS MiB | insert to delivery p50 / p99 ms | rows delivered | subscribers short of the last row after 10 s | rows out of order or twice |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    await Promise.all(subscribers.map((s) => s.socket.dispose()));
    await admin.end().catch(() => undefined);
    await writer.end().catch(() => undefined);
    await stop(server);
    await database.stop();
  }
}
