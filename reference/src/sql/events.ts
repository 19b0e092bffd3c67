// Event triggers in SQL (SPEC.md §2.6, §6): the catalog's event log and invocation log, the
// capture function the database triggers call, the triggers themselves, and the queries of the
// delivery worker. DDL takes no parameters: the catalog's own functions make the database
// triggers, quoting the bound values with format().
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';
import { captureFunction, setTriggerFunction } from './captureFunctions';
import { heldInOrder, keepHolds, mayTake } from './instances';
import { announceBlock } from './work';

const catalog = (name: string) => sql.identifier(CATALOG_SCHEMA, name);
const eventLog = catalog('event_log');
const invocationLog = catalog('event_invocation_log');

/** Catalog migration: the event log, the invocation log and the capture function. */
export const EVENTS_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`create table ${eventLog} (
    id uuid primary key default gen_random_uuid(),
    trigger_name text not null,
    schema_name text not null,
    table_name text not null,
    op text not null,
    data jsonb not null,
    session_variables jsonb,
    created_at timestamptz not null default clock_timestamp(),
    state text not null default 'pending' check (state in ('pending', 'delivered', 'dead')),
    tries integer not null default 0,
    next_attempt_at timestamptz not null default clock_timestamp(),
    locked_until timestamptz,
    locked_by text,
    delivered_at timestamptz,
    last_error text
  )`,
  sql.query`create index event_log_due on ${eventLog} (next_attempt_at) where state = 'pending'`,
  sql.query`create index event_log_trigger on ${eventLog} (trigger_name, created_at)`,
  sql.query`create table ${invocationLog} (
    id bigserial primary key,
    event_id uuid not null,
    trigger_name text not null,
    attempt integer not null,
    status integer,
    request jsonb not null,
    response jsonb not null,
    duration_ms integer not null,
    created_at timestamptz not null default clock_timestamp()
  )`,
  sql.query`create index event_invocation_log_event on ${invocationLog} (event_id)`,
  sql.query`create index event_invocation_log_trigger on ${invocationLog} (trigger_name, created_at)`,
  captureFunction(catalog('capture_event'), eventLog),
  setTriggerFunction(catalog('set_event_trigger'), 'capture_event'),
  sql.query`create function ${catalog('drop_event_trigger')}(table_schema text, table_name text, trigger_name text)
    returns void language plpgsql as $drop$
    begin
      execute format('drop trigger if exists %I on %I.%I', trigger_name, table_schema, table_name);
    end
  $drop$`,
];

export type EventOperation = 'insert' | 'update' | 'delete';

/** The database trigger of one operation of an event trigger. */
export const triggerName = (trigger: string, op: EventOperation) => `engine_evt_${trigger}_${op}`;

export const createTrigger = (table: { schema: string; name: string }, trigger: string, op: EventOperation, updateColumns: string) => sql.query`
  select ${catalog('set_event_trigger')}(${sql.value(table.schema)}, ${sql.value(table.name)}, ${sql.value(triggerName(trigger, op))}, ${sql.value(trigger)}, ${sql.value(op)}, ${sql.value(updateColumns)})`;

export const dropTrigger = (table: { schema: string; name: string }, trigger: string, op: EventOperation) =>
  sql.query`select ${catalog('drop_event_trigger')}(${sql.value(table.schema)}, ${sql.value(table.name)}, ${sql.value(triggerName(trigger, op))})`;

/**
 * Catalog migration: events of a removed trigger are archived. They stay in the log for whoever
 * reads it in SQL, but no API lists, delivers or redelivers them, and a new trigger of the same
 * name starts with an empty log.
 */
export const EVENTS_ARCHIVE_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`alter table ${eventLog} add column archived boolean not null default false`,
  // Events of triggers removed before this migration.
  sql.query`update ${eventLog} set archived = true, state = case when state = 'pending' then 'dead' else state end
    where trigger_name not in (
      select jsonb_path_query(metadata::jsonb, '$.tables[*].event_triggers[*].name') #>> '{}' from ${catalog('engine_metadata')})`,
];

const pauses = catalog('event_trigger_pauses');

/** Catalog migration: triggers whose delivery an operator paused (decision dec.events.pause). */
export const EVENTS_PAUSE_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`create table ${pauses} (trigger_name text primary key, paused_at timestamptz not null default clock_timestamp())`,
];

export const pauseEventTrigger = (trigger: string) => sql.query`insert into ${pauses} (trigger_name) values (${sql.value(trigger)}) on conflict do nothing`;
export const resumeEventTriggers = (triggers: readonly string[]) => sql.query`delete from ${pauses} where trigger_name = any(${sql.value(triggers)}::text[])`;

/** In the transaction that removes the triggers: their events are archived; pending ones will never go. */
export const archiveEvents = (triggers: readonly string[]) => sql.query`
  update ${eventLog}
     set archived = true,
         state = case when state = 'pending' then 'dead' else state end,
         last_error = case when state = 'pending' then 'the event trigger was removed' else last_error end,
         locked_until = null, locked_by = null
   where trigger_name = any(${sql.value(triggers)}::text[]) and not archived`;

/** Who made a change: read by the capture function in the same transaction. */
export const setSessionVariables = (variables: Record<string, string>) =>
  sql.query`select set_config('engine.session_variables', ${sql.value(JSON.stringify(variables))}, true)`;

export const manualEvent = (trigger: string, table: { schema: string; name: string }, payload: unknown, session: Record<string, string>) => sql.query`
  insert into ${eventLog} (trigger_name, schema_name, table_name, op, data, session_variables)
  values (${sql.value(trigger)}, ${sql.value(table.schema)}, ${sql.value(table.name)}, 'MANUAL',
          jsonb_build_object('old', null, 'new', ${sql.value(JSON.stringify(payload))}::jsonb), ${sql.value(JSON.stringify(session))}::jsonb)
  returning id::text as event_id`;

export const redeliver = (eventId: string) => sql.query`
  update ${eventLog} set state = 'pending', tries = 0, next_attempt_at = clock_timestamp(), locked_until = null, locked_by = null, last_error = null
   where id::text = ${sql.value(eventId)} and not archived
  returning id::text as event_id`;

export interface EventRow {
  id: string;
  trigger_name: string;
  schema_name: string;
  table_name: string;
  op: string;
  data: { old: unknown; new: unknown };
  session_variables: Record<string, string> | null;
  created_at: string;
  tries: number;
}

/**
 * Take due events: pending, their time come, not held by a live instance (`locked_until` frees
 * the events of an instance that died). Several instances share the work: SKIP LOCKED.
 */
export const keepEventHolds = (instance: string, ids: readonly string[], seconds: number) => keepHolds(eventLog, instance, ids, seconds);

/** Catalog migration: the capture function announces what it records (sql/work.ts `announceBlock`). */
export const EVENTS_CAPTURE_ANNOUNCES_MIGRATION: readonly sql.SQLQuery[] = [captureFunction(catalog('capture_event'), eventLog, announceBlock('events'))];

/**
 * Catalog migration: pending events by trigger, so that a claim reads only the due events of
 * triggers that are not paused (a paused trigger's backlog is never read by a claim).
 */
export const EVENTS_DUE_BY_TRIGGER_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`create index event_log_due_by_trigger on ${eventLog} (trigger_name, next_attempt_at, created_at) where state = 'pending'`,
  // What it replaces: each captured row writes one index fewer.
  sql.query`drop index if exists ${catalog('event_log_due')}`,
];

/**
 * Up to `limit` due events, oldest due first, held for `lockSeconds`. The triggers with pending
 * events are found by skipping through the index (one probe per trigger), and each one that is not
 * paused gives its earliest due events: the work is one probe per trigger plus what is taken.
 */
export const claimEvents = (limit: number, lockSeconds: number, instance: string, inFlight: readonly string[]) => sql.query`
  with recursive pending_triggers (name) as (
    (select trigger_name from ${eventLog} where state = 'pending' order by trigger_name limit 1)
    union all
    select (select e.trigger_name from ${eventLog} e where e.state = 'pending' and e.trigger_name > t.name order by e.trigger_name limit 1)
      from pending_triggers t where t.name is not null),
  candidates as (
    select c.id from pending_triggers t
     cross join lateral (
       select id, next_attempt_at, created_at from ${eventLog}
        where trigger_name = t.name and state = 'pending' and not archived and next_attempt_at <= clock_timestamp() and ${mayTake(inFlight)}
        order by next_attempt_at, created_at
        limit ${sql.value(limit)}) c
     where t.name is not null and not exists (select 1 from ${pauses} p where p.trigger_name = t.name)
     order by c.next_attempt_at, c.created_at
     limit ${sql.value(limit)}),
  due as (
    select id from ${eventLog}
     where id in (select id from candidates)
       and state = 'pending' and not archived and next_attempt_at <= clock_timestamp() and ${mayTake(inFlight)}
     for update skip locked)
  update ${eventLog} e set locked_until = clock_timestamp() + make_interval(secs => ${sql.value(lockSeconds)}), locked_by = ${sql.value(instance)}
    from due where e.id = due.id
  returning e.id::text as id, e.trigger_name, e.schema_name, e.table_name, e.op, e.data, e.session_variables,
            to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at, e.tries`;

export interface Invocation {
  eventId: string;
  trigger: string;
  attempt: number;
  status: number | null;
  request: unknown;
  response: unknown;
  durationMs: number;
}

/** What one attempt came to: delivered, dead, or tried again in some seconds. */
export type Outcome = { state: 'delivered' | 'dead' } | { retryInSeconds: number };

export interface Settlement {
  invocation: Invocation;
  outcome: Outcome;
  /** Why the attempt failed; null when it succeeded. */
  error: string | null;
}

/**
 * The outcomes of attempts, with their invocations, in one statement (the attempts that end
 * together settle together: one statement per event would cost more than its delivery). Only the
 * holder of an event may settle it; every attempt is logged.
 */
export const settleEvents = (settlements: readonly Settlement[], instance: string) => sql.query`
  with settled as (
    select * from jsonb_to_recordset(${sql.value(
      JSON.stringify(
        settlements.map(({ invocation: i, outcome, error }) => ({
          event_id: i.eventId,
          trigger_name: i.trigger,
          attempt: i.attempt,
          status: i.status,
          request: i.request,
          response: i.response,
          duration_ms: i.durationMs,
          state: 'state' in outcome ? outcome.state : 'pending',
          retry_seconds: 'retryInSeconds' in outcome ? outcome.retryInSeconds : 0,
          error,
        })),
      ),
    )}::jsonb) as s(event_id uuid, trigger_name text, attempt integer, status integer, request jsonb, response jsonb,
                    duration_ms integer, state text, retry_seconds double precision, error text)),
  held as (${heldInOrder(eventLog, instance, sql.query`array(select event_id from settled)`)}),
  logged as (
    insert into ${invocationLog} (event_id, trigger_name, attempt, status, request, response, duration_ms)
    select event_id, trigger_name, attempt, status, request, response, duration_ms from settled)
  update ${eventLog} e
     set tries = e.tries + 1,
         state = s.state,
         next_attempt_at = clock_timestamp() + make_interval(secs => s.retry_seconds),
         delivered_at = case when s.state = 'delivered' then clock_timestamp() end,
         locked_until = null, locked_by = null, last_error = s.error
    from settled s join held h on h.id = s.event_id
   where e.id = h.id`;

/** Events this instance holds go back to the queue (a clean shutdown). */
export const releaseEvents = (instance: string) => sql.query`
  update ${eventLog} set locked_until = null, locked_by = null where locked_by = ${sql.value(instance)} and state = 'pending'`;

/** An event whose trigger is gone cannot be delivered: it is dead, with the reason. */
export const orphanEvent = (eventId: string, instance: string, reason: string) => sql.query`
  update ${eventLog} set state = 'dead', locked_until = null, locked_by = null, last_error = ${sql.value(reason)}
   where id = ${sql.value(eventId)}::uuid and locked_by = ${sql.value(instance)}`;

/** Delivered events (and their invocations) older than the retention go. */
export const cleanupDelivered = (seconds: number) => sql.query`
  with gone as (
    delete from ${eventLog} where state = 'delivered' and delivered_at < clock_timestamp() - make_interval(secs => ${sql.value(seconds)}) returning id)
  delete from ${invocationLog} where event_id in (select id from gone)`;

export const eventLogs = (trigger: string, status: string, limit: number, offset: number) => sql.query`
  select coalesce(json_agg(e order by e.created_at desc, e.id), '[]'::json) as events from (
    select id::text as id, trigger_name, schema_name, table_name, op, data, session_variables, state, tries,
           created_at, next_attempt_at, delivered_at, last_error
      from ${eventLog}
     where trigger_name = ${sql.value(trigger)} and not archived
       and (${sql.value(status)} = 'all'
            or (${sql.value(status)} = 'processed' and state = 'delivered')
            or state = ${sql.value(status)})
     order by created_at desc, id
     limit ${sql.value(limit)} offset ${sql.value(offset)}) e`;

export const invocationLogs = (trigger: string, limit: number, offset: number) => sql.query`
  select coalesce(json_agg(i order by i.created_at desc, i.id desc), '[]'::json) as invocations from (
    select id, event_id::text as event_id, trigger_name, attempt, status, request, response, duration_ms, created_at
      from ${invocationLog} i
     where trigger_name = ${sql.value(trigger)}
       and exists (select 1 from ${eventLog} e where e.id = i.event_id and not e.archived)
     order by created_at desc, id desc
     limit ${sql.value(limit)} offset ${sql.value(offset)}) i`;
