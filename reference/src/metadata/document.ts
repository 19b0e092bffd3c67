// Pure functions over the metadata document: export form, clearing, dropping inconsistent objects.
import { displayQualified, emptyMetadata, sameQualified, type FunctionEntry, type MetadataDocument, type TableEntry } from '../../../spec';
import type { Introspection } from '../db/introspection';
import { endpointsOf, withList } from './collections';
import { withoutComputedFields } from './computedFields';
import { exportedCronTriggers } from './cronTriggers';
import { withoutFunctions } from './functions';
import { withoutRemoteRelationships } from './remoteRelationships';
import { findInconsistencies, type InconsistentObject } from './inconsistency';

/** The export form (decision dec.export.form): tables in the order they were tracked, empty parts left out. */
export function exportForm(document: MetadataDocument): MetadataDocument {
  return {
    version: 2,
    tables: document.tables.map(exportEntry),
    ...(document.functions?.length ? { functions: document.functions } : {}),
    ...(document.query_collections?.length ? { query_collections: document.query_collections } : {}),
    ...(document.allowlist?.length ? { allowlist: document.allowlist } : {}),
    ...(document.rest_endpoints?.length ? { rest_endpoints: document.rest_endpoints } : {}),
    ...(exportedCronTriggers(document).length ? { cron_triggers: exportedCronTriggers(document) } : {}),
    ...(document.remote_schemas?.length ? { remote_schemas: document.remote_schemas } : {}),
    ...(document.actions?.length ? { actions: document.actions } : {}),
    ...(document.custom_types && Object.keys(document.custom_types).length ? { custom_types: document.custom_types } : {}),
    ...(document.sources?.length
      ? {
          sources: document.sources.map((s) => ({
            name: s.name,
            kind: s.kind,
            configuration: s.configuration,
            tables: s.tables.map(exportEntry),
            ...(s.functions?.length ? { functions: s.functions } : {}),
            ...(s.customization ? { customization: s.customization } : {}),
          })),
        }
      : {}),
  };
}

function exportEntry(t: TableEntry): TableEntry {
  return {
    table: { schema: t.table.schema, name: t.table.name },
    ...(t.is_enum ? { is_enum: true } : {}),
    ...(t.configuration ? { configuration: t.configuration } : {}),
    ...(t.object_relationships?.length ? { object_relationships: t.object_relationships } : {}),
    ...(t.array_relationships?.length ? { array_relationships: t.array_relationships } : {}),
    ...(t.computed_fields?.length ? { computed_fields: t.computed_fields } : {}),
    ...(t.remote_relationships?.length ? { remote_relationships: t.remote_relationships } : {}),
    ...(t.event_triggers?.length ? { event_triggers: t.event_triggers } : {}),
    ...(t.insert_permissions?.length ? { insert_permissions: t.insert_permissions } : {}),
    ...(t.select_permissions?.length ? { select_permissions: t.select_permissions } : {}),
    ...(t.update_permissions?.length ? { update_permissions: t.update_permissions } : {}),
    ...(t.delete_permissions?.length ? { delete_permissions: t.delete_permissions } : {}),
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
      } = withoutRemoteRelationships(fields.length ? withoutComputedFields(t, fields, []) : t, remote);
      const objects = keep(o);
      const arrays = keep(a);
      return { ...rest, ...(objects ? { object_relationships: objects } : {}), ...(arrays ? { array_relationships: arrays } : {}) };
    });
  const badEndpoints = objects.flatMap((o) => (o.type === 'rest_endpoint' ? [o.definition.name] : []));
  const next = withoutFunctions({ ...document, tables }, badFunctions);
  return badEndpoints.length
    ? withList(
        next,
        'rest_endpoints',
        endpointsOf(next).filter((e) => !badEndpoints.includes(e.name)),
      )
    : next;
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
