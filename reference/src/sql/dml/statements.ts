// The legacy DML of /v1/query as SQL: select with nested relationship columns, insert with
// on_conflict, update with $set/$inc/$mul/$default, delete and count; JSON built in PostgreSQL.
import { engineError, EngineError } from '../../errors';
import type { ColumnModel, TableModel } from '../../schema/model';
import { alias as newAlias, and, column, joinCondition, jsonObject, sql, table, TRUE, typedValue, type Fragment } from '../graphql/context';
import { effectiveLimit, permissionCondition, presets } from '../graphql/permissions';
import { compileRawBoolExp, type BoolExpEnvironment } from './boolExp';
import { whereEnv } from './boolExpEnvironment';
import { permittedColumn, readableTable, writableTable } from './dmlRole';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const noCode = (id: string, path: string, params: string[]) => {
  const e = engineError(id, path, params);
  return new EngineError(e.id, e.status, null, e.message, path);
};

/** A column of `t` by name; for a role, one it may use for `type` (select, insert, update). */
function columnOf(env: BoolExpEnvironment, t: TableModel, name: string, path: string, type: 'select' | 'insert' | 'update' = 'select'): ColumnModel {
  const c = t.byColumn.get(name);
  if (c) {
    if (env.role) permittedColumn(env.role, t, type, name, path);
    return c;
  }
  if (t.relationships.some((r) => r.name === name)) throw noCode('no-code.expecting-column', path, [name]);
  throw engineError('not-exists.no-such-column', path, [JSON.stringify(name)]);
}

interface OrderTerm {
  expr: Fragment;
  direction: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

function orderTerms(env: BoolExpEnvironment, t: TableModel, alias: sql.SQLNode, orderBy: unknown, path: string): OrderTerm[] {
  const items = Array.isArray(orderBy) ? orderBy : [orderBy];
  if (items.length === 0) throw engineError('unexpected-payload.order-by-empty', path);
  return items.map((item) => {
    let spec: { column: string; type: 'asc' | 'desc'; nulls?: 'first' | 'last' };
    if (typeof item === 'string') {
      const direction = item.startsWith('-') ? 'desc' : 'asc';
      spec = { column: item.replace(/^[+-]/, ''), type: direction };
    } else if (isObject(item) && typeof item.column === 'string') {
      spec = {
        column: item.column,
        type: item.type === 'desc' ? 'desc' : 'asc',
        ...(item.nulls === 'first' || item.nulls === 'last' ? { nulls: item.nulls } : {}),
      };
    } else {
      throw engineError('parse-failed.arguments', path, ['expected a column, "+column", "-column" or {column, type, nulls}']);
    }
    const [head, ...rest] = spec.column.split('.');
    const c = t.byColumn.get(head!);
    if (c) {
      if (rest.length) throw noCode('no-code.column-chained', path, [head!]);
      if (env.role) permittedColumn(env.role, t, 'select', head!, path);
      return { expr: column(alias, head!), direction: spec.type, ...(spec.nulls ? { nulls: spec.nulls } : {}) };
    }
    const rel = t.relationships.find((r) => r.name === head);
    if (!rel) throw engineError('not-exists.no-such-column', path, [JSON.stringify(head)]);
    if (rel.kind === 'array') throw engineError('unexpected-payload.array-relationship-order-by', path, [head!]);
    const remote = env.models.get(rel.targetKey)!;
    const r = newAlias(remote.name);
    const [inner] = orderTerms(env, remote, r, { column: rest.join('.'), type: spec.type, ...(spec.nulls ? { nulls: spec.nulls } : {}) }, path);
    const readable = env.role ? env.role.rows(remote, r, path) : undefined;
    return {
      ...inner!,
      expr: sql.query`(select ${inner!.expr} from ${table(remote)} as ${r} where ${and([joinCondition(rel.mapping, alias, r), readable])} limit 1)`,
    };
  });
}

const orderClause = (terms: OrderTerm[]) =>
  terms.length
    ? sql.query`order by ${sql.join(
        terms.map((t) => sql.query`${t.expr} ${sql.raw(t.direction)}${t.nulls ? sql.raw(` nulls ${t.nulls}`) : sql.blank}`),
        ', ',
      )}`
    : sql.blank;

interface SelectSpec {
  columns: unknown[];
  where?: Record<string, unknown>;
  order_by?: unknown;
  limit?: number;
  offset?: number;
}

/** The JSON object of a row with the requested columns and expanded relationships. */
function rowJson(env: BoolExpEnvironment, t: TableModel, alias: sql.SQLNode, columns: unknown[], path: string): Fragment {
  if (columns.length === 0) throw engineError('unexpected-payload.empty', `${path}.columns`);
  const pairs: [string, Fragment][] = [];
  for (const [i, item] of columns.entries()) {
    const itemPath = `${path}.columns[${i}]`;
    if (item === '*') {
      // For a role: the columns it may read.
      for (const c of env.role ? readableTable(env.role, t, itemPath).columns : t.columns) pairs.push([c.column.name, column(alias, c.column.name)]);
      continue;
    }
    if (typeof item === 'string') {
      if (t.byColumn.has(item)) pairs.push([item, column(alias, columnOf(env, t, item, itemPath).column.name)]);
      else if (t.relationships.some((r) => r.name === item)) throw noCode('no-code.relationship-expand', itemPath, [item]);
      else throw engineError('not-exists.no-such-column', itemPath, [JSON.stringify(item)]);
      continue;
    }
    if (!isObject(item) || typeof item.name !== 'string' || !Array.isArray(item.columns)) {
      throw engineError('parse-failed.arguments', itemPath, ['expected a column name, "*" or {name, columns}']);
    }
    const rel = t.relationships.find((r) => r.name === item.name);
    if (!rel) throw engineError('not-exists.no-such-column', itemPath, [JSON.stringify(item.name)]);
    const remote = env.models.get(rel.targetKey)!;
    const spec = item as unknown as SelectSpec;
    if (rel.kind === 'object') {
      if (['where', 'order_by', 'limit', 'offset'].some((k) => k in item)) throw engineError('unexpected-payload.object-relationship-arguments', itemPath);
      const r = newAlias(remote.name);
      const readable = env.role ? env.role.rows(remote, r, itemPath) : undefined;
      pairs.push([
        item.name,
        sql.query`(select ${rowJson(env, remote, r, spec.columns, itemPath)} from ${table(remote)} as ${r} where ${and([joinCondition(rel.mapping, alias, r), readable])} limit 1)`,
      ]);
    } else {
      pairs.push([item.name, selectArray(env, remote, spec, itemPath, { mapping: rel.mapping, parent: alias })]);
    }
  }
  return jsonObject(pairs);
}

function selectArray(
  env: BoolExpEnvironment,
  t: TableModel,
  spec: SelectSpec,
  path: string,
  join?: { mapping: readonly [string, string][]; parent: sql.SQLNode },
): Fragment {
  const a = newAlias(t.name);
  const rows = newAlias('rows');
  const conditions = [
    env.role ? env.role.rows(t, a, path) : undefined,
    spec.where ? compileRawBoolExp(whereEnv(env, `${path}.where`), t, a, spec.where) : undefined,
    join ? joinCondition(join.mapping, join.parent, a) : undefined,
  ];
  const order = spec.order_by !== undefined ? orderClause(orderTerms(env, t, a, spec.order_by, `${path}.order_by`)) : sql.blank;
  const rowLimit = env.role ? effectiveLimit(readableTable(env.role, t, path), spec.limit) : spec.limit;
  const limit = rowLimit !== undefined ? sql.query`limit ${sql.value(rowLimit)}` : sql.blank;
  const offset = spec.offset !== undefined ? sql.query`offset ${sql.value(spec.offset)}` : sql.blank;
  return sql.query`(select coalesce(json_agg(${rows}.j order by ${rows}.o), '[]'::json) from (
    select ${rowJson(env, t, a, spec.columns, path)} as j, row_number() over (${order}) as o
      from ${table(t)} as ${a} where ${and(conditions)} ${order} ${limit} ${offset}) as ${rows})`;
}

export const selectStatement = (env: BoolExpEnvironment, t: TableModel, spec: SelectSpec) => sql.query`select ${selectArray(env, t, spec, '$.args')} as result`;

function returningJson(env: BoolExpEnvironment, t: TableModel, changed: sql.SQLNode, returning: string[] | undefined): Fragment {
  const pairs: [string, Fragment][] = [['affected_rows', sql.query`(select count(*) from ${changed})`]];
  if (returning) {
    const cols = returning.map((name, i) => columnOf(env, t, name, `$.args.returning[${i}]`));
    const r = newAlias('r');
    // A role gets back only the rows it may read.
    const readable = env.role ? env.role.rows(t, r, '$.args.returning') : undefined;
    pairs.push([
      'returning',
      sql.query`(select coalesce(json_agg(${jsonObject(cols.map((c) => [c.column.name, column(r, c.column.name)]))}), '[]'::json) from ${changed} as ${r} where ${and([readable])})`,
    ]);
  }
  return jsonObject(pairs);
}

/** The answer of a change: its JSON, and whether every changed row passes the role's check. */
function changeResult(
  env: BoolExpEnvironment,
  t: TableModel,
  changed: sql.SQLNode,
  returning: string[] | undefined,
  check: Record<string, unknown> | undefined,
): Fragment {
  const r = newAlias('checked');
  const holds = env.role ? permissionCondition(env.role.permissions, t, r, check) : undefined;
  const ok = holds ? sql.query`(select coalesce(bool_and(${holds}), true) from ${changed} as ${r})` : sql.query`true`;
  return sql.query`select ${returningJson(env, t, changed, returning)} as result, ${ok} as ok`;
}

export interface InsertSpec {
  objects: Record<string, unknown>[];
  returning?: string[];
  on_conflict?: { action: 'ignore' | 'update'; constraint?: string; constraint_on?: string[] };
}

export function insertStatement(env: BoolExpEnvironment, t: TableModel, spec: InsertSpec): Fragment {
  const own = env.role ? writableTable(env.role, t, 'insert', '$.args') : undefined;
  if (spec.objects.length === 0) throw engineError('unexpected-payload.objects-empty', '$.args.objects');
  const names = [...new Set(spec.objects.flatMap((o) => Object.keys(o)))];
  const cols = names.map((n) => columnOf(env, t, n, '$.args.objects', 'insert'));
  const preset = env.role ? presets(env.role.permissions, t, own!.permissions?.insert?.set) : [];
  const values = spec.objects.map(
    (o) =>
      sql.query`(${sql.join([...cols.map((c) => (c.column.name in o ? typedValue(c.column, o[c.column.name]) : sql.query`default`)), ...preset.map(([, v]) => v)], ', ')})`,
  );
  let conflict: Fragment = sql.blank;
  const oc = spec.on_conflict;
  if (oc) {
    if (oc.constraint !== undefined && oc.constraint_on !== undefined)
      throw engineError('unexpected-payload.constraint-and-constraint-on', '$.args.on_conflict');
    const target =
      oc.constraint !== undefined
        ? sql.query`on constraint ${sql.identifier(oc.constraint)}`
        : oc.constraint_on !== undefined
          ? sql.query`(${sql.join(
              oc.constraint_on.map((n) => sql.identifier(columnOf(env, t, n, '$.args.on_conflict.constraint_on').column.name)),
              ', ',
            )})`
          : undefined;
    if (oc.action === 'update') {
      if (env.role && !env.role.models.get(t.key)?.access.update)
        throw engineError('unexpected-payload.upsert-not-allowed', '$.args.on_conflict', [JSON.stringify(env.role.role)]);
      if (!target) throw engineError('unexpected-payload.upsert-needs-constraint', '$.args.on_conflict');
      conflict = sql.query`on conflict ${target} do update set ${sql.join(
        cols.map((c) => sql.query`${sql.identifier(c.column.name)} = excluded.${sql.identifier(c.column.name)}`),
        ', ',
      )}`;
    } else {
      conflict = sql.query`on conflict ${target ?? sql.blank} do nothing`;
    }
  }
  const changed = newAlias('inserted');
  return sql.query`with ${changed} as (
    insert into ${table(t)} (${sql.join(
      [...cols.map((c) => c.column), ...preset.map(([c]) => c)].map((c) => sql.identifier(c.name)),
      ', ',
    )}) values ${sql.join(values, ', ')} ${conflict} returning *)
    ${changeResult(env, t, changed, spec.returning, own?.permissions?.insert?.check)}`;
}

export interface UpdateSpec {
  where: Record<string, unknown>;
  $set?: Record<string, unknown>;
  $inc?: Record<string, unknown>;
  $mul?: Record<string, unknown>;
  $default?: string[];
  returning?: string[];
}

export function updateStatement(env: BoolExpEnvironment, t: TableModel, spec: UpdateSpec): Fragment {
  const own = env.role ? writableTable(env.role, t, 'update', '$.args') : undefined;
  const a = newAlias(t.name);
  const sets: Fragment[] = [];
  const add = (key: '$set' | '$inc' | '$mul', expr: (c: ColumnModel, v: unknown) => Fragment) => {
    for (const [name, v] of Object.entries(spec[key] ?? {})) {
      const c = columnOf(env, t, name, `$.args.${key}`, 'update');
      sets.push(sql.query`${sql.identifier(c.column.name)} = ${expr(c, v)}`);
    }
  };
  add('$set', (c, v) => typedValue(c.column, v));
  add('$inc', (c, v) => sql.query`${column(a, c.column.name)} + ${typedValue(c.column, v)}`);
  add('$mul', (c, v) => sql.query`${column(a, c.column.name)} * ${typedValue(c.column, v)}`);
  for (const [i, name] of (spec.$default ?? []).entries())
    sets.push(sql.query`${sql.identifier(columnOf(env, t, name, `$.args.$default[${i}]`, 'update').column.name)} = default`);
  if (sets.length === 0) throw engineError('unexpected-payload.update-operators', '$.args');
  // The role's presets are set by every update it makes.
  if (env.role)
    for (const [c, value] of presets(env.role.permissions, t, own!.permissions?.update?.set)) sets.push(sql.query`${sql.identifier(c.name)} = ${value}`);
  const filter = env.role ? permissionCondition(env.role.permissions, t, a, own!.permissions?.update?.filter) : undefined;
  const changed = newAlias('updated');
  return sql.query`with ${changed} as (
    update ${table(t)} as ${a} set ${sql.join(sets, ', ')} where ${and([compileRawBoolExp(whereEnv(env, '$.args.where'), t, a, spec.where), filter])} returning ${a}.*)
    ${changeResult(env, t, changed, spec.returning, own?.permissions?.update?.check)}`;
}

export function deleteStatement(env: BoolExpEnvironment, t: TableModel, spec: { where: Record<string, unknown>; returning?: string[] }): Fragment {
  const own = env.role ? writableTable(env.role, t, 'delete', '$.args') : undefined;
  const a = newAlias(t.name);
  const changed = newAlias('deleted');
  const filter = env.role ? permissionCondition(env.role.permissions, t, a, own!.permissions?.delete?.filter) : undefined;
  return sql.query`with ${changed} as (
    delete from ${table(t)} as ${a} where ${and([compileRawBoolExp(whereEnv(env, '$.args.where'), t, a, spec.where), filter])} returning ${a}.*)
    ${changeResult(env, t, changed, spec.returning, undefined)}`;
}

export function countStatement(env: BoolExpEnvironment, t: TableModel, spec: { where?: Record<string, unknown>; distinct?: string[] }): Fragment {
  const a = newAlias(t.name);
  const readable = env.role ? env.role.rows(t, a, '$.args') : undefined;
  const where = and([readable, spec.where ? compileRawBoolExp(whereEnv(env, '$.args.where'), t, a, spec.where) : TRUE]);
  const distinct = (spec.distinct ?? []).map((n, i) => column(a, columnOf(env, t, n, `$.args.distinct[${i}]`).column.name));
  const counted = distinct.length ? sql.query`count(distinct (${sql.join(distinct, ', ')}))` : sql.query`count(*)`;
  return sql.query`select json_build_object('count', ${counted}) as result from ${table(t)} as ${a} where ${where}`;
}
