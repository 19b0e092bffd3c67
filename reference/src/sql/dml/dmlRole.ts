// A role other than admin running legacy DML: what it may read, insert, update and delete, with
// SPEC.md §7.2's permission-denied messages for what it may not. The rows it may read come with
// the role (roleAccess.ts compiles them), so that expressions compiled here need not know how.
import { quoteQualified, type PermissionType } from '../../../../spec';
import { engineError } from '../../errors';
import type { ColumnModel, Models, TableModel } from '../../schema/model';
import type { CompileContext, Condition, sql } from '../graphql/context';

export interface DmlRole {
  role: string;
  /** The role's view of the tracked tables (modelsForRole). */
  models: Models;
  /** The full models and the request's session variables, for permission expressions. */
  permissions: Pick<CompileContext, 'allModels' | 'sessionVariables' | 'compatHeaders'>;
  /** The rows of `t` the role may read, as a condition on `alias` (undefined: no restriction). */
  rows(t: TableModel, alias: sql.SQLNode, path: string): Condition | undefined;
}

const quotedRole = (role: DmlRole) => JSON.stringify(role.role);

/** The role's model of `t`, when it may select from it; otherwise "select on … is not allowed." */
export function readableTable(role: DmlRole, t: TableModel, path: string): TableModel {
  const own = role.models.get(t.key);
  if (!own?.access.select) throw engineError('permission-denied.select', path, [quoteQualified(t.entry.table), quotedRole(role)]);
  return own;
}

/** The role's model of `t`, when it may insert, update or delete there. */
export function writableTable(role: DmlRole, t: TableModel, type: Exclude<PermissionType, 'select'>, path: string): TableModel {
  const own = role.models.get(t.key);
  if (!own?.access[type]) throw engineError('permission-denied.operation', path, [type, quoteQualified(t.entry.table), quotedRole(role)]);
  return own;
}

/** The columns of a type of permission: readable ones for select, settable ones otherwise. */
const columnsFor = (own: TableModel, type: PermissionType): readonly ColumnModel[] =>
  type === 'select' ? own.columns : type === 'insert' ? own.access.insertColumns : own.access.updateColumns;

/** Refuses a column of `t` that the role may not use for `type`. */
export function permittedColumn(role: DmlRole, t: TableModel, type: PermissionType, name: string, path: string): void {
  const own = type === 'select' ? readableTable(role, t, path) : role.models.get(t.key);
  if (!own || !columnsFor(own, type).some((c) => c.column.name === name)) {
    throw engineError('permission-denied.column', path, [quotedRole(role), type, JSON.stringify(name)]);
  }
}
