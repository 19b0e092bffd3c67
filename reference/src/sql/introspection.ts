// Catalog reads: the relations of the database, and the details of chosen tables in one query.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';

/** Tables, views, materialized views, foreign and partitioned tables outside system schemas. */
export const introspectRelations = sql.query`
  select n.nspname as schema, c.relname as name, c.relkind as kind, c.oid::int8::text as oid
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('r', 'v', 'm', 'f', 'p')
     and n.nspname not in ('pg_catalog', 'information_schema', ${sql.value(CATALOG_SCHEMA)})
     and n.nspname not like 'pg\\_toast%'
     and n.nspname not like 'pg\\_temp\\_%'`;

/** Columns, primary/unique/foreign keys and updatability of the named relations, as one JSON array. */
export const introspectTables = (schemas: string[], names: string[]) => sql.query`
  select coalesce(json_agg(t), '[]'::json) as tables from (
    select n.nspname as schema, c.relname as name, c.relkind as kind, c.oid::int8::text as oid,
           pg_relation_is_updatable(c.oid, false) as updatable,
           obj_description(c.oid, 'pg_class') as comment,
           (select coalesce(json_agg(json_build_object(
                     'name', a.attname,
                     'position', a.attnum,
                     'type', ty.typname,
                     'type_schema', tn.nspname,
                     'type_kind', ty.typtype,
                     'type_category', ty.typcategory,
                     'element_type', et.typname,
                     'nullable', not a.attnotnull,
                     'has_default', a.atthasdef or a.attidentity <> '',
                     'generated', a.attgenerated <> '',
                     'enum_values', (select json_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = ty.oid),
                     'comment', col_description(c.oid, a.attnum)
                   ) order by a.attnum), '[]'::json)
              from pg_attribute a
              join pg_type ty on ty.oid = a.atttypid
              join pg_namespace tn on tn.oid = ty.typnamespace
              left join pg_type et on et.oid = ty.typelem and ty.typcategory = 'A'
             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
           (select coalesce(json_agg(json_build_object(
                     'name', k.conname,
                     'type', k.contype,
                     'columns', (select json_agg(a.attname order by u.ord)
                                   from unnest(k.conkey) with ordinality u(attnum, ord)
                                   join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum),
                     'ref_schema', rn.nspname,
                     'ref_table', rc.relname,
                     'ref_columns', (select json_agg(a.attname order by u.ord)
                                       from unnest(k.confkey) with ordinality u(attnum, ord)
                                       join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.attnum)
                   ) order by k.conname), '[]'::json)
              from pg_constraint k
              left join pg_class rc on rc.oid = k.confrelid
              left join pg_namespace rn on rn.oid = rc.relnamespace
             where k.conrelid = c.oid and k.contype in ('p', 'u', 'f')) as constraints,
           (select coalesce(json_agg(json_build_object('name', i.relname, 'columns',
                     (select json_agg(a.attname order by u.ord)
                        from unnest(x.indkey::int2[]) with ordinality u(attnum, ord)
                        join pg_attribute a on a.attrelid = x.indrelid and a.attnum = u.attnum))), '[]'::json)
              from pg_index x join pg_class i on i.oid = x.indexrelid
             where x.indrelid = c.oid and x.indisunique and not x.indisprimary and x.indpred is null and x.indexprs is null
               and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)) as unique_indexes
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join unnest(${sql.value(schemas)}::text[], ${sql.value(names)}::text[]) as wanted(schema, name)
        on wanted.schema = n.nspname and wanted.name = c.relname
     where c.relkind in ('r', 'v', 'm', 'f', 'p')
  ) t`;

/**
 * Functions (not procedures, aggregates or window functions) of the named schema/name pairs, every
 * overload, as one JSON array: arguments, return type (and the relation a composite return type
 * belongs to), whether it returns a set, volatility and comment.
 */
export const introspectFunctions = (schemas: string[], names: string[]) => sql.query`
  select coalesce(json_agg(f order by f.schema, f.name, f.oid::int8), '[]'::json) as functions from (
    select n.nspname as schema, p.proname as name, p.oid::int8::text as oid,
           case p.provolatile when 'i' then 'IMMUTABLE' when 's' then 'STABLE' else 'VOLATILE' end as volatility,
           p.proretset as returns_set,
           (p.proargmodes is null or p.proargmodes <@ array['i']::"char"[]) as only_in_arguments,
           rt.typname as return_type,
           rtn.nspname as return_type_schema,
           rt.typtype as return_type_kind,
           case when rc.oid is not null then json_build_object('schema', rcn.nspname, 'name', rc.relname) end as return_relation,
           l.lanname as language,
           obj_description(p.oid, 'pg_proc') as comment,
           (select coalesce(json_agg(json_build_object(
                     'name', nullif(coalesce(p.proargnames[u.ord], ''), ''),
                     'type', at.typname,
                     'type_schema', atn.nspname,
                     'type_kind', at.typtype,
                     'has_default', u.ord > p.pronargs - p.pronargdefaults
                   ) order by u.ord), '[]'::json)
              from unnest(p.proargtypes::oid[]) with ordinality u(typ, ord)
              join pg_type at on at.oid = u.typ
              join pg_namespace atn on atn.oid = at.typnamespace) as arguments
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      join pg_language l on l.oid = p.prolang
      join pg_type rt on rt.oid = p.prorettype
      join pg_namespace rtn on rtn.oid = rt.typnamespace
      left join pg_class rc on rc.oid = rt.typrelid and rc.relkind in ('r', 'v', 'm', 'f', 'p')
      left join pg_namespace rcn on rcn.oid = rc.relnamespace
      join unnest(${sql.value(schemas)}::text[], ${sql.value(names)}::text[]) as wanted(schema, name)
        on wanted.schema = n.nspname and wanted.name = p.proname
     where p.prokind = 'f'
  ) f`;

/** Rows of an enum table: its single-column primary key and an optional comment column. */
export const enumTableValues = (schema: string, table: string, valueColumn: string, commentColumn: string | undefined) => sql.query`
  select ${sql.identifier(valueColumn)}::text as value,
         ${commentColumn ? sql.query`${sql.identifier(commentColumn)}::text` : sql.query`null::text`} as comment
    from ${sql.identifier(schema, table)}
   order by 1`;

/** Which of the named PostgreSQL types exist as base types (custom types may name them as scalars). */
export const baseTypesNamed = (names: readonly string[]) => sql.query`
  select distinct t.typname as name
    from pg_catalog.pg_type t
   where t.typtype = 'b' and t.typname = any(${sql.value([...names])}::text[])`;
