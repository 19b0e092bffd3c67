// What a hostile role can make the server hold and spend: RSS while it sends 1,000 distinct large
// queries (each just inside the default field limit, so each is parsed, compiled and cached), the
// answer time of a query far beyond the limits, and how long a small query waits while ten large
// ones are compiled at once.
import { startMusicServer } from './musicServer';
import { rssMiB } from './processes';

const QUERIES = 1000;
/** Aliases per query: each selects two fields, 1,500 fields in all (the default limit is 2,000). */
const ALIASES = 750;

const largeQuery = (seed: number, aliases = ALIASES) =>
  `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: music_artist(where: {id: {_eq: ${seed * 100_000 + i}}}) { id }`).join(' ')} }`;

export async function memoryBound(log: (line: string) => void): Promise<string> {
  const music = await startMusicServer();
  const { server, post } = music;
  try {
    const setup = await post('/v1/metadata', {
      type: 'bulk',
      args: [
        { type: 'reload_metadata', args: {} },
        { type: 'track_table', args: { table: { schema: 'music', name: 'artist' } } },
        { type: 'create_select_permission', args: { table: { schema: 'music', name: 'artist' }, role: 'user', permission: { columns: '*', filter: {} } } },
      ],
    });
    if (setup.status !== 200) throw new Error(setup.text);
    const small = async () => (await post('/v1/graphql', { query: '{ music_artist(limit: 1) { id } }' }, 'user')).ms;
    await small();
    const startRss = rssMiB(server.pid!);
    let peak = startRss;
    const samples: string[] = [];
    const started = Date.now();
    for (let i = 0; i < QUERIES; i++) {
      const r = await post('/v1/graphql', { query: largeQuery(i) }, 'user');
      if (r.status !== 200 || !r.text.startsWith('{"data"')) throw new Error(`query ${i}: ${r.status} ${r.text.slice(0, 200)}`);
      const rss = rssMiB(server.pid!);
      peak = Math.max(peak, rss);
      if ((i + 1) % 200 === 0) {
        samples.push(`${i + 1}: ${rss}`);
        log(`memory: ${i + 1} distinct large queries, RSS ${rss} MiB`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    const huge = await post('/v1/graphql', { query: largeQuery(0, 20_000) }, 'user');
    const hugeRefusal = huge.text.startsWith('{"errors"') ? (JSON.parse(huge.text) as { errors: { message: string }[] }).errors[0]!.message : undefined;
    const smallAlone = await small();
    const concurrent = Array.from({ length: 10 }, (_, i) => post('/v1/graphql', { query: largeQuery(5000 + i, 999) }, 'user'));
    await new Promise((r) => setTimeout(r, 5));
    const smallDuring = await small();
    await Promise.all(concurrent);
    const endRss = rssMiB(server.pid!);
    log(`memory: start ${startRss} MiB, peak ${peak} MiB, end ${endRss} MiB; 20,000 aliases: ${hugeRefusal ?? 'answered'} in ${huge.ms.toFixed(0)} ms`);
    return [
      `${QUERIES} distinct queries from role \`user\`, each ${ALIASES} aliases (1,500 fields, ${Math.round(largeQuery(0).length / 1024)} KiB of text), one after another in ${seconds.toFixed(0)} s, with the default settings (cache bound 64 MiB, at most 2,000 fields).`,
      '',
      '| server RSS MiB | before | peak | after | every 200 queries |',
      '|---|---|---|---|---|',
      `| | ${startRss} | ${peak} | ${endRss} | ${samples.join(', ')} |`,
      '',
      `A query of 20,000 aliases from the same role (${Math.round(largeQuery(0, 20_000).length / 1024)} KiB): ${hugeRefusal ? `refused ("${hugeRefusal}")` : 'answered'} in ${huge.ms.toFixed(0)} ms. A small query of the role: ${smallAlone.toFixed(1)} ms alone, ${smallDuring.toFixed(1)} ms while ten queries of 1,998 fields each are compiled and run at once.`,
    ].join('\n');
  } finally {
    await music.stop();
  }
}
