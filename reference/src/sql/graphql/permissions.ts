// Permission expressions inside compiled queries (SPEC.md §4.3 semantics 1-4): row filters,
// limits, checks and presets, with session variables (X-ENGINE-*) resolved for the request.
import type { DbColumn } from '../../db/introspection';
import type { TableModel } from '../../schema/model';
import { compileRawBoolExp } from '../dml/boolExp';
import { CompileError, sql, typedValue, type CompileContext, type Condition, type Fragment } from './context';

export type PermissionEnvironment = Pick<CompileContext, 'allModels' | 'sessionVariables'>;

const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);

/** `x-engine-user-id` → `X-Engine-User-Id`, as the messages name headers. */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

export const isSessionVariable = (value: unknown): value is string => typeof value === 'string' && /^x-engine-/i.test(value);

export function resolveValue(env: PermissionEnvironment, value: unknown, column: DbColumn): unknown {
  if (!isSessionVariable(value)) return value;
  const resolved = env.sessionVariables[value.toLowerCase()];
  if (resolved === undefined) throw new CompileError(`missing header : ${value}`, 'invalid-headers');
  if (INTEGER_TYPES.has(column.type) && !/^-?\d+$/.test(resolved.trim())) {
    throw new CompileError(`${headerName(value.toLowerCase())} should be an integer`, 'invalid-headers');
  }
  return resolved;
}

export function permissionCondition(env: PermissionEnvironment, t: TableModel, alias: sql.SQLNode, exp: Record<string, unknown> | undefined): Condition | undefined {
  if (exp === undefined) return undefined;
  const full = env.allModels.get(t.key)!;
  return compileRawBoolExp({ models: env.allModels, path: '$', resolveValue: (v, c) => resolveValue(env, v, c) }, full, alias, exp);
}

/** The select filter of the role on `t`, or nothing for admin. */
export const selectFilter = (env: PermissionEnvironment, t: TableModel, alias: sql.SQLNode) => permissionCondition(env, t, alias, t.permissions?.select?.filter);

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
