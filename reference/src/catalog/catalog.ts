// The catalog: the metadata document and its resource version, in a schema of the user's
// database, with migrations of its own.
import type { MetadataDocument } from '../../../spec';
import { engineError } from '../errors';
import * as q from '../sql';

/** The catalog version this server reads and writes. */
export const CATALOG_VERSION = String(q.CATALOG_MIGRATIONS.length);

export interface StoredMetadata {
  document: MetadataDocument;
  resourceVersion: number;
}

export class CatalogError extends Error {
  constructor(readonly detail: ReturnType<typeof engineError>) {
    super(detail.message);
  }
}

/**
 * Create or migrate the catalog. Runs in a transaction holding the catalog lock, so that
 * servers starting together on one database do not migrate twice.
 */
export async function ensureCatalog(db: q.Queryable): Promise<void> {
  await q.run(db, q.begin);
  try {
    await q.run(db, q.lockCatalog);
    const from = await currentVersion(db);
    for (let v = from; v < q.CATALOG_MIGRATIONS.length; v++) {
      for (const step of q.CATALOG_MIGRATIONS[v]!) await q.run(db, step);
      await q.run(db, q.setCatalogVersion(String(v + 1)));
    }
    await q.run(db, q.commit);
  } catch (error) {
    await q.run(db, q.rollback);
    throw error;
  }
}

/** The version of the catalog in the database: 0 when there is none yet. */
async function currentVersion(db: q.Queryable): Promise<number> {
  const [state] = await q.run<{ schema_exists: boolean; version_table_exists: boolean }>(db, q.catalogState);
  if (!state?.schema_exists) return 0;
  if (!state.version_table_exists) {
    // The schema is there but not a catalog this server made: never write over it.
    throw new CatalogError(engineError('already-initialised', '$', ['unknown']));
  }
  return checkVersion(await readVersion(db));
}

async function readVersion(db: q.Queryable): Promise<string> {
  const rows = await q.run<{ version: string }>(db, q.readCatalogVersion);
  return rows[0]?.version ?? 'unknown';
}

/** A catalog version this server can migrate from, as a number; refuse any other. */
export function checkVersion(version: string): number {
  if (!/^\d+$/.test(version)) throw new CatalogError(engineError('already-initialised', '$', [version]));
  const n = Number(version);
  if (n > q.CATALOG_MIGRATIONS.length) throw new CatalogError(engineError('not-supported.catalog-version', '$', [version]));
  return n;
}

export async function readMetadata(db: q.Queryable): Promise<StoredMetadata> {
  const [row] = await q.run<{ metadata: MetadataDocument; resource_version: number }>(db, q.readMetadata);
  if (!row) throw new CatalogError(engineError('already-initialised', '$', ['unknown']));
  return { document: row.metadata, resourceVersion: row.resource_version };
}

/** The stored document, taken from `known` when the catalog still has its resource version. */
export async function readMetadataSince(db: q.Queryable, known: StoredMetadata | undefined): Promise<StoredMetadata> {
  if (known) {
    const [row] = await q.run<{ resource_version: number }>(db, q.readResourceVersion);
    if (row?.resource_version === known.resourceVersion) return known;
  }
  return readMetadata(db);
}

/** Persist a document inside the caller's transaction; returns the new resource version. */
export async function writeMetadata(db: q.Queryable, document: MetadataDocument): Promise<number> {
  const [row] = await q.run<{ resource_version: number }>(db, q.writeMetadata(document));
  return row!.resource_version;
}

/** Checked inside every metadata transaction: a newer server may have migrated the catalog. */
export async function assertCatalogVersion(db: q.Queryable): Promise<void> {
  const version = await readVersion(db);
  if (version === CATALOG_VERSION) return;
  checkVersion(version);
  // An older catalog is migrated at start-up; finding one now means it was changed under us.
  throw new CatalogError(engineError('already-initialised', '$', [version]));
}
