// Event triggers on tables of other sources (decision dec.source.forms): each such database
// captures its changes into a table of its own (the catalog's event log is in the server's
// database), and the server moves them into the event log, where they are delivered as any other.
// The names differ from the catalog's own, so that a source on the server's own database keeps both.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';
import { captureFunction, setTriggerFunction } from './captureFunctions';
import { triggerName, type EventOperation } from './events';

const own = (name: string) => sql.identifier(CATALOG_SCHEMA, name);
const captured = own('source_captured_event');

/** What a source's database needs to capture events: idempotent, run before its triggers are made. */
export const SOURCE_CAPTURE_SETUP: readonly sql.SQLQuery[] = [
  sql.query`create schema if not exists ${sql.identifier(CATALOG_SCHEMA)}`,
  sql.query`create table if not exists ${captured} (
    id uuid primary key default gen_random_uuid(),
    trigger_name text not null,
    schema_name text not null,
    table_name text not null,
    op text not null,
    data jsonb not null,
    session_variables jsonb,
    created_at timestamptz not null default clock_timestamp()
  )`,
  captureFunction(own('capture_source_event'), captured),
  setTriggerFunction(own('set_source_event_trigger'), 'capture_source_event'),
];

/** The database trigger of one operation of an event trigger on a source's table. */
export const createSourceTrigger = (table: { schema: string; name: string }, trigger: string, op: EventOperation, updateColumns: string) => sql.query`
  select ${own('set_source_event_trigger')}(${sql.value(table.schema)}, ${sql.value(table.name)}, ${sql.value(triggerName(trigger, op))}, ${sql.value(trigger)}, ${sql.value(op)}, ${sql.value(updateColumns)})`;

/** Dropping one needs no function of the source's: the trigger's name is the catalog's form. */
export const dropSourceTrigger = (table: { schema: string; name: string }, trigger: string, op: EventOperation) =>
  sql.query`drop trigger if exists ${sql.identifier(triggerName(trigger, op))} on ${sql.identifier(table.schema, table.name)}`;

/** Whether the source's database has the capture table (it has had event triggers). */
export const hasSourceCapture = sql.query`select to_regclass(${sql.value(`${CATALOG_SCHEMA}.source_captured_event`)}) is not null as present`;

/** A captured event, as it is taken from a source. */
export interface CapturedEvent {
  id: string;
  trigger_name: string;
  schema_name: string;
  table_name: string;
  op: string;
  data: unknown;
  session_variables: unknown;
  created_at: string;
}

/** Take up to `limit` of a source's captured events, oldest first (in the source's transaction: they go when it commits). */
export const takeCaptured = (limit: number) => sql.query`
  delete from ${captured} where id in (select id from ${captured} order by created_at limit ${sql.value(limit)} for update skip locked)
  returning id, trigger_name, schema_name, table_name, op, data, session_variables, created_at::text`;

/** Events taken from a source, into the event log; one already there (taken before, its source's commit lost) is not added again. */
export const logCaptured = (events: readonly CapturedEvent[]) => sql.query`
  insert into ${sql.identifier(CATALOG_SCHEMA, 'event_log')} (id, trigger_name, schema_name, table_name, op, data, session_variables, created_at)
  select e.id, e.trigger_name, e.schema_name, e.table_name, e.op, e.data, e.session_variables, e.created_at
    from jsonb_to_recordset(${sql.value(JSON.stringify(events))}::jsonb)
      as e(id uuid, trigger_name text, schema_name text, table_name text, op text, data jsonb, session_variables jsonb, created_at timestamptz)
  on conflict (id) do nothing`;
