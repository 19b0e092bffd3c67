// export_metadata, replace_metadata, clear_metadata, reload_metadata,
// get_inconsistent_metadata and drop_inconsistent_metadata (SPEC.md §4.3).
import { displayQualified, quoteQualified, PERMISSION_TYPES, permissionListKey, type MetadataDocument } from '../../../spec';
import { validatePermission } from '../sql/permissionCheck';
import type { CompatHeaders } from '../sessionNames';
import { buildModels } from '../schema/model';
import { engineError, EngineError } from '../errors';
import { actionProblem, actionsOf } from '../metadata/actions';
import { typeNamesUsed, validateCustomTypes } from '../metadata/customTypes';
import { postgresScalars } from './actions';
import { relationKey, type Introspection } from '../db/introspection';
import { clearedDocument, exportForm, withoutInconsistent, withoutObjects } from '../metadata/document';
import { checkNames, checkNamesAcross, validateEntry } from '../metadata/tables';
import { findInconsistencies } from '../metadata/inconsistency';
import { everyEventTriggerOf } from '../metadata/eventTriggers';
import { dropRemoteSchemaPermission, remoteSchemasOf, withRemoteSchemas } from '../metadata/remoteSchemas';
import { SUCCESS, type OperationContext } from './context';
import { checkSchedule, keepHiddenCronTriggers } from '../metadata/cronTriggers';
import { endpointsOf, withList } from '../metadata/collections';
import { endpointSchemaProblems } from './restEndpoints';
import { introspectFor } from './functions';
import { labelledParts, sourcesOf, sourceView, trackingParts, withSources, withSourceView } from '../metadata/sources';
import type { InconsistentObject } from '../metadata/inconsistency';
import { dependentRelationships, reportInconsistencies } from '../metadata/inconsistencyReport';
import { permissionProblems } from './permissionProblems';
import { checkPermissionValueList, type PermissionValue } from './permissionValues';
import { orderedInheritedRoles } from '../metadata/inheritedRoles';

export async function exportMetadata(ctx: OperationContext, _args: unknown, version: number): Promise<unknown> {
  // Decision dec.export_metadata.v2: version 2 says which resource version the export is.
  return version === 2 ? { resource_version: ctx.resourceVersion, metadata: exportForm(ctx.document) } : exportForm(ctx.document);
}

type ReplaceArgs = MetadataDocument | { metadata: MetadataDocument; allow_inconsistent_metadata?: boolean };

export async function replaceMetadata(ctx: OperationContext, args: ReplaceArgs, version: number): Promise<unknown> {
  const v2 = version === 2 ? (args as { metadata: MetadataDocument; allow_inconsistent_metadata?: boolean }) : undefined;
  const document = withDefaultSource(v2 ? v2.metadata : (args as MetadataDocument), ctx.document);
  const db = await introspectFor(ctx, document);
  const values = checkDocument(document, db, v2 ? '$.args.metadata' : '$.args', ctx.config.compatHeaders);
  // Inherited roles may not form a cycle (decision dec.inherited-roles).
  orderedInheritedRoles(document);
  for (const [i, t] of (document.cron_triggers ?? []).entries()) checkSchedule(t.schedule, `${v2 ? '$.args.metadata' : '$.args'}.cron_triggers[${i}].schedule`);
  await checkPermissionValueList(ctx, values);
  checkActions(document, db, v2 ? '$.args.metadata' : '$.args', await postgresScalars(ctx, typeNamesUsed(document.custom_types, actionsOf(document))));
  await ctx.remotes.loadAll(document, false, ctx.remoteLoading);
  const inSources = await checkSources(ctx, document, v2 ? '$.args.metadata' : '$.args');
  const found = [
    ...findInconsistencies(document, db),
    ...inSources,
    ...(await endpointSchemaProblems(ctx, document)),
    ...(await ctx.remoteProblems(document)),
    ...(await ctx.schemaProblems(document)),
    ...(await ctx.sourceProblems(document)),
  ];
  const inconsistent = reportInconsistencies([...found, ...dependentRelationships(document, db, found)]);
  if (inconsistent.length > 0 && !v2?.allow_inconsistent_metadata) {
    // Rule replace_metadata.1: the same 400 for v1 and v2.
    throw engineError('unexpected.inconsistent-metadata', '$.args', [], inconsistent);
  }
  // Cron triggers left out of the metadata are not the metadata's to replace.
  ctx.document = keepHiddenCronTriggers(ctx.document, document);
  ctx.acceptInconsistencies = true;
  if (!v2) return SUCCESS;
  return { is_consistent: inconsistent.length === 0, inconsistent_objects: inconsistent };
}

/**
 * A document that does not say how it describes the server's own database keeps the server's, as
 * the engine keeps its default source when given a document of the older forms; {} takes it away.
 */
function withDefaultSource(document: MetadataDocument, current: MetadataDocument): MetadataDocument {
  const { default_source: given, ...rest } = document;
  const kept = given === undefined ? current.default_source : given;
  return kept && Object.keys(kept).length ? { ...rest, default_source: kept } : rest;
}

export async function clearMetadata(ctx: OperationContext): Promise<unknown> {
  // How the project describes the server's own database stays, as the engine keeps its default source.
  const configuration = ctx.document.default_source?.configuration;
  const cleared = configuration ? { ...clearedDocument(), default_source: { configuration } } : clearedDocument();
  ctx.document = keepHiddenCronTriggers(ctx.document, cleared);
  return SUCCESS;
}

export async function reloadMetadata(ctx: OperationContext, args: { reload_remote_schemas?: boolean } = {}): Promise<unknown> {
  ctx.invalidateIntrospection();
  if (args.reload_remote_schemas === true) {
    await ctx.remotes.loadAll(ctx.document, true, ctx.remoteLoading);
    ctx.remotesChanged = true;
  }
  const inconsistent = reportInconsistencies(await allInconsistencies(ctx));
  // Reloading reports what does not fit any more; it does not refuse it.
  ctx.acceptInconsistencies = true;
  return inconsistent.length === 0 ? { ...SUCCESS, is_consistent: true } : { ...SUCCESS, is_consistent: false, inconsistent_objects: inconsistent };
}

/**
 * Each other source's tables and functions checked as a document of their own against its
 * database, and every source's GraphQL names against the others' (decision dec.source.forms).
 * Gives what does not fit a source's database; a source that does not answer is reported apart.
 */
async function checkSources(ctx: OperationContext, document: MetadataDocument, path: string): Promise<InconsistentObject[]> {
  const out: InconsistentObject[] = [];
  for (const { source, view, index } of trackingParts(document)) {
    // Not served in another source yet: refused rather than kept and not served.
    const db = await ctx.introspectSource(source, view);
    if (!db) continue;
    checkDocument(view, db, `${path}.sources[${index}]`, ctx.config.compatHeaders);
    out.push(...findInconsistencies(view, db).map((o) => ({ ...o, source: source.name })));
  }
  checkNamesAcross(labelledParts(document));
  // Event trigger names are one namespace over every source's tables.
  const names = everyEventTriggerOf(document).map((e) => e.trigger.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw engineError('already-exists.event-trigger', path, [JSON.stringify(twice)]);
  return out;
}

/** What of each other source does not fit its database. */
async function sourceInconsistencies(ctx: OperationContext, document: MetadataDocument): Promise<InconsistentObject[]> {
  const out: InconsistentObject[] = [];
  for (const { source, view } of trackingParts(document)) {
    const db = await ctx.introspectSource(source, view);
    if (db) out.push(...findInconsistencies(view, db).map((o) => ({ ...o, source: source.name })));
  }
  return out;
}

/** What does not fit the database, the REST endpoints whose query no longer validates, and what depends on them. */
async function allInconsistencies(ctx: OperationContext): Promise<InconsistentObject[]> {
  const db = await ctx.introspect();
  const found = [
    ...findInconsistencies(ctx.document, db),
    ...(await sourceInconsistencies(ctx, ctx.document)),
    ...(await endpointSchemaProblems(ctx, ctx.document)),
    ...(await ctx.remoteProblems(ctx.document)),
    ...(await ctx.schemaProblems(ctx.document)),
    ...(await ctx.sourceProblems(ctx.document)),
  ];
  const relationships = dependentRelationships(ctx.document, db, found);
  // A permission that goes through an inconsistent relationship is checked without it.
  const own = [...found, ...relationships].filter((o) => !('source' in o && o.source !== undefined));
  const consistent = withoutObjects(ctx.document, own);
  return [...found, ...relationships, ...permissionProblems(consistent, db)];
}

export async function getInconsistentMetadata(ctx: OperationContext): Promise<unknown> {
  return reportInconsistencies(await allInconsistencies(ctx));
}

/**
 * Drops every inconsistent object and, as the engine purges them, what becomes inconsistent
 * without them (a relationship to a dropped table), until nothing is left to drop.
 */
export async function dropInconsistentMetadata(ctx: OperationContext): Promise<unknown> {
  for (let round = 0; round < MAX_DROP_ROUNDS; round++) {
    const before = JSON.stringify(ctx.document);
    await dropInconsistentOnce(ctx);
    if (JSON.stringify(ctx.document) === before || (await allInconsistencies(ctx)).length === 0) break;
  }
  return SUCCESS;
}

/** Each round drops at least one object, and what a dropped object leaves broken is found the round after. */
const MAX_DROP_ROUNDS = 16;

async function dropInconsistentOnce(ctx: OperationContext): Promise<void> {
  ctx.document = withoutInconsistent(ctx.document, await ctx.introspect());
  const invalidating = await ctx.schemaProblems(ctx.document);
  // An object of another source goes from that source's part, never from the server's own.
  const ofSource = (o: InconsistentObject) => ('source' in o ? o.source : undefined);
  const own = invalidating.filter((o) => ofSource(o) === undefined);
  if (own.length > 0) ctx.document = withoutObjects(ctx.document, own);
  for (const name of new Set(invalidating.flatMap((o) => ofSource(o) ?? []))) {
    const objects = invalidating.filter((o) => ofSource(o) === name);
    ctx.document = withSourceView(ctx.document, name, withoutObjects(sourceView(ctx.document, name), objects));
  }
  const invalid = (await endpointSchemaProblems(ctx, ctx.document)).flatMap((o) => (o.type === 'rest_endpoint' ? [o.definition.name] : []));
  if (invalid.length > 0)
    ctx.document = withList(
      ctx.document,
      'rest_endpoints',
      endpointsOf(ctx.document).filter((e) => !invalid.includes(e.name)),
    );
  const problems = await ctx.remoteProblems(ctx.document);
  // A remote schema is unusable by itself (remoteProblems), or keeps a schema from being valid (schemaProblems).
  const unusable = new Set([...problems, ...invalidating].flatMap((o) => (o.type === 'remote_schema' ? [o.definition.name] : [])));
  const deniedPermissions = problems.flatMap((o) => (o.type === 'remote_schema_permission' ? [o.definition] : []));
  for (const p of deniedPermissions) ctx.document = dropRemoteSchemaPermission(ctx.document, p.remote_schema, p.role);
  if (unusable.size > 0)
    ctx.document = withRemoteSchemas(
      ctx.document,
      remoteSchemasOf(ctx.document).filter((r) => !unusable.has(r.name)),
    );
  // What of another source does not fit its database goes, as in the server's own.
  for (const { source, view } of trackingParts(ctx.document)) {
    const db = await ctx.introspectSource(source, view);
    if (db) ctx.document = withSourceView(ctx.document, source.name, withoutInconsistent(view, db));
  }
  // Sources whose database does not answer go with what is tracked in them.
  const unreachable = new Set((await ctx.sourceProblems(ctx.document)).flatMap((o) => (o.type === 'source' ? [o.definition] : [])));
  if (unreachable.size > 0)
    ctx.document = withSources(
      ctx.document,
      sourcesOf(ctx.document).filter((s) => !unreachable.has(s.name)),
    );
  // Remote relationships to what is gone or cannot be served go with it.
  const stranded = (await ctx.remoteProblems(ctx.document)).filter((o) => o.type === 'remote_relationship');
  if (stranded.length > 0) ctx.document = withoutObjects(ctx.document, stranded);
  // Permissions that no longer fit what is left.
  const broken = permissionProblems(ctx.document, await ctx.introspect());
  if (broken.length > 0) ctx.document = withoutObjects(ctx.document, broken);
}

/** Custom types must be valid and every action must fit them. */
function checkActions(document: MetadataDocument, db: Introspection, path: string, postgresScalars: ReadonlySet<string>): void {
  try {
    if (document.custom_types) validateCustomTypes(document.custom_types, document, db, postgresScalars);
  } catch (error) {
    throw error instanceof EngineError ? new EngineError(error.id, error.status, error.code, error.message, `${path}.custom_types`) : error;
  }
  for (const [i, action] of actionsOf(document).entries()) {
    const problem = actionProblem(action, document.custom_types, postgresScalars);
    if (problem) throw engineError('validation-failed.action', `${path}.actions[${i}]`, [JSON.stringify(action.name), problem]);
  }
}

/**
 * A document's tables must each be tracked once and give valid, distinct GraphQL names; its
 * permissions must fit their tables. Returns the permissions' literal values, to be checked
 * against their columns.
 */
function checkDocument(document: MetadataDocument, db: Introspection, path: string, compat?: CompatHeaders): PermissionValue[] {
  const values: PermissionValue[] = [];
  const seen = new Map<string, number>();
  for (const entry of document.tables) seen.set(relationKey(entry.table), (seen.get(relationKey(entry.table)) ?? 0) + 1);
  const duplicates = document.tables.filter(
    (t, i) => seen.get(relationKey(t.table))! > 1 && document.tables.findIndex((u) => relationKey(u.table) === relationKey(t.table)) === i,
  );
  if (duplicates.length > 0) {
    throw engineError('already-exists.multiple-declarations', '$.args', [
      'tables',
      duplicates.map((t) => JSON.stringify(displayQualified(t.table))).join(', '),
    ]);
  }
  for (const entry of document.tables) {
    const table = db.tables.get(relationKey(entry.table));
    if (table) validateEntry(entry, table);
  }
  checkNames(document, db);
  const models = buildModels(document, db, new Map());
  for (const [i, entry] of document.tables.entries()) {
    for (const type of PERMISSION_TYPES) {
      const roles = (entry[permissionListKey(type)] ?? []).map((p) => p.role);
      const twice = [...new Set(roles.filter((role, k) => roles.indexOf(role) !== k))];
      if (twice.length > 0) {
        throw engineError('already-exists.multiple-declarations', `${path}.tables[${i}]`, [
          `${type} permissions of ${quoteQualified(entry.table)}`,
          twice.map((role) => JSON.stringify(role)).join(', '),
        ]);
      }
    }
    const table = models.get(relationKey(entry.table));
    if (!table) continue;
    for (const type of PERMISSION_TYPES) {
      for (const [j, p] of (entry[permissionListKey(type)] ?? []).entries()) {
        if (p.role === 'admin') throw engineError('constraint-violation.admin-role', '$.args', [quoteQualified(entry.table)]);
        const at = `${path}.tables[${i}].${permissionListKey(type)}[${j}].permission`;
        try {
          validatePermission(models, table, type, p.role, p.permission, (key, column, value) => values.push({ column, value, path: `${at}.${key}` }), compat);
        } catch (error) {
          // The checks of create_*_permission speak of $.args.permission; here it sits in the document.
          if (error instanceof EngineError && error.path.startsWith('$.args.permission')) throw error.at(at + error.path.slice('$.args.permission'.length));
          throw error;
        }
      }
    }
  }
  return values;
}
