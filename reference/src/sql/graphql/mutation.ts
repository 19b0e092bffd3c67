// Mutations: insert (with on_conflict), update (_set, _inc, jsonb operators), delete, and their
// by-primary-key forms, each one statement whose JSON answer is built inside PostgreSQL.
import type { SelectionSetNode } from 'graphql';
import type { ColumnModel, TableModel } from '../../schema/model';
import { compileBoolExp } from './boolExp';
import { alias as newAlias, and, column, CompileError, jsonObject, sql, table, typedValue, type Fragment } from './context';
import { collectFields } from './fields';
import { rowJson, type SelectEnvironment } from './select';

type Row = Record<string, unknown>;

/** `{affected_rows, returning}` or the single row of a *_one / *_by_pk field, over the rows of `changed`. */
function answer(env: SelectEnvironment, t: TableModel, changed: sql.SQLNode, single: boolean, selectionSet: SelectionSetNode | undefined): Fragment {
  const r = newAlias(t.name);
  if (single) return sql.query`(select ${rowJson(env, t, r, selectionSet)} from ${changed} as ${r} limit 1)`;
  const type = env.schema.getType(`${t.name}_mutation_response`) as import('graphql').GraphQLObjectType;
  const pairs: [string, Fragment][] = [];
  for (const f of selectionSet ? collectFields(env.fields, type, selectionSet) : []) {
    if (f.name === '__typename') pairs.push([f.alias, sql.literal(`${t.name}_mutation_response`)]);
    else if (f.name === 'affected_rows') pairs.push([f.alias, sql.query`(select count(*) from ${changed})`]);
    else pairs.push([f.alias, sql.query`(select coalesce(json_agg(${rowJson(env, t, r, f.selectionSet)}), '[]'::json) from ${changed} as ${r})`]);
  }
  return jsonObject(pairs);
}

const fieldColumn = (t: TableModel, field: string): ColumnModel => {
  const c = t.byField.get(field);
  if (!c) throw new CompileError(`field ${JSON.stringify(field)} not found in type: '${t.name}'`);
  return c;
};

export interface OnConflict {
  constraint: string;
  update_columns: string[];
  where?: Row | null;
}

export function insertStatement(env: SelectEnvironment, t: TableModel, objects: Row[], onConflict: OnConflict | null | undefined, single: boolean, selectionSet: SelectionSetNode | undefined): Fragment {
  const changed = newAlias('inserted');
  if (objects.length === 0) {
    return sql.query`with ${changed} as (select * from ${table(t)} where false) select ${answer(env, t, changed, single, selectionSet)}::text as data`;
  }
  const fields = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const columns = fields.length ? fields.map((f) => fieldColumn(t, f)) : [t.columns.find((c) => !c.column.generated)!];
  const rows = objects.map(
    (o) => sql.query`(${sql.join(columns.map((c) => (c.field in o ? typedValue(c.column, o[c.field]) : sql.query`default`)), ', ')})`,
  );
  const target = newAlias(t.name);
  let conflict: Fragment = sql.blank;
  if (onConflict) {
    if (!t.constraints.some((c) => c.name === onConflict.constraint)) throw new CompileError(`constraint ${JSON.stringify(onConflict.constraint)} not found`);
    const updates = (onConflict.update_columns ?? []).map((f) => fieldColumn(t, f));
    conflict =
      updates.length === 0
        ? sql.query`on conflict on constraint ${sql.identifier(onConflict.constraint)} do nothing`
        : sql.query`on conflict on constraint ${sql.identifier(onConflict.constraint)} do update set ${sql.join(
            updates.map((c) => sql.query`${sql.identifier(c.column.name)} = excluded.${sql.identifier(c.column.name)}`),
            ', ',
          )} where ${compileBoolExp(env, t, target, onConflict.where ?? undefined)}`;
  }
  return sql.query`with ${changed} as (
    insert into ${table(t)} as ${target} (${sql.join(columns.map((c) => sql.identifier(c.column.name)), ', ')})
    values ${sql.join(rows, ', ')}
    ${conflict}
    returning ${target}.*)
  select ${answer(env, t, changed, single, selectionSet)}::text as data`;
}

const UPDATE_OPERATORS = ['_set', '_inc', '_append', '_prepend', '_delete_key', '_delete_elem', '_delete_at_path'] as const;

export function updateStatement(env: SelectEnvironment, t: TableModel, args: Row, where: Fragment | ((a: sql.SQLNode) => Fragment), single: boolean, selectionSet: SelectionSetNode | undefined): Fragment {
  const target = newAlias(t.name);
  const sets: Fragment[] = [];
  const seen = new Set<string>();
  for (const op of UPDATE_OPERATORS) {
    for (const [field, value] of Object.entries((args[op] as Row | null | undefined) ?? {})) {
      const c = fieldColumn(t, field);
      if (seen.has(c.column.name)) throw new CompileError(`column ${JSON.stringify(field)} is given in more than one update operator`);
      seen.add(c.column.name);
      const col = column(target, c.column.name);
      const expr = {
        _set: () => typedValue(c.column, value),
        _inc: () => sql.query`${col} + ${typedValue(c.column, value)}`,
        _append: () => sql.query`${col} || ${typedValue(c.column, value)}`,
        _prepend: () => sql.query`${typedValue(c.column, value)} || ${col}`,
        _delete_key: () => sql.query`${col} - ${sql.value(value)}::text`,
        _delete_elem: () => sql.query`${col} - ${sql.value(value)}::int`,
        _delete_at_path: () => sql.query`${col} #- ${sql.value(value)}::text[]`,
      }[op]();
      sets.push(sql.query`${sql.identifier(c.column.name)} = ${expr}`);
    }
  }
  if (sets.length === 0) throw new CompileError(`at least one of ${UPDATE_OPERATORS.join(', ')} is expected`);
  const changed = newAlias('updated');
  const condition = typeof where === 'function' ? where(target) : where;
  return sql.query`with ${changed} as (
    update ${table(t)} as ${target} set ${sql.join(sets, ', ')}
     where ${condition}
    returning ${target}.*)
  select ${answer(env, t, changed, single, selectionSet)}::text as data`;
}

export function deleteStatement(env: SelectEnvironment, t: TableModel, where: (a: sql.SQLNode) => Fragment, single: boolean, selectionSet: SelectionSetNode | undefined): Fragment {
  const target = newAlias(t.name);
  const changed = newAlias('deleted');
  return sql.query`with ${changed} as (
    delete from ${table(t)} as ${target} where ${where(target)}
    returning ${target}.*)
  select ${answer(env, t, changed, single, selectionSet)}::text as data`;
}

/** The condition that selects one row by its primary key values (given by GraphQL field name). */
export const primaryKeyCondition = (t: TableModel, values: Row) => (a: sql.SQLNode) =>
  and((t.primaryKey ?? []).map((name) => {
    const c = t.byColumn.get(name)!;
    return sql.query`${column(a, name)} = ${typedValue(c.column, values[c.field])}`;
  }));

export const whereCondition = (env: SelectEnvironment, t: TableModel, where: Row | null | undefined) => (a: sql.SQLNode) => compileBoolExp(env, t, a, where);
