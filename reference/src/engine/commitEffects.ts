// What a metadata request's change sets off beyond its own writes (metadataCommit.ts does it): a
// changed document that holds remotes has them loaded, and checked, before it commits; a change is
// told to the other servers (LISTEN/NOTIFY); and the schema this server serves is rebuilt.
import type { MetadataDocument } from '../../../spec';
import { hasRemoteRelationships } from '../metadata/remoteRelationships';
import { remoteSchemasOf } from '../metadata/remoteSchemas';

/** Whether the document holds remote schemas, actions or remote relationships, whose remotes are loaded before it commits. */
export function needsRemotes(document: MetadataDocument): boolean {
  return remoteSchemasOf(document).length > 0 || (document.actions?.length ?? 0) > 0 || hasRemoteRelationships(document);
}

/** What a request changed, as its commit sees it. */
export interface CommittedChange {
  /** Its operations changed the metadata document. */
  documentChanged: boolean;
  /** It changed (or re-read) the database: run_sql, reload_metadata. */
  databaseChanged: boolean;
  /** A remote schema was introspected again. */
  remotesChanged: boolean;
  /** The resource version it leaves stored. */
  resourceVersion: number;
  /** The resource version this server serves, if any. */
  servedVersion: number | undefined;
}

/** Whether the change is told to the other servers, and whether the served schema is rebuilt. */
export function effectsOf(change: CommittedChange): { notify: boolean; rebuild: boolean } {
  const notify = change.documentChanged || change.databaseChanged;
  return { notify, rebuild: notify || change.resourceVersion !== change.servedVersion || change.remotesChanged };
}
