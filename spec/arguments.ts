// Argument schemas of the operations of SPEC.md §4.3 and §4.4.
import { dmlColumns, dmlWhere } from './dml-where';
import { formatMessage } from './errors';
import { functionName, nonEmptyName, roleName, tableName } from './names';
import { LEGACY_DEFINITION_KEYS, remoteRelationshipDefinition } from './remote-relationships';
import {
  computedFieldDefinition,
  endpointDefinition,
  eventHeader,
  scheduledRetryConf,
  eventOperation,
  eventRetryConf,
  endpointMethods,
  functionConfiguration,
  metadataDocument,
  remoteSchema,
  remoteSchemaPermissionDefinition,
  savedQuery,
  customTypes,
  actionDefinition,
} from './metadata-document';
import {
  arrayRelationshipUsing,
  boolExp,
  columns,
  customRootFields,
  deletePermission,
  insertPermission,
  objectRelationshipUsing,
  selectPermission,
  tableConfig,
  updatePermission,
} from './table-schemas';
export { boolExp, columns, deletePermission, insertPermission, selectPermission, updatePermission };
export { tableConfig };
import {
  array,
  boolean,
  integer,
  isPlainObject,
  json,
  jsonObject,
  literal,
  nullable,
  object,
  parseFailure,
  parsed,
  preprocess,
  record,
  refine,
  string,
  union,
  type ParseResult,
  type Schema,
} from './schema';

const source = { source: string };
const comment = { comment: nullable(string) };

const trackTableV1Object = refine(object({}, { table: tableName, schema: string, name: string, is_enum: boolean, ...source }), (v, path) => {
  if (v.table && (v.name !== undefined || v.schema !== undefined)) {
    return parseFailure(path, 'give the table either as "table" or as "schema" and "name", not both');
  }
  const table = v.table ?? (v.name !== undefined ? { schema: v.schema ?? 'public', name: v.name } : undefined);
  if (!table) return parseFailure(path, 'key "table" not found');
  return parsed({ table, is_enum: v.is_enum ?? false });
});
/** The engine's oldest form: the arguments are the table's name itself (`"args": "author"`). */
const bareTableName = refine(string, (name, path) => {
  const table = tableName.parse(name, path);
  return table.ok ? parsed({ table: table.value, is_enum: false }) : table;
});
export const trackTableV1 = union([trackTableV1Object, bareTableName], 'a table name, or an object with "table"');
export const trackTableV2 = object({ table: tableName }, { configuration: tableConfig, ...source });
export const setTableIsEnum = object({ table: tableName, is_enum: boolean }, source);
export const setTableCustomFields = object({ table: tableName }, { custom_root_fields: customRootFields, custom_column_names: record(string), ...source });
export const setTableCustomization = object({ table: tableName }, { configuration: tableConfig, ...source });
export const untrackTable = object({ table: tableName }, { cascade: boolean, ...source });

export const createObjectRelationship = object({ table: tableName, name: nonEmptyName, using: objectRelationshipUsing }, { ...comment, ...source });
export const createArrayRelationship = object({ table: tableName, name: nonEmptyName, using: arrayRelationshipUsing }, { ...comment, ...source });
export const dropRelationship = object({ table: tableName, relationship: nonEmptyName }, { cascade: boolean, ...source });
export const renameRelationship = object({ table: tableName, name: nonEmptyName, new_name: nonEmptyName }, source);
export const setRelationshipComment = object({ table: tableName, name: nonEmptyName }, { ...comment, ...source });

/** Decision dec.function.bare-name: `"args": "my_function"` names a function of the public schema. */
function orBareName<T>(form: Schema<T>): Schema<T | { name: string }> {
  return refine(union<[string, T]>([string, form], 'String or Object (function)'), (value, path): ParseResult<T | { name: string }> => {
    if (typeof value !== 'string') return parsed<T | { name: string }>(value);
    return value === '' ? parseFailure(path, "function name can't be empty") : parsed<T | { name: string }>({ name: value });
  });
}
export const trackFunctionV1 = orBareName(object({ name: string }, { schema: string }));
export const trackFunctionV2 = object({ function: functionName }, { configuration: functionConfiguration, ...comment, ...source });
export const setFunctionCustomization = object({ function: functionName, configuration: functionConfiguration }, source);
export const untrackFunction = orBareName(object({}, { schema: string, name: string, table: functionName, function: functionName, ...source }));

export const addComputedField = object({ table: tableName, name: nonEmptyName, definition: computedFieldDefinition }, { ...comment, ...source });
export const dropComputedField = object({ table: tableName, name: nonEmptyName }, { cascade: boolean, ...source });

const permissionTarget = { table: tableName, role: roleName };
export const createPermission = <T>(permission: import('./schema').Schema<T>) => object({ ...permissionTarget, permission }, { ...comment, ...source });
export const dropPermission = object(permissionTarget, source);
export const setPermissionComment = object({ ...permissionTarget, type: literal('insert', 'select', 'update', 'delete') }, { ...comment, ...source });

export const replaceMetadataV1 = metadataDocument;
export const replaceMetadataV2 = object({ metadata: metadataDocument }, { allow_inconsistent_metadata: boolean });
export const emptyArgs = object({});
export const reloadMetadata = object({}, { reload_remote_schemas: boolean, reload_sources: json });
/** The state of one of the server's tools, replaced whole; any JSON value, as the engine keeps it. */
export const setCatalogState = object({ type: literal('cli', 'console'), state: json });

export const addRemoteSchema = remoteSchema;
export const remoteSchemaByName = object({ name: nonEmptyName });
export const addRemoteSchemaPermissions = object({ remote_schema: nonEmptyName, role: roleName, definition: remoteSchemaPermissionDefinition }, comment);
export const dropRemoteSchemaPermissions = object({ remote_schema: nonEmptyName, role: roleName });

/** create_rest_endpoint: §2.8; `methods` may be left out for the defaults of §4.6 rule 1. */
export const restEndpoint = object({ name: nonEmptyName, url: string, definition: endpointDefinition }, { methods: endpointMethods, ...comment });
/** drop_rest_endpoint: SPEC.md names `url`; the engine's `name` is taken too (exactly one). */
export const dropRestEndpoint = refine(object({}, { url: string, name: string }), (v, path) =>
  (v.url === undefined) === (v.name === undefined) ? parseFailure(path, 'exactly one of "url" and "name" is expected') : parsed(v),
);

// Query collections and the allow-list: not shown by SPEC.md; the engine's documented forms.
export const createQueryCollection = object({ name: nonEmptyName, definition: object({ queries: array(savedQuery) }) }, comment);
export const dropQueryCollection = object({ collection: nonEmptyName }, { cascade: boolean });
export const addQueryToCollection = object({ collection_name: nonEmptyName, query_name: nonEmptyName, query: string });
export const dropQueryFromCollection = object({ collection_name: nonEmptyName, query_name: nonEmptyName });
export const collectionInAllowlist = object({ collection: nonEmptyName }, { scope: json });

export { customTypes };
// Actions: not shown by SPEC.md beyond actions.yaml; the engine's documented forms.
export const createAction = object({ name: nonEmptyName, definition: actionDefinition }, comment);
export const updateAction = createAction;
export const dropAction = object({ name: nonEmptyName }, { clear_data: boolean });
export const actionPermission = object({ action: nonEmptyName, role: roleName }, { ...comment, definition: json });
export const dropActionPermission = object({ action: nonEmptyName, role: roleName });

/** The name becomes part of the database triggers' names, which PostgreSQL limits. */
export const EVENT_TRIGGER_NAME = /^[A-Za-z0-9_-]{1,42}$/;
/** A name the engine cannot take and a trigger nothing can fire are refused with the arguments, as the engine reads them. */
export const createEventTrigger = refine(
  object(
    { name: nonEmptyName, table: tableName },
    {
      webhook: string,
      webhook_from_env: string,
      insert: eventOperation,
      update: eventOperation,
      delete: eventOperation,
      enable_manual: boolean,
      retry_conf: eventRetryConf,
      headers: array(eventHeader),
      replace: boolean,
      ...source,
    },
  ),
  (v, path) => {
    if (!EVENT_TRIGGER_NAME.test(v.name)) return parseFailure(path, formatMessage('err.parse-failed.event-trigger-name', JSON.stringify(v.name)));
    if (!v.insert && !v.update && !v.delete && v.enable_manual !== true) {
      return parseFailure(path, formatMessage('err.parse-failed.event-trigger-operations', JSON.stringify(v.name)));
    }
    return parsed(v);
  },
);
// Deleting, redelivering and invoking event triggers, and reading the event log: not shown by
// SPEC.md; the engine's documented forms.
export const deleteEventTrigger = object({ name: nonEmptyName }, source);
export const redeliverEvent = object({ event_id: string }, source);
export const invokeEventTrigger = object({ name: nonEmptyName, payload: json }, source);
export const eventTriggerName = object({ name: nonEmptyName }, source);
export const getEventLogs = object(
  { name: nonEmptyName },
  { status: literal('pending', 'processed', 'dead', 'all'), limit: integer, offset: integer, ...source },
);
export const getEventInvocationLogs = object({ name: nonEmptyName }, { limit: integer, offset: integer, ...source });

// Cron triggers and one-off scheduled events: SPEC.md §2.5 gives the fields; the operations take
// the engine's documented forms.
export const createCronTrigger = object(
  { name: nonEmptyName, webhook: string, schedule: string },
  { include_in_metadata: boolean, payload: json, headers: array(eventHeader), retry_conf: scheduledRetryConf, comment: nullable(string), replace: boolean },
);
export const deleteCronTrigger = object({ name: nonEmptyName });
export const createScheduledEvent = object(
  { webhook: string, schedule_at: string },
  { payload: json, headers: array(eventHeader), retry_conf: scheduledRetryConf, comment: nullable(string) },
);
export const deleteScheduledEvent = object({ type: literal('one_off', 'cron'), event_id: string });
export const getCronTriggers = object({});
export const getScheduledEvents = object(
  { type: literal('one_off', 'cron') },
  { trigger_name: string, limit: integer, offset: integer, status: literal('scheduled', 'delivered', 'dead', 'all') },
);

export const functionPermission = object({ function: functionName, role: string }, source);

export const runSql = object({ sql: string }, { cascade: boolean, read_only: boolean, check_metadata_consistency: boolean, ...source });

export const queryObject = jsonObject;
export const bulk = array(queryObject);

// Legacy DML of /v1/query (issue: the engine's v1 argument forms).
const orderBy = union<[unknown[], string, Record<string, unknown>]>([array(json), string, jsonObject], 'Array, String or Object');
export const dmlSelect = object({ table: tableName, columns: dmlColumns }, { where: dmlWhere, order_by: orderBy, limit: integer, offset: integer, ...source });
export const dmlInsert = object(
  { table: tableName, objects: array(jsonObject) },
  {
    returning: array(string),
    on_conflict: object({ action: literal('ignore', 'update') }, { constraint: string, constraint_on: array(string) }),
    ...source,
  },
);
export const dmlUpdate = object(
  { table: tableName, where: dmlWhere },
  { $set: jsonObject, $inc: jsonObject, $mul: jsonObject, $default: array(string), returning: array(string), ...source },
);
export const dmlDelete = object({ table: tableName, where: dmlWhere }, { returning: array(string), ...source });
export const dmlCount = object({ table: tableName }, { where: dmlWhere, distinct: array(string), ...source });

/**
 * create_remote_relationship / update_remote_relationship: {name, table, definition} (or, in the
 * oldest form, the definition's keys beside name and table).
 */
export const createRemoteRelationship = preprocess(
  (v) =>
    parsed(
      isPlainObject(v) && !('definition' in v) && LEGACY_DEFINITION_KEYS.some((k) => k in v)
        ? {
            ...Object.fromEntries(Object.entries(v).filter(([k]) => !(LEGACY_DEFINITION_KEYS as readonly string[]).includes(k))),
            definition: Object.fromEntries(Object.entries(v).filter(([k]) => (LEGACY_DEFINITION_KEYS as readonly string[]).includes(k))),
          }
        : v,
    ),
  object({ table: tableName, name: nonEmptyName, definition: remoteRelationshipDefinition }, source),
);
export const deleteRemoteRelationship = object({ table: tableName, name: nonEmptyName }, source);
