// Asynchronous actions in SQL: the catalog's log of action requests, taken by the action worker,
// settled with the handler's output or errors, and read back by id.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';
import { keepHolds, mayTake } from './instances';

const log = sql.identifier(CATALOG_SCHEMA, 'action_log');

export const ACTIONS_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`create table ${log} (
    id uuid primary key default gen_random_uuid(),
    action_name text not null,
    input jsonb not null,
    session_variables jsonb not null,
    request_query text not null,
    state text not null default 'created' check (state in ('created', 'completed', 'error')),
    output jsonb,
    errors jsonb,
    locked_until timestamptz,
    locked_by text,
    created_at timestamptz not null default clock_timestamp()
  )`,
  sql.query`create index action_log_created on ${log} (created_at) where state = 'created'`,
];

export const insertActionRequest = (r: { name: string; input: unknown; sessionVariables: unknown; query: string }) => sql.query`
  insert into ${log} (action_name, input, session_variables, request_query)
  values (${sql.value(r.name)}, ${sql.value(JSON.stringify(r.input))}::jsonb, ${sql.value(JSON.stringify(r.sessionVariables))}::jsonb, ${sql.value(r.query)})
  returning id::text as id`;

export interface ActionLogRow {
  id: string;
  action_name: string;
  input: unknown;
  session_variables: Record<string, string>;
  request_query: string;
}

/** Requests nobody holds, oldest first, held by `instance` for `lockSeconds`. */
export const keepActionHolds = (instance: string, ids: readonly string[], seconds: number) => keepHolds(log, instance, ids, seconds);

export const claimActionRequests = (limit: number, lockSeconds: number, instance: string, inFlight: readonly string[]) => sql.query`
  with due as (
    select id from ${log}
     where state = 'created' and ${mayTake(inFlight)}
     order by created_at limit ${sql.value(limit)} for update skip locked)
  update ${log} a set locked_until = clock_timestamp() + make_interval(secs => ${sql.value(lockSeconds)}), locked_by = ${sql.value(instance)}
    from due where a.id = due.id
  returning a.id::text as id, a.action_name, a.input, a.session_variables, a.request_query`;

/** The handler's answer, written only by the server that holds the request. */
export const settleActionRequest = (id: string, instance: string, outcome: { output: unknown } | { errors: unknown }) => sql.query`
  update ${log} set state = ${sql.value('output' in outcome ? 'completed' : 'error')},
         output = ${sql.value('output' in outcome ? JSON.stringify(outcome.output) : null)}::jsonb,
         errors = ${sql.value('errors' in outcome ? JSON.stringify(outcome.errors) : null)}::jsonb,
         locked_until = null, locked_by = null
   where id = ${sql.value(id)}::uuid and locked_by = ${sql.value(instance)}`;

export const releaseActionRequests = (instance: string) => sql.query`
  update ${log} set locked_until = null, locked_by = null where locked_by = ${sql.value(instance)} and state = 'created'`;

/** One request by id, with who made it (the caller decides who may read it). */
export const actionRequestById = (name: string, id: string) => sql.query`
  select id::text as id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') as created_at,
         output, errors, session_variables
    from ${log} where action_name = ${sql.value(name)} and id = ${sql.value(id)}::uuid`;

export const clearActionLog = (name: string) => sql.query`delete from ${log} where action_name = ${sql.value(name)}`;
