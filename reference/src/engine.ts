// Runs parsed operations: each request in one transaction that holds the catalog lock, so a
// request (a bulk included) fully applies and persists, or changes nothing.
import { Pool, type PoolClient } from 'pg';
import type { MetadataDocument, QualifiedName } from '../../spec';
import { assertCatalogVersion, CatalogError, ensureCatalog, readMetadata, writeMetadata } from './catalog/catalog';
import type { EngineConfig } from './config';
import { engineError, EngineError } from './errors';
import { introspectionOf, loadRelations, loadTables, relationKey, type DbTable, type Introspection, type Relation } from './db/introspection';
import { buildSchemaCache, loadEnumValues, type SchemaCache } from './execute/schemaCache';
import { findInconsistencies, introducedBy } from './metadata/inconsistency';
import { tablesNamedBy } from './metadata/document';
import type { OperationContext, OperationHandler } from './operations/context';
import type { ParsedOperation } from './operations/envelope';
import { HANDLERS } from './operations/handlers';
import { postgresError } from './operations/runSql';
import * as q from './sql';

export interface MetadataSnapshot {
  document: MetadataDocument;
  resourceVersion: number;
}

export class Engine {
  private snapshot: MetadataSnapshot | undefined;
  private schemaCache: SchemaCache | undefined;

  private constructor(
    readonly pool: Pool,
    readonly config: EngineConfig,
  ) {}

  static async open(config: EngineConfig, databaseUrl: string): Promise<Engine> {
    const pool = new Pool({ connectionString: databaseUrl, max: 10, application_name: 'engine-reference' });
    pool.on('error', () => {}); // an idle client's failure surfaces on its next use
    const engine = new Engine(pool, config);
    const client = await pool.connect();
    try {
      await ensureCatalog(client);
      const stored = await readMetadata(client);
      engine.snapshot = { document: stored.document, resourceVersion: stored.resourceVersion };
      engine.schemaCache = await engine.buildCache(client, stored.document);
    } finally {
      client.release();
    }
    return engine;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async healthy(): Promise<boolean> {
    try {
      await q.run(this.pool, q.ping);
      return true;
    } catch {
      return false;
    }
  }

  /** Run one operation (a bulk with its children) as one transaction. */
  async execute(operation: ParsedOperation): Promise<unknown> {
    const client = await this.connect();
    let open = false;
    try {
      await q.run(client, q.begin);
      open = true;
      await q.run(client, q.lockCatalog);
      await assertCatalogVersion(client);
      const stored = await readMetadata(client);
      const ctx = this.context(client, stored.document);
      ctx.inconsistentBefore = findInconsistencies(stored.document, await ctx.introspect());
      const response = await this.dispatch(ctx, operation);
      let resourceVersion = stored.resourceVersion;
      let cache: SchemaCache | undefined;
      if (ctx.document !== stored.document) {
        if (!ctx.acceptInconsistencies) {
          const introduced = introducedBy(ctx.inconsistentBefore, findInconsistencies(ctx.document, await ctx.introspect()));
          if (introduced.length > 0) throw engineError('unexpected.inconsistent-metadata', '$.args', [], introduced);
        }
        resourceVersion = await writeMetadata(client, ctx.document);
      }
      if (ctx.document !== stored.document || ctx.databaseChanged) cache = await this.buildCache(client, ctx.document, await ctx.introspect());
      await q.run(client, q.commit);
      open = false;
      this.snapshot = { document: ctx.document, resourceVersion };
      if (cache) this.schemaCache = cache;
      return response;
    } catch (error) {
      if (open) await q.run(client, q.rollback).catch(() => {});
      if (error instanceof CatalogError) throw error.detail;
      throw error instanceof EngineError ? error : postgresError(error, '');
    } finally {
      client.release();
    }
  }

  private async dispatch(ctx: OperationContext, operation: ParsedOperation): Promise<unknown> {
    if (operation.type === 'bulk') {
      const responses: unknown[] = [];
      for (const child of operation.children ?? []) {
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

  private context(client: PoolClient, document: MetadataDocument): OperationContext {
    let relations: Relation[] | undefined;
    const details = new Map<string, DbTable>();
    const pool = this.pool;
    const ctx: OperationContext = {
      db: client,
      config: this.config,
      document,
      inconsistentBefore: [],
      acceptInconsistencies: false,
      async introspect(extra = []) {
        relations ??= await loadRelations(client);
        const known = new Set(relations.map(relationKey));
        const wanted = new Map<string, QualifiedName>();
        for (const name of [...tablesNamedBy(ctx.document), ...extra]) {
          const key = relationKey(name);
          if (known.has(key) && !details.has(key)) wanted.set(key, name);
        }
        for (const table of await loadTables(client, [...wanted.values()])) details.set(relationKey(table), table);
        return introspectionOf(relations, [...details.values()]);
      },
      databaseChanged: false,
      invalidateIntrospection() {
        relations = undefined;
        details.clear();
        ctx.databaseChanged = true;
      },
      async readOnly(work) {
        const db = await pool.connect();
        try {
          await q.run(db, q.beginReadOnly);
          try {
            return await work(db);
          } finally {
            await q.run(db, q.rollback);
          }
        } finally {
          db.release();
        }
      },
    };
    return ctx;
  }

  private async connect(): Promise<PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw engineError('postgres-error.connection', '$', [], { message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The GraphQL schemas and caches of the current metadata. */
  graphql(): SchemaCache {
    return this.schemaCache!;
  }

  private async buildCache(client: PoolClient, document: MetadataDocument, known?: Introspection): Promise<SchemaCache> {
    const introspection = known ?? introspectionOf(await loadRelations(client), await loadTables(client, tablesNamedBy(document)));
    return buildSchemaCache(document, introspection, await loadEnumValues(client, document, introspection));
  }

  /** The last metadata this server committed or read. */
  current(): MetadataSnapshot {
    return this.snapshot!;
  }
}
