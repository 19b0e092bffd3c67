// Table operations of SPEC.md §4.3 as pure functions: (document, database, args) → document,
// or an EngineError with the §7.2 message.
import {
  quoteQualified,
  sameQualified,
  ROOT_FIELD_KEYS,
  type MetadataDocument,
  type SourceCustomization,
  type QualifiedName,
  type TableConfiguration,
  type TableEntry,
} from '../../../spec';
import { columnOf, relationKey, type DbTable, type Introspection } from '../db/introspection';
import { engineError } from '../errors';
import { checkComputedFieldNames } from './computedFields';
import { functionGraphQLNames, functionNames, functionsOf, functionsReturning, withoutFunctions } from './functions';
import { BOOL_EXP_OPERATORS, leadsTo, relationshipsOf } from './relationships';
import { columnGraphQLName, isGraphQLName, isServedTable, rootFieldName, tableGraphQLName, tableRootField, tableTypeName } from './naming';
import { withPrefixSuffix } from './namingCase';
import { checkRemoteRelationshipNames } from './remoteRelationships';

import { databaseTable, findEntry, replaceEntry, trackedEntry } from './tableEntries';
export { databaseTable, findEntry, replaceEntry, trackedEntry };

/** The GraphQL names a tracked table takes: all must be valid, and free (checked by checkNames). */
export function validateEntry(entry: TableEntry, table: DbTable): void {
  const where = `table ${quoteQualified(entry.table)}`;
  const name = tableGraphQLName(entry);
  const given = name === (entry.configuration?.custom_name ?? entry.configuration?.identifier);
  // A name the configuration gave must be one; a table whose own name is none is tracked, not served.
  if (given && !isGraphQLName(name)) throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(name)} (the custom_name of ${where})`]);
  // Query root fields (select…) and mutation root fields (the others) each need distinct names.
  const rootFields = new Map<string, string>();
  for (const key of isServedTable(entry) ? ROOT_FIELD_KEYS : []) {
    const field = rootFieldName(entry, key);
    if (!isGraphQLName(field)) throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(field)} (root field ${key} of ${where})`]);
    const slot = `${key.startsWith('select') ? 'query' : 'mutation'} ${field}`;
    const other = rootFields.get(slot);
    if (other !== undefined)
      throw engineError('already-exists.graphql-name', '$.args', [JSON.stringify(field), `root field ${key} of ${where}`, `root field ${other}`]);
    rootFields.set(slot, key);
  }
  for (const column of new Set([...Object.keys(entry.configuration?.custom_column_names ?? {}), ...Object.keys(entry.configuration?.column_config ?? {})])) {
    if (!columnOf(table, column)) throw engineError('not-exists.column', '$.args', [JSON.stringify(column)]);
  }
  const fields = new Set<string>();
  for (const column of table.columns) {
    const field = columnGraphQLName(entry, column.name);
    // A name the configuration gave is named as such; a column's own name asks for a custom name.
    const given = entry.configuration?.custom_column_names?.[column.name] !== undefined;
    const what = given ? `custom name of column ${JSON.stringify(column.name)} of ${where}` : `column of ${where}`;
    const remedy = given ? '' : '; give it a custom column name';
    if (!isGraphQLName(field)) throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(field)} (${what}${remedy})`]);
    if (BOOL_EXP_OPERATORS.has(field)) {
      throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(field)} (${what}: an operator of boolean expressions${remedy})`]);
    }
    if (fields.has(field)) throw engineError('already-exists.column-or-relationship', '$.args', [quoteQualified(entry.table)]);
    fields.add(field);
  }
  // Constraints name values of the schema's on_conflict: none for a table that is not served.
  for (const constraint of isServedTable(entry) ? table.constraints : []) {
    if (!isGraphQLName(constraint.name)) {
      throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(constraint.name)} (constraint of ${where})`]);
    }
  }
  const columnNames = new Set(table.columns.map((c) => c.name));
  for (const rel of [...(entry.object_relationships ?? []), ...(entry.array_relationships ?? [])]) {
    if (BOOL_EXP_OPERATORS.has(rel.name)) {
      throw engineError('validation-failed.graphql-name', '$.args', [
        `${JSON.stringify(rel.name)} (relationship name: _and, _or, _not and _exists are operators of boolean expressions)`,
      ]);
    }
    if (fields.has(rel.name) || columnNames.has(rel.name)) throw engineError('already-exists.column-or-relationship', '$.args', [quoteQualified(entry.table)]);
    fields.add(rel.name);
  }
  // A computed field named like a column is an inconsistent object, not a refusal (columnConflict).
  checkComputedFieldNames(entry);
  checkRemoteRelationshipNames(entry, table);
}

/** The type and root field names of an entry (entries are never changed in place: kept by identity). */
const namesOfEntry = new WeakMap<TableEntry, readonly string[]>();
function graphQLNamesOf(entry: TableEntry): readonly string[] {
  let names = namesOfEntry.get(entry);
  // A table without a GraphQL name takes none.
  const taken = () => (isServedTable(entry) ? [...new Set([tableGraphQLName(entry), ...ROOT_FIELD_KEYS.map((k) => rootFieldName(entry, k))])] : []);
  if (!names) namesOfEntry.set(entry, (names = taken()));
  return names;
}

/** No two tracked tables or functions may share a root field or type name. */
export function checkNames(document: MetadataDocument, db: Introspection): void {
  const owner = new Map<string, string>();
  const claim = (names: readonly string[], what: string) => {
    for (const name of names) {
      const other = owner.get(name);
      if (other !== undefined && other !== what) throw engineError('already-exists.graphql-name', '$.args', [JSON.stringify(name), what, other]);
      owner.set(name, what);
    }
  };
  for (const entry of document.tables) {
    if (db.relations.has(relationKey(entry.table))) claim(graphQLNamesOf(entry), `table ${quoteQualified(entry.table)}`);
  }
  for (const entry of functionsOf(document)) claim(functionGraphQLNames(entry), `function ${quoteQualified(entry.function)}`);
}

/**
 * No table or function of one source may take a GraphQL name of another's (decision
 * dec.source.forms): each document's names are claimed in turn, `label` saying whose they are.
 */
export function checkNamesAcross(parts: readonly { label: string; document: MetadataDocument; customization?: SourceCustomization }[]): void {
  const owner = new Map<string, string>();
  for (const { label, document, customization } of parts) {
    const claim = (names: readonly string[], what: string) => {
      for (const name of names) {
        const other = owner.get(name);
        if (other !== undefined && other !== what) throw engineError('already-exists.graphql-name', '$.args', [JSON.stringify(name), what, other]);
        owner.set(name, what);
      }
    };
    // Decision dec.source.customization: root fields between the prefix and the suffix, or all under the namespace field,
    // each name made by the source's naming convention (decision 048).
    const naming = customization?.naming_convention ?? 'hasura-default';
    const { root_fields: rootFields, type_names: typeNames } = customization ?? {};
    const namespace = rootFields?.namespace;
    const roots = (names: readonly string[]) =>
      namespace === undefined ? names.map((n) => withPrefixSuffix(naming, 'field', n, rootFields?.prefix, rootFields?.suffix)) : [];
    const type = (name: string) => withPrefixSuffix(naming, 'type', name, typeNames?.prefix, typeNames?.suffix);
    if (namespace !== undefined && document.tables.length > 0) claim([namespace], `the namespace${label || ' of the source "default"'}`);
    for (const entry of document.tables) {
      claim(
        [type(tableTypeName(entry, naming)), ...roots(ROOT_FIELD_KEYS.map((k) => tableRootField(entry, k, naming)))],
        `table ${quoteQualified(entry.table)}${label}`,
      );
    }
    for (const entry of functionsOf(document)) {
      const { field, aggregateField, argsType } = functionNames(entry);
      claim([...roots([field, aggregateField]), type(argsType)], `function ${quoteQualified(entry.function)}${label}`);
    }
  }
}

export interface TrackTableArgs {
  table: QualifiedName;
  is_enum?: boolean;
  configuration?: TableConfiguration;
}

export function trackTable(document: MetadataDocument, db: Introspection, args: TrackTableArgs): MetadataDocument {
  if (findEntry(document, args.table)) throw engineError('already-tracked', '$.args', [quoteQualified(args.table)]);
  const table = databaseTable(db, args.table);
  const entry: TableEntry = { table: args.table };
  if (args.is_enum) entry.is_enum = true;
  if (args.configuration) entry.configuration = args.configuration;
  validateEntry(entry, table);
  const next = { ...document, tables: [...document.tables, entry] };
  checkNames(next, db);
  return next;
}

/** Relationships of other tables that lead to `table`. */
export function dependentsOf(document: MetadataDocument, db: Introspection, table: QualifiedName): { table: QualifiedName; name: string }[] {
  return document.tables
    .filter((entry) => !sameQualified(entry.table, table))
    .flatMap((entry) =>
      relationshipsOf(entry)
        .filter(({ rel, kind }) => leadsTo(entry, rel, kind, db, table))
        .map(({ rel }) => ({ table: entry.table, name: rel.name })),
    );
}

/**
 * The document without the table (and, with cascade, what depends on it). `remoteDependents`: the
 * to_source relationships leading to it, named for the refusal; with cascade they go once the
 * whole document is known (metadata/sourceRelationshipDependents.ts).
 */
export function untrackTable(
  document: MetadataDocument,
  db: Introspection,
  args: { table: QualifiedName; cascade?: boolean },
  remoteDependents: readonly string[] = [],
): MetadataDocument {
  if (!findEntry(document, args.table)) throw engineError('already-untracked', '$.args', [quoteQualified(args.table)]);
  const dependents = dependentsOf(document, db, args.table);
  const functions = functionsReturning(document, db, args.table);
  if ((dependents.length > 0 || remoteDependents.length > 0 || functions.length > 0) && !args.cascade) {
    const list = [
      ...dependents.map((d) => `relationship ${displayName(d.table)}.${d.name}`),
      ...remoteDependents.map((d) => `remote relationship ${d}`),
      ...functions.map((f) => `function ${displayName(f.function)}`),
    ].join(', ');
    throw engineError('dependency-error.drop', '$.args', [list]);
  }
  document = withoutFunctions(document, functions);
  const dropped = new Set(dependents.map((d) => `${relationKey(d.table)}\u0000${d.name}`));
  const keep = <T extends { name: string }>(t: QualifiedName, rels: T[] | undefined) => {
    const left = rels?.filter((r) => !dropped.has(`${relationKey(t)}\u0000${r.name}`));
    return left && left.length ? left : undefined;
  };
  // Entries that lose no relationship stay the same objects (what is derived from them is kept by identity).
  const touched = new Set(dependents.map((d) => relationKey(d.table)));
  return {
    ...document,
    tables: document.tables
      .filter((t) => !sameQualified(t.table, args.table))
      .map((t) => (touched.has(relationKey(t.table)) ? withRelationships(t, keep(t.table, t.object_relationships), keep(t.table, t.array_relationships)) : t)),
  };
}

function withRelationships(entry: TableEntry, objects: TableEntry['object_relationships'], arrays: TableEntry['array_relationships']): TableEntry {
  const { object_relationships: _o, array_relationships: _a, ...rest } = entry;
  return { ...rest, ...(objects ? { object_relationships: objects } : {}), ...(arrays ? { array_relationships: arrays } : {}) };
}

const displayName = (q: QualifiedName) => (q.schema === 'public' ? q.name : `${q.schema}.${q.name}`);

export function setConfiguration(
  document: MetadataDocument,
  db: Introspection,
  table: QualifiedName,
  configuration: TableConfiguration | undefined,
): MetadataDocument {
  const entry = trackedEntry(document, table);
  const { configuration: _old, ...rest } = entry;
  const next: TableEntry = configuration ? { ...rest, configuration } : rest;
  const dbTable = db.tables.get(relationKey(table));
  if (dbTable) validateEntry(next, dbTable);
  const doc = replaceEntry(document, next);
  checkNames(doc, db);
  return doc;
}
