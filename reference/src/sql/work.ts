// Work for the background workers, announced: an insert into the event log, the scheduled events or
// the action log notifies the channel with the worker's name when its transaction commits, so a
// worker looks at once rather than at its next fetch interval (which only bounds how late work
// found otherwise is: retries, scheduled times, and anything missed while the listener was away).
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

export const listenForWork = sql.query`listen ${sql.identifier(WORK_CHANNEL)}`;
export const isWorkChannel = (channel: string) => channel === WORK_CHANNEL;
export const isWorkKind = (payload: string | undefined): payload is WorkKind => payload !== undefined && Object.hasOwn(WORK_TABLES, payload);
