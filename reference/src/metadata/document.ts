// Pure functions over the metadata document: export form, clearing, dropping inconsistent objects.
import { emptyMetadata, type MetadataDocument } from '../../../spec';
import { relationKey, type Introspection } from './inconsistency';

/** The export form (decision dec.export.form): version and tables, in the order they were tracked. */
export function exportForm(document: MetadataDocument): MetadataDocument {
  return {
    version: 2,
    tables: document.tables.map((t) => ({ table: { schema: t.table.schema, name: t.table.name } })),
  };
}

export const clearedDocument = (): MetadataDocument => emptyMetadata();

/** The document without the objects that do not fit the database. */
export function withoutInconsistent(document: MetadataDocument, db: Introspection): MetadataDocument {
  return { ...document, tables: document.tables.filter((t) => db.relations.has(relationKey(t.table))) };
}
