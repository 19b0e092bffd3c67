// Which objects of a metadata document do not fit the database (SPEC.md §2.9, §3).
import {
  displayQualified,
  formatMessage,
  quoteQualified,
  type ComputedField,
  type FunctionEntry,
  type InheritedRole,
  type Action,
  type MetadataDocument,
  type RemoteSchema,
  type RemoteRelationship,
  type RestEndpoint,
  type QualifiedName,
  type PermissionType,
} from '../../../spec';
import { columnConflict, computedFieldProblem, computedFieldsOf, conflictReason } from './computedFields';
import { functionProblem, functionsOf } from './functions';
import { endpointsOf } from './collections';
import { endpointProblem } from './restEndpoints';
import { relationKey, type Introspection } from '../db/introspection';
import { EngineError } from '../errors';
import { relationshipsOf, resolveRelationship } from './relationships';
import { lhsProblem, remoteRelationshipsOf } from './remoteRelationships';

export type InconsistentObject =
  | { type: 'table'; reason: string; definition: string | QualifiedName; source?: string }
  | { type: 'function'; reason: string; definition: FunctionEntry; source?: string }
  | { type: 'computed_field'; reason: string; definition: { table: QualifiedName } & ComputedField }
  | { type: 'rest_endpoint'; reason: string; definition: RestEndpoint }
  | { type: 'remote_schema'; reason: string; definition: RemoteSchema }
  | { type: 'remote_schema_permission'; reason: string; definition: { remote_schema: string; role: string; definition: { schema: string }; comment?: string } }
  | { type: 'action'; reason: string; definition: Action }
  | { type: 'source'; reason: string; name: string; definition: string; message: string }
  | {
      type: 'remote_relationship';
      reason: string;
      definition: { table: QualifiedName; name: string; definition: RemoteRelationship['definition'] };
      source?: string;
    }
  | { type: 'object_relation' | 'array_relation'; reason: string; definition: Record<string, unknown> }
  | { type: `${PermissionType}_permission`; reason: string; definition: { table: QualifiedName; role: string; permission: unknown; comment?: string } }
  | { type: 'inherited_role'; reason: string; name: string; definition: InheritedRole }
  | {
      /** Informational, as the engine reports it: nothing can be dropped to resolve it (decision dec.inherited-roles). */
      type: 'inherited role permission inconsistency';
      reason: string;
      name: string;
      entity: { table: string; source: string; permission_type: string } | { remote_schema: string };
    };

export { introspectionOf, relationKey, type Introspection, type Relation } from '../db/introspection';

export const isTracked = (document: MetadataDocument, table: QualifiedName) =>
  document.tables.some((t) => t.table.schema === table.schema && t.table.name === table.name);

export function findInconsistencies(document: MetadataDocument, db: Introspection): InconsistentObject[] {
  const out: InconsistentObject[] = [];
  for (const entry of document.tables) {
    if (!db.relations.has(relationKey(entry.table))) {
      out.push({
        type: 'table',
        reason: formatMessage('err.not-exists.table-in-postgres', quoteQualified(entry.table)),
        definition: displayQualified(entry.table),
      });
      continue;
    }
    if (!db.tables.has(relationKey(entry.table))) continue; // details not loaded: nothing more to check
    for (const { rel, kind } of relationshipsOf(entry)) {
      const problem = relationshipProblem(document, db, namedTarget(rel), () => resolveRelationship(entry, rel, kind, db).remote);
      if (problem) {
        // As the engine reports it: where it is, then what is wrong.
        const reason = formatMessage('err.constraint-violation.relationship', quoteQualified(entry.table), JSON.stringify(rel.name), problem);
        out.push({ type: kind === 'object' ? 'object_relation' : 'array_relation', reason, definition: { table: entry.table, ...rel } });
      }
    }
    const columns = db.tables.get(relationKey(entry.table))!.columns.map((c) => c.name);
    for (const field of computedFieldsOf(entry)) {
      // The function first, then the name, as the engine finds them.
      const conflict = columnConflict(entry, columns, field.name);
      const reason = computedFieldProblem(document, db, entry.table, field) ?? (conflict && conflictReason(conflict));
      if (reason) out.push({ type: 'computed_field', reason, definition: { table: entry.table, ...field } });
    }
    for (const rel of remoteRelationshipsOf(entry)) {
      const problem = lhsProblem(db.tables.get(relationKey(entry.table))!, rel);
      if (problem) out.push(remoteRelationshipInconsistency(entry.table, rel, problem));
    }
  }
  for (const entry of functionsOf(document)) {
    const reason = functionProblem(document, db, entry);
    if (reason) out.push({ type: 'function', reason, definition: entry });
  }
  for (const endpoint of endpointsOf(document)) {
    const reason = endpointProblem(document, endpoint);
    if (reason) out.push({ type: 'rest_endpoint', reason, definition: endpoint });
  }
  return out;
}

/** The table a relationship names in its `using` (a manual mapping's, an array relationship's foreign key's). */
function namedTarget(rel: { using: unknown }): QualifiedName | undefined {
  const using = rel.using as { manual_configuration?: { remote_table: QualifiedName }; foreign_key_constraint_on?: unknown };
  if (using.manual_configuration) return using.manual_configuration.remote_table;
  const fk = using.foreign_key_constraint_on;
  return typeof fk === 'object' && fk !== null && 'table' in fk ? (fk as { table: QualifiedName }).table : undefined;
}

const missing = (document: MetadataDocument, db: Introspection, table: QualifiedName) => !isTracked(document, table) || !db.relations.has(relationKey(table));

function relationshipProblem(
  document: MetadataDocument,
  db: Introspection,
  named: QualifiedName | undefined,
  resolve: () => QualifiedName,
): string | undefined {
  // A table that is not tracked, or not in the database, is no table of the engine's.
  if (named && missing(document, db, named)) return formatMessage('err.not-exists.table', quoteQualified(named));
  try {
    const remote = resolve();
    return missing(document, db, remote) ? formatMessage('err.not-exists.table', quoteQualified(remote)) : undefined;
  } catch (error) {
    if (error instanceof EngineError) return error.message;
    throw error;
  }
}

/** A remote relationship that cannot be served, as get_inconsistent_metadata lists it. */
export function remoteRelationshipInconsistency(
  table: QualifiedName,
  rel: RemoteRelationship,
  problem: string,
): Extract<InconsistentObject, { type: 'remote_relationship' }> {
  return {
    type: 'remote_relationship',
    reason: formatMessage(
      'to_source' in rel.definition ? 'err.invalid-configuration.source-relationship' : 'err.remote-schema-error.remote-relationship',
      JSON.stringify(rel.name),
      quoteQualified(table),
      problem,
    ),
    definition: { table, name: rel.name, definition: rel.definition },
  };
}

const keyOf = (o: InconsistentObject) => `${o.type}:${JSON.stringify('definition' in o ? o.definition : o)}`;

/**
 * Objects of `after` that `before` did not have. A permission an inherited role cannot inherit is
 * reported but never refuses an operation: the engine reports it for information only.
 */
export function introducedBy(before: readonly InconsistentObject[], after: readonly InconsistentObject[]): InconsistentObject[] {
  const old = new Set(before.map(keyOf));
  return after.filter((o) => o.type !== 'inherited role permission inconsistency' && !old.has(keyOf(o)));
}
