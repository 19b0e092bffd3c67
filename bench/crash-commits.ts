// Requests that write to the server's own database and to another source in one request (decision
// dec.source.atomic-commit), the server killed with -9 at random moments, again and again, and
// started again each time: how many requests were left on one database only (must be 0), and how
// many answered 200 have a write missing (must be 0). `npm run bench -- crash`
// (BENCH_CRASH_ROUNDS, default 20; BENCH_CRASH_WRITERS, default 4).
import type { ChildProcess } from 'node:child_process';
import { createDatabase, onCluster } from '../conformance/harness/database';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { startReference, waitFor } from './processes';

const ROUNDS = Number(process.env.BENCH_CRASH_ROUNDS ?? 20);
const WRITERS = Number(process.env.BENCH_CRASH_WRITERS ?? 4);

const idsIn = async (url: string, table: string): Promise<Set<number>> =>
  onCluster(url, async (c) => new Set((await c.query<{ id: number }>(`select id from public.${table}`)).rows.map((r) => r.id)));

async function started(ownUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = startReference(ownUrl, port);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`);
  return { child, url };
}

export async function crashCommits(log: (line: string) => void): Promise<string> {
  const cluster = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const [own, source] = [await createDatabase(cluster.url), await createDatabase(cluster.url)];
  try {
    await onCluster(source.url, (c) => c.query('create table public.ledger (id int primary key)'));
    await onCluster(own.url, (c) => c.query('create table public.note (id int primary key)'));
    const answered = new Map<number, number>();
    let sent = 0;
    /** Prepared transactions found on the source right after each kill: kills between the two phases. */
    let preparedAtKills = 0;
    let next = 1;
    const started0 = Date.now();
    for (let round = 1; round <= ROUNDS; round++) {
      const server = await started(own.url);
      if (round === 1) {
        const added = await fetch(`${server.url}/v1/metadata`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'pg_add_source', args: { name: 'archive', configuration: { connection_info: { database_url: source.url } } } }),
        });
        if (added.status !== 200) throw new Error(`pg_add_source: ${added.status} ${await added.text()}`);
      }
      let killed = false;
      const writer = async () => {
        while (!killed) {
          const id = next++;
          sent++;
          const body = {
            type: 'bulk',
            args: [
              { type: 'run_sql', args: { source: 'archive', sql: `insert into public.ledger values (${id})` } },
              { type: 'run_sql', args: { sql: `insert into public.note values (${id})` } },
            ],
          };
          try {
            const r = await fetch(`${server.url}/v1/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
            await r.text();
            answered.set(id, r.status);
          } catch {
            // No answer: the server was killed with the request in flight.
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 1400));
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      killed = true;
      await exited;
      await Promise.all(writers);
      preparedAtKills += await onCluster(
        source.url,
        async (c) => (await c.query<{ n: number }>('select count(*)::int as n from pg_prepared_xacts where database = current_database()')).rows[0]!.n,
      );
      log(`crash: round ${round}/${ROUNDS}, ${sent} requests sent so far`);
    }
    // Started once more: what the last kill left prepared is settled before it answers.
    const last = await started(own.url);
    const prepared = await onCluster(cluster.url, async (c) => (await c.query<{ n: number }>('select count(*)::int as n from pg_prepared_xacts')).rows[0]!.n);
    last.child.kill('SIGTERM');
    const [inSource, inOwn] = [await idsIn(source.url, 'ledger'), await idsIn(own.url, 'note')];
    const all = Array.from({ length: next - 1 }, (_, i) => i + 1);
    const half = all.filter((id) => inSource.has(id) !== inOwn.has(id)).length;
    const ok = all.filter((id) => answered.get(id) === 200);
    const missing = ok.filter((id) => !inSource.has(id) || !inOwn.has(id)).length;
    const unanswered = all.filter((id) => !answered.has(id));
    const unansweredCommitted = unanswered.filter((id) => inSource.has(id) && inOwn.has(id)).length;
    const other = all.filter((id) => answered.has(id) && answered.get(id) !== 200).length;
    const seconds = ((Date.now() - started0) / 1000).toFixed(0);
    log(`crash: ${sent} sent, ${ok.length} answered 200, ${half} half-committed, ${missing} answered 200 with a write missing`);
    return [
      `${ROUNDS} rounds of ${WRITERS} writers, each sending one after another a bulk of \`run_sql\` on the source \`archive\` and on the server's own database (one row of the same id in each); the server killed with \`-9\` 0.1–1.5 s into each round and started again (${seconds} s in all).`,
      '',
      '| requests | answered 200 | answered otherwise | unanswered (in flight at a kill) | of those, committed on both | prepared on the source at a kill | half-committed | answered 200, a write missing | prepared transactions left |',
      '|---|---|---|---|---|---|---|---|---|',
      `| ${all.length} | ${ok.length} | ${other} | ${unanswered.length} | ${unansweredCommitted} | ${preparedAtKills} | ${half} | ${missing} | ${prepared} |`,
    ].join('\n');
  } finally {
    await cluster.stop();
  }
}
