// What the worker cases on a real database share: the file's database with a schema of their own,
// a server configuration with an admin secret, a pool for the workers and a loopback webhook.
import { type Client, Pool } from 'pg';
import * as sql from 'pg-sql2';
import { useDatabase } from '../../conformance/harness/database';
import { startWebhook, type Webhook } from '../../conformance/harness/webhook';
import { ensureCatalog } from '../src/catalog/catalog';
import { CATALOG_SCHEMA } from '../src/sql/catalog-schema';
import { loadConfig, type EngineConfig } from '../src/config';
import type { Logger } from '../src/log';

export interface WorkerDatabase {
  db: ReturnType<typeof useDatabase>;
  secret: string;
  config: EngineConfig;
  /** Set in beforeAll. */
  pool: () => Pool;
  hook: () => Webhook;
}

/** Registers the hooks that make (and close) the pool and the webhook; `setupSql` runs once. */
export function useWorkerDatabase(secret: string, setupSql: string): WorkerDatabase {
  const db = useDatabase('all');
  const config = loadConfig({
    ENGINE_GRAPHQL_SERVER_PORT: '0',
    ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
    ENGINE_GRAPHQL_PG_CONNECTIONS: '4',
    ENGINE_GRAPHQL_ADMIN_SECRET: secret,
  });
  let pool: Pool | undefined;
  let hook: Webhook | undefined;
  beforeAll(async () => {
    hook = await startWebhook();
    pool = new Pool({ connectionString: db.url, max: 4 });
    // The file's database is dropped (with force) before this file's own afterAll runs.
    pool.on('error', () => {});
    await db.client.query(setupSql);
  });
  afterAll(async () => {
    await pool?.end();
    await hook?.close();
  });
  return { db, secret, config, pool: () => pool!, hook: () => hook! };
}

export interface LoggedLine {
  level: string;
  type: string;
  detail: Record<string, unknown>;
}

/**
 * For cases that run workers on the catalog: the catalog made once, `emptySql` run before each
 * case, a logger whose lines the case reads (emptied before each case; `logged(n)` waits for n), and the workers a case
 * started, stopped after it.
 */
export function useCatalogWorkers<W extends { stop(graceMs?: number): Promise<void> }>(
  fixture: WorkerDatabase,
  emptySql: string,
): { logger: Logger; lines: LoggedLine[]; running: W[]; logged: (count: number) => Promise<void> } {
  const lines: LoggedLine[] = [];
  const running: W[] = [];
  beforeAll(async () => {
    await ensureCatalog(fixture.db.client);
  });
  beforeEach(async () => {
    lines.length = 0;
    await fixture.db.client.query(emptySql);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop(100)));
  });
  // A worker logs after its settling statement returns: a case that saw the row settled waits for the line.
  const logged = async (count: number) => {
    const deadline = Date.now() + 5000;
    while (lines.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return { logger: { log: (level, type, detail) => lines.push({ level, type, detail }) }, lines, running, logged };
}

/** Seconds from now until the hold on row `id` of a catalog table runs out, once a worker holds it. */
export async function secondsHeld(client: Client, table: 'action_log' | 'scheduled_event' | 'event_log', id: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await client.query<{ left: number | null }>(
      sql.compile(
        sql.query`select extract(epoch from locked_until - clock_timestamp())::float8 as left from ${sql.identifier(CATALOG_SCHEMA, table)} where id = ${sql.value(id)}::uuid`,
      ),
    );
    const left = r.rows[0]!.left;
    if (left !== null) return left;
    if (Date.now() > deadline) throw new Error(`${table} ${id} never held`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A row of the event log or of the scheduled events, as the worker cases read it. */
export interface WorkRow {
  state: string;
  tries: number;
  last_error: string | null;
  delivered: boolean;
  locked_by: string | null;
  /** Seconds from now to the next attempt. */
  next_in: number;
}

/** Reads row `id` of a catalog table of events; `until` waits (10 s at most) for it to be as a case wants. */
export function workRows(client: () => Client, table: 'event_log' | 'scheduled_event') {
  const row = async (id: string): Promise<WorkRow> => {
    const r = await client().query<WorkRow>(
      sql.compile(
        sql.query`select state, tries, last_error, delivered_at is not null as delivered, locked_by,
                         extract(epoch from next_attempt_at - clock_timestamp())::float8 as next_in
                    from ${sql.identifier(CATALOG_SCHEMA, table)} where id = ${sql.value(id)}::uuid`,
      ),
    );
    return r.rows[0]!;
  };
  const until = async (id: string, done: (r: WorkRow) => boolean): Promise<WorkRow> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = await row(id);
      if (done(found)) return found;
      if (Date.now() > deadline) throw new Error(`event ${id}: ${JSON.stringify(found)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { row, until };
}

/** A pool that counts the statements run through it, by their text (compared with the text of fragments of sql/). */
export function countingPool(target: Pool) {
  const texts: string[] = [];
  const pool = new Proxy(target, {
    get(on, key) {
      if (key === 'query')
        return (config: string | { text: string }, ...rest: unknown[]) => {
          texts.push(typeof config === 'string' ? config : config.text);
          return (on.query as (...a: unknown[]) => unknown)(config, ...rest);
        };
      const value: unknown = Reflect.get(on, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(on) : value;
    },
  });
  const textOf = (fragment: sql.SQL) => sql.compile(fragment).text;
  const count = (...fragments: sql.SQL[]) => {
    const wanted = new Set(fragments.map(textOf));
    return texts.filter((t) => wanted.has(t)).length;
  };
  return { pool, count, reset: () => (texts.length = 0) };
}
