// What the GraphQL schema takes of each source besides default (decision dec.source.forms): its
// tables and functions and its database as they are now. A source that does not answer is left out
// (it is reported as an inconsistent object of type source).
import type { MetadataDocument } from '../../../spec';
import { introspectionOf } from '../db/introspection';
import type { SourcePools } from '../db/sourcePools';
import { loadEnumValues, type SourceSchemaInput } from '../execute/schemaCache';
import { functionsNamedBy, tablesNamedBy } from '../metadata/document';
import { trackingParts } from '../metadata/sources';
import type * as q from '../sql';
import { loadFunctions, loadRelations, loadTables } from '../sql/loadIntrospection';

/** One source's part, read through `db` (a connection to its database). */
export async function loadSourceInput(db: q.Queryable, name: string, view: MetadataDocument): Promise<SourceSchemaInput> {
  const introspection = introspectionOf(await loadRelations(db), await loadTables(db, tablesNamedBy(view)), await loadFunctions(db, functionsNamedBy(view)));
  return { name, document: view, db: introspection, enumValues: await loadEnumValues(db, view, introspection) };
}

/** The parts of every source of the document that tracks something and answers. */
export async function loadSourceInputs(pools: SourcePools, document: MetadataDocument): Promise<SourceSchemaInput[]> {
  const loaded = await Promise.all(
    trackingParts(document).map(async ({ source, view }) => {
      const pool = pools.poolOf(source);
      if ('problem' in pool) return undefined;
      try {
        const client = await pool.connect();
        try {
          return await loadSourceInput(client, source.name, view);
        } finally {
          client.release();
        }
      } catch {
        return undefined;
      }
    }),
  );
  return loaded.filter((s): s is SourceSchemaInput => s !== undefined);
}
