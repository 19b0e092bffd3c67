// A permission must fit its table: its columns and computed fields exist, its presets name columns,
// and its expressions compile against the tables they reach (what they reach is the caller's models).
import { formatMessage, quoteQualified, type PermissionType } from '../../../spec';
import type { DbColumn } from '../db/introspection';
import { engineError } from '../errors';
import type { AnyPermission } from '../metadata/permissions';
import type { Models, TableModel } from '../schema/model';
import { compileRawBoolExp } from './dml/boolExp';
import { alias } from './graphql/context';
import { isSessionVariable, type CompatHeaders } from '../sessionNames';

/** A literal value of a permission and its column, by part (filter, check, set): `record` collects them. */
export type RecordValue = (key: 'filter' | 'check' | 'set', column: DbColumn, value: unknown) => void;

export function validatePermission(
  models: Models,
  table: TableModel,
  type: PermissionType,
  role: string,
  permission: AnyPermission,
  record?: RecordValue,
  /** On a compatible server x-hasura-… names are session variables too, not literal values. */
  compat?: CompatHeaders,
): void {
  const columns = 'columns' in permission ? permission.columns : undefined;
  if (Array.isArray(columns)) {
    for (const c of columns) if (!table.byColumn.has(c)) throw engineError('not-exists.column', '$.args.permission.columns', [JSON.stringify(c)]);
  }
  const computed = 'computed_fields' in permission ? permission.computed_fields : undefined;
  for (const name of computed ?? []) {
    if (!(table.entry.computed_fields ?? []).some((f) => f.name === name)) {
      const missing = formatMessage('err.not-exists.computed-field', JSON.stringify(name));
      throw engineError('constraint-violation.permission', '$.args', [quoteQualified(table.entry.table), JSON.stringify(role), missing]);
    }
    // Decision dec.computed_fields.permissions: a table-returning one follows its table's permissions.
    const returned = table.computedFields.find((c) => c.field === name)?.targetKey;
    if (returned !== undefined) {
      const target = models.get(returned);
      throw engineError('constraint-violation.computed-field-permission', '$.args', [
        quoteQualified(table.entry.table),
        JSON.stringify(role),
        JSON.stringify(name),
        target ? quoteQualified(target.entry.table) : JSON.stringify(returned),
      ]);
    }
  }
  const set = 'set' in permission ? permission.set : undefined;
  for (const [c, v] of Object.entries(set ?? {})) {
    const column = table.byColumn.get(c);
    if (!column) throw engineError('not-exists.column', '$.args.permission.set', [JSON.stringify(c)]);
    if (record && !isSessionVariable(v, compat) && !(typeof v === 'string' && v.toUpperCase() === 'NOW()')) record('set', column.column, v);
  }
  for (const key of ['filter', 'check'] as const) {
    const exp = (permission as unknown as Record<string, unknown>)[key];
    if (exp === undefined) continue;
    // Literal values (not session variables) are handed to `record`, to be checked against their columns.
    const resolveValue = record
      ? (v: unknown, c: DbColumn) => {
          if (!isSessionVariable(v, compat) && v !== null) record(key, c, v);
          return v;
        }
      : undefined;
    compileRawBoolExp(
      {
        models,
        path: `$.args.permission.${key}`,
        sessionLists: 'unresolved',
        ...(resolveValue ? { resolveValue } : {}),
        ...(compat ? { compatHeaders: compat } : {}),
      },
      table,
      alias(table.name),
      exp,
    );
  }
  if (type === 'select' && 'limit' in permission && permission.limit !== undefined && permission.limit < 0) {
    throw engineError('parse-failed.arguments', '$.args.permission.limit', ['expected a limit ≥ 0']);
  }
}
