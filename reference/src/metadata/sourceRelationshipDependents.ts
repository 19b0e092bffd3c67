// Remote relationships to tables of sources depend on their target (decision
// dec.remote-relationship.to-source): untracking the table or dropping its source is refused while
// one leads there, and with cascade takes it along, as for relationships within a database. They
// may be in any source's tables: each is looked for in the whole document.
import { DEFAULT_SOURCE, displayQualified, sourceTarget, type MetadataDocument, type QualifiedName, type TableEntry } from '../../../spec';
import { engineError } from '../errors';
import { relationKey } from '../db/introspection';
import { replaceEntry } from './tableEntries';
import { remoteRelationshipsOf, withoutRemoteRelationships } from './remoteRelationships';
import { sourcesOf, sourceView, withSourceView } from './sources';

/** A to_source relationship, where it is: the source of its table (default: the server's own), its table and name. */
interface Found {
  source: string;
  table: QualifiedName;
  name: string;
}

/** Every part of the document: the server's own tables, then each source's. */
const parts = (document: MetadataDocument): [string, readonly TableEntry[]][] => [
  [DEFAULT_SOURCE, document.tables],
  ...sourcesOf(document).map((s): [string, readonly TableEntry[]] => [s.name, s.tables]),
];

/** Whether `document` tracks `table` in `source`. */
function tracks(document: MetadataDocument, source: string, table: QualifiedName): boolean {
  return (parts(document).find(([name]) => name === source)?.[1] ?? []).some((t) => relationKey(t.table) === relationKey(table));
}

/** The to_source relationships of `document` that lead to `table` of `source`. */
export function leadingTo(document: MetadataDocument, source: string, table: QualifiedName): Found[] {
  return parts(document).flatMap(([own, tables]) =>
    tables.flatMap((entry) =>
      remoteRelationshipsOf(entry).flatMap((rel) => {
        const to = sourceTarget(rel.definition);
        return to && to.source === source && relationKey(to.table) === relationKey(table) ? [{ source: own, table: entry.table, name: rel.name }] : [];
      }),
    ),
  );
}

/** How a refusal names one: its table (with its source, when another) and its name. */
export const dependentName = (f: Found) => `${f.source === DEFAULT_SOURCE ? '' : `${f.source}.`}${displayQualified(f.table)}.${f.name}`;

/** The to_source relationships of `after` whose target `before` tracked and `after` does not. */
export function orphanedBy(before: MetadataDocument, after: MetadataDocument): Found[] {
  return parts(after).flatMap(([own, tables]) =>
    tables.flatMap((entry) =>
      remoteRelationshipsOf(entry).flatMap((rel) => {
        const to = sourceTarget(rel.definition);
        return to && tracks(before, to.source, to.table) && !tracks(after, to.source, to.table) ? [{ source: own, table: entry.table, name: rel.name }] : [];
      }),
    ),
  );
}

/** `document` without the relationships `found`, from whichever part holds each. */
function without(document: MetadataDocument, found: readonly Found[]): MetadataDocument {
  let out = document;
  for (const f of found) {
    const inPart = (part: MetadataDocument) => {
      const entry = part.tables.find((t) => relationKey(t.table) === relationKey(f.table))!;
      return replaceEntry(part, withoutRemoteRelationships(entry, [f.name]));
    };
    out = f.source === DEFAULT_SOURCE ? inPart(out) : withSourceView(out, f.source, inPart(sourceView(out, f.source)));
  }
  return out;
}

/** `after` without the to_source relationships the change orphaned (with cascade); without cascade, refused while there are any. */
export function settleSourceDependents(before: MetadataDocument, after: MetadataDocument, cascade: boolean, path: string): MetadataDocument {
  const orphaned = orphanedBy(before, after);
  if (orphaned.length === 0) return after;
  if (!cascade) throw engineError('dependency-error.drop', path, [orphaned.map((o) => `remote relationship ${dependentName(o)}`).join(', ')]);
  return without(after, orphaned);
}
