// Property of streaming subscriptions (decisions dec.graphql.stream.cursor and
// dec.graphql.stream.multiplexed): whatever the subscribers (roles, sessions, cursors, orderings,
// batch sizes, filters; many sharing a poller) and however inserts interleave with the polls, each
// subscriber receives exactly the rows past its cursor that it may see, each once, in cursor order,
// in non-empty batches no larger than its batch size and its role's limit. New rows always come
// past every cursor that streams upwards (a serial), and below none that streams downwards.
// A short run in npm test; ENGINE_FUZZ_RUNS for a long one.
import fc from 'fast-check';
import { useSubscriptionServer } from '../../test-support/subscriptionServer';

const RUNS = Number(process.env.ENGINE_FUZZ_RUNS ?? 6);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);
const READER_LIMIT = 3;

const support = useSubscriptionServer({
  ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '20',
  ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE: '2',
});
const { server, post, sql, waitFor } = support;

beforeAll(async () => {
  await sql('create table entry (id int primary key, grp int not null, owner int not null)');
  await post({ type: 'track_table', args: { table: 'entry' } });
  await post({
    type: 'create_select_permission',
    args: { table: 'entry', role: 'reader', permission: { columns: ['id', 'grp'], filter: { owner: { _eq: 'X-Engine-User-Id' } }, limit: READER_LIMIT } },
  });
});

const DOCUMENT = `subscription ($from: Int!, $n: Int!, $o: cursor_ordering!, $skip: Int!) {
  entry_stream(batch_size: $n, cursor: {initial_value: {id: $from}, ordering: $o}, where: {grp: {_neq: $skip}}) { id }
}`;

interface Row {
  id: number;
  grp: number;
  owner: number;
}
interface Spec {
  /** undefined: admin; else the reader of this user. */
  user: number | undefined;
  descending: boolean;
  batchSize: number;
  /** Where the cursor starts, relative to the rows there at first (clamped into a range that keeps the property exact). */
  from: number;
  skip: number;
}

const row = fc.record({ grp: fc.integer({ min: 0, max: 1 }), owner: fc.integer({ min: 0, max: 1 }) });
const scenario = fc.record({
  initial: fc.array(row, { maxLength: 8 }),
  specs: fc.array(
    fc.record({
      user: fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined }),
      descending: fc.boolean(),
      batchSize: fc.integer({ min: 1, max: 4 }),
      from: fc.integer({ min: -1, max: 12 }),
      skip: fc.constantFrom(0, 1, 9),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  steps: fc.array(fc.oneof(fc.record({ insert: fc.array(row, { minLength: 1, maxLength: 3 }) }), fc.record({ pauseMs: fc.integer({ min: 0, max: 50 }) })), {
    maxLength: 6,
  }),
});

/** The rows a subscriber should receive, in order, of all the rows there ever were. */
function expected(spec: Spec, from: number, rows: readonly Row[]): number[] {
  const seen = rows.filter((r) => (spec.user === undefined || r.owner === spec.user) && r.grp !== spec.skip);
  const past = seen.filter((r) => (spec.descending ? r.id < from : r.id > from)).map((r) => r.id);
  return past.sort((a, b) => (spec.descending ? b - a : a - b));
}

/** The ids of each batch a subscription was sent (anything else as it came). */
const batchesOf = (results: unknown[]) => results.map((r) => (r as { data?: { entry_stream?: { id: number }[] } }).data?.entry_stream?.map((e) => e.id) ?? r);

/** Every streaming poller whose statement was seen has run it at least `times` more times. */
async function pollsPass(times: number): Promise<void> {
  const counts = new Map<string, number>();
  server().engine.pools.logSql = (statement) => {
    if (!statement.text.includes('cursor text')) return;
    const key = JSON.stringify([statement.text, statement.values.slice(1)]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  try {
    await waitFor(() => counts.size >= server().streamPollers() && [...counts.values()].every((n) => n >= times));
  } finally {
    delete server().engine.pools.logSql;
  }
}

test('every subscriber receives exactly the rows past its cursor, once, in order, in batches within its limits', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ initial, specs, steps }) => {
      await sql('truncate entry');
      const rows: Row[] = initial.map((r, i) => ({ id: i + 1, ...r }));
      if (rows.length) await sql(`insert into entry values ${rows.map((r) => `(${r.id}, ${r.grp}, ${r.owner})`).join(', ')}`);
      const top = rows.length;
      // Upwards from anywhere; downwards from at most one past the last row: every new row is above it.
      const starts = specs.map((s) => (s.descending ? Math.min(s.from, top + 1) : s.from));
      const subscribers = specs.map((s, i) =>
        support.subscribe(
          DOCUMENT,
          { from: starts[i], n: s.batchSize, o: s.descending ? 'DESC' : 'ASC', skip: s.skip },
          s.user === undefined ? { 'x-engine-role': 'admin' } : { 'x-engine-role': 'reader', 'x-engine-user-id': String(s.user) },
        ),
      );
      try {
        let next = top + 2;
        for (const step of steps) {
          if ('pauseMs' in step) {
            await new Promise((resolve) => setTimeout(resolve, step.pauseMs));
            continue;
          }
          const added = step.insert.map((r) => ({ id: next++, ...r }));
          rows.push(...added);
          await sql(`insert into entry values ${added.map((r) => `(${r.id}, ${r.grp}, ${r.owner})`).join(', ')}`);
        }
        const wanted = specs.map((s, i) => expected(s, starts[i]!, rows));
        const received = () => subscribers.map((s) => batchesOf(s.results));
        const flat = () => received().map((batches) => batches.flat());
        await waitFor(() => flat().every((ids, i) => ids.length >= wanted[i]!.length));
        // Nothing more comes: every poller runs twice more.
        await pollsPass(2);
        expect(flat()).toEqual(wanted);
        received().forEach((batches, i) => {
          const cap = Math.min(specs[i]!.batchSize, specs[i]!.user === undefined ? Infinity : READER_LIMIT);
          expect((batches as number[][]).every((b) => Array.isArray(b) && b.length > 0 && b.length <= cap)).toBe(true);
        });
      } finally {
        await Promise.all(subscribers.map((s) => s.client.dispose()));
        await waitFor(() => server().streamPollers() === 0);
      }
    }),
    { numRuns: RUNS, seed },
  );
}, 120_000);
