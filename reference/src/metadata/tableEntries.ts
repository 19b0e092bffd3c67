// Finding and replacing a tracked table's entry in a document, and the table in the database: what
// every operation on a table's metadata starts from.
import { quoteQualified, sameQualified, type MetadataDocument, type QualifiedName, type TableEntry } from '../../../spec';
import { relationKey, type DbTable, type Introspection } from '../db/introspection';
import { engineError } from '../errors';

export const findEntry = (document: MetadataDocument, table: QualifiedName) => document.tables.find((t) => sameQualified(t.table, table));

/** The tracked entry of a table, or the §7.2 "table ... does not exist". */
/** The table's entry, or the §7.2 "table does not exist" at `path` (most operations answer at $.args). */
export function trackedEntry(document: MetadataDocument, table: QualifiedName, path = '$.args'): TableEntry {
  const entry = findEntry(document, table);
  if (!entry) throw engineError('not-exists.table', path, [quoteQualified(table)]);
  return entry;
}

/** The table in the database, or the §7.2 "no such table/view exists in postgres". */
export function databaseTable(db: Introspection, table: QualifiedName): DbTable {
  const found = db.tables.get(relationKey(table));
  if (!found) throw engineError('not-exists.table-in-postgres', '$.args', [quoteQualified(table)]);
  return found;
}

export function replaceEntry(document: MetadataDocument, entry: TableEntry): MetadataDocument {
  return { ...document, tables: document.tables.map((t) => (sameQualified(t.table, entry.table) ? entry : t)) };
}
