// Remote relationships to tables of sources (decision dec.remote-relationship.to-source), resolved
// once the models of every source are known: each one whose target is a table served in its
// source, with the columns field_mapping names, becomes a field of its table; the others are
// inconsistent objects.
import { DEFAULT_SOURCE, quoteQualified, sourceTarget, type MetadataDocument, type RemoteRelationship, type TableEntry } from '../../../spec';
import { relationKey, sourceKey, type DbColumn, type DbTable } from '../db/introspection';
import { remoteRelationshipInconsistency, type InconsistentObject } from '../metadata/inconsistency';
import { lhsProblem } from '../metadata/remoteRelationships';
import { sourcesOf } from '../metadata/sources';
import type { SourceRelationshipModel, TableModel } from './modelTypes';

const INTEGERS = new Set(['int2', 'int4', 'int8']);

/** Whether a value of column `a` reaches a column `b` of another database as itself: the same type, two integer types, or two string types. */
function joinable(a: DbColumn, b: DbColumn): boolean {
  if (a.type === b.type && a.type_schema === b.type_schema) return true;
  return (INTEGERS.has(a.type) && INTEGERS.has(b.type)) || (a.type_category === 'S' && b.type_category === 'S');
}

/** What keeps a to_source relationship of `own` (its table) from being served, given the target's model (if served); undefined: nothing. */
export function sourceTargetProblem(
  document: MetadataDocument,
  own: DbTable,
  rel: RemoteRelationship,
  target: { db: DbTable } | undefined,
): string | undefined {
  const to = sourceTarget(rel.definition)!;
  const table = quoteQualified(to.table);
  const of = to.source === DEFAULT_SOURCE ? '' : ` of the source ${JSON.stringify(to.source)}`;
  if (to.source !== DEFAULT_SOURCE) {
    const source = sourcesOf(document).find((s) => s.name === to.source);
    if (!source) return `the source ${JSON.stringify(to.source)} does not exist`;
    if (!source.tables.some((t) => relationKey(t.table) === relationKey(to.table)))
      return `the table ${table} is not tracked in the source ${JSON.stringify(to.source)}`;
  } else if (!document.tables.some((t) => relationKey(t.table) === relationKey(to.table))) {
    return `the table ${table} is not tracked in the source "default"`;
  }
  if (!target) return `the table ${table}${of} cannot be served`;
  for (const [column, targetColumn] of Object.entries(to.field_mapping)) {
    const there = target.db.columns.find((c) => c.name === targetColumn);
    if (!there) return `the column ${JSON.stringify(targetColumn)} of field_mapping does not exist in the table ${table}${of}`;
    const here = own.columns.find((c) => c.name === column);
    if (here && !joinable(here, there))
      return `the column ${JSON.stringify(column)} (${here.type}) cannot be joined to the column ${JSON.stringify(targetColumn)} (${there.type}) of the table ${table}${of}`;
  }
  return undefined;
}

/** The key of a to_source relationship's target among the models of all sources. */
export function sourceTargetKey(rel: RemoteRelationship): string {
  const to = sourceTarget(rel.definition)!;
  const key = relationKey(to.table);
  return to.source === DEFAULT_SOURCE ? key : sourceKey(to.source, key);
}

/**
 * Give every source's tables' models their to_source relationships (in place); what cannot be
 * served is returned as inconsistent objects (of the relationship's source). A relationship whose own columns are missing is
 * reported with the table's other problems (metadata/inconsistency.ts), not here.
 */
export function resolveSourceRelationships(document: MetadataDocument, models: ReadonlyMap<string, TableModel>): InconsistentObject[] {
  const problems: InconsistentObject[] = [];
  for (const model of models.values()) {
    const resolved: SourceRelationshipModel[] = [];
    for (const rel of sourceRelationshipsOf(model.entry)) {
      if (lhsProblem(model.db, rel) !== undefined) continue;
      const to = sourceTarget(rel.definition)!;
      const targetKey = sourceTargetKey(rel);
      const target = models.get(targetKey);
      const problem = sourceTargetProblem(document, model.db, rel, target);
      if (problem !== undefined) {
        const object = remoteRelationshipInconsistency(model.entry.table, rel, problem);
        problems.push(model.source === undefined ? object : { ...object, source: model.source });
        continue;
      }
      resolved.push({
        name: rel.name,
        kind: to.relationship_type,
        targetKey,
        ...(to.source === DEFAULT_SOURCE ? {} : { source: to.source }),
        mapping: Object.entries(to.field_mapping),
      });
    }
    model.sourceRelationships = resolved;
  }
  return problems;
}

const sourceRelationshipsOf = (entry: TableEntry): RemoteRelationship[] => (entry.remote_relationships ?? []).filter((r) => 'to_source' in r.definition);
