// What a role may do with each table (SPEC.md §2.3, §4.3 permission semantics): the models of a
// role keep only the tables it may select, the columns it may read or write, the relationships
// that lead to tables it may read, and the permission expressions the compiler enforces.
import type { BoolExp, Columns, DeletePermission, InsertPermission, UpdatePermission } from '../../../spec';
import { visibility, type InheritedSelectPermission } from '../metadata/inheritedPermissions';
import type { ColumnModel, Models, TableAccess, TableModel, TablePermissions } from './modelTypes';

export type { TableAccess, TablePermissions } from './modelTypes';

export interface RoleOptions {
  /** The request may use backend_only insert permissions. */
  backendOnly: boolean;
}

const writable = (columns: ColumnModel[]) => columns.filter((c) => !c.column.generated);

export function adminAccess(t: Omit<TableModel, 'access'>): TableAccess {
  return {
    select: true,
    aggregate: true,
    insert: t.insertable,
    update: t.updatable,
    delete: t.deletable,
    insertColumns: writable(t.columns),
    updateColumns: writable(t.columns),
  };
}

/** The filter of a table the role may not read: no row at all ({} holds for every row). */
const NO_ROWS = { _not: {} };

/** Whether a role reads every row of the table: admin, or a select permission whose filter is {}. */
const readsEveryRow = (t: TableModel) => {
  const filter = t.permissions?.select?.filter;
  return t.permissions === undefined || (filter !== undefined && typeof filter === 'object' && Object.keys(filter).length === 0);
};

const allowed = (t: TableModel, columns: Columns | undefined) =>
  columns === undefined || columns === '*' ? t.columns : t.columns.filter((c) => columns.includes(c.column.name));

/** The columns of an inherited role's select permission that some grants leave out, with where they are shown. */
function columnVisibility(t: TableModel, select: InheritedSelectPermission): Map<string, BoolExp> {
  const out = new Map<string, BoolExp>();
  if (!select.grants) return out;
  for (const c of allowed(t, select.columns)) {
    const where = visibility(select, (g) => allowed(t, g.columns).includes(c));
    if (where) out.set(c.column.name, where);
  }
  return out;
}

function computedFieldVisibility(select: InheritedSelectPermission): Map<string, BoolExp> {
  const out = new Map<string, BoolExp>();
  for (const name of select.computed_fields ?? []) {
    const where = visibility(select, (g) => (g.computed_fields ?? []).includes(name));
    if (where) out.set(name, where);
  }
  return out;
}

/** The models of a role: null when it may not use the table at all. */
export function modelsForRole(models: Models, role: string, options: RoleOptions): Models {
  const out = new Map<string, TableModel>();
  for (const t of models.values()) {
    const find = <P>(list: { role: string; permission: P }[] | undefined) => list?.find((p) => p.role === role)?.permission;
    // A select permission of no columns lets the role read nothing: as if it had none (dec.schema.always-valid).
    const selectFound = find<InheritedSelectPermission>(t.entry.select_permissions);
    const select = selectFound && allowed(t, selectFound.columns).length > 0 ? selectFound : undefined;
    const insertFound = find<InsertPermission>(t.entry.insert_permissions);
    const insert = insertFound && (!insertFound.backend_only || options.backendOnly) ? insertFound : undefined;
    const updateFound = find<UpdatePermission>(t.entry.update_permissions);
    const deleteFound = find<DeletePermission>(t.entry.delete_permissions);
    // A table the role can neither read nor insert into is not in its schema. One it may only
    // insert into gets insert_<table> answering affected_rows: no rows, no relationships lead there.
    if (!select && !insert) continue;
    const shown = select ? columnVisibility(t, select) : new Map<string, BoolExp>();
    // A column an inherited role reads only in some rows is null in the others (decision dec.inherited-roles).
    const readable = (select ? allowed(t, select.columns) : []).map((c) =>
      shown.has(c.column.name) && !c.column.nullable ? { ...c, column: { ...c.column, nullable: true } } : c,
    );
    const permissions: TablePermissions = {
      select: select
        ? {
            filter: select.filter,
            ...(select.limit !== undefined ? { limit: select.limit } : {}),
            ...(shown.size ? { columnVisibility: shown } : {}),
            ...(select.grants ? { computedFieldVisibility: computedFieldVisibility(select) } : {}),
          }
        : { filter: NO_ROWS },
    };
    if (insert) permissions.insert = { check: insert.check, set: insert.set ?? {} };
    // Updates and deletes find their rows through what the role may read.
    const update = select ? updateFound : undefined;
    const del = select ? deleteFound : undefined;
    if (update) permissions.update = { filter: update.filter, ...(update.check ? { check: update.check } : {}), set: update.set ?? {} };
    if (del) permissions.delete = { filter: del.filter };
    const notPreset = (set: Record<string, unknown> | undefined) => (c: ColumnModel) => !(set && c.column.name in set);
    out.set(t.key, {
      ...t,
      columns: readable,
      byField: new Map(readable.map((c) => [c.field, c])),
      byColumn: new Map(readable.map((c) => [c.column.name, c])),
      // by_pk needs every primary key column to be readable.
      primaryKey: t.primaryKey?.every((c) => readable.some((r) => r.column.name === c)) ? t.primaryKey : undefined,
      access: {
        select: select !== undefined,
        aggregate: select?.allow_aggregations === true,
        insert: insert !== undefined && t.insertable,
        update: update !== undefined && t.updatable,
        delete: del !== undefined && t.deletable,
        insertColumns: writable(allowed(t, insert?.columns)).filter(notPreset(insert?.set)),
        updateColumns: writable(allowed(t, update?.columns)).filter(notPreset(update?.set)),
      },
      permissions,
    });
  }
  for (const t of out.values()) {
    t.insertRelationships = t.access.insert ? t.insertRelationships.filter((r) => out.get(r.targetKey)?.access.insert === true) : [];
    t.relationships = t.access.select
      ? t.relationships
          .filter((r) => out.get(r.targetKey)?.access.select === true)
          // A filter on the target may hide the row a foreign key leads to (dec.graphql.object-relationship-nullability).
          .map((r) => (r.nullable || readsEveryRow(out.get(r.targetKey)!) ? r : { ...r, nullable: true }))
      : [];
    // Decision dec.remote-relationship.execution: only where the role reads every column the remote field is given.
    t.remoteRelationships = t.access.select ? t.remoteRelationships.filter((r) => r.lhs.every((c) => t.byColumn.has(c))) : [];
    // Decision dec.remote-relationship.to-source: where the role reads the mapped columns and the target.
    t.sourceRelationships = t.access.select
      ? t.sourceRelationships.filter((r) => r.mapping.every(([c]) => t.byColumn.has(c)) && out.get(r.targetKey)?.access.select === true)
      : [];
    // Scalar computed fields the select permission lists; table-returning ones wherever the role
    // reads the table they return (decision dec.computed_fields.permissions).
    const listed = t.entry.select_permissions?.find((p) => p.role === role)?.permission.computed_fields ?? [];
    t.computedFields = t.access.select
      ? t.computedFields.filter((c) => (c.targetKey === undefined ? listed.includes(c.field) : out.get(c.targetKey)?.access.select === true))
      : [];
  }
  return out;
}
