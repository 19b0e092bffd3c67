// The tracked tables as the GraphQL layer sees them: consistent tables only, with their GraphQL
// names, columns, keys and the relationships that resolve to other tracked tables.
import { ROOT_FIELD_KEYS, type MetadataDocument, type RootFieldKey, type TableEntry } from '../../../spec';
import { foreignKeysOf, primaryKeyOf, relationKey, uniqueConstraintsOf, type DbColumn, type DbTable, type Introspection } from '../db/introspection';
import { relationshipsOf, resolveRelationship, type ResolvedRelationship } from '../metadata/relationships';
import { columnGraphQLName, rootFieldName, tableGraphQLName } from './naming';
import { adminAccess, type TableAccess, type TablePermissions } from './roles';
import { scalarName } from './scalars';

export interface ColumnModel {
  column: DbColumn;
  field: string;
  scalar: string;
  /** The GraphQL enum of the enum table this column references, if any. */
  enumType?: string;
}

export interface RelationshipModel extends ResolvedRelationship {
  targetKey: string;
}

export interface EnumValue {
  value: string;
  comment: string | null;
}

export interface TableModel {
  key: string;
  entry: TableEntry;
  db: DbTable;
  name: string;
  columns: ColumnModel[];
  byField: ReadonlyMap<string, ColumnModel>;
  byColumn: ReadonlyMap<string, ColumnModel>;
  primaryKey: string[] | undefined;
  /** Constraints an upsert may name. */
  constraints: { name: string; columns: string[] }[];
  relationships: RelationshipModel[];
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
  enumValues?: EnumValue[];
  rootFields: Record<RootFieldKey, string>;
  /** What the role whose models these are may do (everything, for admin). */
  access: TableAccess;
  /** The permissions to enforce; absent for admin. */
  permissions?: TablePermissions;
}

export type Models = ReadonlyMap<string, TableModel>;

export const enumTypeName = (table: TableModel | { name: string }) => `${table.name}_enum`;

export function buildModels(document: MetadataDocument, db: Introspection, enumValues: ReadonlyMap<string, EnumValue[]>): Models {
  const models = new Map<string, TableModel>();
  for (const entry of document.tables) {
    const key = relationKey(entry.table);
    const table = db.tables.get(key);
    if (!table || !db.relations.has(key)) continue;
    const name = tableGraphQLName(entry);
    const columns = table.columns.map((column) => ({ column, field: columnGraphQLName(entry, column.name), scalar: scalarName(column) }));
    const kind = table.kind;
    const bits = table.updatable;
    const isTable = kind === 'r' || kind === 'p';
    const values = entry.is_enum ? enumValues.get(key) : undefined;
    const model: Omit<TableModel, 'access'> = {
      key,
      entry,
      db: table,
      name,
      columns,
      byField: new Map(columns.map((c) => [c.field, c])),
      byColumn: new Map(columns.map((c) => [c.column.name, c])),
      primaryKey: primaryKeyOf(table)?.columns,
      constraints: uniqueConstraintsOf(table).map((c) => ({ name: c.name, columns: c.columns })),
      relationships: [],
      insertable: isTable || (bits & 8) === 8,
      updatable: isTable || (bits & 4) === 4,
      deletable: isTable || (bits & 16) === 16,
      ...(values ? { enumValues: values } : {}),
      rootFields: Object.fromEntries(ROOT_FIELD_KEYS.map((k) => [k, rootFieldName(entry, k)])) as Record<RootFieldKey, string>,
    };
    models.set(key, { ...model, access: adminAccess(model) });
  }
  for (const model of models.values()) {
    for (const { rel, kind } of relationshipsOf(model.entry)) {
      try {
        const resolved = resolveRelationship(model.entry, rel, kind, db);
        const targetKey = relationKey(resolved.remote);
        if (models.has(targetKey)) model.relationships.push({ ...resolved, targetKey });
      } catch {
        // inconsistent: reported by get_inconsistent_metadata, left out of the schema
      }
    }
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

/** The one field of an insert input when the role's presets set every column (decision dec.schema.always-valid). */
export const INSERT_PLACEHOLDER = '_PLACEHOLDER';
