// Event triggers at scale: what capturing costs a writer (single-row inserts per second into a table
// with a paused event trigger, against the same table without one) and how fast the server delivers
// what was captured to a webhook on loopback (events per second, from resuming the trigger until the
// webhook has every one and the log says so).
import { createServer, type Server } from 'node:http';
import { Client } from 'pg';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { median, rssMiB, startReference, stop, waitFor } from './processes';

const WRITERS = 8;
const WRITE_SECONDS = 5;
/** Rounds of each kind of insert, alternated (the machine's speed drifts): the median counts. */
const ROUNDS = 3;
const EVENTS = 10_000;

/** A webhook that answers 200 at once and counts the events it was sent, by id (a retry counts once). */
async function startCountingWebhook(): Promise<{ url: string; ids: Set<string>; calls: () => number; close: () => Promise<void> }> {
  const ids = new Set<string>();
  let calls = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string }).id;
      if (id) ids.add(id);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, ids, calls: () => calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const INSERT = {
  plain: 'insert into bench.plain (writer, note) values ($1, $2)',
  watched: 'insert into bench.watched (writer, note) values ($1, $2)',
};

/** Single-row inserts into `table` from WRITERS connections for WRITE_SECONDS; rows per second. */
async function insertRate(url: string, table: keyof typeof INSERT): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const c = new Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const until = Date.now() + WRITE_SECONDS * 1000;
  const counts = await Promise.all(
    clients.map(async (c, w) => {
      let n = 0;
      const text = INSERT[table];
      while (Date.now() < until) {
        await c.query(text, [w, `row ${n}`]);
        n++;
      }
      return n;
    }),
  );
  await Promise.all(clients.map((c) => c.end()));
  return Math.round(counts.reduce((a, b) => a + b, 0) / WRITE_SECONDS);
}

export async function eventsScale(log: (line: string) => void): Promise<string> {
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const port = await freePort();
  const hook = await startCountingWebhook();
  const server = startReference(database.url, port);
  const url = `http://127.0.0.1:${port}`;
  const admin = new Client({ connectionString: database.url });
  try {
    await admin.connect();
    await admin.query(`drop schema if exists bench cascade; create schema bench;
      create table bench.plain (id bigserial primary key, writer integer not null, note text);
      create table bench.watched (id bigserial primary key, writer integer not null, note text);`);
    await waitFor(`${url}/healthz`);
    const metadata = async (type: string, args: unknown) => {
      const r = await fetch(`${url}/v1/metadata`, { method: 'POST', headers: { 'x-engine-role': 'admin' }, body: JSON.stringify({ type, args }) });
      if (r.status !== 200) throw new Error(`${type}: ${r.status} ${await r.text()}`);
    };
    await metadata('replace_metadata', {
      version: 2,
      tables: [{ table: { schema: 'bench', name: 'plain' } }, { table: { schema: 'bench', name: 'watched' } }],
    });
    await metadata('create_event_trigger', {
      name: 'watched',
      table: { schema: 'bench', name: 'watched' },
      webhook: `${hook.url}/events`,
      insert: { columns: '*' },
    });
    // Capture alone: the trigger paused, so that deliveries do not compete with the writers.
    await metadata('pause_event_trigger', { name: 'watched' });
    log(`inserts: ${WRITERS} writers for ${WRITE_SECONDS} s without an event trigger, then with one (paused), ${ROUNDS} times`);
    const rates = { plain: [] as number[], watched: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const table of ['plain', 'watched'] as const) rates[table].push(await insertRate(database.url, table));
      log(`  round ${round + 1}: ${rates.plain[round]} inserts/s without, ${rates.watched[round]} with`);
    }
    const without = median(rates.plain);
    const withTrigger = median(rates.watched);
    const captured = Number((await admin.query("select count(*) as n from engine_catalog.event_log where trigger_name = 'watched'")).rows[0].n);
    await admin.query("delete from engine_catalog.event_log where trigger_name = 'watched'");

    log(`delivery: ${EVENTS} events captured, then the trigger resumed`);
    await admin.query('insert into bench.watched (writer, note) select 0, $1 || g from generate_series(1, $2) g', ['event ', EVENTS]);
    const started = process.hrtime.bigint();
    await metadata('resume_event_trigger', { name: 'watched' });
    const deadline = Date.now() + 600_000;
    while (hook.ids.size < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const atWebhook = Number(process.hrtime.bigint() - started) / 1e9;
    for (;;) {
      const left = Number(
        (await admin.query("select count(*) as n from engine_catalog.event_log where trigger_name = 'watched' and state <> 'delivered'")).rows[0].n,
      );
      if (left === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const settled = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = server.pid ? rssMiB(server.pid) : 0;
    return [
      `${WRITERS} writers, single-row inserts for ${WRITE_SECONDS} s each way, ${ROUNDS} rounds alternated (medians); then ${EVENTS.toLocaleString('en')} events captured and the trigger resumed, to a webhook on loopback that answers 200 at once; default settings (HTTP pool 100, fetch interval 1 s).`,
      '',
      '| inserts/s without a trigger | inserts/s with one (paused) | with ÷ without | events captured | events delivered | to the webhook s | all logged delivered s | events/s | webhook calls | server RSS MiB |',
      '|---|---|---|---|---|---|---|---|---|---|',
      `| ${without} | ${withTrigger} | ${Math.round((withTrigger / without) * 100)} % | ${captured} | ${hook.ids.size} | ${atWebhook.toFixed(1)} | ${settled.toFixed(1)} | ${Math.round(EVENTS / settled)} | ${hook.calls()} | ${rss} |`,
    ].join('\n');
  } finally {
    await admin.end().catch(() => undefined);
    await stop(server);
    await hook.close();
    await database.stop();
  }
}
