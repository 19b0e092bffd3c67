// Tracked functions as the GraphQL layer sees them (SPEC.md §2.3, §4.3, §4.4): the consistent
// ones, with their root field, arguments and the table whose rows they return; and which of them
// a role may use.
import type { FunctionEntry, MetadataDocument } from '../../../spec';
import { relationKey, type DbColumn, type DbFunction, type Introspection } from '../db/introspection';
import { argumentField, exposedAs, functionNames, functionsOf, resolveFunction, type FunctionNames } from '../metadata/functions';
import type { Callee, FunctionArgumentModel, Models } from './modelTypes';

export type { Callee, FunctionArgumentModel } from './modelTypes';

export interface FunctionModel extends Callee, FunctionNames {
  entry: FunctionEntry;
  db: DbFunction;
  /** The table whose rows the function returns (its model's key). */
  tableKey: string;
  exposedAs: 'query' | 'mutation';
  arguments: FunctionArgumentModel[];
  /** Its root fields as named before its source's customization: the engine's descriptions name them so. */
  uncustomized?: { field: string; aggregateField: string };
}

export const argumentColumn = (name: string, position: number, type: string, typeSchema: string, typeKind = 'b'): DbColumn => ({
  name,
  position,
  type,
  type_schema: typeSchema,
  type_kind: typeKind,
  type_category: '',
  element_type: null,
  nullable: true,
  has_default: false,
  generated: false,
  enum_values: null,
  comment: null,
});

/** The arguments of a function; `session` and `row` are the positions of those arguments (or -1). */
export function argumentModels(fn: DbFunction, session: number, row = -1): FunctionArgumentModel[] {
  return fn.arguments.map((a, i) => ({
    name: a.name,
    field: argumentField(a.name, i),
    column: argumentColumn(a.name ?? `arg_${i + 1}`, i + 1, a.type, a.type_schema, a.type_kind),
    hasDefault: a.has_default,
    session: i === session,
    ...(i === row ? { row: true } : {}),
  }));
}

/** The tracked functions that can be served: consistent, returning a table of `models`. */
export function buildFunctionModels(document: MetadataDocument, db: Introspection, models: Models): FunctionModel[] {
  const out: FunctionModel[] = [];
  for (const entry of functionsOf(document)) {
    let fn: DbFunction;
    try {
      fn = resolveFunction(document, db, entry);
    } catch {
      continue; // inconsistent: reported by get_inconsistent_metadata
    }
    const tableKey = relationKey(fn.return_relation!);
    if (!models.has(tableKey)) continue;
    const session = entry.configuration?.session_argument;
    out.push({
      entry,
      db: fn,
      ...functionNames(entry),
      tableKey,
      exposedAs: exposedAs(entry, fn),
      arguments: argumentModels(
        fn,
        fn.arguments.findIndex((a) => a.name !== null && a.name === session),
      ),
    });
  }
  return out;
}

/**
 * The functions a role may use (§4.4): those returning a table it may select from; with inference
 * off, only those that also grant it a function permission.
 */
export function functionsForRole(functions: readonly FunctionModel[], roleModels: Models, role: string, inferPermissions: boolean): FunctionModel[] {
  return functions.filter(
    (f) => roleModels.get(f.tableKey)?.access.select === true && (inferPermissions || f.entry.permissions?.some((p) => p.role === role) === true),
  );
}
