// The metadata document: the JSON form of the config v2 metadata directory (SPEC.md §2.2),
// which is both the output of export_metadata and the input of replace_metadata.
import { tableName, type QualifiedName } from './names';
import { array, json, jsonObject, literal, object, parseFailure, parsed, refine, type Schema } from './schema';

export interface TableEntry {
  table: QualifiedName;
}

export interface MetadataDocument {
  version: 2;
  tables: TableEntry[];
}

/**
 * Parts of a table entry that later kinds of object fill in. Until the server supports a kind,
 * a document may carry it only empty: refusing it is better than dropping it silently.
 */
export const TABLE_KINDS_NOT_YET_SUPPORTED = [
  'is_enum',
  'configuration',
  'object_relationships',
  'array_relationships',
  'computed_fields',
  'remote_relationships',
  'insert_permissions',
  'select_permissions',
  'update_permissions',
  'delete_permissions',
  'event_triggers',
] as const;

/** Top-level keys of the export form, other than `version` and `tables`. */
export const DOCUMENT_KINDS_NOT_YET_SUPPORTED = [
  'functions',
  'remote_schemas',
  'query_collections',
  'allowlist',
  'actions',
  'custom_types',
  'cron_triggers',
  'rest_endpoints',
] as const;

const isEmpty = (v: unknown) =>
  v === null ||
  v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && Object.values(v).every((x) => Array.isArray(x) && x.length === 0));

function onlyEmpty(keys: readonly string[]) {
  return Object.fromEntries(keys.map((k) => [k, json])) as Record<string, Schema<unknown>>;
}

/** Why a document part cannot be taken yet, or undefined when it can. */
function unsupportedKind(value: Record<string, unknown>, keys: readonly string[], path: string) {
  for (const key of keys) {
    if (key in value && !isEmpty(value[key])) {
      return parseFailure(`${path}.${key}`, `${key} is not supported by this server yet`, 'not-supported');
    }
  }
  return undefined;
}

export const tableEntry: Schema<TableEntry> = refine(
  object({ table: tableName }, onlyEmpty(TABLE_KINDS_NOT_YET_SUPPORTED)),
  (v, path) => unsupportedKind(v, TABLE_KINDS_NOT_YET_SUPPORTED, path) ?? parsed({ table: v.table }),
);

export const metadataDocument: Schema<MetadataDocument> = refine(
  object(
    { version: literal(2) },
    { tables: array(tableEntry), ...onlyEmpty(DOCUMENT_KINDS_NOT_YET_SUPPORTED) },
  ),
  (v, path) =>
    unsupportedKind(v, DOCUMENT_KINDS_NOT_YET_SUPPORTED, path) ?? parsed({ version: 2, tables: v.tables ?? [] }),
);

export const emptyMetadata = (): MetadataDocument => ({ version: 2, tables: [] });

export { jsonObject };
