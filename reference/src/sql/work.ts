// Work for the background workers, announced: an insert into the event log, the scheduled events or
// the action log notifies the channel with the worker's name when its transaction commits, so a
// worker looks at once rather than at its next fetch interval (which only bounds how late work
// found otherwise is: retries, scheduled times, and anything missed while the listener was away).
// At most one insert per kind and ANNOUNCE_EVERY_MS notifies: PostgreSQL lets only one notifying
// transaction of a database commit at a time, which would make every captured write wait for the
// others. A worker looks once more shortly after an announcement for what came in its shadow.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';

const catalog = (name: string) => sql.identifier(CATALOG_SCHEMA, name);
const WORK_CHANNEL = 'engine_work';

/** The workers, by the payload their notifications carry. */
export type WorkKind = 'events' | 'scheduled' | 'actions';
const WORK_TABLES: Record<WorkKind, string> = { events: 'event_log', scheduled: 'scheduled_event', actions: 'action_log' };

export const WORK_MIGRATION: readonly sql.SQLQuery[] = [
  // Once per statement: a bulk insert of captured rows notifies once (and PostgreSQL sends one
  // notification per channel and payload per transaction).
  sql.query`create function ${catalog('notify_work')}() returns trigger language plpgsql as $notify$
    begin
      perform pg_notify(${sql.literal(WORK_CHANNEL)}, tg_argv[0]);
      return null;
    end
  $notify$`,
  ...Object.entries(WORK_TABLES).map(
    ([kind, table]) =>
      sql.query`create trigger ${sql.identifier(`${table}_notify_work`)} after insert on ${catalog(table)}
        for each statement execute function ${catalog('notify_work')}(${sql.literal(kind)})`,
  ),
];

/** The shortest time between two announcements of one kind of work. */
export const ANNOUNCE_EVERY_MS = 50;

/** When each kind of work was last announced (ms since 1970): a sequence, which no transaction waits for. */
const announcedAt = (kind: string) => `work_announced_${kind}`;

export const WORK_ANNOUNCE_AT_MOST_MIGRATION: readonly sql.SQLQuery[] = [
  ...Object.keys(WORK_TABLES).map((kind) => sql.query`create sequence ${catalog(announcedAt(kind))} minvalue 0`),
  // Security definer: whoever writes captured rows may read and set the sequence, as anyone may notify.
  sql.query`create or replace function ${catalog('notify_work')}() returns trigger language plpgsql
    security definer set search_path = pg_catalog, pg_temp as $notify$
    declare
      announced regclass := (select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
                              where n.nspname = ${sql.literal(CATALOG_SCHEMA)} and c.relname = ${sql.literal(announcedAt(''))} || tg_argv[0]);
      now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
      last_ms bigint := pg_sequence_last_value(announced);
    begin
      -- A clock set back announces at once rather than never.
      if last_ms is null or now_ms - last_ms >= ${sql.literal(ANNOUNCE_EVERY_MS)} or now_ms < last_ms then
        perform setval(announced, now_ms);
        perform pg_notify(${sql.literal(WORK_CHANNEL)}, tg_argv[0]);
      end if;
      return null;
    end
  $notify$`,
];

/**
 * The same, with the kind's sequence named rather than looked up by a query of pg_class, which ran
 * once per captured statement (8 single-row writers into a table with an event trigger, no server
 * running, 5 rounds: 58 % of the inserts into a table without one with the lookup, 64 % with the
 * name, 69 % with no announcing at all).
 */
export const WORK_ANNOUNCE_NAMED_SEQUENCE_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`create or replace function ${catalog('notify_work')}() returns trigger language plpgsql
    security definer set search_path = pg_catalog, pg_temp as $notify$
    declare
      announced regclass := (quote_ident(${sql.literal(CATALOG_SCHEMA)}) || '.' || quote_ident(${sql.literal(announcedAt(''))} || tg_argv[0]))::regclass;
      now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
      last_ms bigint := pg_sequence_last_value(announced);
    begin
      -- A clock set back announces at once rather than never.
      if last_ms is null or now_ms - last_ms >= ${sql.literal(ANNOUNCE_EVERY_MS)} or now_ms < last_ms then
        perform setval(announced, now_ms);
        perform pg_notify(${sql.literal(WORK_CHANNEL)}, tg_argv[0]);
      end if;
      return null;
    end
  $notify$`,
];

export const listenForWork = sql.query`listen ${sql.identifier(WORK_CHANNEL)}`;
export const isWorkChannel = (channel: string) => channel === WORK_CHANNEL;
export const isWorkKind = (payload: string | undefined): payload is WorkKind => payload !== undefined && Object.hasOwn(WORK_TABLES, payload);

/**
 * The announcement as a block of the capture function itself (sql/events.ts), for captured rows:
 * the statement trigger on the event log, a function with its own rights and settings run after
 * every captured statement, cost writers more than the announcing (8 single-row writers into a
 * table with an event trigger, no server running, 5 rounds: 63 % of the inserts into a table
 * without one with the trigger, 70 % with this block, 71 % with no announcing at all). It runs with
 * the writer's rights: the kind's sequence is readable and settable by anyone who may use the
 * catalog's schema (setting it can only make an announcement come sooner or later than it would;
 * the workers look at their fetch interval anyway).
 */
export const announceBlock = (kind: WorkKind) => sql.fragment`declare
        announced regclass := (quote_ident(${sql.literal(CATALOG_SCHEMA)}) || '.' || quote_ident(${sql.literal(announcedAt(kind))}))::regclass;
        now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
        last_ms bigint := pg_sequence_last_value(announced);
      begin
        -- A clock set back announces at once rather than never.
        if last_ms is null or now_ms - last_ms >= ${sql.literal(ANNOUNCE_EVERY_MS)} or now_ms < last_ms then
          perform setval(announced, now_ms);
          perform pg_notify(${sql.literal(WORK_CHANNEL)}, ${sql.literal(kind)});
        end if;
      end;`;

/**
 * Catalog migration: what the capture function announces (`announceBlock`), the event log's
 * trigger leaves alone: it announces only inserts not made by a trigger (the server's own, such as
 * a manual invocation).
 */
export const WORK_ANNOUNCED_BY_CAPTURE_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`grant select, update on sequence ${catalog(announcedAt('events'))} to public`,
  sql.query`drop trigger ${sql.identifier(`${WORK_TABLES.events}_notify_work`)} on ${catalog(WORK_TABLES.events)}`,
  sql.query`create trigger ${sql.identifier(`${WORK_TABLES.events}_notify_work`)} after insert on ${catalog(WORK_TABLES.events)}
    for each statement when (pg_trigger_depth() < 1) execute function ${catalog('notify_work')}(${sql.literal('events')})`,
];
