// Computed fields (SPEC.md §2.3, §4.3 add_computed_field / drop_computed_field) as pure
// functions over the document: which SQL functions can define one, and the operations.
import {
  formatMessage,
  quoteQualified,
  sameQualified,
  type ComputedField,
  type ComputedFieldDefinition,
  type MetadataDocument,
  type QualifiedName,
  type TableEntry,
} from '../../../spec';
import type { DbFunction, Introspection } from '../db/introspection';
import { engineError, EngineError } from '../errors';
import { columnGraphQLName } from './naming';
import { JSON_TYPES, singleFunction } from './functions';
import { relationshipsOf } from './relationships';
import { databaseTable, replaceEntry, trackedEntry } from './tableEntries';

export interface ResolvedComputedField {
  fn: DbFunction;
  /** scalar: one value per row; table: rows of a tracked table (`returns`). */
  kind: 'scalar' | 'table';
  returns?: QualifiedName;
  /** Positions in fn.arguments of the row argument and of the session argument. */
  tableArgument: number;
  sessionArgument?: number;
}

/** pg_type.typtype of types a scalar computed field may return: base, enum, domain. */
const SCALAR_KINDS = new Set(['b', 'e', 'd']);

export const computedFieldsOf = (entry: TableEntry): readonly ComputedField[] => entry.computed_fields ?? [];

/** The function of a computed field of `table`, when it can define one; otherwise the refusal. */
export function resolveComputedField(
  document: MetadataDocument,
  db: Introspection,
  table: QualifiedName,
  definition: ComputedFieldDefinition,
): ResolvedComputedField {
  const name = quoteQualified(definition.function);
  const fn = singleFunction(db, definition.function);
  if (fn.volatility === 'VOLATILE') throw engineError('not-supported.computed-field-volatile', '$.args', [name]);
  const tableArgument = definition.table_argument === undefined ? 0 : fn.arguments.findIndex((a) => a.name === definition.table_argument);
  const row = fn.arguments[tableArgument];
  if (!row || row.type !== table.name || row.type_schema !== table.schema) {
    const which = definition.table_argument === undefined ? 'its first argument' : `the argument ${JSON.stringify(definition.table_argument)}`;
    throw engineError('not-supported.computed-field-table-argument', '$.args', [name, quoteQualified(table), which]);
  }
  let sessionArgument: number | undefined;
  if (definition.session_argument !== undefined) {
    sessionArgument = fn.arguments.findIndex((a, i) => i !== tableArgument && a.name === definition.session_argument && JSON_TYPES.has(a.type));
    if (sessionArgument < 0) throw engineError('not-exists.session-argument', '$.args', [name, JSON.stringify(definition.session_argument)]);
  }
  // A return relation is there only for a composite type (a table's, a view's).
  const returned = fn.return_relation;
  if (fn.returns_set && returned && document.tables.some((t) => sameQualified(t.table, returned))) {
    return { fn, kind: 'table', returns: returned, tableArgument, sessionArgument };
  }
  if (!fn.returns_set && SCALAR_KINDS.has(fn.return_type_kind)) return { fn, kind: 'scalar', tableArgument, sessionArgument };
  throw engineError('not-supported.computed-field-return-type', '$.args', [name, `${fn.returns_set ? 'SETOF ' : ''}${fn.return_type}`]);
}

/** Why a computed field cannot be served (in the engine's words: its table, itself, then the reason), or undefined. */
export function computedFieldProblem(document: MetadataDocument, db: Introspection, table: QualifiedName, field: ComputedField): string | undefined {
  try {
    resolveComputedField(document, db, table, field.definition);
    return undefined;
  } catch (error) {
    if (error instanceof EngineError)
      return formatMessage('err.constraint-violation.computed-field', quoteQualified(table), JSON.stringify(field.name), error.message);
    throw error;
  }
}

/**
 * Why a computed field named `name` conflicts with a column of its table (its name, or another
 * column's custom name), in the engine's words, or undefined. The engine builds such a field and
 * finds it inconsistent: add_computed_field refuses it, and a document keeping it has it
 * inconsistent, left out of the schema.
 */
export function columnConflict(entry: TableEntry, columns: readonly string[], name: string): ColumnConflict | undefined {
  if (columns.includes(name)) return { id: 'constraint-violation.computed-field-column', params: [] };
  const custom = columns.find((c) => columnGraphQLName(entry, c) === name);
  return custom === undefined ? undefined : { id: 'constraint-violation.computed-field-custom-column', params: [JSON.stringify(custom)] };
}

export interface ColumnConflict {
  id: 'constraint-violation.computed-field-column' | 'constraint-violation.computed-field-custom-column';
  params: string[];
}

/** The conflict in the engine's words. */
export const conflictReason = (conflict: ColumnConflict) => formatMessage(`err.${conflict.id}`, ...conflict.params);

/** The names a computed field may not take besides columns: relationships, remote relationships, other computed fields. */
export function checkComputedFieldNames(entry: TableEntry): void {
  const taken = new Set([...relationshipsOf(entry).map(({ rel }) => rel.name), ...(entry.remote_relationships ?? []).map((r) => r.name)]);
  for (const field of computedFieldsOf(entry)) {
    if (taken.has(field.name))
      throw engineError('constraint-violation.computed-field-name', '$.args', [JSON.stringify(field.name), quoteQualified(entry.table)]);
    taken.add(field.name);
  }
}

export interface AddComputedFieldArgs {
  table: QualifiedName;
  name: string;
  definition: ComputedFieldDefinition;
  comment?: string | null;
}

export function addComputedField(document: MetadataDocument, db: Introspection, args: AddComputedFieldArgs): MetadataDocument {
  const entry = trackedEntry(document, args.table, '$.args.table');
  const table = databaseTable(db, args.table);
  const field: ComputedField = { name: args.name, definition: args.definition, ...(typeof args.comment === 'string' ? { comment: args.comment } : {}) };
  try {
    resolveComputedField(document, db, args.table, args.definition);
  } catch (error) {
    // As the engine reports it: where it is, then what is wrong.
    if (error instanceof EngineError)
      throw engineError('constraint-violation.computed-field', '$.args', [quoteQualified(args.table), JSON.stringify(args.name), error.message]);
    throw error;
  }
  const conflict = columnConflict(
    entry,
    table.columns.map((c) => c.name),
    args.name,
  );
  if (conflict) throw conflictError(args, conflict);
  const next: TableEntry = { ...entry, computed_fields: [...computedFieldsOf(entry), field] };
  checkComputedFieldNames(next);
  return replaceEntry(document, next);
}

/** The refusal of a field whose name conflicts with a column: the field listed as inconsistent, in the form of the engine's own test of the case. */
function conflictError(args: AddComputedFieldArgs, conflict: ColumnConflict): EngineError {
  const { function: fn, table_argument, session_argument } = args.definition;
  const definition = {
    definition: { function: fn, table_argument: table_argument ?? null, ...(session_argument !== undefined ? { session_argument } : {}) },
    name: args.name,
    comment: args.comment ?? null,
    table: args.table,
  };
  return engineError(conflict.id, '$.args', conflict.params, [{ definition, reason: conflictReason(conflict), type: 'computed_field' }]);
}

/** Select permissions that list the computed field: they depend on it. */
function dependentPermissions(entry: TableEntry, name: string): string[] {
  return (entry.select_permissions ?? []).filter((p) => p.permission.computed_fields?.includes(name)).map((p) => p.role);
}

/** The entry without the named computed fields and the select permissions that list them (a cascade). */
export function withoutComputedFieldsCascading(entry: TableEntry, names: readonly string[]): TableEntry {
  return withoutComputedFields(entry, names, [...new Set(names.flatMap((name) => dependentPermissions(entry, name)))]);
}

export function dropComputedField(document: MetadataDocument, args: { table: QualifiedName; name: string; cascade?: boolean }): MetadataDocument {
  const entry = trackedEntry(document, args.table, '$.args.table');
  if (!computedFieldsOf(entry).some((f) => f.name === args.name)) throw engineError('not-exists.computed-field', '$.args.name', [JSON.stringify(args.name)]);
  const roles = dependentPermissions(entry, args.name);
  if (roles.length > 0 && !args.cascade) {
    const display = args.table.schema === 'public' ? args.table.name : `${args.table.schema}.${args.table.name}`;
    throw engineError('dependency-error.drop', '$.args', [roles.map((r) => `permission ${display}.${r}.select`).join(', ')]);
  }
  return replaceEntry(document, withoutComputedFields(entry, [args.name], roles));
}

/** The entry without the named computed fields, and without the select permissions of `roles`. */
export function withoutComputedFields(entry: TableEntry, names: readonly string[], roles: readonly string[]): TableEntry {
  const fields = computedFieldsOf(entry).filter((f) => !names.includes(f.name));
  const selects = (entry.select_permissions ?? []).filter((p) => !roles.includes(p.role));
  const { computed_fields: _f, select_permissions: _s, ...rest } = entry;
  return { ...rest, ...(fields.length ? { computed_fields: fields } : {}), ...(selects.length ? { select_permissions: selects } : {}) } as TableEntry;
}
