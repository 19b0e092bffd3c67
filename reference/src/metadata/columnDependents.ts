// What in the metadata refers to a column by name: permissions (their columns, presets, and
// filters and checks, also those of other tables that reach the column through relationships or
// `_exists`), relationships whose mapping uses it, and its custom name. run_sql that drops,
// renames or retypes such a column needs cascade, which drops these dependents.
import {
  displayQualified,
  PERMISSION_TYPES,
  permissionListKey,
  lhsColumns,
  sameQualified,
  type MetadataDocument,
  type PermissionType,
  type QualifiedName,
  type TableEntry,
} from '../../../spec';
import { relationKey, type Introspection } from '../db/introspection';
import { relationshipsOf, resolveRelationship, targetOf } from './relationships';
import { remoteRelationshipsOf } from './remoteRelationships';

export interface ColumnRef {
  table: QualifiedName;
  column: string;
}

export type Dependent =
  | { kind: 'permission'; table: QualifiedName; role: string; type: PermissionType }
  | { kind: 'relationship'; table: QualifiedName; name: string }
  | { kind: 'remote relationship'; table: QualifiedName; name: string }
  | { kind: 'custom column name'; table: QualifiedName; column: string };

/** The engine's way of naming a dependent in a message: `permission author.user.select`. */
export function describeDependent(d: Dependent): string {
  const table = displayQualified(d.table);
  if (d.kind === 'permission') return `permission ${table}.${d.role}.${d.type}`;
  if (d.kind === 'relationship') return `relationship ${table}.${d.name}`;
  if (d.kind === 'remote relationship') return `remote relationship ${table}.${d.name}`;
  return `custom column name ${table}.${d.column}`;
}

const OPERATORS = new Set(['_and', '_or', '_not', '_exists', '$and', '$or', '$not']);

/** Whether a metadata BoolExp over rows of `at` names the column, directly or through relationships. */
function mentions(document: MetadataDocument, db: Introspection, at: QualifiedName, exp: unknown, ref: ColumnRef, depth = 0): boolean {
  if (depth > 64 || typeof exp !== 'object' || exp === null) return false;
  if (Array.isArray(exp)) return exp.some((e) => mentions(document, db, at, e, ref, depth + 1));
  const entry = document.tables.find((t) => sameQualified(t.table, at));
  for (const [key, value] of Object.entries(exp)) {
    if (key === '_exists') {
      const e = value as { _table?: unknown; _where?: unknown };
      const table = typeof e?._table === 'string' ? { schema: 'public', name: e._table } : (e?._table as QualifiedName | undefined);
      if (table && mentions(document, db, table, e._where, ref, depth + 1)) return true;
    } else if (OPERATORS.has(key)) {
      if (mentions(document, db, at, value, ref, depth + 1)) return true;
    } else {
      const rel = entry && relationshipsOf(entry).find(({ rel: r }) => r.name === key);
      // An aggregate predicate (dec.graphql.aggregate-predicates): its arguments and filter name the target's columns.
      const aggregated = entry && !rel ? relationshipsOf(entry).find(({ rel: r, kind }) => kind === 'array' && `${r.name}_aggregate` === key) : undefined;
      if (rel) {
        const remote = targetOf(entry, rel.rel, rel.kind, db);
        if (remote && mentions(document, db, remote, value, ref, depth + 1)) return true;
      } else if (aggregated) {
        const remote = targetOf(entry!, aggregated.rel, aggregated.kind, db);
        if (remote && predicateMentions(document, db, remote, value, ref, depth + 1)) return true;
      } else if (key === ref.column && sameQualified(at, ref.table)) return true;
    }
  }
  return false;
}

/** Whether `{<function>: {arguments, filter, …}}` over rows of `at` names the column. */
function predicateMentions(document: MetadataDocument, db: Introspection, at: QualifiedName, exp: unknown, ref: ColumnRef, depth: number): boolean {
  if (typeof exp !== 'object' || exp === null) return false;
  return Object.values(exp).some((body: unknown) => {
    if (typeof body !== 'object' || body === null) return false;
    const { arguments: args, filter } = body as { arguments?: unknown; filter?: unknown };
    const names = Array.isArray(args) ? args : [args];
    return (sameQualified(at, ref.table) && names.includes(ref.column)) || mentions(document, db, at, filter, ref, depth);
  });
}

function permissionMentions(document: MetadataDocument, db: Introspection, entry: TableEntry, permission: Record<string, unknown>, ref: ColumnRef): boolean {
  const own = sameQualified(entry.table, ref.table);
  if (own && Array.isArray(permission.columns) && permission.columns.includes(ref.column)) return true;
  if (own && typeof permission.set === 'object' && permission.set !== null && ref.column in permission.set) return true;
  return mentions(document, db, entry.table, permission.filter, ref) || mentions(document, db, entry.table, permission.check, ref);
}

/** Everything of `document` that names the column, judged against the database as it was (`db`). */
export function dependentsOfColumn(document: MetadataDocument, db: Introspection, ref: ColumnRef): Dependent[] {
  const out: Dependent[] = [];
  for (const entry of document.tables) {
    if (!db.tables.has(relationKey(entry.table))) continue;
    const configured = { ...entry.configuration?.custom_column_names, ...entry.configuration?.column_config };
    if (sameQualified(entry.table, ref.table) && ref.column in configured) {
      out.push({ kind: 'custom column name', table: entry.table, column: ref.column });
    }
    for (const { rel, kind } of relationshipsOf(entry)) {
      let mapping: [string, string][];
      let remote: QualifiedName;
      try {
        ({ mapping, remote } = resolveRelationship(entry, rel, kind, db));
      } catch {
        continue; // already broken: not this column's doing
      }
      const local = sameQualified(entry.table, ref.table) && mapping.some(([c]) => c === ref.column);
      const far = sameQualified(remote, ref.table) && mapping.some(([, c]) => c === ref.column);
      if (local || far) out.push({ kind: 'relationship', table: entry.table, name: rel.name });
    }
    if (sameQualified(entry.table, ref.table)) {
      for (const rel of remoteRelationshipsOf(entry))
        if (lhsColumns(rel.definition).includes(ref.column)) out.push({ kind: 'remote relationship', table: entry.table, name: rel.name });
    }
    for (const type of PERMISSION_TYPES) {
      for (const p of entry[permissionListKey(type)] ?? []) {
        if (permissionMentions(document, db, entry, p.permission as unknown as Record<string, unknown>, ref))
          out.push({ kind: 'permission', table: entry.table, role: p.role, type });
      }
    }
  }
  return out;
}

/** The document without the dependents (cascade). */
export function withoutDependents(document: MetadataDocument, dependents: readonly Dependent[]): MetadataDocument {
  if (dependents.length === 0) return document;
  const of = (entry: TableEntry) => dependents.filter((d) => sameQualified(d.table, entry.table));
  return {
    ...document,
    tables: document.tables.map((entry) => {
      const mine = of(entry);
      if (mine.length === 0) return entry;
      const next = { ...entry } as Record<string, unknown>;
      const relationshipGone = (name: string) => mine.some((d) => d.kind === 'relationship' && d.name === name);
      for (const key of ['object_relationships', 'array_relationships'] as const) {
        const left = (entry[key] as { name: string }[] | undefined)?.filter((r) => !relationshipGone(r.name));
        if (left?.length) next[key] = left;
        else delete next[key];
      }
      const remoteLeft = entry.remote_relationships?.filter((r) => !mine.some((d) => d.kind === 'remote relationship' && d.name === r.name));
      if (remoteLeft?.length) next.remote_relationships = remoteLeft;
      else delete next.remote_relationships;
      for (const type of PERMISSION_TYPES) {
        const key = permissionListKey(type);
        const left = entry[key]?.filter((p) => !mine.some((d) => d.kind === 'permission' && d.type === type && d.role === p.role));
        if (left?.length) next[key] = left;
        else delete next[key];
      }
      const { custom_column_names: names, column_config: columnConfig } = entry.configuration ?? {};
      if (names || columnConfig) {
        const keep = <T>(map: Record<string, T> | undefined) =>
          Object.fromEntries(Object.entries(map ?? {}).filter(([c]) => !mine.some((d) => d.kind === 'custom column name' && d.column === c)));
        const { custom_column_names: _names, column_config: _config, ...configuration } = entry.configuration!;
        const keptNames = keep(names);
        const keptConfig = keep(columnConfig);
        const nextConfiguration = {
          ...configuration,
          ...(Object.keys(keptNames).length ? { custom_column_names: keptNames } : {}),
          ...(Object.keys(keptConfig).length ? { column_config: keptConfig } : {}),
        };
        if (Object.keys(nextConfiguration).length) next.configuration = nextConfiguration;
        else delete next.configuration;
      }
      return next as unknown as TableEntry;
    }),
  };
}
