// Query speed: the reference server (with its default settings, and with logging at `error`),
// PostGraphile 5 and a bare node:http server that runs the reference's own SQL, on one seeded
// database, each loaded by autocannon in turn, round after round; and the CPU each server and its
// PostgreSQL backends spend per request.
import { writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { fixtureSql } from '../conformance/harness/fixtures';
import { loadConfig } from '../reference/src/config';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { Engine } from '../reference/src/engine/engine';
import { prepareGraphQLRequest } from '../reference/src/execute/graphql';
import { postmasterOf } from './cpu';
import { load, type LoadResult, type LoadTarget } from './load';
import { median, ROOT, start, stop, waitFor } from './processes';
import { ensureTools, postGraphileUp, startPostGraphile } from './tools';

interface QueryCase {
  name: string;
  reference: string;
  postgraphile: string;
  /** How many rows each answer must hold, to check the servers answer the same thing. */
  count: (data: unknown) => number;
}

export const CASES: QueryCase[] = [
  {
    name: 'point lookup',
    reference: '{ bench_artist_by_pk(id: 421) { id name } }',
    postgraphile: '{ artistByRowId(rowId: 421) { rowId name } }',
    count: (d) => (Object.values(d as Record<string, unknown>)[0] ? 1 : 0),
  },
  {
    name: 'nested list',
    reference: '{ bench_album(limit: 10, order_by: {id: asc}) { id title artist { name } tracks(order_by: {id: asc}) { name milliseconds } } }',
    postgraphile:
      '{ allAlbums(first: 10, orderBy: [PRIMARY_KEY_ASC]) { nodes { rowId title artistByArtistId { name } tracksByAlbumId(orderBy: [PRIMARY_KEY_ASC]) { nodes { name milliseconds } } } } }',
    count: (d) => {
      const v = Object.values(d as Record<string, unknown>)[0] as unknown;
      const albums = (Array.isArray(v) ? v : (v as { nodes: unknown[] }).nodes) as Record<string, unknown>[];
      return albums.reduce((n, a) => {
        const t = (a.tracks ?? (a.tracksByAlbumId as { nodes: unknown[] }).nodes) as unknown[];
        return n + 1 + t.length;
      }, 0);
    },
  },
  {
    name: 'filtered sorted list',
    reference: '{ bench_track(where: {album_id: {_eq: 4242}}, order_by: {milliseconds: desc}, limit: 20) { id name milliseconds } }',
    postgraphile: '{ allTracks(condition: {albumId: 4242}, orderBy: [MILLISECONDS_DESC], first: 20) { nodes { rowId name milliseconds } } }',
    count: (d) => {
      const v = Object.values(d as Record<string, unknown>)[0] as unknown;
      return (Array.isArray(v) ? v : (v as { nodes: unknown[] }).nodes).length;
    },
  },
];

/** One request on a fresh connection (a kept-alive one may have been closed by the server meanwhile). */
async function post(url: string, query: string): Promise<unknown> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engine-role': 'admin', connection: 'close' },
    body: JSON.stringify({ query }),
  });
  const body = (await r.json()) as { data?: unknown; errors?: unknown };
  if (!body.data) throw new Error(`${url}: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const SERVERS = ['reference', 'reference, log at error', 'PostGraphile', 'bare'] as const;
type Server = (typeof SERVERS)[number];

/** The reference's environment with its defaults: only where it listens and its database. */
const referenceEnvironment = (databaseUrl: string, port: number) => ({
  ENGINE_GRAPHQL_DATABASE_URL: databaseUrl,
  ENGINE_GRAPHQL_SERVER_PORT: String(port),
  ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
});

/** The bench's tables tracked on the reference at `url`, with the relationships the queries and the nested inserts follow. */
export async function trackBenchTables(url: string): Promise<void> {
  const t = (name: string) => ({ schema: 'bench', name });
  const array = (table: string, name: string, other: string, column: string) => ({
    type: 'create_array_relationship',
    args: { table: t(table), name, using: { foreign_key_constraint_on: { table: t(other), column } } },
  });
  const setup = await fetch(`${url}/v1/metadata`, {
    method: 'POST',
    headers: { 'x-engine-role': 'admin' },
    body: JSON.stringify({
      type: 'bulk',
      args: [
        ...['artist', 'album', 'track'].map((name) => ({ type: 'track_table', args: { table: t(name) } })),
        { type: 'create_object_relationship', args: { table: t('album'), name: 'artist', using: { foreign_key_constraint_on: 'artist_id' } } },
        array('album', 'tracks', 'track', 'album_id'),
        array('artist', 'albums', 'album', 'artist_id'),
      ],
    }),
  });
  if (setup.status !== 200) throw new Error(`metadata setup failed: ${await setup.text()}`);
}

/** The bench's artists, albums and tracks on `url`, vacuumed and checkpointed; the postmaster's pid. */
export async function seedBenchDatabase(url: string, log: (line: string) => void): Promise<number> {
  log('seeding 1k artists, 10k albums, 100k tracks');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(fixtureSql('bench'));
    // Vacuumed and checkpointed now, so that neither autovacuum nor a checkpoint after the bulk
    // inserts falls into a run and onto the CPU counted for one server.
    await client.query('vacuum (analyze) bench.artist, bench.album, bench.track');
    await client.query('checkpoint');
    return await postmasterOf(client);
  } finally {
    await client.end();
  }
}

export async function querySpeed(
  log: (line: string) => void,
  seconds = Number(process.env.BENCH_SECONDS ?? 10),
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
  connections = Number(process.env.BENCH_CONNECTIONS ?? 10),
): Promise<string> {
  const tools = ensureTools(log);
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const children = [];
  try {
    const postmaster = await seedBenchDatabase(database.url, log);

    const [refPort, quietPort, barePort, pglPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const reference = start(process.execPath, [join(ROOT, 'bin', 'engine-reference.js')], referenceEnvironment(database.url, refPort));
    children.push(reference);
    const refUrl = `http://127.0.0.1:${refPort}`;
    await waitFor(`${refUrl}/healthz`);
    await trackBenchTables(refUrl);
    // The same server with the per-request log line off: what the log costs.
    const quiet = start(process.execPath, [join(ROOT, 'bin', 'engine-reference.js')], {
      ...referenceEnvironment(database.url, quietPort),
      ENGINE_GRAPHQL_LOG_LEVEL: 'error',
    });
    children.push(quiet);

    // The bare server runs the statements the reference compiles for the same queries.
    const engine = await Engine.open(loadConfig({ ENGINE_GRAPHQL_LOG_LEVEL: 'silent' }), database.url);
    const statements: Record<string, { text: string; values: unknown[] }> = {};
    for (const [i, c] of CASES.entries()) {
      const prepared = prepareGraphQLRequest(engine.graphql(), { role: 'admin', variables: {} }, { query: c.reference });
      if (!('plan' in prepared)) throw new Error(`${c.name}: ${prepared.answer.body}`);
      statements[`q${i}`] = prepared.plan.statements[0]!;
    }
    await engine.close();
    const statementsFile = join(tmpdir(), `bench-statements-${process.pid}.json`);
    writeFileSync(statementsFile, JSON.stringify(statements));
    const bare = start(process.execPath, [join(ROOT, 'scripts', 'run-ts.js'), 'bench/bare-server.ts'], {
      BARE_STATEMENTS: statementsFile,
      BARE_DATABASE_URL: database.url,
      BARE_PORT: String(barePort),
    });
    children.push(bare);
    const pgl = startPostGraphile(tools, database.url, pglPort);
    children.push(pgl);
    await waitFor(`http://127.0.0.1:${quietPort}/healthz`);
    await waitFor(`http://127.0.0.1:${barePort}/q0`);
    await postGraphileUp(pglPort);

    const targets = (c: QueryCase, i: number): Record<Server, LoadTarget> => ({
      reference: { url: `${refUrl}/v1/graphql`, body: JSON.stringify({ query: c.reference }), pid: reference.pid!, postmaster },
      'reference, log at error': { url: `http://127.0.0.1:${quietPort}/v1/graphql`, body: JSON.stringify({ query: c.reference }), pid: quiet.pid!, postmaster },
      PostGraphile: { url: `http://127.0.0.1:${pglPort}/graphql`, body: JSON.stringify({ query: c.postgraphile }), pid: pgl.pid!, postmaster },
      bare: { url: `http://127.0.0.1:${barePort}/q${i}`, body: undefined, pid: bare.pid!, postmaster },
    });
    const runs = CASES.map(() => Object.fromEntries(SERVERS.map((s) => [s, [] as LoadResult[]])) as Record<Server, LoadResult[]>);
    for (const [i, c] of CASES.entries()) {
      const counts = {
        reference: c.count(await post(`${refUrl}/v1/graphql`, c.reference)),
        quiet: c.count(await post(`http://127.0.0.1:${quietPort}/v1/graphql`, c.reference)),
        postgraphile: c.count(await post(`http://127.0.0.1:${pglPort}/graphql`, c.postgraphile)),
        bare: c.count(((await (await fetch(`http://127.0.0.1:${barePort}/q${i}`, { headers: { connection: 'close' } })).json()) as { data: unknown }).data),
      };
      if (new Set(Object.values(counts)).size !== 1) throw new Error(`${c.name}: the servers answer differently: ${JSON.stringify(counts)}`);
      for (const target of Object.values(targets(c, i))) load(tools, target, 2, connections);
    }
    // Rounds alternate the servers, so that a change of the machine's speed falls on all of them.
    for (let round = 1; round <= rounds; round++) {
      for (const [i, c] of CASES.entries()) {
        for (const [server, target] of Object.entries(targets(c, i)) as [Server, LoadTarget][]) {
          const r = load(tools, target, seconds, connections);
          runs[i]![server].push(r);
          log(
            `round ${round} ${c.name} ${server}: ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, CPU ${us(r.serverCpuMs)} + ${us(r.postgresCpuMs)} µs/request, ${r.errors} errors`,
          );
        }
      }
    }
    return queryTables(
      runs.map((byServer) => Object.fromEntries(SERVERS.map((s) => [s, medianResult(byServer[s])])) as Record<Server, LoadResult>),
      { seconds, rounds, connections },
    );
  } finally {
    for (const child of children) await stop(child);
    await database.stop();
  }
}

const us = (ms: number) => Math.round(ms * 1000);

/** Each figure's median over the rounds. */
const medianResult = (results: LoadResult[]): LoadResult => ({
  requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
  p50: median(results.map((r) => r.p50)),
  p99: median(results.map((r) => r.p99)),
  errors: results.reduce((n, r) => n + r.errors, 0),
  serverCpuMs: median(results.map((r) => r.serverCpuMs)),
  postgresCpuMs: median(results.map((r) => r.postgresCpuMs)),
});

function queryTables(results: Record<Server, LoadResult>[], run: { seconds: number; rounds: number; connections: number }): string {
  const speed: string[] = [];
  const cpu: string[] = [];
  for (const [i, c] of CASES.entries()) {
    const r = results[i]!;
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    const total = (x: LoadResult) => x.serverCpuMs + x.postgresCpuMs;
    for (const server of SERVERS) {
      const x = r[server];
      speed.push(
        `| ${c.name} | ${server} | ${Math.round(x.requestsPerSecond)} | ${x.p50} / ${x.p99} | ${ratio(x.requestsPerSecond, r.bare.requestsPerSecond)} | ${ratio(x.requestsPerSecond, r.PostGraphile.requestsPerSecond)}× | ${x.errors} |`,
      );
      cpu.push(`| ${c.name} | ${server} | ${us(x.serverCpuMs)} | ${us(x.postgresCpuMs)} | ${us(total(x))} | ${ratio(total(x), total(r.PostGraphile))} |`);
    }
  }
  return [
    `autocannon, ${run.connections} connections, ${run.rounds} rounds of ${run.seconds} s per server and query (alternated, after a 2 s warm-up each), medians; Node ${process.version} for the reference and the bare server, Node 22 for PostGraphile 5.1.5; all on one ${cpus().length}-core machine with PostgreSQL. "reference" runs with its default settings (an \`http-log\` line per request at level info); "reference, log at error" is the same server with \`ENGINE_GRAPHQL_LOG_LEVEL=error\`.`,
    '',
    '| query | server | req/s | p50 / p99 ms | ÷ bare | ÷ PostGraphile | errors |',
    '|---|---|---|---|---|---|---|',
    ...speed,
    '',
    `CPU per request, from \`/proc/<pid>/stat\` before and after each run: the server's process, and PostgreSQL's (the postmaster and all its children, listed before and after each run: the backends of the server under load, those its pool opened during the run, and the cluster's own processes), in µs; medians of the rounds.`,
    '',
    '| query | server | server µs | PostgreSQL µs | total µs | total ÷ PostGraphile |',
    '|---|---|---|---|---|---|',
    ...cpu,
  ].join('\n');
}
