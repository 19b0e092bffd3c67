// The new mutation forms against their anchors, in one run on one database: a nested insert (an
// artist with 10 albums of 10 tracks each, 1 and 100 artists a request) against PostGraphile 5
// doing the same as one mutation per row in one request and against the bare SQL (one statement
// of three inserts); and `update_<t>_many` with 100 updates against 100 requests of one update.
// Each form runs back to back on one client; rows (or updates) per second, and the statements the
// reference's plan sends per request.
import { Client } from 'pg';
import { fixtureSql } from '../conformance/harness/fixtures';
import { loadConfig } from '../reference/src/config';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { Engine } from '../reference/src/engine/engine';
import { prepareGraphQLRequest } from '../reference/src/execute/graphql';
import { startReference, stop, waitFor } from './processes';
import { trackBenchTables } from './query-speed';
import { ensureTools, postGraphileUp, startPostGraphile } from './tools';

/** Artists (each with 10 albums of 10 tracks) written in one request. */
const BATCHES = [1, 100];
/** Rows written by each form, at least: enough requests to last a moment. */
const ROWS_PER_FORM = Number(process.env.BENCH_MUTATION_ROWS ?? 20_000);
const NESTED = `mutation ($objects: [bench_artist_insert_input!]!) { insert_bench_artist(objects: $objects) { affected_rows } }`;

/** New ids: each form's rows after those of the forms before it and of the seed. */
let nextArtist = 1_000_000;
interface Artist {
  id: number;
  name: string;
  albums: { id: number; title: string; year: number; tracks: { id: number; name: string; milliseconds: number }[] }[];
}
function artists(count: number): Artist[] {
  return Array.from({ length: count }, () => {
    const id = nextArtist++;
    return {
      id,
      name: `New ${id}`,
      albums: Array.from({ length: 10 }, (_, a) => ({
        id: id * 10 + a,
        title: `Album ${id}.${a}`,
        year: 2000,
        tracks: Array.from({ length: 10 }, (_, t) => ({ id: (id * 10 + a) * 10 + t, name: `Track ${t}`, milliseconds: 1000 + t })),
      })),
    };
  });
}
const ROWS_PER_ARTIST = 1 + 10 + 100;

const referenceObjects = (list: Artist[]) =>
  list.map((a) => ({
    id: a.id,
    name: a.name,
    albums: { data: a.albums.map((b) => ({ id: b.id, title: b.title, year: b.year, tracks: { data: b.tracks } })) },
  }));

/** PostGraphile: one create mutation per row, all in one document. */
function postgraphileDocument(list: Artist[]): string {
  const fields: string[] = [];
  for (const a of list) {
    fields.push(`a${a.id}: createArtist(input: {artist: {rowId: ${a.id}, name: ${JSON.stringify(a.name)}}}) { clientMutationId }`);
    for (const b of a.albums) {
      fields.push(
        `b${b.id}: createAlbum(input: {album: {rowId: ${b.id}, artistId: ${a.id}, title: ${JSON.stringify(b.title)}, year: ${b.year}}}) { clientMutationId }`,
      );
      for (const t of b.tracks)
        fields.push(
          `t${t.id}: createTrack(input: {track: {rowId: ${t.id}, albumId: ${b.id}, name: ${JSON.stringify(t.name)}, milliseconds: ${t.milliseconds}}}) { clientMutationId }`,
        );
    }
  }
  return `mutation { ${fields.join('\n')} }`;
}

/** The bare SQL: the three tables' rows from one JSON value, in one statement. */
const BARE_INSERT = `with artists as (select * from json_to_recordset($1::json) as x(id int, name text, albums json)),
  a as (insert into bench.artist (id, name) select id, name from artists),
  albums as (select al.* from artists, json_to_recordset(artists.albums) as al(id int, title text, year int, tracks json)),
  b as (insert into bench.album (id, artist_id, title, year) select al.id, ar.id, al.title, al.year from artists ar, json_to_recordset(ar.albums) as al(id int, title text, year int))
  insert into bench.track (id, album_id, name, milliseconds) select t.id, albums.id, t.name, t.milliseconds from albums, json_to_recordset(albums.tracks) as t(id int, name text, milliseconds int)`;

async function graphql(url: string, body: unknown): Promise<void> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-engine-role': 'admin' }, body: JSON.stringify(body) });
  const answer = (await r.json()) as { errors?: unknown };
  if (r.status !== 200 || answer.errors) throw new Error(`${url}: ${r.status} ${JSON.stringify(answer.errors).slice(0, 500)}`);
}

/** Requests back to back until `rows` rows are written: rows per second. */
async function timed(rowsPerRequest: number, rows: number, request: () => Promise<void>): Promise<number> {
  const requests = Math.max(3, Math.ceil(rows / rowsPerRequest));
  const started = performance.now();
  for (let i = 0; i < requests; i++) await request();
  return (requests * rowsPerRequest * 1000) / (performance.now() - started);
}

export async function mutationSpeed(log: (line: string) => void): Promise<string> {
  const tools = ensureTools(log);
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const children = [];
  const client = new Client({ connectionString: database.url });
  try {
    await client.connect();
    await client.query(fixtureSql('bench'));
    const [refPort, pglPort] = [await freePort(), await freePort()];
    // The reference with its default settings (the request log on).
    const reference = startReference(database.url, refPort, { ENGINE_GRAPHQL_LOG_LEVEL: 'info' });
    children.push(reference);
    const refUrl = `http://127.0.0.1:${refPort}`;
    await waitFor(`${refUrl}/healthz`);
    await trackBenchTables(refUrl);
    const pgl = startPostGraphile(tools, database.url, pglPort);
    children.push(pgl);
    const pglUrl = `http://127.0.0.1:${pglPort}/graphql`;
    await postGraphileUp(pglPort);

    // The statements of the reference's plans, compiled in this process as the server compiles them.
    const engine = await Engine.open(loadConfig({ ENGINE_GRAPHQL_LOG_LEVEL: 'silent' }), database.url);
    const statementsOf = (query: string, variables: Record<string, unknown>) => {
      const prepared = prepareGraphQLRequest(engine.graphql(), { role: 'admin', variables: {} }, { query, variables });
      if (!('plan' in prepared)) throw new Error(prepared.answer.body);
      return prepared.plan.statements.length;
    };

    const rows: string[] = [];
    for (const batch of BATCHES) {
      const rowsPerRequest = batch * ROWS_PER_ARTIST;
      const statements = statementsOf(NESTED, { objects: referenceObjects(artists(batch)) });
      const reference = await timed(rowsPerRequest, ROWS_PER_FORM, () =>
        graphql(`${refUrl}/v1/graphql`, { query: NESTED, variables: { objects: referenceObjects(artists(batch)) } }),
      );
      let refused = '';
      const postgraphile = await timed(rowsPerRequest, ROWS_PER_FORM, () => graphql(pglUrl, { query: postgraphileDocument(artists(batch)) })).catch(
        (e: Error) => {
          refused = e.message.replace(/^\S+: /, '');
          return NaN;
        },
      );
      const bare = await timed(rowsPerRequest, ROWS_PER_FORM, async () => void (await client.query(BARE_INSERT, [JSON.stringify(artists(batch))])));
      log(
        `nested insert, ${batch} at a time: reference ${Math.round(reference)} rows/s (${statements} statements), PostGraphile ${Math.round(postgraphile)}, bare ${Math.round(bare)}`,
      );
      rows.push(
        `| nested insert, ${batch} artist${batch > 1 ? 's' : ''} (${rowsPerRequest} rows) a request | ${Math.round(reference)} | ${statements} + begin, commit | ${refused ? `refused: ${refused}` : Math.round(postgraphile)} | ${Math.round(bare)} | ${refused ? '—' : `${(reference / postgraphile).toFixed(2)}×`} | ${(reference / bare).toFixed(2)} |`,
      );
    }

    // update_many: 100 updates of tracks' lengths in one request, against 100 requests of one.
    const updates = (from: number) => Array.from({ length: 100 }, (_, i) => ({ where: { id: { _eq: from + i } }, _set: { milliseconds: 5000 + i } }));
    const MANY = 'mutation ($updates: [bench_track_updates!]!) { update_bench_track_many(updates: $updates) { affected_rows } }';
    const ONE = 'mutation ($id: Int!, $ms: Int!) { update_bench_track_by_pk(pk_columns: {id: $id}, _set: {milliseconds: $ms}) { id } }';
    const manyStatements = statementsOf(MANY, { updates: updates(1) });
    let from = 1;
    const many = await timed(100, ROWS_PER_FORM, () => graphql(`${refUrl}/v1/graphql`, { query: MANY, variables: { updates: updates((from += 100)) } }));
    const single = await timed(1, ROWS_PER_FORM / 10, () => graphql(`${refUrl}/v1/graphql`, { query: ONE, variables: { id: (from += 1), ms: 7000 } }));
    log(`update_many: ${Math.round(many)} updates/s (${manyStatements} statements), single: ${Math.round(single)}`);
    await engine.close();
    return [
      `One client, requests back to back (${ROWS_PER_FORM} rows or more per form); the reference with its default settings. PostGraphile 5.1.5 (amber preset) writes the same rows with one \`create…\` mutation per row, all in one request; the bare SQL is one statement of three inserts reading the rows from one JSON parameter, sent by node-postgres.`,
      '',
      '| form | reference rows/s | reference statements a request | PostGraphile rows/s | bare SQL rows/s | ÷ PostGraphile | ÷ bare |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `\`update_bench_track_many\` with 100 updates (by primary key) a request: ${Math.round(many)} updates/s, ${manyStatements} statements + begin, commit a request; 100 requests of one \`update_bench_track_by_pk\`: ${Math.round(single)} updates/s (the one request of 100 ${(many / single).toFixed(1)}× as many updates a second).`,
    ].join('\n');
  } finally {
    await client.end().catch(() => undefined);
    for (const child of children) await stop(child);
    await database.stop();
  }
}
