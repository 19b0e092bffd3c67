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
import { replaceEntry, trackedEntry } from './tables';

export type AnyPermission = PermissionsByType[PermissionType];

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

export interface PermissionArgs {
  table: QualifiedName;
  role: string;
  permission: AnyPermission;
  comment?: string | null;
}

/**
 * `validate` checks the permission against its table (sql/permissionCheck.ts: its columns, presets
 * and expressions must compile); it is given by the caller, which knows the database.
 */
export function createPermission(
  document: MetadataDocument,
  type: PermissionType,
  args: PermissionArgs,
  validate: (permission: AnyPermission) => void,
): MetadataDocument {
  const entry = trackedEntry(document, args.table);
  if (args.role === 'admin') throw engineError('constraint-violation.admin-role', '$.args', [quoteQualified(args.table)]);
  if (findPermission(entry, type, args.role)) throw engineError('permission-error.exists', '$.args', permissionName(type, args.table, args.role));
  validate(args.permission);
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
