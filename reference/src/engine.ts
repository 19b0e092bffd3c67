// Runs parsed operations: each request in one transaction that holds the catalog lock, so a
// request (a bulk included) fully applies and persists, or changes nothing.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client, type Pool, type PoolClient } from 'pg';
import { resilientPool } from './db/connectionLoss';
import type { MetadataDocument, QualifiedName } from '../../spec';
import { assertCatalogVersion, CatalogError, ensureCatalog, readMetadata, readMetadataSince, writeMetadata } from './catalog/catalog';
import type { EngineConfig } from './config';
import { engineError, EngineError } from './errors';
import { functionsByName, introspectionOf, relationKey, type DbFunction, type DbTable, type Introspection, type Relation } from './db/introspection';
import { buildSchemaCache, loadEnumValues, type SchemaCache } from './execute/schemaCache';
import { loadFunctions, loadRelations, loadTables } from './sql/loadIntrospection';
import { validSchemaCache, type ValidSchemaCache } from './execute/schemaValidity';
import type { PlanPools } from './execute/runPlan';
import { RoleGate } from './execute/roleGate';
import { findInconsistencies, introducedBy, type InconsistentObject } from './metadata/inconsistency';
import type { EnumValue } from './schema/model';
import { functionsNamedBy, tablesNamedBy } from './metadata/document';
import type { OperationContext, OperationHandler } from './operations/context';
import type { ParsedOperation } from './operations/envelope';
import { HANDLERS } from './operations/handlers';
import { postgresError } from './operations/runSql';
import { runAsRole } from './operations/roleDml';
import { endpointSchemaProblems } from './operations/restEndpoints';
import { syncEventTriggers } from './operations/eventTriggers';
import { syncCronTriggers } from './operations/cronTriggers';
import type { Session } from './auth/session';
import * as q from './sql';
import { RemoteSchemaStore } from './remote/store';
import { remoteView, type RemoteView } from './remote/view';
import { remoteSchemasOf } from './metadata/remoteSchemas';

export interface MetadataSnapshot {
  document: MetadataDocument;
  resourceVersion: number;
}

/** What the GraphQL schema is built from, kept until a GraphQL request needs the schema. */
interface SchemaInput {
  document: MetadataDocument;
  introspection: Introspection;
  enumValues: Map<string, EnumValue[]>;
}

export class Engine {
  private snapshot: MetadataSnapshot | undefined;
  private schemaCache: SchemaCache | undefined;
  private schemaInput: SchemaInput | undefined;
  /** Details of tables by oid, kept across requests; dropped when the database changes through run_sql or reload. */
  private tableDetails = new Map<string, DbTable>();
  /** Schema caches validated per document (and the database they were built against). */
  private validations = new WeakMap<
    MetadataDocument,
    { introspection: Introspection; enumValues: ReadonlyMap<string, EnumValue[]>; result: ValidSchemaCache }
  >();
  /** Tells this server's own change notifications from other servers'. */
  private readonly id = randomUUID();
  private listener: Client | undefined;
  private closing = false;
  private refreshing: Promise<void> = Promise.resolve();

  /** Where GraphQL plans run: roles other than admin on connections with the statement timeout. */
  readonly pools: PlanPools;
  /** The remote schemas as this server introspected them. */
  readonly remotes = new RemoteSchemaStore();

  private constructor(
    readonly pool: Pool,
    readonly config: EngineConfig,
    pools: Omit<PlanPools, 'admin'>,
  ) {
    this.pools = { admin: pool, ...pools };
  }

  static async open(config: EngineConfig, databaseUrl: string): Promise<Engine> {
    const max = config.pgConnections;
    const pool = resilientPool({ connectionString: databaseUrl, max, application_name: 'engine-reference' });
    const timed = (name: string, timeout: number) =>
      resilientPool({ connectionString: databaseUrl, max, application_name: name, ...(timeout > 0 ? { statement_timeout: timeout } : {}) });
    const { statementTimeoutMs, adminStatementTimeoutMs } = config.limits;
    const engine = new Engine(pool, config, {
      roles: timed('engine-reference-roles', statementTimeoutMs),
      adminGraphql: timed('engine-reference-admin-graphql', adminStatementTimeoutMs),
      gate: new RoleGate(config.maxConnectionsPerRole),
      statementTimeoutMs,
      adminStatementTimeoutMs,
      maxQueryCost: config.limits.maxQueryCost,
    });
    const client = await pool.connect();
    try {
      await ensureCatalog(client);
      const stored = await readMetadata(client);
      engine.snapshot = { document: stored.document, resourceVersion: stored.resourceVersion };
      const introspection = introspectionOf(
        await loadRelations(client),
        await loadTables(client, tablesNamedBy(stored.document)),
        await loadFunctions(client, functionsNamedBy(stored.document)),
      );
      engine.schemaInput = { document: stored.document, introspection, enumValues: await loadEnumValues(client, stored.document, introspection) };
      // A remote that cannot be reached now is an inconsistent object; the server starts anyway.
      await engine.remotes.loadAll(stored.document);
      for (const t of introspection.tables.values()) engine.tableDetails.set(t.oid, t);
    } finally {
      client.release();
    }
    await engine.listen(databaseUrl);
    return engine;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener?.end().catch(() => {});
    await this.refreshing;
    await this.pool.end();
    await this.pools.roles.end();
    await this.pools.adminGraphql.end();
  }

  /**
   * Listen for other servers' changes on this database: on one, read the metadata (and, after
   * run_sql, the database) again, so GraphQL answers from it without waiting for a metadata request.
   * A lost connection is made again, followed by a refresh for what was missed meanwhile.
   */
  private async listen(databaseUrl: string, afterLoss = false): Promise<void> {
    const client = new Client({ connectionString: databaseUrl, application_name: 'engine-reference-listener' });
    const again = () => {
      if (this.closing || this.listener !== client) return;
      this.listener = undefined;
      setTimeout(() => {
        if (!this.closing) this.listen(databaseUrl, true).catch(again);
      }, 1000).unref();
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (message) => {
      if (!q.isChangesChannel(message.channel)) return;
      let change: { sender?: unknown; database_changed?: unknown };
      try {
        change = JSON.parse(message.payload ?? '') as typeof change;
      } catch {
        return;
      }
      if (change.sender !== this.id) this.scheduleRefresh(change.database_changed === true);
    });
    this.listener = client;
    try {
      await client.connect();
      await q.run(client, q.listenForChanges);
    } catch (error) {
      if (!afterLoss) throw error;
      again();
      return;
    }
    if (afterLoss) this.scheduleRefresh(true);
  }

  private scheduleRefresh(databaseChanged: boolean): void {
    this.refreshing = this.refreshing.then(() => this.refresh(databaseChanged)).catch(() => {});
  }

  /** Read what another server changed; keep this server's newer state if it has one. */
  private async refresh(databaseChanged: boolean): Promise<void> {
    if (this.closing) return;
    const client = await this.pool.connect();
    try {
      await q.run(client, q.beginReadOnly);
      try {
        const stored = await readMetadataSince(client, this.snapshot);
        if (stored === this.snapshot && !databaseChanged) return;
        const { ctx, loaded } = this.context(client, stored);
        if (databaseChanged) ctx.invalidateIntrospection();
        const introspection = await ctx.introspect();
        const enumValues = await loadEnumValues(client, stored.document, introspection);
        await this.remotes.loadAll(stored.document);
        if (this.snapshot && stored.resourceVersion < this.snapshot.resourceVersion) return;
        this.snapshot = stored;
        if (databaseChanged) this.tableDetails = new Map();
        for (const t of loaded.values()) this.tableDetails.set(t.oid, t);
        this.schemaInput = { document: stored.document, introspection, enumValues };
        this.schemaCache = undefined;
      } finally {
        await q.run(client, q.rollback);
      }
    } finally {
      client.release();
    }
  }

  /** What keeps the engine from answering, or undefined when nothing does. */
  async healthProblem(): Promise<string | undefined> {
    try {
      await q.run(this.pool, q.ping);
      return undefined;
    } catch {
      // The health endpoint needs no credentials: it names the part, not the database's address.
      return 'the database does not answer';
    }
  }

  /** Run one operation (a bulk with its children) as one transaction. */
  async execute(operation: ParsedOperation): Promise<unknown> {
    const client = await this.connect();
    // A connection that ran user SQL may carry its session settings: it is not given back to the pool.
    const userSql = runsUserSql(operation);
    let open = false;
    try {
      if (userSql) await q.run(client, q.defaultReadOnly);
      await q.run(client, userSql ? q.beginReadWrite : q.begin);
      open = true;
      await q.run(client, q.lockCatalog);
      await assertCatalogVersion(client);
      const stored = await readMetadataSince(client, this.snapshot);
      if (operation.resourceVersion !== undefined && operation.resourceVersion !== stored.resourceVersion) {
        throw engineError('conflict', '$', [String(operation.resourceVersion)]);
      }
      const { ctx, loaded, guard, enumValuesOf } = this.context(client, stored);
      const response = await this.dispatch(ctx, operation);
      let resourceVersion = stored.resourceVersion;
      let input: SchemaInput | undefined;
      if (ctx.document !== stored.document) {
        if (remoteSchemasOf(ctx.document).length > 0 || (ctx.document.actions?.length ?? 0) > 0) {
          // A remote that replace_metadata brings is introspected here; one that cannot be served is refused.
          await this.remotes.loadAll(ctx.document);
          if (!ctx.acceptInconsistencies) {
            const before = new Set((await ctx.remoteProblems(stored.document)).map((o) => o.reason));
            const introduced = (await this.remoteViewOf(ctx.document, await ctx.introspect())).problems.filter((p) => !before.has(p.object.reason));
            if (introduced.length > 0) throw introduced[0]!.error;
          }
        }
        if (!ctx.acceptInconsistencies) {
          const introduced = introducedBy(
            [...(await ctx.inconsistenciesBefore()), ...(await endpointSchemaProblems(ctx, stored.document)), ...(await this.servedProblems(ctx, stored))],
            [
              ...findInconsistencies(ctx.document, await ctx.introspect()),
              ...(await endpointSchemaProblems(ctx, ctx.document)),
              ...(await ctx.schemaProblems(ctx.document)),
            ],
          );
          if (introduced.length > 0) throw engineError('unexpected.inconsistent-metadata', '$.args', [], introduced);
        }
        await syncEventTriggers(client, stored.document, ctx.document, await ctx.introspect());
        await syncCronTriggers(client, stored.document, ctx.document);
        resourceVersion = await writeMetadata(client, ctx.document);
      }
      const changed = ctx.document !== stored.document || ctx.databaseChanged || resourceVersion !== this.snapshot?.resourceVersion;
      if (ctx.document !== stored.document || ctx.databaseChanged) {
        await q.run(client, q.notifyChange(JSON.stringify({ sender: this.id, resource_version: resourceVersion, database_changed: ctx.databaseChanged })));
      }
      if (changed || ctx.remotesChanged) {
        const introspection = await ctx.introspect();
        input = { document: ctx.document, introspection, enumValues: await enumValuesOf(ctx.document) };
      }
      const armed = guard();
      if (armed) await q.run(client, q.disarmTransactionGuard(armed.token, armed.hash));
      await q.run(client, q.commit);
      open = false;
      this.snapshot = { document: ctx.document, resourceVersion };
      if (ctx.databaseChanged) this.tableDetails = new Map();
      for (const t of loaded.values()) this.tableDetails.set(t.oid, t);
      if (input) {
        this.schemaInput = input;
        this.schemaCache = undefined;
      }
      return response;
    } catch (error) {
      if (open) await q.run(client, q.rollback).catch(() => {});
      if (error instanceof CatalogError) throw error.detail;
      throw error instanceof EngineError ? error : postgresError(error, '');
    } finally {
      client.release(userSql);
    }
  }

  private async dispatch(ctx: OperationContext, operation: ParsedOperation): Promise<unknown> {
    if (operation.type === 'bulk') {
      const responses: unknown[] = [];
      for (const child of operation.children ?? []) {
        // Other requests (GraphQL, /healthz) are served between the members of a long bulk.
        await new Promise((resolve) => setImmediate(resolve));
        try {
          responses.push(await this.dispatch(ctx, child));
        } catch (error) {
          throw error instanceof EngineError && !error.path.startsWith(child.path) ? error.under(child.path) : error;
        }
      }
      return responses;
    }
    const handler = HANDLERS[operation.type] as OperationHandler | undefined;
    if (!handler) throw engineError('not-supported.not-implemented', '$.type', [`the operation ${operation.type}`]);
    return handler(ctx, operation.args as never, operation.version);
  }

  private context(
    client: PoolClient,
    stored: MetadataSnapshot,
  ): {
    ctx: OperationContext;
    loaded: Map<string, DbTable>;
    guard: () => { token: string; hash: string } | undefined;
    enumValuesOf: (document: MetadataDocument) => Promise<Map<string, EnumValue[]>>;
  } {
    const document = stored.document;
    // Per document of this request: the enum values read for it (its schema is built from them).
    const enumValuesRead = new Map<MetadataDocument, { introspection: Introspection; values: Promise<Map<string, EnumValue[]>> }>();
    const enumValuesOf = async (doc: MetadataDocument) => {
      const introspection = await ctx.introspect(tablesNamedBy(doc));
      let read = enumValuesRead.get(doc);
      if (!read || read.introspection !== introspection)
        enumValuesRead.set(doc, (read = { introspection, values: loadEnumValues(client, doc, introspection) }));
      return read.values;
    };
    let relations: Relation[] | undefined;
    let byKey: Map<string, Relation> | undefined;
    let view: Introspection | undefined;
    let scanned: MetadataDocument | undefined;
    const details = new Map<string, DbTable>();
    const functionsRead = new Set<string>();
    const functionDetails: DbFunction[] = [];
    const known = this.tableDetails;
    const pool = this.pool;
    let before: Promise<readonly InconsistentObject[]> | undefined;
    let guard: { token: string; hash: string; xid: string } | undefined;
    const engine = this;
    const ctx: OperationContext = {
      db: client,
      remotes: this.remotes,
      remotesChanged: false,
      async remoteProblems(doc) {
        return (await engine.remoteViewOf(doc, await ctx.introspect())).problems.map((p) => p.object);
      },
      async schemaProblems(doc) {
        const introspection = await ctx.introspect(tablesNamedBy(doc));
        return engine.validated({ document: doc, introspection, enumValues: await enumValuesOf(doc) }).problems;
      },
      async adminSchema(doc) {
        const introspection = await ctx.introspect(tablesNamedBy(doc));
        return engine.validated({ document: doc, introspection, enumValues: await enumValuesOf(doc) }).cache.admin.schema;
      },
      config: this.config,
      document,
      resourceVersion: stored.resourceVersion,
      acceptInconsistencies: false,
      inconsistenciesBefore() {
        before ??= ctx.introspect(tablesNamedBy(document)).then((db) => findInconsistencies(document, db));
        return before;
      },
      async introspect(extra = []) {
        if (!relations) {
          relations = await loadRelations(client);
          byKey = new Map(relations.map((r) => [relationKey(r), r]));
          view = undefined;
          scanned = undefined;
        }
        // The tables a document names are looked up once per document, not on every call.
        const names = scanned === ctx.document ? extra : [...tablesNamedBy(ctx.document), ...extra];
        const wanted = new Map<string, QualifiedName>();
        const sizeBefore = details.size;
        for (const name of names) {
          const key = relationKey(name);
          if (details.has(key)) continue;
          const relation = byKey!.get(key);
          if (!relation) continue;
          const cached = ctx.databaseChanged ? undefined : known.get(relation.oid);
          if (cached && cached.schema === relation.schema && cached.name === relation.name) details.set(key, cached);
          else wanted.set(key, name);
        }
        for (const table of await loadTables(client, [...wanted.values()])) details.set(relationKey(table), table);
        // Functions are few and cheap to read: those the document names, when it names new ones.
        const functionNames = scanned === ctx.document ? [] : functionsNamedBy(ctx.document).filter((n) => !functionsRead.has(relationKey(n)));
        for (const name of functionNames) functionsRead.add(relationKey(name));
        const found = await loadFunctions(client, functionNames);
        for (const f of found) functionDetails.push(f);
        scanned = ctx.document;
        if (!view || details.size !== sizeBefore || found.length > 0)
          view = { relations: byKey!, tables: new Map(details), functions: functionsByName(functionDetails) };
        return view;
      },
      databaseChanged: false,
      invalidateIntrospection() {
        relations = undefined;
        view = undefined;
        scanned = undefined;
        details.clear();
        functionsRead.clear();
        functionDetails.length = 0;
        ctx.databaseChanged = true;
      },
      async readOnly(work) {
        const db = await pool.connect();
        try {
          await q.run(db, q.defaultReadOnly);
          await q.run(db, q.beginReadOnly);
          try {
            await q.run(db, q.takeSnapshot);
            const [before] = await q.run<{ started: string }>(db, q.transactionStart);
            const result = await work(db);
            const [after] = await q.run<{ started: string }>(db, q.transactionStart);
            if (after?.started !== before?.started) throw engineError('bad-request.transaction-control', '$.args.sql', ['ROLLBACK']);
            return result;
          } finally {
            await q.run(db, q.rollback);
          }
        } finally {
          db.release(true);
        }
      },
      async guarded(work) {
        if (!guard) {
          const token = randomBytes(32).toString('hex');
          const hash = createHash('sha256').update(token).digest('hex');
          await q.run(client, q.armTransactionGuard(hash));
          const [row] = await q.run<{ xid: string }>(client, q.transactionId);
          guard = { token, hash, xid: row!.xid };
        }
        const result = await work(client);
        const [row] = await q.run<{ xid: string | null }>(client, q.assignedTransactionId);
        if (row?.xid !== guard.xid) throw engineError('bad-request.transaction-control', '$.args.sql', ['ROLLBACK']);
        return result;
      },
    };
    return { ctx, loaded: details, guard: () => guard, enumValuesOf };
  }

  private async connect(): Promise<PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw engineError('postgres-error.connection', '$', [], { message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Legacy DML of a role other than admin, under its permissions (operations/roleDml.ts). */
  executeAsRole(operation: ParsedOperation, session: Session): Promise<unknown> {
    return runAsRole(this.pools, this.schemaInput!, operation, session);
  }

  /** The GraphQL schemas and caches of the current metadata, built on first use after a change. */
  graphql(): SchemaCache {
    this.schemaCache ??= this.validated(this.schemaInput!).cache;
    return this.schemaCache;
  }

  /** The schema cache of an input with every schema valid, and what was left out for it; once per input. */
  private validated(input: SchemaInput): ValidSchemaCache {
    let found = this.validations.get(input.document);
    if (!found || found.introspection !== input.introspection || found.enumValues !== input.enumValues) {
      const { introspection, enumValues } = input;
      const inferFunctionPermissions = this.config.inferFunctionPermissions;
      // The tables and functions first: remote schemas and actions are checked against what of them is served.
      const local = validSchemaCache(input.document, introspection, enumValues, this.config.limits, { inferFunctionPermissions });
      const view = remoteView(local.document, () => local.cache.admin.schema, this.remotes);
      const full = validSchemaCache(local.document, introspection, enumValues, this.config.limits, {
        inferFunctionPermissions,
        allowList: this.config.enableAllowList,
        remotes: view.usable,
        withActions: view.actionsUsable,
      });
      const result = { ...full, problems: [...local.problems, ...full.problems] };
      this.validations.set(input.document, (found = { introspection: input.introspection, enumValues: input.enumValues, result }));
    }
    return found.result;
  }

  /** What the metadata a request began from left out of its schemas: known, when it is what this server serves. */
  private async servedProblems(ctx: OperationContext, stored: MetadataSnapshot): Promise<readonly InconsistentObject[]> {
    if (this.schemaInput?.document === stored.document && this.schemaCache) return this.validated(this.schemaInput).problems;
    return ctx.schemaProblems(stored.document);
  }

  /** Which remote schemas of a document can be served beside its tables and functions. */
  private remoteViewOf(document: MetadataDocument, introspection: Introspection, enumValues: Map<string, EnumValue[]> = new Map()): RemoteView {
    const local = () =>
      buildSchemaCache(document, introspection, enumValues, this.config.limits, { inferFunctionPermissions: this.config.inferFunctionPermissions }).admin
        .schema;
    return remoteView(document, local, this.remotes);
  }

  /** The last metadata this server committed or read. */
  current(): MetadataSnapshot {
    return this.snapshot!;
  }
}

/** Whether the operation runs SQL of the request's own in the request's transaction. */
function runsUserSql(operation: ParsedOperation): boolean {
  if (operation.type === 'run_sql') return (operation.args as { read_only?: boolean }).read_only !== true;
  return (operation.children ?? []).some(runsUserSql);
}
