// Cron triggers and one-off scheduled events in SQL (SPEC.md §2.5): the catalog's scheduled
// invocations and their attempts, and the queries of the scheduler.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';
import { keepHolds, mayTake } from './instances';

const catalog = (name: string) => sql.identifier(CATALOG_SCHEMA, name);
const scheduled = catalog('scheduled_event');
const attempts = catalog('scheduled_invocation_log');

export const SCHEDULED_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`create table ${scheduled} (
    id uuid primary key default gen_random_uuid(),
    kind text not null check (kind in ('cron', 'one_off')),
    trigger_name text,
    scheduled_time timestamptz not null,
    -- One-off events carry what they send; cron invocations take it from their trigger.
    webhook text,
    payload jsonb,
    headers jsonb,
    retry_conf jsonb,
    comment text,
    state text not null default 'scheduled' check (state in ('scheduled', 'delivered', 'dead')),
    tries integer not null default 0,
    next_attempt_at timestamptz not null,
    locked_until timestamptz,
    locked_by text,
    delivered_at timestamptz,
    last_error text,
    created_at timestamptz not null default clock_timestamp(),
    unique (trigger_name, scheduled_time)
  )`,
  sql.query`create index scheduled_event_due on ${scheduled} (next_attempt_at) where state = 'scheduled'`,
  sql.query`create table ${attempts} (
    id bigserial primary key,
    event_id uuid not null,
    attempt integer not null,
    status integer,
    request jsonb not null,
    response jsonb not null,
    duration_ms integer not null,
    created_at timestamptz not null default clock_timestamp()
  )`,
  sql.query`create index scheduled_invocation_log_event on ${attempts} (event_id)`,
];

/**
 * Catalog migration: invocations of a removed cron trigger are archived, so that a new trigger of
 * the same name neither lists them nor goes on from their times. Those of triggers gone before
 * this migration are archived by it.
 */
export const SCHEDULED_ARCHIVE_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`alter table ${scheduled} add column archived boolean not null default false`,
  sql.query`update ${scheduled} set archived = true
    where kind = 'cron' and trigger_name not in (
      select jsonb_path_query(metadata::jsonb, '$.cron_triggers[*].name') #>> '{}' from ${catalog('engine_metadata')})`,
];

/**
 * In the transaction that removes cron triggers, after the metadata row is written (that row fences
 * the scheduler's writes: insertCronInvocations): their invocations yet to come that no server has
 * taken go, then all the others are archived — one whose delivery is settling meanwhile too, since
 * the archiving waits for that settlement and then applies to what it wrote.
 */
export const removeCronInvocations = (triggers: readonly string[]): sql.SQLQuery[] => [
  sql.query`delete from ${scheduled}
   where kind = 'cron' and trigger_name = any(${sql.value(triggers)}::text[]) and not archived
     and state = 'scheduled' and tries = 0 and locked_by is null`,
  sql.query`update ${scheduled}
     set archived = true,
         state = case when state = 'scheduled' then 'dead' else state end,
         last_error = case when state = 'scheduled' then 'the cron trigger was removed' else last_error end,
         locked_until = null, locked_by = null
   where kind = 'cron' and trigger_name = any(${sql.value(triggers)}::text[]) and not archived`,
];

/** The latest invocation of each cron trigger that has one: generation goes on from there. */
export const latestCronInvocations = sql.query`
  select trigger_name, max(scheduled_time) as latest from ${scheduled} where kind = 'cron' and not archived group by trigger_name`;

/**
 * Invocations of a cron trigger; one already there (made by another server) stays as it is.
 * `madeFrom`: the resource version of the metadata the times were computed from: nothing is written
 * when the stored metadata is newer. The stored row is read with a lock, so a metadata change either
 * commits first (and nothing is written) or waits for this write (and then archives what it removes).
 */
export const insertCronInvocations = (trigger: string, times: Date[], madeFrom?: number) => sql.query`
  with stored as (select resource_version from ${catalog('engine_metadata')} where id = 1 for share)
  insert into ${scheduled} (kind, trigger_name, scheduled_time, next_attempt_at)
  select 'cron', ${sql.value(trigger)}, t, t from unnest(${sql.value(times.map((d) => d.toISOString()))}::timestamptz[]) as t
   where ${sql.value(madeFrom ?? null)}::bigint is null or (select resource_version from stored) <= ${sql.value(madeFrom ?? null)}::bigint
  on conflict (trigger_name, scheduled_time) do nothing`;

export const insertOneOff = (e: {
  webhook: string;
  scheduleAt: string;
  payload: unknown;
  headers: unknown;
  retryConf: unknown;
  comment: string | null;
}) => sql.query`
  insert into ${scheduled} (kind, scheduled_time, next_attempt_at, webhook, payload, headers, retry_conf, comment)
  values ('one_off', ${sql.value(e.scheduleAt)}::timestamptz, ${sql.value(e.scheduleAt)}::timestamptz, ${sql.value(e.webhook)},
          ${sql.value(JSON.stringify(e.payload))}::jsonb, ${sql.value(JSON.stringify(e.headers))}::jsonb, ${sql.value(JSON.stringify(e.retryConf))}::jsonb, ${sql.value(e.comment)})
  returning id::text as event_id`;

/** A cron trigger replaced by another definition: its invocations yet to come follow the new one. */
export const deleteCronInvocations = (trigger: string) =>
  sql.query`delete from ${scheduled} where kind = 'cron' and trigger_name = ${sql.value(trigger)} and state = 'scheduled'`;

export const deleteScheduled = (kind: string, id: string) => sql.query`
  delete from ${scheduled} where kind = ${sql.value(kind)} and id::text = ${sql.value(id)} and state = 'scheduled' returning id::text as id`;

export interface ScheduledRow {
  id: string;
  kind: 'cron' | 'one_off';
  trigger_name: string | null;
  scheduled_time: string;
  webhook: string | null;
  payload: unknown;
  headers: unknown;
  retry_conf: unknown;
  comment: string | null;
  tries: number;
  late_seconds: number;
}

export const keepScheduledHolds = (instance: string, ids: readonly string[], seconds: number) => keepHolds(scheduled, instance, ids, seconds);

export const claimScheduled = (limit: number, lockSeconds: number, instance: string, inFlight: readonly string[]) => sql.query`
  with due as (
    select id from ${scheduled}
     where state = 'scheduled' and not archived and next_attempt_at <= clock_timestamp() and ${mayTake(inFlight)}
     order by next_attempt_at limit ${sql.value(limit)} for update skip locked)
  update ${scheduled} e set locked_until = clock_timestamp() + make_interval(secs => ${sql.value(lockSeconds)}), locked_by = ${sql.value(instance)}
    from due where e.id = due.id
  returning e.id::text as id, e.kind, e.trigger_name,
            to_char(e.scheduled_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as scheduled_time,
            e.webhook, e.payload, e.headers, e.retry_conf, e.comment, e.tries,
            extract(epoch from clock_timestamp() - e.scheduled_time)::float8 as late_seconds`;

export const settleScheduled = (
  a: { eventId: string; attempt: number; status: number | null; request: unknown; response: unknown; durationMs: number } | undefined,
  eventId: string,
  instance: string,
  outcome: { state: 'delivered' | 'dead' } | { retryInSeconds: number },
  error: string | null,
) => sql.query`
  with logged as (${
    a
      ? sql.query`insert into ${attempts} (event_id, attempt, status, request, response, duration_ms)
          values (${sql.value(a.eventId)}::uuid, ${sql.value(a.attempt)}, ${sql.value(a.status)}, ${sql.value(JSON.stringify(a.request))}::jsonb, ${sql.value(JSON.stringify(a.response))}::jsonb, ${sql.value(a.durationMs)})`
      : sql.query`select 1`
  })
  update ${scheduled}
     set tries = tries + ${sql.value(a ? 1 : 0)},
         state = ${sql.value('state' in outcome ? outcome.state : 'scheduled')},
         next_attempt_at = clock_timestamp() + make_interval(secs => ${sql.value('retryInSeconds' in outcome ? outcome.retryInSeconds : 0)}),
         delivered_at = case when ${sql.value('state' in outcome && outcome.state === 'delivered')} then clock_timestamp() end,
         locked_until = null, locked_by = null, last_error = ${sql.value(error)}
   where id = ${sql.value(eventId)}::uuid and locked_by = ${sql.value(instance)}`;

export const releaseScheduled = (instance: string) => sql.query`
  update ${scheduled} set locked_until = null, locked_by = null where locked_by = ${sql.value(instance)} and state = 'scheduled'`;

export const scheduledEvents = (kind: string, trigger: string | undefined, status: string, limit: number, offset: number) => sql.query`
  select coalesce(json_agg(e order by e.scheduled_time, e.id), '[]'::json) as events from (
    select id::text as id, kind, trigger_name, scheduled_time, state, tries, next_attempt_at, delivered_at, last_error, webhook, payload, comment
      from ${scheduled}
     where kind = ${sql.value(kind)} and not archived
       and (${sql.value(trigger ?? null)}::text is null or trigger_name = ${sql.value(trigger ?? null)}::text)
       and (${sql.value(status)} = 'all' or state = ${sql.value(status)})
     order by scheduled_time, id
     limit ${sql.value(limit)} offset ${sql.value(offset)}) e`;
