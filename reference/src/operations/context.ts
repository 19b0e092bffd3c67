// What an operation handler may use: the transaction, the document being changed, and the
// database as it is inside that transaction.
import type { GraphQLSchema } from 'graphql';
import type { PoolClient } from 'pg';
import type { MetadataDocument, QualifiedName, SourceEntry } from '../../../spec';
import type { EngineConfig } from '../config';
import type { Introspection } from '../db/introspection';
import type { InconsistentObject } from '../metadata/inconsistency';
import type { RemoteSchemaStore } from '../remote/store';

export interface OperationContext {
  readonly db: PoolClient;
  readonly config: EngineConfig;
  /** The document as the earlier operations of this request left it. */
  document: MetadataDocument;
  /** The resource version of the stored metadata when the request began. */
  readonly resourceVersion: number;
  /** Inconsistencies of the document when the request started, against the database as it was
   *  then (computed on first use: call it before changing the database). */
  inconsistenciesBefore(): Promise<readonly InconsistentObject[]>;
  /** What the document the request began from leaves out of its GraphQL schemas, against the
   *  database as it was then (computed on first use: call it before changing the database). */
  schemaProblemsBefore(): Promise<readonly InconsistentObject[]>;
  /** The database inside this transaction (cached until invalidated), with the details of every
   *  table the document names and of `extra`. */
  introspect(extra?: readonly QualifiedName[]): Promise<Introspection>;
  /** The database changed (run_sql, reload_metadata): introspect again before the next look. */
  invalidateIntrospection(): void;
  /** Whether the request changed (or re-read) the database, so the GraphQL schema is rebuilt. */
  databaseChanged: boolean;
  /** Set by replace_metadata v2 with allow_inconsistent_metadata: keep what does not fit. */
  acceptInconsistencies: boolean;
  /** Run a statement on a separate read-only transaction (run_sql read_only inside a bulk). */
  readOnly<T>(work: (db: PoolClient) => Promise<T>): Promise<T>;
  /**
   * Run user SQL in the request's transaction so that it cannot end it: PostgreSQL refuses a
   * COMMIT that is not the request's own, and a transaction that changed under `work` (after a
   * ROLLBACK in its text) is refused before anything else of the request runs.
   */
  guarded<T>(work: (db: PoolClient) => Promise<T>): Promise<T>;
  /** The remote servers' schemas as this server introspected them. */
  readonly remotes: RemoteSchemaStore;
  /**
   * How this request introspects remotes: a state introspected since it began (before it took the
   * metadata lock, engine/remotePrefetch.ts) is fresh; and aborted when its client goes away.
   */
  readonly remoteLoading: { notBefore: number; cancelled?: AbortSignal };
  /** The remote schemas of a document that cannot be served (unreachable, or clashing names). */
  remoteProblems(document: MetadataDocument): Promise<readonly InconsistentObject[]>;
  /** The sources of a document (besides default) whose database cannot be reached now; `only`: just these. */
  sourceProblems(document: MetadataDocument, only?: readonly string[]): Promise<readonly InconsistentObject[]>;
  /**
   * Run user SQL in a transaction on another source's database, one per source and request,
   * committed when the request commits (decision dec.source.forms); `readOnly`: alone, in a
   * read-only transaction that is rolled back.
   */
  onSource<T>(source: string, work: (db: PoolClient) => Promise<T>, readOnly?: boolean): Promise<T>;
  /**
   * Another source's database as this request sees it, with the details of what `view` (its part of
   * a document) names; undefined when it cannot be reached (decision dec.source.forms).
   */
  introspectSource(source: SourceEntry, view: MetadataDocument): Promise<Introspection | undefined>;
  /** A remote schema was introspected again: the GraphQL schema is rebuilt. */
  remotesChanged: boolean;
  /**
   * The objects of a document that keep some role's GraphQL schema from being valid (enum tables
   * that cannot be enums, clashing names), against the database inside this transaction.
   */
  schemaProblems(document: MetadataDocument): Promise<readonly InconsistentObject[]>;
  /** Admin's GraphQL schema of a document, as it would be served (what keeps it from being valid left out). */
  adminSchema(document: MetadataDocument): Promise<GraphQLSchema>;
  /** For an operation on another source's part (engine/sourceLens.ts): that source, and the request's own context. */
  within?: { source: string; outer: OperationContext };
}

export type OperationHandler = (ctx: OperationContext, args: never, version: number) => Promise<unknown>;

export const SUCCESS = { message: 'success' } as const;
