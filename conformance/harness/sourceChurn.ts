// GraphQL requests on a source while the metadata drops, renames and adds it again in a loop: what
// each request was answered, counted by kind, for the cases that check that none fails on the
// server's side (a 5xx, an `unexpected` code) and that every insert answered 200 is in the table.

/** How a request is sent (the conformance target's, or a server process's of a reliability test). */
export interface ChurnTarget {
  /** A GraphQL request as admin, or as `role` when given. */
  graphql(query: string, role?: string): Promise<{ status: number; body: unknown }>;
  metadata(envelope: unknown): Promise<{ status: number; body: unknown }>;
}

/** The table the requests read and write, in the source's database. */
export const CHURN_TABLE_SQL = 'create table if not exists public.churn_item (id serial primary key, note text not null unique)';

/** The role the requests are sent as every other time: its plans wait their turn for a connection. */
export const CHURN_ROLE = 'churner';

const all = { columns: ['id', 'note'], filter: {} };

/** The source with the table tracked, as replace_metadata takes it. */
export const churnSource = (name: string, url: string) => ({
  name,
  kind: 'postgres',
  // Few connections: requests wait for one while the source goes.
  configuration: { connection_info: { database_url: url, pool_settings: { max_connections: 2 } } },
  tables: [
    {
      table: { schema: 'public', name: 'churn_item' },
      insert_permissions: [{ role: CHURN_ROLE, permission: { columns: ['note'], check: {} } }],
      select_permissions: [{ role: CHURN_ROLE, permission: all }],
    },
  ],
});

/** One turn of the loop: each of these in order (a metadata request answered other than 200 fails the run). */
export const churnSteps = (url: string): unknown[] => [
  { type: 'pg_drop_source', args: { name: 'churned', cascade: true } },
  { type: 'replace_metadata', args: { version: 2, tables: [], sources: [churnSource('churned', url)] } },
  { type: 'rename_source', args: { name: 'churned', new_name: 'churned_renamed' } },
  { type: 'replace_metadata', args: { version: 2, tables: [] } },
  { type: 'replace_metadata', args: { version: 2, tables: [], sources: [churnSource('churned', url)] } },
];

export interface ChurnCounts {
  /** `<status> <code or "data">` → how many answers. */
  outcomes: Record<string, number>;
  /** The notes of the inserts answered 200 with their row. */
  inserted: string[];
  /** The answers neither 200 with data nor a GraphQL error of the request (status and body), the first few. */
  failures: unknown[];
  turns: number;
  requests: number;
}

/** The GraphQL error codes a request meeting a source that went may be answered with. */
export const CLEAR_CODES = ['validation-failed', 'not-exists'];

const codeOf = (body: unknown): string | undefined => {
  const errors = (body as { errors?: { extensions?: { code?: string } }[] } | undefined)?.errors;
  return errors?.[0]?.extensions?.code ?? (body as { code?: string } | undefined)?.code;
};

/**
 * Runs `workers` request loops (reads and inserts in turn) while the metadata goes through
 * churnSteps, until `turns` turns are done and at least `minMs` have passed.
 */
export async function churn(target: ChurnTarget, url: string, options: { workers: number; turns: number; minMs: number; tag: string }): Promise<ChurnCounts> {
  const counts: ChurnCounts = { outcomes: {}, inserted: [], failures: [], turns: 0, requests: 0 };
  let stop = false;
  let sequence = 0;
  const count = (status: number, body: unknown) => {
    const data = (body as { data?: unknown } | undefined)?.data;
    const code = codeOf(body);
    const key = `${status} ${code ?? (data !== undefined ? 'data' : 'none')}`;
    counts.outcomes[key] = (counts.outcomes[key] ?? 0) + 1;
    counts.requests++;
    const clear = status === 200 && (code === undefined ? data !== undefined && data !== null : CLEAR_CODES.includes(code));
    if (!clear && counts.failures.length < 5) counts.failures.push({ status, body });
  };
  const worker = async (index: number) => {
    while (!stop) {
      const note = `${options.tag}-${index}-${sequence++}`;
      const write = sequence % 2 === 0;
      const role = sequence % 4 < 2 ? CHURN_ROLE : undefined;
      const query = write
        ? `mutation { insert_churn_item_one(object: {note: "${note}"}) { note } }`
        : '{ churn_item(limit: 2, order_by: {id: desc}) { id note } }';
      const answer = await target.graphql(query, role);
      count(answer.status, answer.body);
      const row = (answer.body as { data?: { insert_churn_item_one?: { note: string } } } | undefined)?.data?.insert_churn_item_one;
      if (answer.status === 200 && row?.note === note) counts.inserted.push(note);
    }
  };
  const started = Date.now();
  const turning = (async () => {
    try {
      while (counts.turns < options.turns || Date.now() - started < options.minMs) {
        for (const step of churnSteps(url)) {
          const done = await target.metadata(step);
          if (done.status !== 200) throw new Error(`${JSON.stringify(step)} answered ${done.status} ${JSON.stringify(done.body)}`);
        }
        counts.turns++;
      }
    } finally {
      stop = true;
    }
  })();
  await Promise.all([turning, ...Array.from({ length: options.workers }, (_, i) => worker(i))]);
  return counts;
}
