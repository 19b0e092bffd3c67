// Mutations: insert (with on_conflict), update (_set, _inc, jsonb operators), delete, and their
// by-primary-key forms, each one statement whose JSON answer is built inside PostgreSQL.
import { typeName } from '../../schema/typeNames';
import { argOf, fieldOf } from '../../schema/generatedFields';
import type { SelectionSetNode } from 'graphql';
import type { DbColumn } from '../../db/introspection';
import { INSERT_PLACEHOLDER, type ColumnModel, type TableModel } from '../../schema/model';
import { compileBoolExp } from './boolExp';
import { alias as newAlias, and, column, CompileError, condition, jsonObject, sql, table, TRUE, typedValue, type Condition, type Fragment } from './context';
import { collectFields } from './fields';
import { permissionCondition, presets, selectFilter } from './permissions';
import { rowJson, type SelectEnvironment } from './select';

type Row = Record<string, unknown>;

/**
 * `{affected_rows, returning}` or the single row of a *_one / *_by_pk field, over the rows of
 * `changed`; `affected`: how many rows changed, when not those (a nested insert counts every level).
 */
export function answer(
  env: SelectEnvironment,
  t: TableModel,
  changed: sql.SQLNode,
  single: boolean,
  selectionSet: SelectionSetNode | undefined,
  affected: Fragment = sql.query`(select count(*) from ${changed})`,
): Fragment {
  const r = newAlias(t.name);
  // Rows come back only as far as the role may read them.
  const readable = selectFilter(env, t, r) ?? TRUE;
  if (single) return sql.query`(select ${rowJson(env, t, r, selectionSet)} from ${changed} as ${r} where ${readable} limit 1)`;
  const type = env.schema.getType(typeName(t, '_mutation_response')) as import('graphql').GraphQLObjectType;
  const pairs: [string, Fragment][] = [];
  for (const f of selectionSet ? collectFields(env.fields, type, selectionSet) : []) {
    if (f.name === '__typename') pairs.push([f.alias, sql.literal(typeName(t, '_mutation_response'))]);
    else if (f.name === fieldOf(t, 'affected_rows')) pairs.push([f.alias, affected]);
    else
      pairs.push([
        f.alias,
        sql.query`(select coalesce(json_agg(${rowJson(env, t, r, f.selectionSet)}), '[]'::json) from ${changed} as ${r} where ${readable})`,
      ]);
  }
  return jsonObject(pairs);
}

/** Whether every changed row passes the permission check (true without one). */
export function checked(env: SelectEnvironment, t: TableModel, changed: sql.SQLNode, check: Record<string, unknown> | undefined): Fragment {
  const r = newAlias(t.name);
  const condition = permissionCondition(env, t, r, check);
  return condition ? sql.query`(select coalesce(bool_and(${condition}), true) from ${changed} as ${r})` : sql.query`true`;
}

/** The answer of a mutation statement: its JSON, and whether the permission check held. */
export const statementResult = (data: Fragment, ok: Fragment) => sql.query`select ${data}::text as data, ${ok} as ok`;

/** A column the role may write, by GraphQL field name. */
const writableColumn = (t: TableModel, columns: ColumnModel[], field: string): ColumnModel => {
  const c = columns.find((x) => x.field === field);
  if (!c) throw new CompileError(`field ${JSON.stringify(field)} not found in type: '${typeName(t)}'`);
  return c;
};

export interface OnConflict {
  constraint: string;
  update_columns: string[];
  where?: Row | null;
}

/** `on_conflict` as given to `t`'s fields, its fields read by the names `t`'s convention gave them. */
export function onConflictOf(t: TableModel, value: unknown): OnConflict | null | undefined {
  if (value === null || value === undefined) return value;
  const given = value as Row;
  return {
    constraint: argOf(t, given, 'constraint') as string,
    update_columns: argOf(t, given, 'update_columns') as string[],
    where: argOf(t, given, 'where') as Row | null | undefined,
  };
}

/** A column an insert sets itself rather than takes from the input: from a parent's row, or an object relationship's. */
export type DeterminedColumn = [DbColumn, Fragment];

/** The relationship of `t` the role may insert through by this input field, if the field is one. */
export const insertRelationship = (t: TableModel, field: string) => t.insertRelationships.find((r) => r.name === field);

/**
 * `insert into … returning` the rows of `objects` (their column fields; relationship fields are
 * inserted elsewhere), with the role's presets and the `determined` columns, which take the place
 * of presets of the same columns.
 */
export function insertRows(
  env: SelectEnvironment,
  t: TableModel,
  objects: Row[],
  onConflict: OnConflict | null | undefined,
  determined: DeterminedColumn[] = [],
): Fragment {
  const fields = [...new Set(objects.flatMap((o) => Object.keys(o)))].filter((f) => f !== INSERT_PLACEHOLDER && !insertRelationship(t, f));
  const given = fields.map((f) => writableColumn(t, t.access.insertColumns, f));
  const setHere = new Set(determined.map(([c]) => c.name));
  const preset = presets(env, t, t.permissions?.insert?.set).filter(([c]) => !setHere.has(c.name));
  const columns = [...given.map((c) => c.column), ...preset.map(([c]) => c), ...determined.map(([c]) => c)];
  if (columns.length === 0) columns.push(env.allModels.get(t.key)!.columns.find((c) => !c.column.generated)!.column);
  const rows = objects.map(
    (o) =>
      sql.query`(${sql.join(
        [
          ...given.map((c) => (c.field in o ? typedValue(c.column, o[c.field]) : sql.query`default`)),
          ...preset.map(([, value]) => value),
          ...determined.map(([, value]) => value),
          ...(given.length + preset.length + determined.length === 0 ? [sql.query`default`] : []),
        ],
        ', ',
      )})`,
  );
  const target = newAlias(t.name);
  let conflict: Fragment = sql.blank;
  if (onConflict) {
    if (!t.constraints.some((c) => c.name === onConflict.constraint)) throw new CompileError(`constraint ${JSON.stringify(onConflict.constraint)} not found`);
    const updates = (onConflict.update_columns ?? []).map((f) => writableColumn(t, t.access.updateColumns, f));
    conflict =
      updates.length === 0
        ? sql.query`on conflict on constraint ${sql.identifier(onConflict.constraint)} do nothing`
        : sql.query`on conflict on constraint ${sql.identifier(onConflict.constraint)} do update set ${sql.join(
            updates.map((c) => sql.query`${sql.identifier(c.column.name)} = excluded.${sql.identifier(c.column.name)}`),
            ', ',
          )} where ${and([compileBoolExp(env, t, target, onConflict.where ?? undefined), permissionCondition(env, t, target, t.permissions?.update?.filter)])}`;
  }
  return sql.query`insert into ${table(t)} as ${target} (${sql.join(
    columns.map((c) => sql.identifier(c.name)),
    ', ',
  )})
    values ${sql.join(rows, ', ')}
    ${conflict}
    returning ${target}.*`;
}

export function insertStatement(
  env: SelectEnvironment,
  t: TableModel,
  objects: Row[],
  onConflict: OnConflict | null | undefined,
  single: boolean,
  selectionSet: SelectionSetNode | undefined,
): Fragment {
  const changed = newAlias('inserted');
  if (objects.length === 0) {
    return sql.query`with ${changed} as (select * from ${table(t)} where false) ${statementResult(answer(env, t, changed, single, selectionSet), sql.query`true`)}`;
  }
  return sql.query`with ${changed} as (
    ${insertRows(env, t, objects, onConflict)})
  ${statementResult(answer(env, t, changed, single, selectionSet), checked(env, t, changed, t.permissions?.insert?.check))}`;
}

const UPDATE_OPERATORS = ['_set', '_inc', '_append', '_prepend', '_delete_key', '_delete_elem', '_delete_at_path'] as const;

export function updateStatement(
  env: SelectEnvironment,
  t: TableModel,
  args: Row,
  where: (a: sql.SQLNode) => Condition,
  single: boolean,
  selectionSet: SelectionSetNode | undefined,
): Fragment {
  const target = newAlias(t.name);
  const sets: Fragment[] = [];
  const seen = new Set<string>();
  for (const op of UPDATE_OPERATORS) {
    for (const [field, value] of Object.entries((argOf(t, args, op) as Row | null | undefined) ?? {})) {
      const c = writableColumn(t, t.access.updateColumns, field);
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
  // The role's presets are set by every update; with them, an update may give no operator at all.
  for (const [c, value] of presets(env, t, t.permissions?.update?.set)) sets.push(sql.query`${sql.identifier(c.name)} = ${value}`);
  if (sets.length === 0) throw new CompileError(`at least one of ${UPDATE_OPERATORS.join(', ')} is expected`);
  const changed = newAlias('updated');
  const filter = permissionCondition(env, t, target, t.permissions?.update?.filter);
  return sql.query`with ${changed} as (
    update ${table(t)} as ${target} set ${sql.join(sets, ', ')}
     where ${and([where(target), filter])}
    returning ${target}.*)
  ${statementResult(answer(env, t, changed, single, selectionSet), checked(env, t, changed, t.permissions?.update?.check))}`;
}

export function deleteStatement(
  env: SelectEnvironment,
  t: TableModel,
  where: (a: sql.SQLNode) => Condition,
  single: boolean,
  selectionSet: SelectionSetNode | undefined,
): Fragment {
  const target = newAlias(t.name);
  const changed = newAlias('deleted');
  const filter = permissionCondition(env, t, target, t.permissions?.delete?.filter);
  return sql.query`with ${changed} as (
    delete from ${table(t)} as ${target} where ${and([where(target), filter])}
    returning ${target}.*)
  ${statementResult(answer(env, t, changed, single, selectionSet), sql.query`true`)}`;
}

/** The condition that selects one row by its primary key values (given by GraphQL field name). */
export const primaryKeyCondition = (t: TableModel, values: Row) => (a: sql.SQLNode) =>
  and(
    (t.primaryKey ?? []).map((name) => {
      const c = t.byColumn.get(name)!;
      return condition(sql.query`${column(a, name)} = ${typedValue(c.column, values[c.field])}`);
    }),
  );

export const whereCondition =
  (env: SelectEnvironment, t: TableModel, where: Row | null | undefined) =>
  (a: sql.SQLNode): Condition =>
    compileBoolExp(env, t, a, where);
