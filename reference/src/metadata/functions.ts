// Tracked SQL functions (SPEC.md §2.3, §4.3 track_function rules 1-4, §4.4 function permissions)
// as pure functions over the document: what makes a function trackable, its GraphQL names, and
// the operations (document, database, args) → document.
import {
  DEFAULT_SCHEMA,
  quoteQualified,
  sameQualified,
  type FunctionConfiguration,
  type FunctionEntry,
  type MetadataDocument,
  type QualifiedName,
} from '../../../spec';
import { relationKey, type DbFunction, type Introspection } from '../db/introspection';
import { engineError, EngineError } from '../errors';
import { isGraphQLName } from './naming';

export const functionsOf = (document: MetadataDocument): readonly FunctionEntry[] => document.functions ?? [];

export const findFunction = (document: MetadataDocument, name: QualifiedName) => functionsOf(document).find((f) => sameQualified(f.function, name));

/** The root field of a function: its custom name, or its name (prefixed with its schema outside public). */
export function functionGraphQLName(entry: FunctionEntry): string {
  if (entry.configuration?.custom_name) return entry.configuration.custom_name;
  return entry.function.schema === DEFAULT_SCHEMA ? entry.function.name : `${entry.function.schema}_${entry.function.name}`;
}

/** The names a function takes in the schema (decision dec.function.customization). */
export interface FunctionNames {
  field: string;
  aggregateField: string;
  argsType: string;
}

export function functionNames(entry: FunctionEntry): FunctionNames {
  const name = functionGraphQLName(entry);
  const roots = entry.configuration?.custom_root_fields;
  return { field: roots?.function ?? name, aggregateField: roots?.function_aggregate ?? `${name}_aggregate`, argsType: `${name}_args` };
}

/** The root fields and types a function takes: `<name>`, `<name>_aggregate`, `<name>_args` unless renamed. */
export const functionGraphQLNames = (entry: FunctionEntry): string[] => {
  const { field, aggregateField, argsType } = functionNames(entry);
  return [field, aggregateField, argsType];
};

/** Where the function's field goes: as configured, else by volatility (rule 1). */
export const exposedAs = (entry: FunctionEntry, fn: DbFunction): 'query' | 'mutation' =>
  entry.configuration?.exposed_as ?? (fn.volatility === 'VOLATILE' ? 'mutation' : 'query');

export const JSON_TYPES: ReadonlySet<string> = new Set(['json', 'jsonb']);

/** The one function of this name, with IN arguments only (tracked functions and computed fields alike). */
export function singleFunction(db: Introspection, function_: QualifiedName): DbFunction {
  const name = quoteQualified(function_);
  const overloads = db.functions.get(relationKey(function_)) ?? [];
  if (overloads.length === 0) throw engineError('not-exists.function-in-postgres', '$.args', [name]);
  if (overloads.length > 1) throw engineError('not-supported.function-overloaded', '$.args', [name]);
  const fn = overloads[0]!;
  if (!fn.only_in_arguments) throw engineError('not-supported.function-arguments', '$.args', [name]);
  return fn;
}

/**
 * The one database function the entry names, when it can be tracked: otherwise the refusal, with
 * the message that get_inconsistent_metadata reports as its reason.
 */
export function resolveFunction(document: MetadataDocument, db: Introspection, entry: FunctionEntry): DbFunction {
  const name = quoteQualified(entry.function);
  const fn = singleFunction(db, entry.function);
  const returned = fn.return_relation;
  if (!returned || fn.return_type_kind !== 'c') {
    throw engineError('not-supported.function-return-type', '$.args', [name, `${fn.returns_set ? 'SETOF ' : ''}${fn.return_type}`]);
  }
  if (!document.tables.some((t) => sameQualified(t.table, returned)))
    throw engineError('not-supported.function-untracked-table', '$.args', [name, quoteQualified(returned)]);
  if (entry.configuration?.exposed_as === 'mutation' && fn.volatility !== 'VOLATILE') {
    throw engineError('not-supported.function-volatility', '$.args', [name, fn.volatility]);
  }
  const session = entry.configuration?.session_argument;
  if (session !== undefined && !fn.arguments.some((a) => a.name === session && JSON_TYPES.has(a.type))) {
    throw engineError('not-exists.session-argument', '$.args', [name, JSON.stringify(session)]);
  }
  // A name the configuration gave (or made from its custom_name) is named as such; one taken from the database asks for a custom_name.
  const roots = entry.configuration?.custom_root_fields;
  const custom = entry.configuration?.custom_name ? 'custom_name' : undefined;
  const { field: rootField, aggregateField, argsType } = functionNames(entry);
  const sources: [string, string | undefined][] = [
    [rootField, roots?.function !== undefined ? 'custom_root_fields.function' : custom],
    [aggregateField, roots?.function_aggregate !== undefined ? 'custom_root_fields.function_aggregate' : custom],
    [argsType, custom],
  ];
  for (const [field, source] of sources) {
    if (isGraphQLName(field)) continue;
    const what = source ? `the ${source} of function ${name}` : `of function ${name}; give it a custom_name`;
    throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(field)} (${what})`]);
  }
  const names = functionNames(entry);
  if (names.aggregateField === names.field) {
    throw engineError('already-exists.graphql-name', '$.args', [
      JSON.stringify(names.field),
      `root field function_aggregate of function ${name}`,
      'root field function',
    ]);
  }
  for (const [i, a] of fn.arguments.entries()) {
    const field = argumentField(a.name, i);
    if (!isGraphQLName(field)) throw engineError('validation-failed.graphql-name', '$.args', [`${JSON.stringify(field)} (argument of function ${name})`]);
  }
  return fn;
}

/** The GraphQL name of an argument: its own, or `arg_<n>` for an unnamed one. */
export const argumentField = (name: string | null, index: number) => name ?? `arg_${index + 1}`;

/** Why the entry cannot be served, or undefined. */
export function functionProblem(document: MetadataDocument, db: Introspection, entry: FunctionEntry): string | undefined {
  try {
    resolveFunction(document, db, entry);
    return undefined;
  } catch (error) {
    if (error instanceof EngineError) return error.message;
    throw error;
  }
}

export interface TrackFunctionArgs {
  function: QualifiedName;
  configuration?: FunctionConfiguration;
  comment?: string | null;
}

export function trackFunction(document: MetadataDocument, db: Introspection, args: TrackFunctionArgs): MetadataDocument {
  if (findFunction(document, args.function)) throw engineError('already-tracked.function', '$.args', [quoteQualified(args.function)]);
  const entry: FunctionEntry = { function: { schema: args.function.schema, name: args.function.name } };
  if (args.configuration && Object.keys(args.configuration).length) entry.configuration = args.configuration;
  if (typeof args.comment === 'string') entry.comment = args.comment;
  resolveFunction(document, db, entry);
  return { ...document, functions: [...functionsOf(document), entry] };
}

function trackedFunction(document: MetadataDocument, name: QualifiedName): FunctionEntry {
  const entry = findFunction(document, name);
  if (!entry) throw engineError('not-exists.function', '$.args', [quoteQualified(name)]);
  return entry;
}

const withFunctions = (document: MetadataDocument, functions: FunctionEntry[]): MetadataDocument => {
  const { functions: _old, ...rest } = document;
  return functions.length ? { ...rest, functions } : rest;
};

export interface SetFunctionCustomizationArgs {
  function: QualifiedName;
  configuration: FunctionConfiguration;
}

/** Replace the configuration of a tracked function (the engine replaces it whole). */
export function setFunctionCustomization(document: MetadataDocument, db: Introspection, args: SetFunctionCustomizationArgs): MetadataDocument {
  const entry = trackedFunction(document, args.function);
  const { configuration: _old, ...rest } = entry;
  const next: FunctionEntry = Object.keys(args.configuration).length ? { ...rest, configuration: args.configuration } : rest;
  resolveFunction(document, db, next);
  return withFunctions(
    document,
    functionsOf(document).map((f) => (f === entry ? next : f)),
  );
}

export function untrackFunction(document: MetadataDocument, name: QualifiedName): MetadataDocument {
  const entry = trackedFunction(document, name);
  return withFunctions(
    document,
    functionsOf(document).filter((f) => f !== entry),
  );
}

/** Functions returning `table`: they go when the table is untracked with cascade. */
export function functionsReturning(document: MetadataDocument, db: Introspection, table: QualifiedName): FunctionEntry[] {
  return functionsOf(document).filter((f) => {
    const overloads = db.functions.get(relationKey(f.function)) ?? [];
    return overloads.length === 1 && overloads[0]!.return_relation !== null && sameQualified(overloads[0]!.return_relation, table);
  });
}

export function withoutFunctions(document: MetadataDocument, gone: readonly FunctionEntry[]): MetadataDocument {
  return gone.length
    ? withFunctions(
        document,
        functionsOf(document).filter((f) => !gone.includes(f)),
      )
    : document;
}

export interface FunctionPermissionArgs {
  function: QualifiedName;
  role: string;
}

/** The role, the function and its source (only the default one is served), as the function-permission messages name them. */
const permissionNames = (args: FunctionPermissionArgs) => [JSON.stringify(args.role), quoteQualified(args.function), '"default"'];

/** §4.4: only while inference is off, and only for a role that may select from the function's table. */
export function createFunctionPermission(document: MetadataDocument, db: Introspection, args: FunctionPermissionArgs, inferring: boolean): MetadataDocument {
  if (inferring) throw engineError('not-supported.function-permissions-inferred', '$.args');
  const entry = trackedFunction(document, args.function);
  // The engine's order: a permission already there is named before the select permission is asked for.
  if (entry.permissions?.some((p) => p.role === args.role)) throw engineError('already-exists.function-permission', '$.args', permissionNames(args));
  const fn = resolveFunction(document, db, entry);
  const table = document.tables.find((t) => sameQualified(t.table, fn.return_relation!))!;
  if (!table.select_permissions?.some((p) => p.role === args.role)) {
    throw engineError('not-supported.function-permission-select', '$.args', [quoteQualified(table.table), JSON.stringify(args.role)]);
  }
  const next: FunctionEntry = { ...entry, permissions: [...(entry.permissions ?? []), { role: args.role }] };
  return withFunctions(
    document,
    functionsOf(document).map((f) => (f === entry ? next : f)),
  );
}

/** Dropping is allowed whatever the setting: permissions kept from a time without inference can go. */
export function dropFunctionPermission(document: MetadataDocument, args: FunctionPermissionArgs): MetadataDocument {
  const entry = trackedFunction(document, args.function);
  if (!entry.permissions?.some((p) => p.role === args.role)) throw engineError('not-exists.function-permission', '$.args', permissionNames(args));
  const permissions = entry.permissions.filter((p) => p.role !== args.role);
  const { permissions: _old, ...rest } = entry;
  const next: FunctionEntry = permissions.length ? { ...rest, permissions } : rest;
  return withFunctions(
    document,
    functionsOf(document).map((f) => (f === entry ? next : f)),
  );
}
