// The transaction guard of another source's database (decision dec.source.transaction-guard): as
// on the server's own database, a row armed in the request's transaction makes its commit check a
// token that only the engine's own commit carries, so that SQL ending the transaction fails there
// and takes its writes with it. The names differ from the catalog's own, so that a source on the
// server's own database keeps both.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';

const own = (name: string) => sql.identifier(CATALOG_SCHEMA, name);

/**
 * The trigger function of a transaction guard: a commit whose transaction does not carry, in
 * `setting`, the token whose SHA-256 the guard's row holds is refused (the server's own database's
 * guard and the sources' share it).
 */
// The setting's name is part of the function's text (a function body takes no bound values).
const SETTINGS = { 'engine.commit_token': sql.fragment`'engine.commit_token'`, 'engine.source_commit_token': sql.fragment`'engine.source_commit_token'` };

export const refuseForeignCommit = (fn: sql.SQLNode, setting: keyof typeof SETTINGS) =>
  sql.query`create or replace function ${fn}() returns trigger language plpgsql as $guard$
    begin
      if encode(sha256(convert_to(coalesce(current_setting(${SETTINGS[setting]}, true), ''), 'UTF8')), 'hex') is distinct from new.token then
        raise exception 'run_sql may not end the transaction of its request'
          using errcode = 'EA001', hint = 'run_sql runs inside the transaction of the request; leave out COMMIT, ROLLBACK and BEGIN';
      end if;
      return null;
    end
  $guard$`;
const guardTable = own('source_transaction_guard');

/** Whether the source's database has the guard. */
export const hasSourceGuard = sql.query`select to_regclass(${sql.value(`${CATALOG_SCHEMA}.source_transaction_guard`)}) is not null as present`;

/** One at a time: two requests making the guard at once would collide on its names. */
export const lockSourceGuardSetup = sql.query`select pg_advisory_xact_lock(hashtext(${sql.value(`${CATALOG_SCHEMA}.source_transaction_guard`)}))`;

/** What a source's database needs to be guarded: idempotent, run in the request's transaction. */
export const SOURCE_GUARD_SETUP: readonly sql.SQLQuery[] = [
  sql.query`create schema if not exists ${sql.identifier(CATALOG_SCHEMA)}`,
  sql.query`create table if not exists ${guardTable} (token text primary key)`,
  refuseForeignCommit(own('refuse_foreign_source_commit'), 'engine.source_commit_token'),
  sql.query`drop trigger if exists source_transaction_guard_commit on ${guardTable}`,
  sql.query`create constraint trigger source_transaction_guard_commit
    after insert on ${guardTable}
    deferrable initially deferred
    for each row execute procedure ${own('refuse_foreign_source_commit')}()`,
];

/** The row that arms the check: the SHA-256 of the request's token. */
export const armSourceGuard = (tokenHash: string) => sql.query`insert into ${guardTable} (token) values (${sql.value(tokenHash)})`;

/** The engine's own commit (or PREPARE): the row goes, and the transaction carries the token. */
export const disarmSourceGuard = (token: string, tokenHash: string) => sql.query`
  with gone as (delete from ${guardTable} where token = ${sql.value(tokenHash)} returning token)
  select set_config('engine.source_commit_token', ${sql.value(token)}, true) from gone`;
