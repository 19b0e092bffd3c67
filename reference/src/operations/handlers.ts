// The operations this server implements, by type. An operation of spec/ that is missing here
// is answered with 400 not-supported (decision not-supported.not-implemented).
import type { OperationHandler } from './context';
import { clearMetadata, dropInconsistentMetadata, exportMetadata, getInconsistentMetadata, reloadMetadata, replaceMetadata } from './metadataManagement';
import { createArrayRelationship, createObjectRelationship, dropRelationship, renameRelationship, setRelationshipComment } from './relationships';
import { dmlCount, dmlDelete, dmlInsert, dmlSelect, dmlUpdate } from './dml';
import {
  addCollectionToAllowlist,
  addQueryToCollection,
  createQueryCollection,
  dropCollectionFromAllowlist,
  dropQueryCollection,
  dropQueryFromCollection,
} from './collections';
import { addComputedField, dropComputedField } from './computedFields';
import { createRemoteRelationship, deleteRemoteRelationship, updateRemoteRelationship } from './remoteRelationships';
import { createCronTrigger, createScheduledEvent, deleteCronTrigger, deleteScheduledEvent, getCronTriggers, getScheduledEvents } from './cronTriggers';
import {
  createEventTrigger,
  deleteEventTrigger,
  getEventInvocationLogs,
  getEventLogs,
  invokeEventTrigger,
  pauseEventTrigger,
  redeliverEvent,
  resumeEventTrigger,
} from './eventTriggers';
import { createRestEndpoint, dropRestEndpoint } from './restEndpoints';
import {
  addRemoteSchema,
  addRemoteSchemaPermissions,
  dropRemoteSchemaPermissions,
  reloadRemoteSchema,
  removeRemoteSchema,
  updateRemoteSchema,
} from './remoteSchemas';
import { createAction, createActionPermission, dropAction, dropActionPermission, setCustomTypes, updateAction } from './actions';
import { createFunctionPermission, dropFunctionPermission, setFunctionCustomization, trackFunction, untrackFunction } from './functions';
import { createPermission, dropPermission, setPermissionComment } from './permissions';
import { runSql } from './runSql';
import { getCatalogState, setCatalogState } from './catalogState';
import { addSource, dropSource, renameSource, updateSource } from './sources';
import { setTableCustomFields, setTableCustomization, setTableIsEnum, trackTable, untrackTable } from './tables';
import { TOP_LEVEL_HANDLERS } from './topLevel';

export const HANDLERS: Readonly<Record<string, OperationHandler>> = {
  export_metadata: exportMetadata as OperationHandler,
  replace_metadata: replaceMetadata as OperationHandler,
  clear_metadata: clearMetadata,
  reload_metadata: reloadMetadata,
  get_inconsistent_metadata: getInconsistentMetadata,
  drop_inconsistent_metadata: dropInconsistentMetadata,
  get_catalog_state: getCatalogState,
  set_catalog_state: setCatalogState as OperationHandler,
  run_sql: runSql as OperationHandler,
  pg_add_source: addSource as OperationHandler,
  pg_update_source: updateSource as OperationHandler,
  rename_source: renameSource as OperationHandler,
  pg_drop_source: dropSource as OperationHandler,
  ...Object.fromEntries(
    (['insert', 'select', 'update', 'delete'] as const).flatMap((type) => [
      [`create_${type}_permission`, createPermission(type)],
      [`drop_${type}_permission`, dropPermission(type)],
    ]),
  ),
  set_permission_comment: setPermissionComment as OperationHandler,
  select: dmlSelect as OperationHandler,
  insert: dmlInsert as OperationHandler,
  update: dmlUpdate as OperationHandler,
  delete: dmlDelete as OperationHandler,
  count: dmlCount as OperationHandler,
  track_table: trackTable as OperationHandler,
  track_function: trackFunction as OperationHandler,
  create_cron_trigger: createCronTrigger as OperationHandler,
  delete_cron_trigger: deleteCronTrigger as OperationHandler,
  create_scheduled_event: createScheduledEvent as OperationHandler,
  delete_scheduled_event: deleteScheduledEvent as OperationHandler,
  get_cron_triggers: getCronTriggers as OperationHandler,
  get_scheduled_events: getScheduledEvents as OperationHandler,
  create_event_trigger: createEventTrigger as OperationHandler,
  delete_event_trigger: deleteEventTrigger as OperationHandler,
  invoke_event_trigger: invokeEventTrigger as OperationHandler,
  pause_event_trigger: pauseEventTrigger as OperationHandler,
  resume_event_trigger: resumeEventTrigger as OperationHandler,
  redeliver_event: redeliverEvent as OperationHandler,
  get_event_logs: getEventLogs as OperationHandler,
  get_event_invocation_logs: getEventInvocationLogs as OperationHandler,
  create_query_collection: createQueryCollection as OperationHandler,
  drop_query_collection: dropQueryCollection as OperationHandler,
  add_query_to_collection: addQueryToCollection as OperationHandler,
  drop_query_from_collection: dropQueryFromCollection as OperationHandler,
  add_collection_to_allowlist: addCollectionToAllowlist as OperationHandler,
  drop_collection_from_allowlist: dropCollectionFromAllowlist as OperationHandler,
  create_rest_endpoint: createRestEndpoint as OperationHandler,
  drop_rest_endpoint: dropRestEndpoint as OperationHandler,
  add_remote_schema: addRemoteSchema as OperationHandler,
  remove_remote_schema: removeRemoteSchema as OperationHandler,
  reload_remote_schema: reloadRemoteSchema as OperationHandler,
  update_remote_schema: updateRemoteSchema as OperationHandler,
  add_remote_schema_permissions: addRemoteSchemaPermissions as OperationHandler,
  drop_remote_schema_permissions: dropRemoteSchemaPermissions as OperationHandler,
  set_custom_types: setCustomTypes as OperationHandler,
  create_action: createAction as OperationHandler,
  update_action: updateAction as OperationHandler,
  drop_action: dropAction as OperationHandler,
  create_action_permission: createActionPermission as OperationHandler,
  drop_action_permission: dropActionPermission as OperationHandler,
  create_remote_relationship: createRemoteRelationship as OperationHandler,
  update_remote_relationship: updateRemoteRelationship as OperationHandler,
  delete_remote_relationship: deleteRemoteRelationship as OperationHandler,
  add_computed_field: addComputedField as OperationHandler,
  drop_computed_field: dropComputedField as OperationHandler,
  untrack_function: untrackFunction as OperationHandler,
  set_function_customization: setFunctionCustomization as OperationHandler,
  pg_create_function_permission: createFunctionPermission as OperationHandler,
  pg_drop_function_permission: dropFunctionPermission as OperationHandler,
  untrack_table: untrackTable as OperationHandler,
  set_table_is_enum: setTableIsEnum as OperationHandler,
  set_table_customization: setTableCustomization as OperationHandler,
  set_table_custom_fields: setTableCustomFields as OperationHandler,
  create_object_relationship: createObjectRelationship as OperationHandler,
  create_array_relationship: createArrayRelationship as OperationHandler,
  drop_relationship: dropRelationship as OperationHandler,
  rename_relationship: renameRelationship as OperationHandler,
  set_relationship_comment: setRelationshipComment as OperationHandler,
  ...TOP_LEVEL_HANDLERS,
};
