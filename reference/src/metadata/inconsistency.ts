// Which objects of a metadata document do not fit the database (SPEC.md §2.9, §3).
import { displayQualified, quoteQualified, type MetadataDocument, type QualifiedName } from '../../../spec';
import { formatMessage } from '../../../spec';

export interface InconsistentObject {
  type: 'table';
  reason: string;
  definition: string;
}

export interface Relation extends QualifiedName {
  kind: string;
  oid: string;
}

/** The database as the metadata sees it: its relations, by `schema.name`. */
export interface Introspection {
  relations: ReadonlyMap<string, Relation>;
}

export const relationKey = (q: QualifiedName) => `${q.schema}\u0000${q.name}`;

export function introspectionOf(relations: readonly Relation[]): Introspection {
  return { relations: new Map(relations.map((r) => [relationKey(r), r])) };
}

export function findInconsistencies(document: MetadataDocument, db: Introspection): InconsistentObject[] {
  const out: InconsistentObject[] = [];
  for (const entry of document.tables) {
    if (!db.relations.has(relationKey(entry.table))) {
      out.push({
        type: 'table',
        reason: formatMessage('err.not-exists.table-in-postgres', quoteQualified(entry.table)),
        definition: displayQualified(entry.table),
      });
    }
  }
  return out;
}

/** Two lists name the same objects (the order of the lists does not matter). */
export function sameObjects(a: readonly InconsistentObject[], b: readonly InconsistentObject[]): boolean {
  const key = (o: InconsistentObject) => `${o.type}:${JSON.stringify(o.definition)}`;
  const keys = new Set(a.map(key));
  return a.length === b.length && b.every((o) => keys.has(key(o)));
}

/** Objects of `after` that `before` did not have. */
export function introducedBy(before: readonly InconsistentObject[], after: readonly InconsistentObject[]): InconsistentObject[] {
  const key = (o: InconsistentObject) => `${o.type}:${JSON.stringify(o.definition)}`;
  const old = new Set(before.map(key));
  return after.filter((o) => !old.has(key(o)));
}
