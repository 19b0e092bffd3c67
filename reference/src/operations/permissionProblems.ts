// Permissions the database or the rest of the metadata no longer supports (a column dropped, a
// relationship a filter goes through gone): inconsistent objects, as the engine reports them
// (decision dec.inconsistency.report), dropped by drop_inconsistent_metadata.
import { formatMessage, PERMISSION_TYPES, permissionListKey, quoteQualified, type MetadataDocument } from '../../../spec';
import { relationKey, type Introspection } from '../db/introspection';
import { EngineError } from '../errors';
import type { InconsistentObject } from '../metadata/inconsistency';
import { buildModels } from '../schema/model';
import { validatePermission } from '../sql/permissionCheck';

export function permissionProblems(document: MetadataDocument, db: Introspection): InconsistentObject[] {
  const models = buildModels(document, db, new Map());
  const out: InconsistentObject[] = [];
  for (const entry of document.tables) {
    const table = models.get(relationKey(entry.table));
    if (!table) continue; // the table itself is inconsistent, and its permissions go with it
    for (const type of PERMISSION_TYPES) {
      for (const p of entry[permissionListKey(type)] ?? []) {
        try {
          validatePermission(models, table, type, p.role, p.permission);
        } catch (error) {
          if (!(error instanceof EngineError)) throw error;
          // That refusal speaks of the table and the role already.
          const framed = error.id === 'err.constraint-violation.computed-field-permission' || error.id === 'err.constraint-violation.permission';
          out.push({
            type: `${type}_permission`,
            reason: framed
              ? error.message
              : formatMessage('err.constraint-violation.permission', quoteQualified(entry.table), JSON.stringify(p.role), error.message),
            definition: { table: entry.table, role: p.role, permission: p.permission, ...(p.comment ? { comment: p.comment } : {}) },
          });
        }
      }
    }
  }
  return out;
}
