// The tracked tables as the GraphQL layer sees them: consistent tables only, with their GraphQL
// names, columns, keys and the relationships that resolve to other tracked tables.
import { typeName } from './typeNames';
import { remoteTarget, ROOT_FIELD_KEYS, type MetadataDocument, type RootFieldKey } from '../../../spec';
import { lhsProblem } from '../metadata/remoteRelationships';
import { foreignKeysOf, primaryKeyOf, relationKey, sourceKey, uniqueConstraintsOf, type Introspection } from '../db/introspection';
import { relationshipsOf, resolveRelationship } from '../metadata/relationships';
import { columnConflict, resolveComputedField, type ResolvedComputedField } from '../metadata/computedFields';
import { argumentColumn, argumentModels } from './functions';
import { tableGraphQLName, tableRootField } from '../metadata/naming';
import { columnField } from './generatedFields';
import type { NamingConvention } from '../metadata/namingCase';
import type { ComputedFieldModel, EnumValue, Models, TableModel } from './modelTypes';
import { adminAccess } from './roles';
import { scalarName } from './scalars';

export type {
  ColumnModel,
  ComputedFieldModel,
  EnumValue,
  Models,
  RelationshipModel,
  RemoteRelationshipModel,
  SourceRelationshipModel,
  TableAccess,
  TableModel,
  TablePermissions,
} from './modelTypes';

export { typeName } from './typeNames';

export const enumTypeName = (table: TableModel) => typeName(table, '_enum');

/** The tables of `document` as models, their fields and root fields cased by `naming`, the convention of their source (decision 046). */
export function buildModels(
  document: MetadataDocument,
  db: Introspection,
  enumValues: ReadonlyMap<string, EnumValue[]>,
  naming: NamingConvention = 'hasura-default',
): Models {
  const models = new Map<string, TableModel>();
  for (const entry of document.tables) {
    const key = relationKey(entry.table);
    const table = db.tables.get(key);
    if (!table || !db.relations.has(key)) continue;
    const name = tableGraphQLName(entry);
    const comments = entry.configuration?.column_config;
    const columns = table.columns.map((raw) => {
      // Decision dec.table.column-config: a configured comment is the field's description.
      const comment = comments?.[raw.name]?.comment;
      const column = comment === undefined ? raw : { ...raw, comment };
      return { column, field: columnField(entry, column.name, naming), scalar: scalarName(column) };
    });
    const kind = table.kind;
    const bits = table.updatable;
    const isTable = kind === 'r' || kind === 'p';
    const values = entry.is_enum ? enumValues.get(key) : undefined;
    const model: Omit<TableModel, 'access'> = {
      key,
      entry,
      db: table,
      name,
      ...(naming === 'hasura-default' ? {} : { naming }),
      columns,
      byField: new Map(columns.map((c) => [c.field, c])),
      byColumn: new Map(columns.map((c) => [c.column.name, c])),
      primaryKey: primaryKeyOf(table)?.columns,
      constraints: uniqueConstraintsOf(table).map((c) => ({ name: c.name, columns: c.columns })),
      relationships: [],
      insertRelationships: [],
      computedFields: [],
      remoteRelationships: (entry.remote_relationships ?? []).flatMap((r) => {
        const target = remoteTarget(r.definition);
        return target && lhsProblem(table, r) === undefined
          ? [{ name: r.name, remoteSchema: target.remote_schema, lhs: target.lhs_fields, remoteField: target.remote_field }]
          : [];
      }),
      sourceRelationships: [],
      insertable: isTable || (bits & 8) === 8,
      updatable: isTable || (bits & 4) === 4,
      deletable: isTable || (bits & 16) === 16,
      ...(values ? { enumValues: values } : {}),
      rootFields: Object.fromEntries(ROOT_FIELD_KEYS.map((k) => [k, tableRootField(entry, k, naming)])) as Record<RootFieldKey, string>,
    };
    models.set(key, { ...model, access: adminAccess(model) });
  }
  for (const model of models.values()) {
    for (const { rel, kind } of relationshipsOf(model.entry)) {
      try {
        const resolved = resolveRelationship(model.entry, rel, kind, db);
        const targetKey = relationKey(resolved.remote);
        const nullable =
          kind === 'array' || !('foreign_key_constraint_on' in rel.using) || resolved.mapping.some(([c]) => model.byColumn.get(c)?.column.nullable !== false);
        if (models.has(targetKey)) model.relationships.push({ ...resolved, targetKey, nullable });
      } catch {
        // inconsistent: reported by get_inconsistent_metadata, left out of the schema
      }
    }
    model.insertRelationships = model.insertable ? model.relationships.filter((r) => models.get(r.targetKey)!.insertable) : [];
    model.computedFields = computedFieldModels(document, db, model, models);
    // Columns that reference an enum table take its GraphQL enum type.
    for (const fk of foreignKeysOf(model.db)) {
      if (fk.columns.length !== 1) continue;
      const target = models.get(relationKey({ schema: fk.ref_schema!, name: fk.ref_table! }));
      if (target?.enumValues) {
        const column = model.byColumn.get(fk.columns[0]!);
        if (column) column.enumType = enumTypeName(target);
      }
    }
  }
  return models;
}

function computedFieldModels(document: MetadataDocument, db: Introspection, model: TableModel, models: Models): ComputedFieldModel[] {
  const out: ComputedFieldModel[] = [];
  const columns = model.db.columns.map((c) => c.name);
  for (const field of model.entry.computed_fields ?? []) {
    // Named like a column: inconsistent, reported by get_inconsistent_metadata.
    if (columnConflict(model.entry, columns, field.name)) continue;
    let resolved: ResolvedComputedField;
    try {
      resolved = resolveComputedField(document, db, model.entry.table, field.definition);
    } catch {
      continue; // inconsistent: reported by get_inconsistent_metadata
    }
    const targetKey = resolved.returns ? relationKey(resolved.returns) : undefined;
    if (targetKey && !models.has(targetKey)) continue;
    const { fn } = resolved;
    const returns = argumentColumn(field.name, 0, fn.return_type, fn.return_type_schema);
    out.push({
      db: fn,
      field: field.name,
      kind: resolved.kind,
      ...(targetKey ? { targetKey } : {}),
      returns: { column: returns, field: field.name, scalar: scalarName(returns) },
      ...(field.comment ? { comment: field.comment } : {}),
      arguments: argumentModels(fn, resolved.sessionArgument ?? -1, resolved.tableArgument),
    });
  }
  return out;
}

/**
 * The models (and functions) of a source besides default, keyed apart from every other source's
 * (decision dec.source.forms): their relationships and computed fields lead within the source.
 */
export function sourceModels<F extends { tableKey: string }>(models: Models, functions: readonly F[], source: string): { models: Models; functions: F[] } {
  const key = (k: string) => sourceKey(source, k);
  const out = new Map<string, TableModel>();
  for (const m of models.values()) {
    out.set(key(m.key), {
      ...m,
      key: key(m.key),
      source,
      relationships: m.relationships.map((r) => ({ ...r, targetKey: key(r.targetKey) })),
      insertRelationships: m.insertRelationships.map((r) => ({ ...r, targetKey: key(r.targetKey) })),
      computedFields: m.computedFields.map((f) => (f.targetKey ? { ...f, targetKey: key(f.targetKey) } : f)),
    });
  }
  return { models: out, functions: functions.map((f) => ({ ...f, tableKey: key(f.tableKey) })) };
}

/** The one field of an insert input when the role's presets set every column (decision dec.schema.always-valid). */
export const INSERT_PLACEHOLDER = '_PLACEHOLDER';
