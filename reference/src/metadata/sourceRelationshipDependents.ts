// Remote relationships to tables of sources depend on their target (decision
// dec.remote-relationship.to-source): untracking the table or dropping its source is refused while
// one leads there, and with cascade takes it along, as for relationships within a database.
import { DEFAULT_SOURCE, displayQualified, sourceTarget, type MetadataDocument, type QualifiedName } from '../../../spec';
import { engineError } from '../errors';
import { relationKey } from '../db/introspection';
import { replaceEntry } from './tableEntries';
import { remoteRelationshipsOf, withoutRemoteRelationships } from './remoteRelationships';
import { sourcesOf } from './sources';

/** Whether `document` tracks `table` in `source`. */
function tracks(document: MetadataDocument, source: string, table: QualifiedName): boolean {
  const tables = source === DEFAULT_SOURCE ? document.tables : sourcesOf(document).find((s) => s.name === source)?.tables;
  return (tables ?? []).some((t) => relationKey(t.table) === relationKey(table));
}

/** The to_source relationships of `after` whose target `before` tracked and `after` does not. */
export function orphanedBy(before: MetadataDocument, after: MetadataDocument): { table: QualifiedName; name: string }[] {
  return after.tables.flatMap((entry) =>
    remoteRelationshipsOf(entry).flatMap((rel) => {
      const to = sourceTarget(rel.definition);
      return to && tracks(before, to.source, to.table) && !tracks(after, to.source, to.table) ? [{ table: entry.table, name: rel.name }] : [];
    }),
  );
}

/** `after` without the to_source relationships the change orphaned (with cascade); without cascade, refused while there are any. */
export function settleSourceDependents(before: MetadataDocument, after: MetadataDocument, cascade: boolean): MetadataDocument {
  const orphaned = orphanedBy(before, after);
  if (orphaned.length === 0) return after;
  if (!cascade)
    throw engineError('dependency-error.drop', '$.args', [orphaned.map((o) => `remote relationship ${displayQualified(o.table)}.${o.name}`).join(', ')]);
  let out = after;
  for (const entry of after.tables) {
    const names = orphaned.filter((o) => relationKey(o.table) === relationKey(entry.table)).map((o) => o.name);
    if (names.length) out = replaceEntry(out, withoutRemoteRelationships(entry, names));
  }
  return out;
}
