// Where a metadata change is committed: each request runs in one transaction that holds the
// catalog lock, so a request (a bulk included) fully applies and persists, or changes nothing.
import type { PoolClient } from 'pg';
import { assertCatalogVersion, CatalogError, readMetadataSince, writeMetadata } from '../catalog/catalog';
import { engineError, EngineError } from '../errors';
import { findInconsistencies, introducedBy } from '../metadata/inconsistency';
import { reportInconsistencies } from '../metadata/inconsistencyReport';
import { introducedRemoteError } from '../remote/view';
import type { OperationContext } from '../operations/context';
import { syncCronTriggers } from '../operations/cronTriggers';
import type { ParsedOperation } from '../operations/envelope';
import { syncEventTriggers, syncSourcesEventTriggers } from '../operations/eventTriggers';
import { HANDLERS } from '../operations/handlers';
import { endpointSchemaProblems } from '../operations/restEndpoints';
import { postgresError } from '../operations/runSql';
import * as q from '../sql';
import { requestContext, type ContextSources } from './requestContext';
import { refuseUnprepared, sourceConnectionError } from './sourceProblems';
import { inSource } from './sourceLens';
import { loadSourceInputs } from './sourceInputs';
import { giveBack } from './sessionReset';
import { commitTogether, type Coordinator } from './atomicCommit';
import { connectionsChanged, ownIsolationLevel, sourceArgumentProblem, sourcesOf } from '../metadata/sources';
import { settleSourceDependents } from '../metadata/sourceRelationshipDependents';
import type { SchemaInput } from './served';
import type { Abandonment } from '../execute/abandonment';
import { abortSignalOf } from './abandonmentSignal';
import { handlerOf, memberError, runsUserSql, sourcePartOf, takesRelationshipTargets } from './commitRouting';
import { effectsOf, needsRemotes } from './commitEffects';
import { prefetchRemotes } from './remotePrefetch';

export interface CommitSources extends ContextSources {
  /** Tells this server's own change notifications from other servers'. */
  serverId: string;
  /** Commits over several databases: the catalog and server their prepared transactions name. */
  coordinator: Coordinator;
}

/** Run one operation (a bulk with its children) as one transaction, and serve what it committed. */
export async function commitOperation(sources: CommitSources, operation: ParsedOperation, options: { gone?: Abandonment } = {}): Promise<unknown> {
  const { served, remotes } = sources;
  // The remotes it introspects, before the lock: a slow one holds this request only (remotePrefetch.ts).
  const notBefore = Date.now();
  const cancelled = abortSignalOf(options.gone);
  // A client gone by now: the remotes it asks for answer it went away, and the operation is refused.
  await prefetchRemotes(remotes, operation, served.snapshot?.document, cancelled);
  const client = await connect(sources);
  // A connection that ran user SQL may carry session state: it goes back to the pool reset (sessionReset.ts).
  const userSql = runsUserSql(operation);
  let open = false;
  let rollbackSources = async () => {};
  try {
    if (userSql) await q.run(client, q.defaultReadOnly);
    // User SQL runs at the default source's isolation level, as the served metadata names it
    // (dec.source.isolation-level); the engine's own changes at the database's default.
    await q.run(client, userSql ? q.beginAt(ownIsolationLevel(served.snapshot?.document), 'read write') : q.begin);
    open = true;
    await q.run(client, q.lockMetadataAnchor);
    await q.run(client, q.lockCatalog);
    await assertCatalogVersion(client);
    const stored = await readMetadataSince(client, served.snapshot);
    if (operation.resourceVersion !== undefined && operation.resourceVersion !== stored.resourceVersion) {
      throw engineError('conflict', '$', [String(operation.resourceVersion)]);
    }
    const request = requestContext(sources, client, stored, { notBefore, ...(cancelled ? { cancelled } : {}) });
    const { ctx, loaded, guard, enumValuesOf } = request;
    rollbackSources = () => request.sourceTransactions.rollback();
    const inSourceOf: InSource = (source, run) => inSource(sources, request.sourceTransactions, ctx, source, (sub) => run(sub));
    const response = await dispatch(ctx, operation, inSourceOf);
    let resourceVersion = stored.resourceVersion;
    let input: SchemaInput | undefined;
    if (ctx.document !== stored.document) {
      if (needsRemotes(ctx.document)) {
        // A remote that replace_metadata brings is introspected here; one that cannot be served is refused.
        await remotes.loadAll(ctx.document, false, ctx.remoteLoading);
        if (!ctx.acceptInconsistencies) {
          const before = new Set((await ctx.remoteProblems(stored.document)).map((o) => o.reason));
          const introduced = served.remoteViewOf(ctx.document, await ctx.introspect()).problems.filter((p) => !before.has(p.object.reason));
          if (introduced.length > 0) throw introducedRemoteError(introduced[0]!, stored.document);
        }
      }
      // A source added or given another connection must answer (decision dec.source.forms).
      const reconnected = connectionsChanged(stored.document, ctx.document).map((s) => s.name);
      if (!ctx.acceptInconsistencies) {
        const unreachable = await ctx.sourceProblems(ctx.document, reconnected);
        if (unreachable.length > 0) throw sourceConnectionError(unreachable);
      }
      await refuseUnprepared(ctx.document, reconnected, request.sourceTransactions, sources.sourcePools);
      if (!ctx.acceptInconsistencies) {
        const introduced = introducedBy(
          [...(await ctx.inconsistenciesBefore()), ...(await endpointSchemaProblems(ctx, stored.document)), ...(await served.servedProblems(ctx, stored))],
          [
            ...findInconsistencies(ctx.document, await ctx.introspect()),
            ...(await endpointSchemaProblems(ctx, ctx.document)),
            ...(await ctx.schemaProblems(ctx.document)),
          ],
        );
        if (introduced.length > 0) throw engineError('unexpected.inconsistent-metadata', '$.args', [], reportInconsistencies(introduced));
      }
      await syncEventTriggers(client, stored.document, ctx.document, await ctx.introspect());
      await syncSourcesEventTriggers(ctx, stored.document, ctx.document);
      resourceVersion = await writeMetadata(client, ctx.document);
      // After the write: the stored row it holds fences the scheduler's writes of invocations until commit.
      await syncCronTriggers(client, stored.document, ctx.document);
    }
    const { notify, rebuild } = effectsOf({
      documentChanged: ctx.document !== stored.document,
      databaseChanged: ctx.databaseChanged,
      remotesChanged: ctx.remotesChanged,
      resourceVersion,
      servedVersion: served.snapshot?.resourceVersion,
    });
    if (notify) {
      await q.run(
        client,
        q.notifyChange(JSON.stringify({ sender: sources.serverId, resource_version: resourceVersion, database_changed: ctx.databaseChanged })),
      );
    }
    if (rebuild) {
      const introspection = await ctx.introspect();
      input = { document: ctx.document, introspection, enumValues: await enumValuesOf(ctx.document) };
    }
    const armed = guard();
    if (armed) await q.run(client, q.disarmTransactionGuard(armed.token, armed.hash));
    // On every database the request wrote to, or on none (decision dec.source.atomic-commit).
    await commitTogether(client, request.sourceTransactions.participants(), sources.coordinator, () => (open = false));
    // The other sources' parts are read once their transactions committed (decision dec.source.forms).
    if (input && sourcesOf(ctx.document).length > 0) input = { ...input, sources: await loadSourceInputs(sources.sourcePools, ctx.document) };
    served.adopt({ document: ctx.document, resourceVersion }, loaded, ctx.databaseChanged, input);
    sources.sourcePools.keepOnly(sourcesOf(ctx.document));
    return response;
  } catch (error) {
    await rollbackSources();
    if (open)
      open = !(await q.run(client, q.rollback).then(
        () => true,
        () => false,
      ));
    if (error instanceof CatalogError) throw error.detail;
    throw error instanceof EngineError ? error : postgresError(error, '');
  } finally {
    await giveBack(client, userSql, !open);
  }
}

/** Run an operation on the part of the request of another database's source (engine/sourceLens.ts). */
type InSource = (source: string, run: (sub: OperationContext) => Promise<unknown>) => Promise<unknown>;

async function dispatch(ctx: OperationContext, operation: ParsedOperation, inSourceOf: InSource): Promise<unknown> {
  if (operation.type === 'bulk') {
    const responses: unknown[] = [];
    for (const child of operation.children ?? []) {
      // Other requests (GraphQL, /healthz) are served between the members of a long bulk.
      await new Promise((resolve) => setImmediate(resolve));
      try {
        responses.push(await dispatch(ctx, child, inSourceOf));
      } catch (error) {
        throw memberError(error, child);
      }
    }
    return responses;
  }
  // Decision dec.source.forms: a `source` names a source of the document.
  const sourceProblem = sourceArgumentProblem(ctx.document, operation);
  if (sourceProblem) throw sourceProblem;
  const handler = handlerOf(operation.type, HANDLERS);
  const before = ctx.document;
  const source = sourcePartOf(operation);
  const result =
    source !== undefined
      ? await inSourceOf(source, (sub) => handler(sub, operation.args as never, operation.version))
      : await handler(ctx, operation.args as never, operation.version);
  // Decision dec.remote-relationship.to-source: untracking a table or dropping a source another table's relationship leads to.
  if (takesRelationshipTargets(operation))
    ctx.document = settleSourceDependents(before, ctx.document, (operation.args as { cascade?: boolean }).cascade === true, '$.args');
  return result;
}

async function connect({ pool }: CommitSources): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw engineError('postgres-error.connection', '$', [], { message: error instanceof Error ? error.message : String(error) });
  }
}
