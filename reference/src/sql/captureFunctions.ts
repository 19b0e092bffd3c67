// The functions that capture changes for event triggers, for the catalog's event log and for a
// source's own capture table (sql/sourceEvents.ts). DDL takes no parameters: the names in a
// function's body are the catalog's own constants.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';

/**
 * The function database triggers call: it records the change (and the session that made it) in
 * `into`. TG_ARGV: the trigger's name, and for updates '*' or a JSON array of the columns that count.
 * `then`: a block of PL/pgSQL run after the change is recorded (the event log's announcement).
 */
export function captureFunction(name: sql.SQLNode, into: sql.SQLNode, then: sql.SQL = sql.blank): sql.SQLQuery {
  return sql.query`create or replace function ${name}() returns trigger language plpgsql as $capture$
    declare
      old_row jsonb;
      new_row jsonb;
    begin
      if tg_op = 'UPDATE' then
        old_row := to_jsonb(old);
        new_row := to_jsonb(new);
        if tg_argv[1] = '*' then
          if old_row = new_row then return null; end if;
        elsif not exists (select 1 from jsonb_array_elements_text(tg_argv[1]::jsonb) c where old_row -> c is distinct from new_row -> c) then
          return null;
        end if;
      elsif tg_op = 'INSERT' then
        new_row := to_jsonb(new);
      else
        old_row := to_jsonb(old);
      end if;
      insert into ${into} (trigger_name, schema_name, table_name, op, data, session_variables)
      values (tg_argv[0], tg_table_schema, tg_table_name, tg_op, jsonb_build_object('old', old_row, 'new', new_row),
              nullif(current_setting('engine.session_variables', true), '')::jsonb);
      ${then}
      return null;
    end
  $capture$`;
}

/** The function that makes (or replaces) the database trigger of one operation, calling the catalog's function `capture`. */
export function setTriggerFunction(name: sql.SQLNode, capture: string): sql.SQLQuery {
  return sql.query`create or replace function ${name}(table_schema text, table_name text, trigger_name text, event_trigger text, op text, columns text)
    returns void language plpgsql as $set$
    begin
      if op not in ('insert', 'update', 'delete') then raise exception 'unknown operation %', op; end if;
      execute format('create or replace trigger %I after %s on %I.%I for each row execute function ${sql.raw(CATALOG_SCHEMA)}.${sql.raw(capture)}(%L, %L)',
                     trigger_name, op, table_schema, table_name, event_trigger, columns);
    end
  $set$`;
}
