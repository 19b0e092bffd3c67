// The logs an engine keeps in its catalog — events and their deliveries, cron and one-off
// invocations, action requests, paused triggers — are the target's history, not metadata: clearing
// the metadata archives the user's own (their trigger is removed), and the cases leave rows of their
// own. A run reads these tables before the cases (every row, by primary key) and afterwards removes
// the rows it finds new and puts back those it finds changed or gone: the user's events are listed
// again and nothing of the run piles up. Rows made while the run lasts are taken for the run's.
import type { Client } from 'pg';

/** The catalogs known, each with its log tables: parents before the logs that point at them. */
export const CATALOG_LOGS: readonly { schema: string; tables: readonly string[] }[] = [
  // The reference server's catalog.
  {
    schema: 'engine_catalog',
    tables: ['event_log', 'event_invocation_log', 'event_trigger_pauses', 'scheduled_event', 'scheduled_invocation_log', 'action_log'],
  },
  // The catalog of the engine this API comes from.
  {
    schema: 'hdb_catalog',
    tables: [
      'event_log',
      'event_invocation_logs',
      'hdb_cron_events',
      'hdb_cron_event_invocation_logs',
      'hdb_scheduled_events',
      'hdb_scheduled_event_invocation_logs',
      'hdb_action_log',
    ],
  },
];

/** One log table as it was: its primary key's columns and every row (as PostgreSQL's to_jsonb writes it). */
export interface SavedLog {
  schema: string;
  table: string;
  key: string[];
  rows: Record<string, unknown>[];
}

const KEY_COLUMNS = `
  select a.attname::text as name
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
   where i.indrelid = to_regclass(format('%I.%I', $1::text, $2::text)) and i.indisprimary
   order by array_position(i.indkey, a.attnum)`;

const tableOf = (client: Client, log: { schema: string; table: string }) => `${client.escapeIdentifier(log.schema)}.${client.escapeIdentifier(log.table)}`;
const keyOf = (log: SavedLog, row: Record<string, unknown>) => JSON.stringify(log.key.map((k) => row[k]));

async function rowsOf(client: Client, log: { schema: string; table: string }): Promise<Record<string, unknown>[]> {
  return (await client.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) as row from ${tableOf(client, log)} t`)).rows.map((r) => r.row);
}

/** The log tables of the catalogs this database has (a table without a primary key cannot be put back, and is left). */
export async function readCatalogLogs(client: Client): Promise<SavedLog[]> {
  const saved: SavedLog[] = [];
  for (const { schema, tables } of CATALOG_LOGS) {
    for (const table of tables) {
      const key = (await client.query<{ name: string }>(KEY_COLUMNS, [schema, table])).rows.map((r) => r.name);
      if (key.length > 0) saved.push({ schema, table, key, rows: await rowsOf(client, { schema, table }) });
    }
  }
  return saved;
}

/** Put the log tables back as `saved` holds them, in one transaction; how many rows were removed and put back. */
export async function restoreCatalogLogs(client: Client, saved: readonly SavedLog[]): Promise<{ removed: number; restored: number }> {
  let removed = 0;
  let restored = 0;
  await client.query('begin');
  try {
    // The run's rows go, the logs that point at others first.
    for (const log of [...saved].reverse()) {
      const key = `jsonb_build_array(${log.key.map((k) => `t.${client.escapeIdentifier(k)}`).join(', ')})`;
      const keys = JSON.stringify(log.rows.map((r) => log.key.map((k) => r[k])));
      removed += (await client.query(`delete from ${tableOf(client, log)} t where ${key} not in (select value from jsonb_array_elements($1::jsonb))`, [keys]))
        .rowCount!;
    }
    // The rows from before that the run changed or removed, as they were.
    for (const log of saved) {
      const now = new Map((await rowsOf(client, log)).map((r) => [keyOf(log, r), JSON.stringify(r)]));
      const changed = log.rows.filter((r) => now.get(keyOf(log, r)) !== JSON.stringify(r));
      if (changed.length === 0) continue;
      const table = tableOf(client, log);
      const columns = Object.keys(changed[0]!).filter((c) => !log.key.includes(c));
      const update =
        columns.length > 0
          ? `update set ${columns.map((c) => `${client.escapeIdentifier(c)} = excluded.${client.escapeIdentifier(c)}`).join(', ')}`
          : 'nothing';
      await client.query(
        `insert into ${table} overriding system value select * from jsonb_populate_recordset(null::${table}, $1::jsonb)
         on conflict (${log.key.map((k) => client.escapeIdentifier(k)).join(', ')}) do ${update}`,
        [JSON.stringify(changed)],
      );
      restored += changed.length;
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
  return { removed, restored };
}
