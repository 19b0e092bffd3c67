// How long a third role waits while two other roles keep the roles' connections busy with slow
// queries (decision dec.limits.role-share; the case conformance/cases/limits-fair-share.test.ts,
// held for seconds): the third role's quick query, sent one after another, alone and then meanwhile.
// `npm run bench -- fair` (BENCH_FAIR_SECONDS, default 20; BENCH_FAIR_SLOW, default 24).
import { startMusicServer } from './musicServer';

const SECONDS = Number(process.env.BENCH_FAIR_SECONDS ?? 20);
const SLOW = Number(process.env.BENCH_FAIR_SLOW ?? 24);
const table = (name: string) => ({ schema: 'music', name });

/** The value at fraction `p` of the sorted values. */
export const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

/** p50 / p99 / max of milliseconds, as a table's cells. */
export const spread = (ms: readonly number[]) =>
  [0.5, 0.99]
    .map((p) => percentile(ms, p).toFixed(1))
    .concat(Math.max(...ms).toFixed(1))
    .join(' | ');

export async function fairShareWait(log: (line: string) => void): Promise<string> {
  const music = await startMusicServer('create or replace view music.slow_fair as select 1 as id, pg_sleep(1)::text as slept');
  try {
    const post = async (path: string, body: unknown, role: string) => {
      const r = await music.post(path, body, role);
      if (r.status !== 200 || !r.text.startsWith('{"data"')) throw new Error(`${role}: ${r.status} ${r.text.slice(0, 200)}`);
      return r.ms;
    };
    const permissions = ['busy_a', 'busy_b', 'quick'].flatMap((role) =>
      ['slow_fair', 'artist'].map((name) => ({
        type: 'create_select_permission',
        args: { table: table(name), role, permission: { columns: ['id'], filter: {} } },
      })),
    );
    const setup = await music.post('/v1/metadata', {
      type: 'bulk',
      args: [{ type: 'track_table', args: { table: table('slow_fair') } }, { type: 'track_table', args: { table: table('artist') } }, ...permissions],
    });
    if (setup.status !== 200) throw new Error(setup.text);
    const quick = () => post('/v1/graphql', { query: '{ music_artist_by_pk(id: 1) { id } }' }, 'quick');
    const quickFor = async (ms: number) => {
      const waits: number[] = [];
      for (const until = Date.now() + ms; Date.now() < until;) waits.push(await quick());
      return waits;
    };
    for (let i = 0; i < 20; i++) await quick();
    const alone = await quickFor(Math.min(5_000, SECONDS * 250));
    let busy = true;
    let slowDone = 0;
    const slowLoop = async (role: string) => {
      while (busy) {
        await post('/v1/graphql', { query: '{ music_slow_fair { id } }' }, role);
        slowDone++;
      }
    };
    const loops = Array.from({ length: SLOW }, (_, i) => slowLoop(i % 2 === 0 ? 'busy_a' : 'busy_b'));
    // The slow ones take their places first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const meanwhile = await quickFor(SECONDS * 1000);
    busy = false;
    await Promise.all(loops);
    const after = await quickFor(Math.min(5_000, SECONDS * 250));
    log(`fair: quick alone p50 ${percentile(alone, 0.5).toFixed(1)} ms, meanwhile p50 ${percentile(meanwhile, 0.5).toFixed(1)} ms over ${meanwhile.length}`);
    return [
      `Roles \`busy_a\` and \`busy_b\` keep ${SLOW} queries of one second each (a view over \`pg_sleep(1)\`) running for ${SECONDS} s, with the default ENGINE_GRAPHQL_PG_CONNECTIONS (10); role \`quick\` sends \`{ music_artist_by_pk(id: 1) { id } }\` one after another, timed from its sending to its answer, alone for 5 s before and after (${slowDone} slow queries answered meanwhile).`,
      '',
      '| role `quick`, ms | queries | p50 | p99 | max |',
      '|---|---|---|---|---|',
      `| alone | ${alone.length} | ${spread(alone)} |`,
      `| while the two roles fill the pool | ${meanwhile.length} | ${spread(meanwhile)} |`,
      `| alone, after | ${after.length} | ${spread(after)} |`,
    ].join('\n');
  } finally {
    await music.stop();
  }
}
