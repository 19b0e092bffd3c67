// Relationships (SPEC.md §2.2 "Relationship entry"), resolved against the database into the
// remote table and the column pairs that join it.
import { quoteQualified, sameQualified, type ArrayRelationship, type ObjectRelationship, type QualifiedName, type TableEntry } from '../../../spec';
import { columnOf, foreignKeysOf, relationKey, type DbConstraint, type Introspection } from '../db/introspection';
import { engineError } from '../errors';
import { columnGraphQLName } from './naming';

export type RelationshipKind = 'object' | 'array';

export interface ResolvedRelationship {
  name: string;
  kind: RelationshipKind;
  remote: QualifiedName;
  /** Pairs [column of this table, column of the remote table]. */
  mapping: [string, string][];
}

const sameColumns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c) => b.includes(c));

function singleForeignKey(candidates: DbConstraint[]): DbConstraint {
  if (candidates.length === 0) throw engineError('constraint-error.no-foreign-key', '$.args');
  if (candidates.length > 1) throw engineError('constraint-error.several-foreign-keys', '$.args');
  return candidates[0]!;
}

function requireColumns(db: Introspection, table: QualifiedName, columns: readonly string[]): void {
  const t = db.tables.get(relationKey(table));
  if (!t) throw engineError('not-exists.table-in-postgres', '$.args', [quoteQualified(table)]);
  for (const c of columns) if (!columnOf(t, c)) throw engineError('not-exists.column', '$.args', [JSON.stringify(c)]);
}

/** Resolve a relationship of `entry`; throws the §7.2 error when the database does not fit it. */
export function resolveRelationship(
  entry: TableEntry,
  rel: ObjectRelationship | ArrayRelationship,
  kind: RelationshipKind,
  db: Introspection,
): ResolvedRelationship {
  const using = rel.using as Record<string, unknown>;
  if ('manual_configuration' in using) {
    const manual = (rel.using as { manual_configuration: { remote_table: QualifiedName; column_mapping: Record<string, string> } }).manual_configuration;
    const mapping = Object.entries(manual.column_mapping);
    requireColumns(
      db,
      entry.table,
      mapping.map(([l]) => l),
    );
    requireColumns(
      db,
      manual.remote_table,
      mapping.map(([, r]) => r),
    );
    return { name: rel.name, kind, remote: manual.remote_table, mapping };
  }
  const table = db.tables.get(relationKey(entry.table));
  if (!table) throw engineError('not-exists.table-in-postgres', '$.args', [quoteQualified(entry.table)]);
  if (kind === 'object') {
    const on = (rel as ObjectRelationship).using as { foreign_key_constraint_on: string | string[] };
    const columns = typeof on.foreign_key_constraint_on === 'string' ? [on.foreign_key_constraint_on] : on.foreign_key_constraint_on;
    requireColumns(db, entry.table, columns);
    const fk = singleForeignKey(foreignKeysOf(table).filter((k) => sameColumns(k.columns, columns)));
    return {
      name: rel.name,
      kind,
      remote: { schema: fk.ref_schema!, name: fk.ref_table! },
      mapping: fk.columns.map((c, i) => [c, fk.ref_columns![i]!]),
    };
  }
  const on = (rel as ArrayRelationship).using as { foreign_key_constraint_on: { table: QualifiedName; column?: string; columns?: string[] } };
  const remoteName = on.foreign_key_constraint_on.table;
  const columns = on.foreign_key_constraint_on.columns ?? [on.foreign_key_constraint_on.column!];
  requireColumns(db, remoteName, columns);
  const remote = db.tables.get(relationKey(remoteName))!;
  const fk = singleForeignKey(
    foreignKeysOf(remote).filter((k) => sameColumns(k.columns, columns) && k.ref_schema === entry.table.schema && k.ref_table === entry.table.name),
  );
  return { name: rel.name, kind, remote: remoteName, mapping: fk.columns.map((c, i) => [fk.ref_columns![i]!, c]) };
}

export function relationshipsOf(entry: TableEntry): { rel: ObjectRelationship | ArrayRelationship; kind: RelationshipKind }[] {
  return [
    ...(entry.object_relationships ?? []).map((rel) => ({ rel, kind: 'object' as const })),
    ...(entry.array_relationships ?? []).map((rel) => ({ rel, kind: 'array' as const })),
  ];
}

/** The table a relationship leads to, when the database lets it be resolved. */
export function targetOf(entry: TableEntry, rel: ObjectRelationship | ArrayRelationship, kind: RelationshipKind, db: Introspection): QualifiedName | undefined {
  try {
    return resolveRelationship(entry, rel, kind, db).remote;
  } catch {
    return undefined;
  }
}

export const leadsTo = (entry: TableEntry, rel: ObjectRelationship | ArrayRelationship, kind: RelationshipKind, db: Introspection, table: QualifiedName) => {
  const target = targetOf(entry, rel, kind, db);
  return target !== undefined && sameQualified(target, table);
};

type AnyRelationship = ObjectRelationship | ArrayRelationship;

const listKey = (kind: RelationshipKind) => (kind === 'object' ? 'object_relationships' : 'array_relationships');

function withList(entry: TableEntry, kind: RelationshipKind, list: AnyRelationship[]): TableEntry {
  const key = listKey(kind);
  const { [key]: _old, ...rest } = entry;
  return (list.length ? { ...rest, [key]: list } : rest) as TableEntry;
}

export function findRelationship(entry: TableEntry, name: string): { rel: AnyRelationship; kind: RelationshipKind } | undefined {
  return relationshipsOf(entry).find(({ rel }) => rel.name === name);
}

/**
 * A relationship shares its table's field names with the columns, under their own names and their
 * custom ones; and the operators of boolean expressions are no field names at all.
 */
function checkRelationshipName(entry: TableEntry, db: Introspection, name: string, path: string): void {
  if (!isRelationshipName(name)) throw engineError('validation-failed.graphql-name', path, [`${JSON.stringify(name)} (relationship name)`]);
  if (BOOL_EXP_OPERATORS.has(name)) {
    throw engineError('validation-failed.graphql-name', path, [
      `${JSON.stringify(name)} (relationship name: _and, _or, _not and _exists are operators of boolean expressions)`,
    ]);
  }
  const table = db.tables.get(relationKey(entry.table));
  const taken = findRelationship(entry, name) || table?.columns.some((c) => c.name === name || columnGraphQLName(entry, c.name) === name);
  if (taken) throw engineError('already-exists.column-or-relationship', '$.args', [quoteQualified(entry.table)]);
  if ((entry.computed_fields ?? []).some((f) => f.name === name))
    throw engineError('already-exists.computed-field-name', '$.args', [JSON.stringify(name), quoteQualified(entry.table)]);
  if ((entry.remote_relationships ?? []).some((r) => r.name === name))
    throw engineError('already-exists.remote-relationship-field', '$.args', [JSON.stringify(name), quoteQualified(entry.table)]);
}

/** create_object_relationship / create_array_relationship: the entry with the new relationship. */
export function addRelationship(entry: TableEntry, db: Introspection, kind: RelationshipKind, rel: AnyRelationship): TableEntry {
  checkRelationshipName(entry, db, rel.name, '$.args.name');
  resolveRelationship(entry, rel, kind, db);
  const list = [...((entry[listKey(kind)] as AnyRelationship[] | undefined) ?? []), rel];
  return withList(entry, kind, list);
}

/** Keys of a boolean expression beside the fields: a field of one of these names could not be filtered on. */
export const BOOL_EXP_OPERATORS: ReadonlySet<string> = new Set(['_and', '_or', '_not', '_exists']);

const isRelationshipName = (name: string) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(name) && !name.startsWith('__');

export function dropRelationship(entry: TableEntry, name: string): TableEntry {
  const found = findRelationship(entry, name);
  if (!found) throw engineError('not-exists.field', '$.args', [`relationship ${JSON.stringify(name)}`]);
  const list = (entry[listKey(found.kind)] as AnyRelationship[]).filter((r) => r.name !== name);
  return withList(entry, found.kind, list);
}

export function renameRelationship(entry: TableEntry, db: Introspection, name: string, newName: string): TableEntry {
  const found = findRelationship(entry, name);
  if (!found) throw engineError('not-exists.field', '$.args', [`relationship ${JSON.stringify(name)}`]);
  checkRelationshipName(entry, db, newName, '$.args.new_name');
  const list = (entry[listKey(found.kind)] as AnyRelationship[]).map((r) => (r.name === name ? { ...r, name: newName } : r));
  return withList(entry, found.kind, list);
}

export function setRelationshipComment(entry: TableEntry, name: string, comment: string | null | undefined): TableEntry {
  const found = findRelationship(entry, name);
  if (!found) throw engineError('not-exists.field', '$.args', [`relationship ${JSON.stringify(name)}`]);
  const list = (entry[listKey(found.kind)] as AnyRelationship[]).map((r) => {
    if (r.name !== name) return r;
    const { comment: _c, ...rest } = r;
    return typeof comment === 'string' ? { ...rest, comment } : rest;
  });
  return withList(entry, found.kind, list);
}
