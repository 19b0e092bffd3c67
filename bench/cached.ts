// @cached (decision dec.graphql.cached): the nested-list query of the query-speed bench answered
// from the response cache, against the same query uncached and against the bare server running its
// SQL, loaded by autocannon in alternating rounds with the CPU of each server and of PostgreSQL per
// request (a hit should cost PostgreSQL nothing); then the server's memory while 100,000 distinct
// cached queries are asked (the cache is bounded by ENGINE_GRAPHQL_RESPONSE_CACHE_MAX_BYTES).
// `npm run bench -- cached` (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS; BENCH_CACHED_DISTINCT).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../reference/src/config';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { Engine } from '../reference/src/engine/engine';
import { prepareGraphQLRequest } from '../reference/src/execute/graphql';
import { load, type LoadResult, type LoadTarget } from './load';
import { median, ROOT, rssMiB, start, stop, waitFor } from './processes';
import { CASES, seedBenchDatabase, trackBenchTables } from './query-speed';
import { ensureTools } from './tools';

const NESTED = CASES[1]!.reference;
const CACHED = `query @cached(ttl: 300) ${NESTED}`;
const FORMS = ['cached hit', 'uncached', 'bare'] as const;
type Form = (typeof FORMS)[number];

/** `count` distinct cached queries (one per artist id, most answering null), `concurrency` at a time. */
async function askDistinct(url: string, count: number, concurrency: number): Promise<{ failed: number; firstFailure: string }> {
  let next = 0;
  let failed = 0;
  let firstFailure = '';
  const query = 'query ($id: Int!) @cached(ttl: 300) { bench_artist_by_pk(id: $id) { id name albums(limit: 2) { title } } }';
  const worker = async () => {
    while (next < count) {
      const id = ++next;
      try {
        const r = await fetch(`${url}/v1/graphql`, {
          method: 'POST',
          headers: { 'x-engine-role': 'admin' },
          body: JSON.stringify({ query, variables: { id } }),
        });
        const text = await r.text();
        if (!text.startsWith('{"data"')) {
          if (failed++ === 0) firstFailure = `${r.status} ${text.slice(0, 200)}`;
        }
      } catch (error) {
        if (failed++ === 0) firstFailure = String((error as Error).cause ?? error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { failed, firstFailure };
}

export async function cachedSpeed(
  log: (line: string) => void,
  seconds = Number(process.env.BENCH_SECONDS ?? 10),
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
  connections = Number(process.env.BENCH_CONNECTIONS ?? 10),
  distinct = Number(process.env.BENCH_CACHED_DISTINCT ?? 100_000),
): Promise<string> {
  const tools = ensureTools(log);
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const children = [];
  try {
    const postmaster = await seedBenchDatabase(database.url, log);
    const [refPort, barePort] = [await freePort(), await freePort()];
    const reference = start(process.execPath, [join(ROOT, 'bin', 'engine-reference.js')], {
      ENGINE_GRAPHQL_DATABASE_URL: database.url,
      ENGINE_GRAPHQL_SERVER_PORT: String(refPort),
      ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
    });
    children.push(reference);
    const url = `http://127.0.0.1:${refPort}`;
    await waitFor(`${url}/healthz`);
    await trackBenchTables(url);
    const engine = await Engine.open(loadConfig({ ENGINE_GRAPHQL_LOG_LEVEL: 'silent' }), database.url);
    const prepared = prepareGraphQLRequest(engine.graphql(), { role: 'admin', variables: {} }, { query: NESTED });
    await engine.close();
    if (!('plan' in prepared)) throw new Error(prepared.answer.body);
    const statementsFile = join(tmpdir(), `bench-cached-${process.pid}.json`);
    writeFileSync(statementsFile, JSON.stringify({ q: prepared.plan.statements[0] }));
    const bare = start(process.execPath, [join(ROOT, 'scripts', 'run-ts.js'), 'bench/bare-server.ts'], {
      BARE_STATEMENTS: statementsFile,
      BARE_DATABASE_URL: database.url,
      BARE_PORT: String(barePort),
    });
    children.push(bare);
    await waitFor(`http://127.0.0.1:${barePort}/q`);
    const targets: Record<Form, LoadTarget> = {
      'cached hit': { url: `${url}/v1/graphql`, body: JSON.stringify({ query: CACHED }), pid: reference.pid!, postmaster },
      uncached: { url: `${url}/v1/graphql`, body: JSON.stringify({ query: NESTED }), pid: reference.pid!, postmaster },
      bare: { url: `http://127.0.0.1:${barePort}/q`, body: undefined, pid: bare.pid!, postmaster },
    };
    for (const target of Object.values(targets)) load(tools, target, 2, connections);
    const runs = Object.fromEntries(FORMS.map((f) => [f, [] as LoadResult[]])) as Record<Form, LoadResult[]>;
    for (let round = 1; round <= rounds; round++) {
      for (const form of FORMS) {
        const r = load(tools, targets[form], seconds, connections);
        runs[form].push(r);
        log(`round ${round} ${form}: ${Math.round(r.requestsPerSecond)} req/s, p99 ${r.p99} ms, CPU ${us(r.serverCpuMs)} + ${us(r.postgresCpuMs)} µs/request`);
      }
    }
    const before = rssMiB(reference.pid!);
    let peak = before;
    const sampler = setInterval(() => {
      if (reference.exitCode === null) peak = Math.max(peak, rssMiB(reference.pid!));
    }, 50);
    const started = Date.now();
    const { failed, firstFailure } = await askDistinct(url, distinct, 20).finally(() => clearInterval(sampler));
    if (failed) log(`first failure: ${firstFailure}`);
    const after = rssMiB(reference.pid!);
    const took = (Date.now() - started) / 1000;
    log(`${distinct} distinct cached queries in ${took.toFixed(1)} s, ${failed} failed; RSS ${before} → peak ${peak} → ${after} MiB`);
    const m = (form: Form) => {
      const rs = runs[form];
      return {
        rps: median(rs.map((r) => r.requestsPerSecond)),
        p99: median(rs.map((r) => r.p99)),
        server: median(rs.map((r) => r.serverCpuMs)),
        pg: median(rs.map((r) => r.postgresCpuMs)),
      };
    };
    const bareRps = m('bare').rps;
    return [
      `The nested-list query (\`${NESTED}\`), the same with \`@cached(ttl: 300)\` (every request after the first a hit), and the bare server running the query's SQL; autocannon, ${connections} connections, ${rounds} rounds of ${seconds} s alternated, medians; the reference with its default settings.`,
      '',
      '| form | req/s | p99 ms | ÷ bare | server µs/request | PostgreSQL µs/request |',
      '|---|---|---|---|---|---|',
      ...FORMS.map((f) => {
        const x = m(f);
        return `| ${f} | ${Math.round(x.rps)} | ${x.p99} | ${(x.rps / bareRps).toFixed(2)} | ${us(x.server)} | ${us(x.pg)} |`;
      }),
      '',
      `Then ${distinct} distinct cached queries (\`bench_artist_by_pk(id: $id)\` for ids 1 to ${distinct}, 20 at a time) in ${took.toFixed(1)} s, ${failed} not answered with data: the server's RSS ${before} MiB before, ${peak} MiB at the peak (sampled every 50 ms), ${after} MiB after, with the default cache bound of 32 MiB.`,
    ].join('\n');
  } finally {
    for (const child of children) await stop(child);
    await database.stop();
  }
}

const us = (ms: number) => Math.round(ms * 1000);
