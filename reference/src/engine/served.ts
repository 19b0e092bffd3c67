// What this server serves: the last metadata it committed or read, what its GraphQL schemas are
// built from, and the schemas themselves, built and validated once per input.
import type { MetadataDocument } from '../../../spec';
import type { EngineConfig } from '../config';
import type { DbTable, Introspection } from '../db/introspection';
import type { SchemaCache, SourceSchemaInput } from '../execute/schemaCache';
import { adminSchemaOf, firstSchemaError, validSchemaCache, type ValidSchemaCache } from '../execute/schemaValidity';
import { servableExternals, type Externals } from '../execute/externalValidity';
import { buildSchemaCache } from '../execute/schemaCache';
import { actionsOf } from '../metadata/actions';
import type { InconsistentObject } from '../metadata/inconsistency';
import { remoteSchemasOf } from '../metadata/remoteSchemas';
import { hasRemoteRelationships } from '../metadata/remoteRelationships';
import type { OperationContext } from '../operations/context';
import type { RemoteSchemaStore } from '../remote/store';
import { remoteView, type RemoteView } from '../remote/view';
import type { EnumValue } from '../schema/model';
import type { TypeShare } from '../schema/typeShare';

export interface MetadataSnapshot {
  document: MetadataDocument;
  resourceVersion: number;
}

/** What the GraphQL schema is built from, kept until a GraphQL request needs the schema. */
export interface SchemaInput {
  document: MetadataDocument;
  introspection: Introspection;
  enumValues: Map<string, EnumValue[]>;
  /** The sources besides default that track something and answer (decision dec.source.forms). */
  sources?: readonly SourceSchemaInput[];
}

export class ServedState {
  snapshot: MetadataSnapshot | undefined;
  schemaInput: SchemaInput | undefined;
  private schemaCache: SchemaCache | undefined;
  /** Details of tables by oid, kept across requests; dropped when the database changes through run_sql or reload. */
  tableDetails = new Map<string, DbTable>();
  /** The types of the schemas built last: the next version takes those of the tables it has unchanged (decision 022). */
  private lastShare: TypeShare | undefined;
  /** Schema caches validated per document (and the database they were built against). */
  private validations = new WeakMap<
    MetadataDocument,
    { introspection: Introspection; enumValues: ReadonlyMap<string, EnumValue[]>; sources: SchemaInput['sources']; result: ValidSchemaCache }
  >();

  constructor(
    private readonly config: EngineConfig,
    private readonly remotes: RemoteSchemaStore,
    /** Told when the database changed (run_sql, reload_metadata, another server's run_sql). */
    private readonly databaseChanged: () => void = () => {},
  ) {}

  /**
   * Serve what a committed request or a refresh read: its metadata, the tables it read (all others
   * forgotten when the database changed), and, when given, a new schema input.
   */
  adopt(snapshot: MetadataSnapshot, loaded: ReadonlyMap<string, DbTable>, databaseChanged: boolean, input: SchemaInput | undefined): void {
    this.snapshot = snapshot;
    this.remotes.serving(snapshot.document);
    if (databaseChanged) {
      this.tableDetails = new Map();
      this.databaseChanged();
    }
    for (const t of loaded.values()) this.tableDetails.set(t.oid, t);
    if (input) {
      this.schemaInput = input;
      this.schemaCache = undefined;
    }
  }

  /** The GraphQL schemas and caches of the current metadata, built on first use after a change. */
  graphql(): SchemaCache {
    this.schemaCache ??= this.validated(this.schemaInput!).cache;
    return this.schemaCache;
  }

  /** The schema cache of an input with every schema valid, and what was left out for it; once per input. */
  validated(input: SchemaInput): ValidSchemaCache {
    let found = this.validations.get(input.document);
    if (!found || found.introspection !== input.introspection || found.enumValues !== input.enumValues || found.sources !== input.sources) {
      const { introspection, enumValues } = input;
      const sources = input.sources?.length ? { sources: input.sources } : {};
      const inferFunctionPermissions = this.config.inferFunctionPermissions;
      const defaultNaming = this.config.defaultNamingConvention;
      const allowList = this.config.enableAllowList;
      // Nothing but tables and functions: their schemas are built and validated once.
      if (remoteSchemasOf(input.document).length === 0 && actionsOf(input.document).length === 0 && !hasRemoteRelationships(input.document)) {
        const result = validSchemaCache(input.document, introspection, enumValues, this.config.limits, {
          inferFunctionPermissions,
          defaultNaming,
          allowList,
          previous: this.lastShare,
          ...sources,
        });
        return this.remember(input, result);
      }
      // The tables and functions first: remote schemas and actions are checked against what of them is served.
      const local = validSchemaCache(input.document, introspection, enumValues, this.config.limits, {
        inferFunctionPermissions,
        defaultNaming,
        previous: this.lastShare,
        ...sources,
      });
      const view = remoteView(
        local.document,
        () => local.cache.admin.schema,
        this.remotes,
        this.config.enableRemoteSchemaPermissions,
        introspection,
        this.config.compatHeaders,
      );
      const options = { inferFunctionPermissions, defaultNaming, allowList, ...sources };
      const withExternals = (e: Externals, previous?: TypeShare) =>
        validSchemaCache(local.document, introspection, enumValues, this.config.limits, {
          ...options,
          remotes: e.remotes,
          withActions: e.withActions,
          previous,
        });
      let full = withExternals({ remotes: view.usable, withActions: view.actionsUsable }, local.cache.share);
      // What both builds find (a name clash across sources, a to_source relationship) is listed once.
      const listed = new Set(local.problems.map((o) => JSON.stringify(o)));
      let added = full.problems.filter((o) => !listed.has(JSON.stringify(o)));
      // The tables were valid alone: what the remotes or actions break is theirs (externalValidity.ts).
      if (added.length > 0 || firstSchemaError(full.cache) !== undefined) {
        const build = (e: Externals) =>
          buildSchemaCache(local.document, introspection, enumValues, this.config.limits, { ...options, remotes: e.remotes, withActions: e.withActions });
        const servable = servableExternals(local.document, { remotes: view.usable, withActions: view.actionsUsable }, build);
        if (servable.problems.length > 0) {
          full = withExternals(servable);
          added = [...servable.problems, ...full.problems.filter((o) => !listed.has(JSON.stringify(o)))];
        }
      }
      return this.remember(input, { ...full, problems: [...local.problems, ...added] });
    }
    return found.result;
  }

  private remember(input: SchemaInput, result: ValidSchemaCache): ValidSchemaCache {
    this.validations.set(input.document, { introspection: input.introspection, enumValues: input.enumValues, sources: input.sources, result });
    this.lastShare = result.cache.share;
    return result;
  }

  /** What the metadata a request began from left out of its schemas: known, when it is what this server serves. */
  async servedProblems(ctx: OperationContext, stored: MetadataSnapshot): Promise<readonly InconsistentObject[]> {
    if (this.schemaInput?.document === stored.document && this.schemaCache) return this.validated(this.schemaInput).problems;
    return ctx.schemaProblems(stored.document);
  }

  /** Which remote schemas of a document can be served beside its tables and functions. */
  remoteViewOf(document: MetadataDocument, introspection: Introspection, enumValues: Map<string, EnumValue[]> = new Map()): RemoteView {
    const local = () =>
      adminSchemaOf(document, introspection, enumValues, this.config.limits, {
        inferFunctionPermissions: this.config.inferFunctionPermissions,
        defaultNaming: this.config.defaultNamingConvention,
        previous: this.lastShare,
      });
    return remoteView(document, local, this.remotes, this.config.enableRemoteSchemaPermissions, introspection, this.config.compatHeaders);
  }
}
