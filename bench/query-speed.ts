// Query speed: the reference server, PostGraphile 5 and a bare node:http server that runs the
// reference's own SQL, on one seeded database, each loaded by autocannon in turn.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { fixtureSql } from '../conformance/harness/fixtures';
import { loadConfig } from '../reference/src/config';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { Engine } from '../reference/src/engine/engine';
import { prepareGraphQLRequest } from '../reference/src/execute/graphql';
import { ROOT, start, stop, waitFor } from './processes';
import { ensureTools, TOOLS_DIR } from './tools';

interface QueryCase {
  name: string;
  reference: string;
  postgraphile: string;
  /** How many rows each answer must hold, to check the servers answer the same thing. */
  count: (data: unknown) => number;
}

const CASES: QueryCase[] = [
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

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

function load(tools: ReturnType<typeof ensureTools>, url: string, body: string | undefined, seconds: number): LoadResult {
  const args = [tools.autocannon, '-c', '32', '-d', String(seconds), '-j', '--renderStatusCodes'];
  if (body !== undefined) args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', body);
  const out = execFileSync(tools.node22, [...args, url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  const r = JSON.parse(out) as { requests: { average: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number };
  return { requestsPerSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

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

export async function querySpeed(log: (line: string) => void, seconds = Number(process.env.BENCH_SECONDS ?? 10)): Promise<string> {
  const tools = ensureTools(log);
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const children = [];
  try {
    log('seeding 1k artists, 10k albums, 100k tracks');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(fixtureSql('bench'));
    await client.end();

    const [refPort, barePort, pglPort] = [await freePort(), await freePort(), await freePort()];
    const reference = start(process.execPath, [join(ROOT, 'bin', 'engine-reference.js')], {
      ENGINE_GRAPHQL_DATABASE_URL: database.url,
      ENGINE_GRAPHQL_SERVER_PORT: String(refPort),
      ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
      ENGINE_GRAPHQL_LOG_LEVEL: 'error',
    });
    children.push(reference);
    const refUrl = `http://127.0.0.1:${refPort}`;
    await waitFor(`${refUrl}/healthz`);
    const t = (name: string) => ({ schema: 'bench', name });
    const setup = await fetch(`${refUrl}/v1/metadata`, {
      method: 'POST',
      headers: { 'x-engine-role': 'admin' },
      body: JSON.stringify({
        type: 'bulk',
        args: [
          ...['artist', 'album', 'track'].map((name) => ({ type: 'track_table', args: { table: t(name) } })),
          { type: 'create_object_relationship', args: { table: t('album'), name: 'artist', using: { foreign_key_constraint_on: 'artist_id' } } },
          {
            type: 'create_array_relationship',
            args: { table: t('album'), name: 'tracks', using: { foreign_key_constraint_on: { table: t('track'), column: 'album_id' } } },
          },
        ],
      }),
    });
    if (setup.status !== 200) throw new Error(`metadata setup failed: ${await setup.text()}`);

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
    const pgl = start(
      tools.node22,
      [tools.postgraphile, '--preset', 'postgraphile/presets/amber', '-c', database.url, '-s', 'bench', '-p', String(pglPort), '-n', '127.0.0.1'],
      { GRAPHILE_ENV: 'production' },
      TOOLS_DIR,
    );
    children.push(pgl);
    await waitFor(`http://127.0.0.1:${barePort}/q0`);
    await waitFor(`http://127.0.0.1:${pglPort}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' });

    const rows: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const counts = {
        reference: c.count(await post(`${refUrl}/v1/graphql`, c.reference)),
        postgraphile: c.count(await post(`http://127.0.0.1:${pglPort}/graphql`, c.postgraphile)),
        bare: c.count(((await (await fetch(`http://127.0.0.1:${barePort}/q${i}`, { headers: { connection: 'close' } })).json()) as { data: unknown }).data),
      };
      if (new Set(Object.values(counts)).size !== 1) throw new Error(`${c.name}: the servers answer differently: ${JSON.stringify(counts)}`);
      const runs = {
        reference: () => load(tools, `${refUrl}/v1/graphql`, JSON.stringify({ query: c.reference }), seconds),
        postgraphile: () => load(tools, `http://127.0.0.1:${pglPort}/graphql`, JSON.stringify({ query: c.postgraphile }), seconds),
        bare: () => load(tools, `http://127.0.0.1:${barePort}/q${i}`, undefined, seconds),
      };
      const results: Record<string, LoadResult> = {};
      for (const [server, run] of Object.entries(runs)) {
        load(
          tools,
          server === 'bare' ? `http://127.0.0.1:${barePort}/q${i}` : server === 'reference' ? `${refUrl}/v1/graphql` : `http://127.0.0.1:${pglPort}/graphql`,
          server === 'bare' ? undefined : JSON.stringify({ query: server === 'reference' ? c.reference : c.postgraphile }),
          2,
        );
        results[server] = run();
        log(
          `${c.name} (${counts.reference} rows) ${server}: ${Math.round(results[server]!.requestsPerSecond)} req/s, p50 ${results[server]!.p50} ms, p99 ${results[server]!.p99} ms, ${results[server]!.errors} errors`,
        );
      }
      const r = results.reference!;
      const p = results.postgraphile!;
      const b = results.bare!;
      rows.push(
        `| ${c.name} | ${Math.round(r.requestsPerSecond)} | ${r.p50} / ${r.p99} | ${Math.round(p.requestsPerSecond)} | ${p.p50} / ${p.p99} | ${Math.round(b.requestsPerSecond)} | ${b.p50} / ${b.p99} | ${(r.requestsPerSecond / p.requestsPerSecond).toFixed(2)}× | ${Math.round((100 * r.requestsPerSecond) / b.requestsPerSecond)} % |`,
      );
    }
    return [
      `autocannon, 32 connections, ${seconds} s per run after a 2 s warm-up; Node ${process.version} for the reference and the bare server, Node 22 for PostGraphile 5.1.5; all on one ${require('node:os').cpus().length}-core machine with PostgreSQL.`,
      '',
      '| query | reference req/s | p50 / p99 ms | PostGraphile req/s | p50 / p99 ms | bare req/s | p50 / p99 ms | reference ÷ PostGraphile | reference ÷ bare |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    for (const child of children) await stop(child);
    await database.stop();
  }
}
