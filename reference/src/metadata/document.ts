// Pure functions over the metadata document: export form, clearing, dropping inconsistent objects.
import {
  displayQualified,
  emptyMetadata,
  sameQualified,
  topLevelParts,
  type FunctionEntry,
  type MetadataDocument,
  type PermissionType,
  type TableEntry,
} from '../../../spec';
import type { Introspection } from '../db/introspection';
import { endpointsOf, withList } from './collections';
import { withoutComputedFieldsCascading } from './computedFields';
import { exportedCronTriggers } from './cronTriggers';
import { sortedBy } from './exportOrder';
import { withoutFunctions } from './functions';
import { withoutRemoteRelationships } from './remoteRelationships';
import { findInconsistencies, type InconsistentObject } from './inconsistency';

/** The export form (decision dec.export.form): every list sorted as the engine sorts it, empty parts left out. */
export function exportForm(document: MetadataDocument): MetadataDocument {
  const byName = <T extends { name: string }>(items: readonly T[]) => sortedBy(items, (i) => i.name);
  return {
    version: 2,
    tables: exportTables(document.tables),
    ...(document.functions?.length ? { functions: sortedBy(document.functions, (f) => f.function) } : {}),
    ...(document.query_collections?.length ? { query_collections: byName(document.query_collections) } : {}),
    ...(document.allowlist?.length ? { allowlist: sortedBy(document.allowlist, (a) => a.collection) } : {}),
    ...(document.rest_endpoints?.length ? { rest_endpoints: sortedBy(document.rest_endpoints, (e) => e.url) } : {}),
    ...(exportedCronTriggers(document).length ? { cron_triggers: byName(exportedCronTriggers(document)) } : {}),
    ...(document.remote_schemas?.length ? { remote_schemas: byName(document.remote_schemas) } : {}),
    ...(document.actions?.length ? { actions: byName(document.actions) } : {}),
    ...(document.custom_types && Object.keys(document.custom_types).length ? { custom_types: document.custom_types } : {}),
    ...(document.sources?.length
      ? {
          sources: byName(document.sources).map((s) => ({
            name: s.name,
            kind: s.kind,
            configuration: s.configuration,
            tables: exportTables(s.tables),
            ...(s.functions?.length ? { functions: sortedBy(s.functions, (f) => f.function) } : {}),
            ...(s.customization ? { customization: s.customization } : {}),
          })),
        }
      : {}),
    ...topLevelParts(document),
  };
}

const exportTables = (tables: readonly TableEntry[]) => sortedBy(tables, (t) => t.table).map(exportEntry);

function exportEntry(t: TableEntry): TableEntry {
  const byName = <T extends { name: string }>(items: readonly T[] | undefined) => sortedBy(items ?? [], (i) => i.name);
  const byRole = <T extends { role: string }>(items: readonly T[] | undefined) => sortedBy(items ?? [], (i) => i.role);
  return {
    table: { schema: t.table.schema, name: t.table.name },
    ...(t.is_enum ? { is_enum: true } : {}),
    ...(t.configuration ? { configuration: t.configuration } : {}),
    ...(t.object_relationships?.length ? { object_relationships: byName(t.object_relationships) } : {}),
    ...(t.array_relationships?.length ? { array_relationships: byName(t.array_relationships) } : {}),
    ...(t.computed_fields?.length ? { computed_fields: byName(t.computed_fields) } : {}),
    ...(t.remote_relationships?.length ? { remote_relationships: byName(t.remote_relationships) } : {}),
    ...(t.event_triggers?.length ? { event_triggers: byName(t.event_triggers) } : {}),
    ...(t.insert_permissions?.length ? { insert_permissions: byRole(t.insert_permissions) } : {}),
    ...(t.select_permissions?.length ? { select_permissions: byRole(t.select_permissions) } : {}),
    ...(t.update_permissions?.length ? { update_permissions: byRole(t.update_permissions) } : {}),
    ...(t.delete_permissions?.length ? { delete_permissions: byRole(t.delete_permissions) } : {}),
  };
}

export const clearedDocument = (): MetadataDocument => emptyMetadata();

/** The document without the objects that do not fit the database. Dropping a table can strand
 *  relationships that led to it, so this repeats until nothing is inconsistent. */
export function withoutInconsistent(document: MetadataDocument, db: Introspection): MetadataDocument {
  let current = document;
  for (let inconsistent = findInconsistencies(current, db); inconsistent.length > 0; inconsistent = findInconsistencies(current, db)) {
    current = withoutObjects(current, inconsistent);
  }
  return current;
}

export function withoutObjects(document: MetadataDocument, objects: readonly InconsistentObject[]): MetadataDocument {
  const missingTables = new Set(
    objects.flatMap((o) => (o.type === 'table' ? [typeof o.definition === 'string' ? o.definition : displayQualified(o.definition)] : [])),
  );
  const badRelationships = objects.flatMap((o) =>
    o.type === 'object_relation' || o.type === 'array_relation' ? [o.definition as { table: TableEntry['table']; name: string }] : [],
  );
  const badFunctions = objects.flatMap((o) => (o.type === 'function' ? [o.definition] : []));
  const badFields = objects.flatMap((o) => (o.type === 'computed_field' ? [o.definition] : []));
  const badRemote = objects.flatMap((o) => (o.type === 'remote_relationship' ? [o.definition] : []));
  const badPermissions = objects.flatMap((o) =>
    o.type === 'insert_permission' || o.type === 'select_permission' || o.type === 'update_permission' || o.type === 'delete_permission' ? [o] : [],
  );
  const tables = document.tables
    .filter((t) => !missingTables.has(displayQualified(t.table)))
    .map((t) => {
      const keep = <R extends { name: string }>(rels: R[] | undefined) => {
        const left = rels?.filter((r) => !badRelationships.some((b) => sameQualified(b.table, t.table) && b.name === r.name));
        return left?.length ? left : undefined;
      };
      const fields = badFields.filter((f) => sameQualified(f.table, t.table)).map((f) => f.name);
      const remote = badRemote.filter((r) => sameQualified(r.table, t.table)).map((r) => r.name);
      const {
        object_relationships: o,
        array_relationships: a,
        ...rest
      } = withoutRemoteRelationships(fields.length ? withoutComputedFieldsCascading(t, fields) : t, remote);
      const objects = keep(o);
      const arrays = keep(a);
      const kept = { ...rest, ...(objects ? { object_relationships: objects } : {}), ...(arrays ? { array_relationships: arrays } : {}) };
      return withoutPermissions(
        kept,
        badPermissions.filter((p) => sameQualified((p.definition as { table: TableEntry['table'] }).table, t.table)),
      );
    });
  const badEndpoints = objects.flatMap((o) => (o.type === 'rest_endpoint' ? [o.definition.name] : []));
  const badRoles = new Set(objects.flatMap((o) => (o.type === 'inherited_role' ? [o.name] : [])));
  const roles = document.inherited_roles?.filter((r) => !badRoles.has(r.role_name));
  const { inherited_roles: _roles, ...others } = document;
  const next = withoutFunctions({ ...others, ...(roles?.length ? { inherited_roles: roles } : {}), tables }, badFunctions);
  return badEndpoints.length
    ? withList(
        next,
        'rest_endpoints',
        endpointsOf(next).filter((e) => !badEndpoints.includes(e.name)),
      )
    : next;
}

/** The entry without the permissions of `objects` (each its kind's, of its role). */
function withoutPermissions(entry: TableEntry, objects: readonly InconsistentObject[]): TableEntry {
  let next = entry;
  for (const o of objects) {
    const key = o.type.replace('_permission', '_permissions') as `${PermissionType}_permissions`;
    const role = ((o as { definition: unknown }).definition as { role: string }).role;
    const left = (next[key] ?? []).filter((p) => p.role !== role);
    const { [key]: _gone, ...rest } = next;
    next = (left.length ? { ...rest, [key]: left } : rest) as TableEntry;
  }
  return next;
}

/** Every function the document names: tracked functions. */
export function functionsNamedBy(document: MetadataDocument): FunctionEntry['function'][] {
  return [...(document.functions ?? []).map((f) => f.function), ...document.tables.flatMap((t) => (t.computed_fields ?? []).map((c) => c.definition.function))];
}

/** Every table the document names: tracked tables and the remote tables of their relationships. */
export function tablesNamedBy(document: MetadataDocument): TableEntry['table'][] {
  const out: TableEntry['table'][] = [];
  for (const t of document.tables) {
    out.push(t.table);
    for (const rel of [...(t.object_relationships ?? []), ...(t.array_relationships ?? [])]) {
      const using = rel.using as Record<string, unknown>;
      if ('manual_configuration' in using) out.push((using.manual_configuration as { remote_table: TableEntry['table'] }).remote_table);
      const fk = using.foreign_key_constraint_on;
      if (typeof fk === 'object' && fk !== null && !Array.isArray(fk)) out.push((fk as { table: TableEntry['table'] }).table);
    }
  }
  return out;
}
