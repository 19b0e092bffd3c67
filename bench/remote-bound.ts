// The server's memory while roles ask a remote schema for large answers (decision
// dec.limits.remote-answers): a remote whose `blob` is a 30 MiB string, a query of three aliases of
// it (90 MiB, past the default bound of 64 MiB a request) sent by 16 requests of role `user` at
// once, again and again; the server's peak RSS, the answers, and another role's small query meanwhile.
// `npm run bench -- remote` (BENCH_REMOTE_SECONDS, default 20; BENCH_REMOTE_CONCURRENCY, default 16;
// BENCH_REMOTE_BLOB_MIB, default 30).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql, Kind, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { spread } from './fair-share-wait';
import { startMusicServer } from './musicServer';
import { rssMiB } from './processes';

const SECONDS = Number(process.env.BENCH_REMOTE_SECONDS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_REMOTE_CONCURRENCY ?? 16);
const BLOB_MIB = Number(process.env.BENCH_REMOTE_BLOB_MIB ?? 30);

/** A remote whose every top-level field is answered with the same 30 MiB string, written from one buffer. */
async function startRemote(): Promise<{ url: string; server: Server }> {
  const schema = buildSchema('type Query { blob: String }');
  const blob = Buffer.alloc(BLOB_MIB * 1024 * 1024, 'x');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { query, variables } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: Record<string, unknown> };
      res.setHeader('content-type', 'application/json');
      if (query.includes('__schema') || query.includes('__type')) {
        void graphql({ schema, source: query, variableValues: variables }).then((answer) => res.end(JSON.stringify(answer)));
        return;
      }
      const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      const aliases = operation.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD).map((f) => (f.alias ?? f.name).value);
      res.write('{"data":{');
      aliases.forEach((alias, i) => {
        res.write(`${i ? ',' : ''}${JSON.stringify(alias)}:"`);
        res.write(blob);
        res.write('"');
      });
      res.end('}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, server };
}

export async function remoteBound(log: (line: string) => void): Promise<string> {
  const remote = await startRemote();
  const music = await startMusicServer();
  const { server, post: send } = music;
  try {
    const artist = { schema: 'music', name: 'artist' };
    const setup = await send('/v1/metadata', {
      type: 'bulk',
      args: [
        { type: 'add_remote_schema', args: { name: 'blobs', definition: { url: remote.url, timeout_seconds: 120 } } },
        { type: 'track_table', args: { table: artist } },
        { type: 'create_select_permission', args: { table: artist, role: 'other', permission: { columns: '*', filter: {} } } },
      ],
    });
    if (setup.status !== 200) throw new Error(setup.text);
    const small = async () => {
      const r = await send('/v1/graphql', { query: '{ music_artist(limit: 1) { id } }' }, 'other');
      if (!r.text.startsWith('{"data"')) throw new Error(`other: ${r.status} ${r.text.slice(0, 200)}`);
      return r.ms;
    };
    for (let i = 0; i < 20; i++) await small();
    const alone: number[] = [];
    for (const until = Date.now() + 3000; Date.now() < until;) alone.push(await small());
    const startRss = rssMiB(server.pid!);
    let peak = startRss;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid!))), 20);
    const outcomes: Record<string, number> = {};
    let going = true;
    const big = async () => {
      while (going) {
        const r = await send('/v1/graphql', { query: '{ a: blob b: blob c: blob }' }, 'user');
        const parsed = r.text.length < 10_000 ? (JSON.parse(r.text) as { errors?: { message: string }[] }) : undefined;
        const key = `${r.status} ${parsed?.errors ? parsed.errors[0]!.message.replace(/\d{5,}/g, 'N') : `data (${Math.round(r.text.length / 1048576)} MiB)`}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
    };
    const loops = Array.from({ length: CONCURRENCY }, big);
    const meanwhile: number[] = [];
    const until = Date.now() + SECONDS * 1000;
    while (Date.now() < until) meanwhile.push(await small());
    going = false;
    await Promise.all(loops);
    clearInterval(sampler);
    const endRss = rssMiB(server.pid!);
    log(`remote: RSS start ${startRss} MiB, peak ${peak} MiB, end ${endRss} MiB; ${JSON.stringify(outcomes)}`);
    return [
      `A remote schema whose \`blob\` is a ${BLOB_MIB} MiB string; role \`user\` sends \`{ a: blob b: blob c: blob }\` (${3 * BLOB_MIB} MiB of answer) from ${CONCURRENCY} requests at once, each again as soon as answered, for ${SECONDS} s, with the default bounds (ENGINE_GRAPHQL_REMOTE_ANSWER_MAX_BYTES 64 MiB a request, ENGINE_GRAPHQL_REMOTE_ANSWER_ROLE_MAX_BYTES 256 MiB a role); role \`other\` sends \`{ music_artist(limit: 1) { id } }\` one after another, on the server's own database. RSS sampled every 20 ms from /proc.`,
      '',
      '| server RSS MiB | before | peak | after |',
      '|---|---|---|---|',
      `| | ${startRss} | ${peak} | ${endRss} |`,
      '',
      `Answers of role \`user\`: ${Object.entries(outcomes)
        .map(([k, n]) => `${n} × ${k}`)
        .join('; ')}.`,
      '',
      '| role `other`, ms | queries | p50 | p99 | max |',
      '|---|---|---|---|---|',
      `| alone | ${alone.length} | ${spread(alone)} |`,
      `| meanwhile | ${meanwhile.length} | ${spread(meanwhile)} |`,
    ].join('\n');
  } finally {
    await music.stop();
    remote.server.close();
  }
}
