// Remote relationships of a table entry (decision dec.remote-relationship.forms): adding, replacing
// and deleting them, and what of them the table itself decides (free names, lhs columns). Whether
// the remote side fits is decided with the remote schemas (remote/relationshipProblems.ts).
import { columnReferences, lhsColumns, quoteQualified, remoteFieldSteps, remoteTarget, type RemoteRelationship, type TableEntry } from '../../../spec';
import type { DbTable } from '../db/introspection';
import { engineError } from '../errors';
import { computedFieldsOf } from './computedFields';
import { columnGraphQLName, isGraphQLName } from './naming';
import { relationshipsOf } from './relationships';

export const remoteRelationshipsOf = (entry: TableEntry): readonly RemoteRelationship[] => entry.remote_relationships ?? [];

function withRemoteRelationships(entry: TableEntry, list: readonly RemoteRelationship[]): TableEntry {
  const { remote_relationships: _, ...rest } = entry;
  return list.length ? { ...rest, remote_relationships: [...list] } : rest;
}

/** A remote relationship's name is free of the table's columns (and their GraphQL names), relationships and computed fields. */
export function checkRemoteRelationshipName(entry: TableEntry, table: DbTable, name: string): void {
  // The name is a field of the table's type: a GraphQL name, and not one of introspection's.
  if (!isGraphQLName(name)) throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(name)} (remote relationship name)`]);
  const taken =
    table.columns.some((c) => c.name === name || columnGraphQLName(entry, c.name) === name) ||
    relationshipsOf(entry).some(({ rel }) => rel.name === name) ||
    computedFieldsOf(entry).some((f) => f.name === name);
  if (taken) throw engineError('already-exists.remote-relationship-field', '$.args', [JSON.stringify(name), quoteQualified(entry.table)]);
}

/** What of a remote relationship its table cannot serve: an lhs column it lacks, a "$column" not in lhs_fields. */
export function lhsProblem(table: DbTable, rel: RemoteRelationship): string | undefined {
  const target = remoteTarget(rel.definition);
  const listed = target ? 'lhs_fields' : 'field_mapping';
  for (const column of lhsColumns(rel.definition))
    if (!table.columns.some((c) => c.name === column)) return `the column ${JSON.stringify(column)} of ${listed} does not exist`;
  if (!target) return undefined;
  for (const step of remoteFieldSteps(target.remote_field)) {
    for (const [arg, value] of Object.entries(step.arguments)) {
      for (const column of columnReferences(value)) {
        if (!target.lhs_fields.includes(column))
          return `the argument ${JSON.stringify(arg)} of ${JSON.stringify(step.name)} reads "$${column}", which lhs_fields does not list`;
      }
    }
  }
  return undefined;
}

/** The error of a remote relationship that cannot be served: a remote schema's, or a source's (decision dec.remote-relationship.to-source). */
export function unservedError(entry: TableEntry, rel: RemoteRelationship, reason: string) {
  const item = remoteTarget(rel.definition) ? 'remote-schema-error.remote-relationship' : 'invalid-configuration.source-relationship';
  return engineError(item, '$.args', [JSON.stringify(rel.name), quoteQualified(entry.table), reason]);
}

function checkLhs(entry: TableEntry, table: DbTable, rel: RemoteRelationship): void {
  const reason = lhsProblem(table, rel);
  if (reason) throw unservedError(entry, rel, reason);
}

/** create_remote_relationship: the entry with the new remote relationship. */
export function addRemoteRelationship(entry: TableEntry, table: DbTable, rel: RemoteRelationship): TableEntry {
  if (remoteRelationshipsOf(entry).some((r) => r.name === rel.name))
    throw engineError('already-exists.remote-relationship', '$.args', [JSON.stringify(rel.name), quoteQualified(entry.table)]);
  checkRemoteRelationshipName(entry, table, rel.name);
  checkLhs(entry, table, rel);
  return withRemoteRelationships(entry, [...remoteRelationshipsOf(entry), rel]);
}

/** update_remote_relationship: the definition replaced, in its place. */
export function updateRemoteRelationship(entry: TableEntry, table: DbTable, rel: RemoteRelationship): TableEntry {
  const list = remoteRelationshipsOf(entry);
  if (!list.some((r) => r.name === rel.name))
    throw engineError('not-exists.remote-relationship', '$.args', [JSON.stringify(rel.name), quoteQualified(entry.table)]);
  checkLhs(entry, table, rel);
  return withRemoteRelationships(
    entry,
    list.map((r) => (r.name === rel.name ? rel : r)),
  );
}

/** delete_remote_relationship. */
export function deleteRemoteRelationship(entry: TableEntry, name: string): TableEntry {
  const list = remoteRelationshipsOf(entry);
  if (!list.some((r) => r.name === name)) throw engineError('not-exists.remote-relationship', '$.args', [JSON.stringify(name), quoteQualified(entry.table)]);
  return withRemoteRelationships(
    entry,
    list.filter((r) => r.name !== name),
  );
}

/** The entry without the named remote relationships (inconsistent ones being dropped). */
export function withoutRemoteRelationships(entry: TableEntry, names: readonly string[]): TableEntry {
  return names.length
    ? withRemoteRelationships(
        entry,
        remoteRelationshipsOf(entry).filter((r) => !names.includes(r.name)),
      )
    : entry;
}

/** Names in a document's entry: each remote relationship once, and free of the table's other fields. */
export function checkRemoteRelationshipNames(entry: TableEntry, table: DbTable): void {
  const seen = new Set<string>();
  for (const rel of remoteRelationshipsOf(entry)) {
    if (seen.has(rel.name)) throw engineError('already-exists.remote-relationship', '$.args', [JSON.stringify(rel.name), quoteQualified(entry.table)]);
    seen.add(rel.name);
    checkRemoteRelationshipName(entry, table, rel.name);
  }
}

/** Some tracked table (of any source) has remote relationships: the remote schemas are consulted for them. */
export const hasRemoteRelationships = (document: { tables: readonly TableEntry[]; sources?: readonly { tables: readonly TableEntry[] }[] }): boolean =>
  [document.tables, ...(document.sources ?? []).map((s) => s.tables)].some((tables) => tables.some((t) => (t.remote_relationships?.length ?? 0) > 0));
