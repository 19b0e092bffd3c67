// A request that writes to several databases commits on all of them or on none (decision
// dec.source.atomic-commit): the other sources' transactions are prepared, recorded in the catalog,
// and committed once the server's own transaction has committed; recovery finishes what a crash left.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';

const identity = sql.identifier(CATALOG_SCHEMA, 'engine_identity');
const records = sql.identifier(CATALOG_SCHEMA, 'engine_prepared_commit');

export const PREPARED_COMMITS_MIGRATION: readonly sql.SQLQuery[] = [
  // Names this catalog in the gids of its prepared transactions: a source database may be shared
  // with servers of another catalog, whose prepared transactions recovery here must never touch.
  sql.query`create table ${identity} (
    one_row boolean primary key default true check (one_row),
    tag text not null
  )`,
  sql.query`insert into ${identity} (tag) values (md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text))`,
  // A prepared transaction whose request decided to commit: written in the request's own
  // transaction, so that it exists exactly when that transaction committed.
  sql.query`create table ${records} (
    gid text primary key,
    source text not null,
    prepared_at timestamptz not null default clock_timestamp()
  )`,
];

export const readCatalogTag = sql.query`select tag from ${identity}`;

/** What every gid of this catalog begins with. */
export const gidPrefix = (catalogTag: string) => `engine_commit_${catalogTag}_`;

/** A gid goes into the statement's text (PREPARE TRANSACTION takes no parameter): only these characters. */
function gidLiteral(gid: string): sql.SQL {
  if (!/^[a-zA-Z0-9_-]{1,200}$/.test(gid)) throw new Error(`not a gid this server makes: ${gid}`);
  return sql.literal(gid);
}

export const prepareTransaction = (gid: string) => sql.query`prepare transaction ${gidLiteral(gid)}`;
export const commitPrepared = (gid: string) => sql.query`commit prepared ${gidLiteral(gid)}`;
export const rollbackPrepared = (gid: string) => sql.query`rollback prepared ${gidLiteral(gid)}`;

export const recordPrepared = (prepared: readonly { gid: string; source: string }[]) => sql.query`
  insert into ${records} (gid, source)
  select * from unnest(${sql.value(prepared.map((p) => p.gid))}::text[], ${sql.value(prepared.map((p) => p.source))}::text[])`;
export const forgetPrepared = (gids: readonly string[]) => sql.query`delete from ${records} where gid = any(${sql.value(gids)}::text[])`;
export const readPreparedRecords = sql.query`select gid, source from ${records}`;

/** The transactions this catalog's servers prepared in the connection's database. */
export const preparedHere = (catalogTag: string) => sql.query`
  select gid from pg_prepared_xacts
   where database = current_database() and left(gid, ${sql.value(gidPrefix(catalogTag).length)}) = ${sql.value(gidPrefix(catalogTag))}`;

/** Whether the database can prepare transactions at all. */
export const preparedTransactionsAllowed = sql.query`select current_setting('max_prepared_transactions')::int > 0 as allowed`;
