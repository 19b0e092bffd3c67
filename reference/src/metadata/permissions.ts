// Permission operations (SPEC.md §2.3, §4.3) as pure functions over the document.
import {
  quoteQualified,
  permissionListKey,
  type MetadataDocument,
  type PermissionEntry,
  type PermissionType,
  type PermissionsByType,
  type QualifiedName,
  type TableEntry,
} from '../../../spec';
import { engineError } from '../errors';
import type { Models, TableModel } from '../schema/model';
import { compileRawBoolExp } from '../sql/dml/boolExp';
import { alias } from '../sql/graphql/context';
import { relationKey, type DbColumn } from '../db/introspection';
import { isSessionVariable } from '../sql/graphql/permissions';
import { replaceEntry, trackedEntry } from './tables';

type AnyPermission = PermissionsByType[PermissionType];

const list = (entry: TableEntry, type: PermissionType) => (entry[permissionListKey(type)] ?? []) as PermissionEntry<AnyPermission>[];

function withList(entry: TableEntry, type: PermissionType, items: PermissionEntry<AnyPermission>[]): TableEntry {
  const key = permissionListKey(type);
  const { [key]: _old, ...rest } = entry;
  return (items.length ? { ...rest, [key]: items } : rest) as TableEntry;
}

const permissionName = (type: PermissionType, table: QualifiedName, role: string) => [type, quoteQualified(table), JSON.stringify(role)];

export function findPermission(entry: TableEntry, type: PermissionType, role: string): PermissionEntry<AnyPermission> | undefined {
  return list(entry, type).find((p) => p.role === role);
}

/** Columns, presets and expressions must fit the table. */
/** A literal value of a permission and its column, by part (filter, check, set): `record` collects them. */
export type RecordValue = (key: 'filter' | 'check' | 'set', column: DbColumn, value: unknown) => void;

export function validatePermission(models: Models, table: TableModel, type: PermissionType, permission: AnyPermission, record?: RecordValue): void {
  const columns = 'columns' in permission ? permission.columns : undefined;
  if (Array.isArray(columns)) {
    for (const c of columns) if (!table.byColumn.has(c)) throw engineError('not-exists.column', '$.args.permission.columns', [JSON.stringify(c)]);
  }
  const computed = 'computed_fields' in permission ? permission.computed_fields : undefined;
  for (const name of computed ?? []) {
    if (!(table.entry.computed_fields ?? []).some((f) => f.name === name)) {
      throw engineError('not-exists.computed-field', '$.args.permission.computed_fields', [JSON.stringify(name), quoteQualified(table.entry.table)]);
    }
  }
  const set = 'set' in permission ? permission.set : undefined;
  for (const [c, v] of Object.entries(set ?? {})) {
    const column = table.byColumn.get(c);
    if (!column) throw engineError('not-exists.column', '$.args.permission.set', [JSON.stringify(c)]);
    if (record && !isSessionVariable(v) && !(typeof v === 'string' && v.toUpperCase() === 'NOW()')) record('set', column.column, v);
  }
  for (const key of ['filter', 'check'] as const) {
    const exp = (permission as unknown as Record<string, unknown>)[key];
    if (exp === undefined) continue;
    // Literal values (not session variables) are handed to `record`, to be checked against their columns.
    const resolveValue = record
      ? (v: unknown, c: DbColumn) => {
          if (!isSessionVariable(v) && v !== null) record(key, c, v);
          return v;
        }
      : undefined;
    compileRawBoolExp(
      { models, path: `$.args.permission.${key}`, sessionLists: 'unresolved', ...(resolveValue ? { resolveValue } : {}) },
      table,
      alias(table.name),
      exp,
    );
  }
  if (type === 'select' && 'limit' in permission && permission.limit !== undefined && permission.limit < 0) {
    throw engineError('parse-failed.arguments', '$.args.permission.limit', ['expected a limit ≥ 0']);
  }
}

export interface PermissionArgs {
  table: QualifiedName;
  role: string;
  permission: AnyPermission;
  comment?: string | null;
}

export function createPermission(document: MetadataDocument, models: Models, type: PermissionType, args: PermissionArgs): MetadataDocument {
  const entry = trackedEntry(document, args.table);
  if (args.role === 'admin') throw engineError('constraint-violation.admin-role', '$.args', [quoteQualified(args.table)]);
  if (findPermission(entry, type, args.role)) throw engineError('permission-error.exists', '$.args', permissionName(type, args.table, args.role));
  const table = models.get(relationKey(args.table));
  if (table) validatePermission(models, table, type, args.permission);
  const item: PermissionEntry<AnyPermission> = {
    role: args.role,
    permission: args.permission,
    ...(typeof args.comment === 'string' ? { comment: args.comment } : {}),
  };
  return replaceEntry(document, withList(entry, type, [...list(entry, type), item]));
}

export function dropPermission(document: MetadataDocument, type: PermissionType, args: { table: QualifiedName; role: string }): MetadataDocument {
  const entry = trackedEntry(document, args.table);
  if (!findPermission(entry, type, args.role)) throw engineError('permission-error.not-exists', '$.args', permissionName(type, args.table, args.role));
  return replaceEntry(
    document,
    withList(
      entry,
      type,
      list(entry, type).filter((p) => p.role !== args.role),
    ),
  );
}

export function setPermissionComment(
  document: MetadataDocument,
  args: { table: QualifiedName; role: string; type: PermissionType; comment?: string | null },
): MetadataDocument {
  const entry = trackedEntry(document, args.table);
  if (!findPermission(entry, args.type, args.role))
    throw engineError('permission-error.not-exists', '$.args', permissionName(args.type, args.table, args.role));
  const items = list(entry, args.type).map((p) => {
    if (p.role !== args.role) return p;
    const { comment: _c, ...rest } = p;
    return typeof args.comment === 'string' ? { ...rest, comment: args.comment } : rest;
  });
  return replaceEntry(document, withList(entry, args.type, items));
}
