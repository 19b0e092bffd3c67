// The only place where SQL text is made. Identifiers go through sql.identifier, values are
// always bound parameters; the single exception is run_sql, whose text *is* the request.
import * as sql from 'pg-sql2';
import type { QueryResultRow } from 'pg';
import type { ConnectionInfo } from '../../../spec';

export type Fragment = sql.SQLQuery | sql.SQLNode;

export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(config: { text: string; values?: unknown[] }): Promise<{ rows: R[] }>;
}

export async function run<R extends QueryResultRow = QueryResultRow>(db: Queryable, fragment: Fragment): Promise<R[]> {
  const { text, values } = sql.compile(fragment);
  return (await db.query<R>({ text, values })).rows;
}

import { CATALOG_SCHEMA } from './catalog-schema';

export { CATALOG_SCHEMA };
export * from './introspection';
export * from './events';
export * from './sourceEvents';
export * from './sourceGuard';
export * from './scheduled';
export * from './actions';
export * from './instances';
export * from './work';
export * from './catalogState';
export * from './preparedCommits';
import { INSTANCES_MIGRATION } from './instances';
import { WORK_ANNOUNCE_AT_MOST_MIGRATION, WORK_ANNOUNCE_NAMED_SEQUENCE_MIGRATION, WORK_ANNOUNCED_BY_CAPTURE_MIGRATION, WORK_MIGRATION } from './work';
import {
  EVENTS_ARCHIVE_MIGRATION,
  EVENTS_CAPTURE_ANNOUNCES_MIGRATION,
  EVENTS_DUE_BY_TRIGGER_MIGRATION,
  EVENTS_MIGRATION,
  EVENTS_PAUSE_MIGRATION,
} from './events';
import { SCHEDULED_ARCHIVE_MIGRATION, SCHEDULED_MIGRATION } from './scheduled';
import { ACTIONS_MIGRATION } from './actions';
import { CATALOG_STATE_MIGRATION } from './catalogState';
import { PREPARED_COMMITS_MIGRATION } from './preparedCommits';
import { refuseForeignCommit } from './sourceGuard';
const catalog = (table: string) => sql.identifier(CATALOG_SCHEMA, table);

/** Serialises metadata changes across all servers that share the database. */
const CATALOG_LOCK_KEY = 7_301_517_263;

export const begin = sql.query`begin`;
export const beginReadWrite = sql.query`begin read write`;
type IsolationLevel = NonNullable<ConnectionInfo['isolation_level']>;
/** PostgreSQL's words for the engine's isolation levels. */
const ISOLATION_LEVELS: Readonly<Record<IsolationLevel, Fragment>> = {
  'read-committed': sql.fragment`read committed`,
  'repeatable-read': sql.fragment`repeatable read`,
  serializable: sql.fragment`serializable`,
};
/** A transaction at `level` (none: the database's default), read-write or read only. */
export const beginAt = (level: IsolationLevel | undefined, access: 'read write' | 'read only') => {
  const mode = access === 'read write' ? sql.fragment`read write` : sql.fragment`read only`;
  return level ? sql.query`begin isolation level ${ISOLATION_LEVELS[level]} ${mode}` : sql.query`begin ${mode}`;
};
/**
 * Taken by every metadata transaction before the catalog lock, in its first statement: LOCK takes no
 * snapshot, so a transaction at repeatable read or serializable takes its snapshot after the one
 * before it committed, and reads the metadata that one wrote. The table is never written.
 */
export const lockMetadataAnchor = sql.query`lock table ${catalog('engine_metadata_lock')} in exclusive mode`;
/** On a connection that will run user SQL: a transaction that this server did not begin is read
 *  only, and strings are read as run_sql's check reads them (operations/transactionControl.ts). */
export const defaultReadOnly = sql.query`select set_config('default_transaction_read_only', 'on', false),
  set_config('standard_conforming_strings', 'on', false)`;
/**
 * A session as it was opened, after user SQL ran in it, so that its connection can serve the next
 * request: DISCARD ALL's steps (settings and role, cursors, LISTEN, advisory locks, plans, temporary
 * objects, sequences), except that the statements this server prepared through the protocol stay
 * (node-postgres remembers them); those the user's PREPARE made go. Sent outside any transaction.
 */
export const resetSession = sql.query`close all; set session authorization default; reset all; unlisten *;
  select pg_advisory_unlock_all(); discard plans; discard temp; discard sequences;
  do $$ declare s record; begin
    for s in select name from pg_prepared_statements where from_sql loop execute format('deallocate %I', s.name); end loop;
  end $$`;
/** A read-only transaction that has run a query: SET TRANSACTION READ WRITE is refused from here on. */
export const takeSnapshot = sql.query`select 1 as snapshot`;
export const transactionId = sql.query`select txid_current()::text as xid`;
/** When the current transaction began: another value means run_sql's text ended the one the request began. */
export const transactionStart = sql.query`select transaction_timestamp()::text as started`;
export const assignedTransactionId = sql.query`select txid_current_if_assigned()::text as xid`;
/** The guard's row holds the SHA-256 of a secret token: SQL that reads the row cannot commit with it. */
export const armTransactionGuard = (tokenHash: string) =>
  sql.query`insert into ${catalog('engine_transaction_guard')} (token) values (${sql.value(tokenHash)})`;
/** The request's own commit: the guard's row goes, and the commit carries the token itself. */
export const disarmTransactionGuard = (token: string, tokenHash: string) => sql.query`
  with gone as (delete from ${catalog('engine_transaction_guard')} where token = ${sql.value(tokenHash)} returning token)
  select set_config('engine.commit_token', ${sql.value(token)}, true) from gone`;
export const beginReadOnly = sql.query`begin read only`;
export const savepoint = (name: string) => sql.query`savepoint ${sql.identifier(name)}`;
export const releaseSavepoint = (name: string) => sql.query`release savepoint ${sql.identifier(name)}`;
export const rollbackToSavepoint = (name: string) => sql.query`rollback to savepoint ${sql.identifier(name)}`;
/** A plan node of EXPLAIN (FORMAT JSON, VERBOSE): the relation it scans, if any, and the nodes under it. */
interface PlanNode {
  'Total Cost': number;
  Schema?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
/** A table a statement reads. */
export interface ScannedTable {
  schema: string;
  name: string;
}
/** The tables a plan scans, each once. */
function scannedTables(node: PlanNode, into = new Map<string, ScannedTable>()): Map<string, ScannedTable> {
  if (node.Schema !== undefined && node['Relation Name'] !== undefined)
    into.set(JSON.stringify([node.Schema, node['Relation Name']]), { schema: node.Schema, name: node['Relation Name'] });
  for (const child of node.Plans ?? []) scannedTables(child, into);
  return into;
}
/**
 * The planner's estimate of a statement compiled by sql/graphql: its text (with its own $n
 * placeholders) under EXPLAIN, its values bound as they were; with the tables it scans.
 */
export async function explainCompiled(db: Queryable, text: string, values: readonly unknown[]): Promise<{ cost: number; tables: ScannedTable[] }> {
  const explain = sql.compile(sql.query`explain (format json, verbose) ${sql.raw(text)}`);
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({ text: explain.text, values: [...values] });
  const plan = rows[0]?.['QUERY PLAN'][0].Plan;
  return plan ? { cost: plan['Total Cost'], tables: [...scannedTables(plan).values()] } : { cost: 0, tables: [] };
}
/**
 * Of these tables, those PostgreSQL has never analyzed (nor vacuumed): the planner assumes ten
 * pages of rows in each, whatever they hold.
 */
export const neverAnalyzed = (tables: readonly ScannedTable[]) => sql.query`
  select n.nspname as schema, c.relname as name
  from unnest(${sql.value(tables.map((t) => t.schema))}::text[], ${sql.value(tables.map((t) => t.name))}::text[]) as t(schema, name)
  join pg_namespace n on n.nspname = t.schema
  join pg_class c on c.relnamespace = n.oid and c.relname = t.name
  where c.relkind in ('r', 'm', 'p') and c.reltuples < 0`;
/** Statistics for one table: from then on the planner estimates it by its pages. */
export const analyzeTable = (table: ScannedTable) => sql.query`analyze ${sql.identifier(table.schema, table.name)}`;
/** Planning a query folds its constant casts: a value that does not fit its column fails here. */
export const planOf = (query: Fragment) => sql.query`explain ${query}`;
export const commit = sql.query`commit`;
export const rollback = sql.query`rollback`;
export const lockCatalog = sql.query`select pg_advisory_xact_lock(${sql.value(CATALOG_LOCK_KEY)})`;
/** The catalog lock, held past the transaction's end: a request keeps it until its prepared transactions are committed. */
export const holdCatalogLock = sql.query`select pg_advisory_lock(${sql.value(CATALOG_LOCK_KEY)})`;
export const releaseCatalogLock = sql.query`select pg_advisory_unlock(${sql.value(CATALOG_LOCK_KEY)})`;
/** The catalog lock for the transaction, unless another holds it now. */
export const tryLockCatalog = sql.query`select pg_try_advisory_xact_lock(${sql.value(CATALOG_LOCK_KEY)}) as locked`;
export const ping = sql.query`select 1 as ok`;
/** Cancel what another connection of this server runs (its client went away). */
export const cancelBackend = (pid: number) => sql.query`select pg_cancel_backend(${sql.value(pid)})`;

export const catalogState = sql.query`
  select
    exists (select 1 from pg_namespace where nspname = ${sql.value(CATALOG_SCHEMA)}) as schema_exists,
    to_regclass(${sql.value(`${CATALOG_SCHEMA}.engine_version`)}) is not null as version_table_exists`;
export const readCatalogVersion = sql.query`select version from ${catalog('engine_version')}`;

/** Catalog migrations, in order: entry i takes the catalog from version i to version i + 1. */
export const CATALOG_MIGRATIONS: readonly (readonly Fragment[])[] = [
  [
    sql.query`create schema ${sql.identifier(CATALOG_SCHEMA)}`,
    sql.query`create table ${catalog('engine_version')} (
      version text not null,
      upgraded_on timestamptz not null default now(),
      one_row boolean primary key default true check (one_row)
    )`,
    sql.query`create table ${catalog('engine_metadata')} (
      id integer primary key check (id = 1),
      metadata json not null,
      resource_version integer not null
    )`,
    sql.query`insert into ${catalog('engine_metadata')} (id, metadata, resource_version)
      values (1, ${sql.value(JSON.stringify({ version: 2, tables: [] }))}::json, 1)`,
    sql.query`insert into ${catalog('engine_version')} (version) values ('0')`,
  ],
  [
    // A row here arms a check at commit: the commit must carry the row's token, which only the
    // request's own commit does. A COMMIT in run_sql's text fails, and the transaction with it.
    sql.query`create table ${catalog('engine_transaction_guard')} (token text primary key)`,
    sql.query`create function ${catalog('engine_refuse_foreign_commit')}() returns trigger language plpgsql as $guard$
      begin
        if current_setting('engine.commit_token', true) is distinct from new.token then
          raise exception 'run_sql may not end the transaction of its request'
            using errcode = 'EA001', hint = 'run_sql runs inside the transaction of the request; leave out COMMIT, ROLLBACK and BEGIN';
        end if;
        return null;
      end
    $guard$`,
    sql.query`create constraint trigger engine_transaction_guard_commit
      after insert on ${catalog('engine_transaction_guard')}
      deferrable initially deferred
      for each row execute procedure ${catalog('engine_refuse_foreign_commit')}()`,
  ],
  // Event triggers: the event log, its deliveries, and the function the database triggers call.
  EVENTS_MIGRATION,
  // Cron triggers and one-off scheduled events.
  SCHEDULED_MIGRATION,
  // Asynchronous actions.
  ACTIONS_MIGRATION,
  // Events of removed event and cron triggers are archived.
  [...EVENTS_ARCHIVE_MIGRATION, ...SCHEDULED_ARCHIVE_MIGRATION],
  // The guard compares the commit's token with the hash its row holds, not with the row itself.
  [refuseForeignCommit(catalog('engine_refuse_foreign_commit'), 'engine.commit_token')],
  // Holders of events, cron invocations and action requests beat a heartbeat; deliveries may be paused.
  [...INSTANCES_MIGRATION, ...EVENTS_PAUSE_MIGRATION],
  // New work is announced to the workers.
  WORK_MIGRATION,
  // At most once per kind in a short window.
  WORK_ANNOUNCE_AT_MOST_MIGRATION,
  // Claims read the due events of triggers that are not paused, by trigger.
  EVENTS_DUE_BY_TRIGGER_MIGRATION,
  // Announcing reads its sequence by name.
  WORK_ANNOUNCE_NAMED_SEQUENCE_MIGRATION,
  // Captured rows are announced by the capture function, not by a trigger on the event log.
  [...WORK_ANNOUNCED_BY_CAPTURE_MIGRATION, ...EVENTS_CAPTURE_ANNOUNCES_MIGRATION],
  // The state of the server's tools: the CLI's applied migrations, the console's settings.
  CATALOG_STATE_MIGRATION,
  // Transactions prepared on other sources by a request that writes to several databases.
  PREPARED_COMMITS_MIGRATION,
  // Metadata transactions lock this table before anything takes their snapshot (lockMetadataAnchor).
  [sql.query`create table ${catalog('engine_metadata_lock')} ()`],
];

export const setCatalogVersion = (version: string) => sql.query`update ${catalog('engine_version')} set version = ${sql.value(version)}, upgraded_on = now()`;

export const readMetadata = sql.query`select metadata, resource_version from ${catalog('engine_metadata')} where id = 1`;
export const readResourceVersion = sql.query`select resource_version from ${catalog('engine_metadata')} where id = 1`;

export const writeMetadata = (document: unknown) => sql.query`
  update ${catalog('engine_metadata')}
     set metadata = ${sql.value(JSON.stringify(document))}::json, resource_version = resource_version + 1
   where id = 1
  returning resource_version`;

/** The channel on which servers sharing a database tell each other of metadata and schema changes. */
const CHANGES_CHANNEL = 'engine_metadata_changes';
export const listenForChanges = sql.query`listen ${sql.identifier(CHANGES_CHANNEL)}`;
/** Sent inside the changing transaction: delivered to listeners when it commits. */
export const notifyChange = (payload: string) => sql.query`select pg_notify(${sql.value(CHANGES_CHANNEL)}, ${sql.value(payload)})`;
export const isChangesChannel = (channel: string) => channel === CHANGES_CHANNEL;

/** run_sql: the request's own SQL text, sent as a simple query (several statements allowed). */
export const userStatement = (text: string) => sql.raw(text);

export interface UserStatementResult {
  command: string | null;
  fields: { name: string }[];
  rows: unknown[][];
}

/**
 * Run run_sql's text with the simple query protocol (so several statements may be sent) and
 * every value left as PostgreSQL's text; returns the result of each statement.
 */
/**
 * Before and after each run_sql text, in its transaction: the settings that change how PostgreSQL
 * reads a query's text as run_sql's check reads it (operations/transactionControl.ts), whatever
 * an earlier statement of the request set. PostgreSQL parses a text whole before running any of it,
 * so a SET inside a text cannot change how the rest of that text is read.
 */
export const textReadAsChecked = sql.query`select set_config('standard_conforming_strings', 'on', true), set_config('client_encoding', 'UTF8', true)`;

export async function runUserStatement(db: { query(config: object): Promise<unknown> }, text: string): Promise<UserStatementResult[]> {
  const compiled = sql.compile(userStatement(text));
  const result = await db.query({
    text: compiled.text,
    rowMode: 'array',
    types: { getTypeParser: () => (value: string) => value },
  });
  const results = (Array.isArray(result) ? result : [result]) as UserStatementResult[];
  return results.map((r) => ({ command: r.command ?? null, fields: r.fields ?? [], rows: r.rows ?? [] }));
}
