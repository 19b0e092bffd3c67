// The servers that share a database and hold work in it (events, cron invocations, asynchronous
// actions): each beats a heartbeat while it lives, so another server (or the same one started
// again) takes over what a dead one held within seconds, not at the end of its hold.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';

const instances = sql.identifier(CATALOG_SCHEMA, 'engine_instances');

/** How often a holder beats, and how long without a beat makes it dead. */
export const HEARTBEAT_MS = 1000;
export const HOLDER_DEAD_AFTER_SECONDS = 5;

export const INSTANCES_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`create table ${instances} (
    id text primary key,
    started_at timestamptz not null default clock_timestamp(),
    heartbeat_at timestamptz not null default clock_timestamp()
  )`,
];

export const heartbeat = (instance: string) => sql.query`
  insert into ${instances} (id) values (${sql.value(instance)})
  on conflict (id) do update set heartbeat_at = clock_timestamp()`;

/** A clean stop: the holder is gone at once. */
export const forgetInstance = (instance: string) => sql.query`delete from ${instances} where id = ${sql.value(instance)}`;

/** Holders silent for an hour are long gone. */
export const pruneInstances = sql.query`delete from ${instances} where heartbeat_at < clock_timestamp() - interval '1 hour'`;

/**
 * Whether a row of work may be taken: its hold ended, or its holder stopped beating; never one the
 * taker is still delivering itself (`inFlight`), whose hold may have run out while it waits.
 */
export const mayTake = (inFlight: readonly string[]) => sql.query`(
  (locked_until is null or locked_until < clock_timestamp()
   or not exists (select 1 from ${instances} i
                   where i.id = locked_by and i.heartbeat_at > clock_timestamp() - make_interval(secs => ${sql.value(HOLDER_DEAD_AFTER_SECONDS)})))
  and id <> all(${sql.value(inFlight)}::uuid[]))`;

/**
 * The rows of `table` among `ids` that `instance` holds, locked in the order of their ids. Every
 * statement that changes several held rows at once locks them this way first: two such statements
 * of one server (a beat renewing holds while a batch of deliveries settles) then wait for each other
 * instead of each locking a row the other needs next (a deadlock, which would fail one of them).
 */
export const heldInOrder = (table: sql.SQLNode, instance: string, ids: sql.SQL) => sql.query`
  select id from ${table} where locked_by = ${sql.value(instance)} and id = any(${ids}) order by id for update`;

/** A living holder's hold of what it is still delivering lasts while it beats: another server does not take it. */
export const keepHolds = (table: sql.SQLNode, instance: string, ids: readonly string[], seconds: number) => sql.query`
  with held as (${heldInOrder(table, instance, sql.query`${sql.value(ids)}::uuid[]`)})
  update ${table} t set locked_until = greatest(t.locked_until, clock_timestamp() + make_interval(secs => ${sql.value(seconds)}))
    from held where t.id = held.id`;
