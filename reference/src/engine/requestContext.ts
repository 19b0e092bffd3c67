// The context one metadata request's operations run in: its transaction's connection, the
// database as the request sees it (read once, as far as the document names it), read-only
// connections for run_sql, and the guard that keeps user SQL from ending the transaction.
import { createHash, randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { MetadataDocument, QualifiedName } from '../../../spec';
import type { EngineConfig } from '../config';
import { functionsByName, introspectionOf, relationKey, type DbFunction, type DbTable, type Introspection, type Relation } from '../db/introspection';
import { engineError } from '../errors';
import { loadEnumValues } from '../execute/schemaCache';
import { functionsNamedBy, tablesNamedBy } from '../metadata/document';
import { findInconsistencies, type InconsistentObject } from '../metadata/inconsistency';
import type { OperationContext } from '../operations/context';
import type { RemoteSchemaStore } from '../remote/store';
import type { EnumValue } from '../schema/model';
import * as q from '../sql';
import { loadFunctions, loadRelations, loadTables } from '../sql/loadIntrospection';
import type { MetadataSnapshot, ServedState } from './served';
import type { SourcePools } from '../db/sourcePools';
import { sourceProblemsOf } from './sourceProblems';
import { SourceTransactions } from './sourceTransactions';
import { ownIsolationLevel, sourcesOf, trackingParts } from '../metadata/sources';
import { loadSourceInput } from './sourceInputs';
import { giveBack } from './sessionReset';
import type { SourceSchemaInput } from '../execute/schemaCache';

export interface RequestContext {
  ctx: OperationContext;
  /** The transactions the request opened on other sources: committed or rolled back with it. */
  sourceTransactions: SourceTransactions;
  /** The tables the request read, to be kept once it commits. */
  loaded: Map<string, DbTable>;
  /** The transaction guard's token and hash, when user SQL armed it. */
  guard: () => { token: string; hash: string } | undefined;
  /** The enum values of a document, read once per document and database view. */
  enumValuesOf: (document: MetadataDocument) => Promise<Map<string, EnumValue[]>>;
}

export interface ContextSources {
  pool: Pool;
  /** The connections of the other sources. */
  sourcePools: SourcePools;
  config: EngineConfig;
  remotes: RemoteSchemaStore;
  served: ServedState;
}

export function requestContext(
  sources: ContextSources,
  client: PoolClient,
  stored: MetadataSnapshot,
  remoteLoading: RequestContext['ctx']['remoteLoading'] = { notBefore: Date.now() },
): RequestContext {
  const { pool, config, remotes, served, sourcePools } = sources;
  const document = stored.document;
  // Per document of this request: the enum values read for it (its schema is built from them).
  const enumValuesRead = new Map<MetadataDocument, { introspection: Introspection; values: Promise<Map<string, EnumValue[]>> }>();
  const enumValuesOf = async (doc: MetadataDocument) => {
    const introspection = await ctx.introspect(tablesNamedBy(doc));
    let read = enumValuesRead.get(doc);
    if (!read || read.introspection !== introspection) enumValuesRead.set(doc, (read = { introspection, values: loadEnumValues(client, doc, introspection) }));
    return read.values;
  };
  // Per document: the other sources' parts, read through this request's transactions there.
  const sourceInputsRead = new WeakMap<MetadataDocument, Promise<{ sources?: SourceSchemaInput[] }>>();
  const sourceInputsOf = (doc: MetadataDocument) => {
    let read = sourceInputsRead.get(doc);
    if (!read) {
      read = (async () => {
        const inputs: SourceSchemaInput[] = [];
        for (const { source, view } of trackingParts(doc)) {
          if ('problem' in sourcePools.poolOf(source)) continue;
          try {
            inputs.push(await loadSourceInput(await sourceTransactions.client(source.name, () => sourcePools.poolOf(source)), source.name, view));
          } catch {
            // a source that does not answer is reported as such
          }
        }
        return inputs.length ? { sources: inputs } : {};
      })();
      sourceInputsRead.set(doc, read);
    }
    return read;
  };
  let relations: Relation[] | undefined;
  let byKey: Map<string, Relation> | undefined;
  let view: Introspection | undefined;
  let scanned: MetadataDocument | undefined;
  const details = new Map<string, DbTable>();
  const functionsRead = new Set<string>();
  const functionDetails: DbFunction[] = [];
  const known = served.tableDetails;
  let before: Promise<readonly InconsistentObject[]> | undefined;
  let schemaBefore: Promise<readonly InconsistentObject[]> | undefined;
  let guard: { token: string; hash: string; xid: string } | undefined;
  const sourceTransactions = new SourceTransactions();
  const ctx: OperationContext = {
    db: client,
    remotes,
    remoteLoading,
    remotesChanged: false,
    async onSource(name, work, readOnly = false) {
      const source = sourcesOf(ctx.document).find((s) => s.name === name)!;
      if (readOnly) return SourceTransactions.readOnly(sourcePools.poolOf(source), name, work);
      return sourceTransactions.run(name, () => sourcePools.poolOf(source), work);
    },
    async introspectSource(source, view) {
      if ('problem' in sourcePools.poolOf(source)) return undefined;
      try {
        const db = await sourceTransactions.client(source.name, () => sourcePools.poolOf(source));
        return introspectionOf(await loadRelations(db), await loadTables(db, tablesNamedBy(view)), await loadFunctions(db, functionsNamedBy(view)));
      } catch {
        return undefined;
      }
    },
    async sourceProblems(doc, only) {
      return sourceProblemsOf(sourcePools, doc, only, (name, pool) => sourceTransactions.holds(name, pool));
    },
    async remoteProblems(doc) {
      return served.remoteViewOf(doc, await ctx.introspect()).problems.map((p) => p.object);
    },
    async schemaProblems(doc) {
      const introspection = await ctx.introspect(tablesNamedBy(doc));
      return served.validated({ document: doc, introspection, enumValues: await enumValuesOf(doc), ...(await sourceInputsOf(doc)) }).problems;
    },
    async adminSchema(doc) {
      const introspection = await ctx.introspect(tablesNamedBy(doc));
      return served.validated({ document: doc, introspection, enumValues: await enumValuesOf(doc), ...(await sourceInputsOf(doc)) }).cache.admin.schema;
    },
    config,
    document,
    resourceVersion: stored.resourceVersion,
    acceptInconsistencies: false,
    inconsistenciesBefore() {
      before ??= ctx.introspect(tablesNamedBy(document)).then((db) => findInconsistencies(document, db));
      return before;
    },
    schemaProblemsBefore() {
      schemaBefore ??= served.servedProblems(ctx, stored);
      return schemaBefore;
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
      let ended = false;
      try {
        await q.run(db, q.defaultReadOnly);
        await q.run(db, q.beginAt(ownIsolationLevel(ctx.document), 'read only'));
        try {
          await q.run(db, q.takeSnapshot);
          const [before] = await q.run<{ started: string }>(db, q.transactionStart);
          const result = await work(db);
          const [after] = await q.run<{ started: string }>(db, q.transactionStart);
          if (after?.started !== before?.started) throw engineError('bad-request.transaction-control', '$.args.sql', ['ROLLBACK']);
          return result;
        } finally {
          await q.run(db, q.rollback);
          ended = true;
        }
      } finally {
        await giveBack(db, true, ended);
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
  return { ctx, loaded: details, guard: () => guard, enumValuesOf, sourceTransactions };
}
