// Permission expressions inside compiled queries (SPEC.md §4.3 semantics 1-4): row filters,
// limits, checks and presets, with session variables (X-ENGINE-*) resolved for the request.
import type { DbColumn } from '../../db/introspection';
import type { TableModel } from '../../schema/model';
import { compileRawBoolExp } from '../dml/boolExp';
import type { PermissionType } from '../../../../spec';
import type { Models } from '../../schema/model';
import { isSessionVariable, sessionKey, spokenName, type CompatHeaders } from '../../sessionNames';
import { alias, and, column, CompileError, SessionRead, sql, table, typedValue, type CompileContext, type Condition, type Fragment } from './context';

export type PermissionEnvironment = Pick<CompileContext, 'allModels' | 'sessionVariables' | 'cohort' | 'compatHeaders'>;

const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);

/** `x-engine-user-id` → `X-Engine-User-Id` (`X-Hasura-User-Id` on a compatible server), as the messages name headers. */
export const headerName = (name: string, compat?: CompatHeaders) =>
  spokenName(name.toLowerCase(), compat).replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

export function resolveValue(env: PermissionEnvironment, value: unknown, column: DbColumn): unknown {
  if (!isSessionVariable(value, env.compatHeaders)) return value;
  const key = sessionKey(value);
  const resolved = env.sessionVariables[key];
  if (resolved === undefined) throw new CompileError(`missing header : ${spokenName(value, env.compatHeaders)}`, 'invalid-headers');
  if (INTEGER_TYPES.has(column.type) && !/^-?\d+$/.test(resolved.trim())) {
    throw new CompileError(`${headerName(value, env.compatHeaders)} should be an integer`, 'invalid-headers');
  }
  if (env.cohort) {
    env.cohort.readsSession = true;
    return new SessionRead(env.cohort, key);
  }
  return resolved;
}

/**
 * A session variable holding a list for `_in` / `_nin`: a PostgreSQL array literal (`{1,2,3}`,
 * `{"a b",c}`) or a JSON array (`[1,2,3]`), each element checked against the column's type.
 */
export function resolveList(env: PermissionEnvironment, name: string, column: DbColumn): unknown[] {
  const header = headerName(name, env.compatHeaders);
  const resolved = env.sessionVariables[sessionKey(name)];
  if (resolved === undefined) throw new CompileError(`missing header : ${spokenName(name, env.compatHeaders)}`, 'invalid-headers');
  const values = parseList(resolved.trim());
  if (values === undefined) throw new CompileError(`${header} should be a list such as {1,2,3} or [1,2,3]`, 'invalid-headers');
  for (const v of values) {
    if (INTEGER_TYPES.has(column.type) && v !== null && !/^-?\d+$/.test(String(v).trim()))
      throw new CompileError(`${header} should be a list of integers`, 'invalid-headers');
  }
  return values;
}

export function parseList(text: string): unknown[] | undefined {
  if (text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return Array.isArray(parsed) && parsed.every((v) => v === null || typeof v !== 'object') ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  const body = text.slice(1, -1);
  if (body.trim() === '') return [];
  // Elements separated by commas; double-quoted ones may hold commas, braces and \-escapes; NULL is null.
  // An element ends at a comma or at the end of the body; a comma at the end leaves an empty element.
  const values: unknown[] = [];
  const element = /\s*(?:"((?:[^"\\]|\\.)*)"|([^,{}"]*?))\s*(,|$)/y;
  for (;;) {
    const m = element.exec(body);
    if (m === null) return undefined;
    if (m[1] !== undefined) values.push(m[1].replace(/\\(.)/g, '$1'));
    else if (m[2]!.toUpperCase() === 'NULL') values.push(null);
    else if (m[2] === '') return undefined;
    else values.push(m[2]);
    if (m[3] === '') return values;
  }
}

export function permissionCondition(
  env: PermissionEnvironment,
  t: TableModel,
  alias: sql.SQLNode,
  exp: Record<string, unknown> | undefined,
): Condition | undefined {
  if (exp === undefined) return undefined;
  const full = env.allModels.get(t.key)!;
  return compileRawBoolExp(
    {
      models: env.allModels,
      path: '$',
      resolveValue: (v, c) => resolveValue(env, v, c),
      sessionLists: (name, c) => resolveList(env, name, c),
      ...(env.compatHeaders ? { compatHeaders: env.compatHeaders } : {}),
    },
    full,
    alias,
    exp,
  );
}

/** The select filter of the role on `t`, or nothing for admin. */
export const selectFilter = (env: PermissionEnvironment, t: TableModel, alias: sql.SQLNode) =>
  permissionCondition(env, t, alias, t.permissions?.select?.filter);

/**
 * A column as the role reads it. An inherited role reads a column that only some of its parents'
 * grants list where one of their filters holds, and null in the other rows (decision
 * dec.inherited-roles): in the fields, where, order_by, distinct_on and aggregates alike.
 */
export function readColumn(env: PermissionEnvironment, t: TableModel, alias: sql.SQLNode, name: string): Fragment {
  const where = t.permissions?.select?.columnVisibility?.get(name);
  return where ? shownWhere(env, t, alias, where, column(alias, name)) : column(alias, name);
}

/** The value of a scalar computed field as the role reads it (see readColumn). */
export function readComputed(env: PermissionEnvironment, t: TableModel, alias: sql.SQLNode, field: string, value: Fragment): Fragment {
  const where = t.permissions?.select?.computedFieldVisibility?.get(field);
  return where ? shownWhere(env, t, alias, where, value) : value;
}

const shownWhere = (env: PermissionEnvironment, t: TableModel, alias: sql.SQLNode, where: Record<string, unknown>, value: Fragment) =>
  sql.query`(case when ${and([permissionCondition(env, t, alias, where)])} then ${value} end)`;

/** The smaller of the requested limit and the role's. */
export function effectiveLimit(t: TableModel, requested: number | null | undefined): number | undefined {
  const cap = t.permissions?.select?.limit;
  if (requested === null || requested === undefined) return cap;
  return cap === undefined ? requested : Math.min(cap, requested);
}

/** Preset columns of an insert or update: [column, value expression]. */
export function presets(env: PermissionEnvironment, t: TableModel, set: Record<string, unknown> | undefined): [DbColumn, Fragment][] {
  const full = env.allModels.get(t.key)!;
  return Object.entries(set ?? {}).map(([name, value]) => {
    const c = full.byColumn.get(name)!.column;
    if (typeof value === 'string' && value.toUpperCase() === 'NOW()') return [c, sql.query`now()`];
    return [c, typedValue(c, resolveValue(env, value, c))];
  });
}

const EXPRESSIONS: Record<PermissionType, readonly ('filter' | 'check')[]> = {
  select: ['filter'],
  insert: ['check'],
  update: ['filter', 'check'],
  delete: ['filter'],
};

/**
 * Queries whose planning checks that the literal values of a permission fit their columns, one per
 * part (filter, check, set); session variables stand as NULL, as they are known only per request.
 */
export function permissionValueProbes(
  models: Models,
  t: TableModel,
  type: PermissionType,
  permission: Record<string, unknown>,
  compat?: CompatHeaders,
): [string, Fragment][] {
  const a = alias(t.name);
  const probes: [string, Fragment][] = [];
  for (const key of EXPRESSIONS[type]) {
    const exp = permission[key];
    if (exp === undefined || exp === null) continue;
    const env = {
      models,
      path: `$.args.permission.${key}`,
      resolveValue: (v: unknown) => (isSessionVariable(v, compat) ? null : v),
      sessionLists: 'unresolved' as const,
      ...(compat ? { compatHeaders: compat } : {}),
    };
    probes.push([key, sql.query`select 1 from ${table(t)} as ${a} where ${and([compileRawBoolExp(env, t, a, exp)])}`]);
  }
  const presetValues = Object.entries((permission.set as Record<string, unknown> | undefined) ?? {})
    .filter(([, v]) => !isSessionVariable(v, compat) && !(typeof v === 'string' && v.toUpperCase() === 'NOW()'))
    .map(([name, v]) =>
      typedValue(
        t.db.columns.find((c) => c.name === name)!,
        v,
      ),
    );
  if (presetValues.length) probes.push(['set', sql.query`select ${sql.join(presetValues, ', ')}`]);
  return probes;
}
