// The role of a legacy DML request, with the rows it may read compiled from its select permissions.
import type { Models } from '../../schema/model';
import { selectFilter, type PermissionEnvironment } from '../graphql/permissions';
import { readableTable, type DmlRole } from './dmlRole';

export function dmlRole(role: string, models: Models, permissions: PermissionEnvironment): DmlRole {
  const self: DmlRole = {
    role,
    models,
    permissions,
    rows: (t, alias, path) => selectFilter(permissions, readableTable(self, t, path), alias),
  };
  return self;
}
