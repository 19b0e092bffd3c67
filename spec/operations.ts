// The operations of SPEC.md §4.3 and §4.4 as data: type, versions with argument schemas,
// the section, and where each is accepted.
import * as A from './arguments';
import * as S from './sources';
import type { SpecItem } from './item';
import type { Schema } from './schema';
import { TOP_LEVEL_OPERATIONS } from './top-level-operations';

export type Endpoint = '/v1/query' | '/v1/metadata' | '/v2/query';

export interface OperationVersion {
  version: number;
  args: Schema<unknown>;
  /** A version SPEC.md does not show: what it follows. */
  decision?: string;
}

export interface OperationSpec {
  type: string;
  section: string;
  versions: OperationVersion[];
  /** The version used when the envelope has none (SPEC.md §4.2, §9.1). */
  inferVersion?: (args: unknown) => number;
  endpoints: readonly Endpoint[];
  summary: string;
  deprecated?: boolean;
  /** `compat` where SPEC.md does not show the operation (relationships): the decision says what it follows. */
  level?: 'compat';
  decision?: string;
  /** Another name of an operation (a `pg_` form, decision dec.metadata.source-prefixed): it runs that one. */
  aliasOf?: string;
}

/** Decision dec.endpoints: metadata operations are accepted at both metadata endpoints. */
const METADATA: readonly Endpoint[] = ['/v1/query', '/v1/metadata'];
const QUERY: readonly Endpoint[] = ['/v1/query', '/v2/query'];

const has = (args: unknown, key: string) => typeof args === 'object' && args !== null && key in args;

const RELATIONSHIP_DECISION =
  "SPEC.md §4.3 does not show the relationship operations; they take the engine's documented forms: table, name, using {foreign_key_constraint_on | manual_configuration}, comment.";
/** Operations SPEC.md does not show, in the form the decision names. */
const compatOps = (decision: string) => ({ level: 'compat' as const, decision });
const compat = compatOps(RELATIONSHIP_DECISION);
const eventOps = compatOps(
  "SPEC.md shows create_event_trigger only; deleting, redelivering and invoking take the engine's documented forms (delete_event_trigger {name}, redeliver_event {event_id}, invoke_event_trigger {name, payload}), and the event log is read with get_event_logs {name, status, limit, offset} and get_event_invocation_logs {name, limit, offset} (also with the pg_ prefix).",
);
const eventPause = compatOps(
  "Not in SPEC.md nor in the engine: pause_event_trigger {name} and resume_event_trigger {name} (also with the pg_ prefix) stop and restart the delivery of a trigger's events without dropping the trigger; see dec.events.pause.",
);
const cronOps = compatOps(
  "SPEC.md gives the fields of a cron trigger (§2.5) but not the operations; they take the engine's documented forms: create_cron_trigger {name, webhook, schedule, payload, headers, retry_conf, include_in_metadata, comment, replace}, delete_cron_trigger {name}, create_scheduled_event {webhook, schedule_at, payload, headers, retry_conf, comment}, delete_scheduled_event {type, event_id}, get_cron_triggers, get_scheduled_events {type, trigger_name, status, limit, offset}.",
);
const remotePermissionOps = compatOps(
  "SPEC.md does not show remote schema permissions; they take the engine's documented forms: add_remote_schema_permissions {remote_schema, role, definition {schema: SDL}, comment}, drop_remote_schema_permissions {remote_schema, role}; see dec.remote-schema.permissions.",
);
const remoteRelationshipOps = compatOps(
  "SPEC.md does not show remote relationships; they take the engine's documented forms: create_remote_relationship and update_remote_relationship {name, table, definition {to_remote_schema {remote_schema, lhs_fields, remote_field}} or the older definition {remote_schema, hasura_fields, remote_field} (also beside name and table)}, delete_remote_relationship {name, table}, also with the pg_ prefix and a source; see dec.remote-relationship.forms.",
);
const actionOps = compatOps(
  "SPEC.md shows actions only in the metadata directory; the operations take the engine's documented forms: create_action {name, definition {kind (synchronous | asynchronous, default synchronous), type (query | mutation, default mutation), arguments [{name, type, description}], output_type, handler, forward_client_headers (default false), headers, timeout (seconds, default 30)}, comment}, update_action (the same, replacing the definition and keeping the permissions), drop_action {name, clear_data}, create_action_permission {action, role, comment}, drop_action_permission {action, role}.",
);
const sourceOps = compatOps(
  "SPEC.md does not show sources; they take the engine's forms: pg_add_source {name, configuration, replace_configuration?}, pg_update_source {name, configuration?}, rename_source {name, new_name}, pg_drop_source {name, cascade?}; see dec.source.forms.",
);
const collections = compatOps(
  "SPEC.md names query collections and the allow-list but does not show their operations; they take the engine's documented forms: create_query_collection {name, definition {queries [{name, query}]}, comment}, drop_query_collection {collection, cascade}, add_query_to_collection {collection_name, query_name, query}, drop_query_from_collection {collection_name, query_name}, add_collection_to_allowlist / drop_collection_from_allowlist {collection}.",
);
const catalogStateOps = compatOps(
  "SPEC.md does not show the catalog state; it takes the engine's forms: get_catalog_state {} answers {id, cli_state, console_state}, set_catalog_state {type: cli | console, state} replaces one of them whole; see dec.catalog-state.",
);
const legacy = compatOps(
  'The legacy DML of /v1/query is not described by SPEC.md beyond its §7.2 messages; it takes the engine\'s v1 forms (columns with nested relationship objects, where, order_by as "+col"/"-col"/"rel.col" or {column, type, nulls}, limit, offset, objects, returning, on_conflict {action, constraint | constraint_on}, $set, $inc, $mul, $default) and answers rows, {affected_rows, returning} or {count}.',
);

const op = (type: string, section: string, summary: string, args: Schema<unknown>, extra: Partial<OperationSpec> = {}): OperationSpec => ({
  type,
  section,
  summary,
  versions: [{ version: 1, args }],
  endpoints: METADATA,
  ...extra,
});

const permissionOps = (['insert', 'select', 'update', 'delete'] as const).flatMap((kind) => {
  const schema = { insert: A.insertPermission, select: A.selectPermission, update: A.updatePermission, delete: A.deletePermission }[kind];
  return [
    op(`create_${kind}_permission`, '4.3', `create the ${kind} permission of a role on a table`, A.createPermission(schema as Schema<unknown>)),
    op(`drop_${kind}_permission`, '4.3', `drop the ${kind} permission of a role on a table`, A.dropPermission),
  ];
});

export const OPERATIONS: readonly OperationSpec[] = [
  {
    type: 'track_table',
    section: '4.3',
    summary: 'track a table or view',
    versions: [
      { version: 1, args: A.trackTableV1 },
      { version: 2, args: A.trackTableV2 },
    ],
    inferVersion: (args) => (has(args, 'configuration') ? 2 : 1),
    endpoints: METADATA,
  },
  op('add_existing_table_or_view', '4.3', "track a table or view (the engine's older name of track_table v1)", A.trackTableV1, {
    level: 'compat',
    decision:
      "add_existing_table_or_view is the engine's older name of track_table, taken with the arguments of track_table version 1 (an object, or the table's name alone) and doing what it does.",
    aliasOf: 'track_table',
  }),
  op('set_table_is_enum', '4.3', 'flag a tracked table as an enum table', A.setTableIsEnum),
  {
    ...op('set_table_custom_fields', '4.3', 'replace the custom root fields and column names (deprecated)', A.setTableCustomFields),
    versions: [{ version: 2, args: A.setTableCustomFields }],
    deprecated: true,
  },
  op('set_table_customization', '4.3', 'replace the customization of a tracked table', A.setTableCustomization),
  op('untrack_table', '4.3', 'untrack a table or view', A.untrackTable),
  op('create_object_relationship', '2.2', 'create an object relationship (by foreign key or manual mapping)', A.createObjectRelationship, compat),
  op('create_array_relationship', '2.2', 'create an array relationship (by foreign key or manual mapping)', A.createArrayRelationship, compat),
  op('drop_relationship', '2.2', 'drop a relationship', A.dropRelationship, compat),
  op('rename_relationship', '2.2', 'rename a relationship', A.renameRelationship, compat),
  op('set_relationship_comment', '2.2', 'set or remove the comment of a relationship', A.setRelationshipComment, compat),
  {
    type: 'track_function',
    section: '4.3',
    summary: 'track a custom SQL function',
    versions: [
      { version: 1, args: A.trackFunctionV1 },
      { version: 2, args: A.trackFunctionV2 },
    ],
    inferVersion: (args) => (has(args, 'function') ? 2 : 1),
    endpoints: METADATA,
  },
  op('untrack_function', '4.3', 'untrack a custom SQL function', A.untrackFunction),
  op('set_function_customization', '4.3', 'set the custom names of a tracked function (its whole configuration)', A.setFunctionCustomization, {
    level: 'compat',
    decision:
      'Not shown in SPEC.md: set_function_customization {function, configuration} (also pg_set_function_customization) replaces the configuration of a tracked function, as the engine does; see dec.function.customization.',
  }),
  op('add_computed_field', '4.3', 'add a computed field to a table', A.addComputedField),
  op('drop_computed_field', '4.3', 'drop a computed field', A.dropComputedField),
  ...permissionOps,
  op('set_permission_comment', '4.3', 'set or remove the comment of a permission', A.setPermissionComment),
  {
    type: 'export_metadata',
    section: '4.3',
    summary: 'export the metadata document',
    versions: [
      { version: 1, args: A.emptyArgs },
      {
        version: 2,
        args: A.emptyArgs,
        decision: 'Version 2 answers {resource_version, metadata}, as the engine this API comes from does (decision dec.export_metadata.v2).',
      },
    ],
    endpoints: METADATA,
  },
  {
    type: 'replace_metadata',
    section: '4.3',
    summary: 'replace all metadata',
    versions: [
      { version: 1, args: A.replaceMetadataV1 },
      { version: 2, args: A.replaceMetadataV2 },
    ],
    inferVersion: (args) => (has(args, 'metadata') && !has(args, 'version') ? 2 : 1),
    endpoints: METADATA,
  },
  op('reload_metadata', '4.3', 're-read the database (and optionally remote schemas)', A.reloadMetadata),
  op('clear_metadata', '4.3', 'forget all metadata', A.emptyArgs),
  op('get_inconsistent_metadata', '4.3', 'list inconsistent metadata objects', A.emptyArgs),
  op('drop_inconsistent_metadata', '4.3', 'remove inconsistent metadata objects', A.emptyArgs),
  op('get_catalog_state', '4.3', "read the state the server keeps for the CLI and the console (the CLI's applied migrations)", A.emptyArgs, catalogStateOps),
  op('set_catalog_state', '4.3', 'replace the state the server keeps for the CLI or the console', A.setCatalogState, catalogStateOps),
  op('add_remote_schema', '4.3', 'add and stitch a remote schema', A.addRemoteSchema),
  op('remove_remote_schema', '4.3', 'remove a remote schema', A.remoteSchemaByName),
  op('reload_remote_schema', '4.3', 'refetch and restitch a remote schema', A.remoteSchemaByName),
  op('update_remote_schema', '4.3', "replace a remote schema's definition and comment, keeping its permissions", A.addRemoteSchema, {
    level: 'compat',
    decision:
      "SPEC.md does not show update_remote_schema; it takes the engine's documented form {name, definition, comment}: the remote is introspected again at once and must still fit the other remotes, the tables and its roles' permissions; nothing changes otherwise.",
  }),
  op(
    'add_remote_schema_permissions',
    '2.4',
    'let a role see a subset of a remote schema, with argument presets',
    A.addRemoteSchemaPermissions,
    remotePermissionOps,
  ),
  op('drop_remote_schema_permissions', '2.4', "drop a role's permission on a remote schema", A.dropRemoteSchemaPermissions, remotePermissionOps),
  op('create_remote_relationship', '2.2', 'join rows of a table to a field of a remote schema', A.createRemoteRelationship, remoteRelationshipOps),
  op('update_remote_relationship', '2.2', "replace a remote relationship's definition", A.createRemoteRelationship, remoteRelationshipOps),
  op('delete_remote_relationship', '2.2', 'delete a remote relationship', A.deleteRemoteRelationship, remoteRelationshipOps),
  op('pg_add_source', '2.1', 'add a PostgreSQL database as a source', S.addSource, sourceOps),
  op('pg_update_source', '2.1', "replace a source's configuration", S.updateSource, sourceOps),
  op('rename_source', '2.1', 'rename a source', S.renameSource, sourceOps),
  op('pg_drop_source', '2.1', 'drop a source with what is tracked in it', S.dropSource, sourceOps),
  op('create_query_collection', '2.2', 'create a query collection of saved GraphQL documents', A.createQueryCollection, collections),
  op('drop_query_collection', '2.2', 'drop a query collection (cascade: with its allow-list entry and REST endpoints)', A.dropQueryCollection, collections),
  op('add_query_to_collection', '2.2', 'add a saved query to a collection', A.addQueryToCollection, collections),
  op('drop_query_from_collection', '2.2', 'drop a saved query from a collection', A.dropQueryFromCollection, collections),
  op('add_collection_to_allowlist', '2.2', 'allow the queries of a collection', A.collectionInAllowlist, collections),
  op('drop_collection_from_allowlist', '2.2', 'stop allowing the queries of a collection', A.collectionInAllowlist, collections),
  op('create_rest_endpoint', '4.3', 'create a REST endpoint from a saved query', A.restEndpoint),
  op('drop_rest_endpoint', '4.3', 'drop a REST endpoint', A.dropRestEndpoint),
  op('set_custom_types', '4.3', 'replace the custom GraphQL types', A.customTypes),
  op('create_action', '2.2', 'create an action: a root field answered by an HTTP handler', A.createAction, actionOps),
  op('update_action', '2.2', 'replace the definition of an action', A.updateAction, actionOps),
  op('drop_action', '2.2', 'drop an action with its permissions', A.dropAction, actionOps),
  op('create_action_permission', '2.2', 'allow a role to use an action', A.actionPermission, actionOps),
  op('drop_action_permission', '2.2', 'stop a role from using an action', A.dropActionPermission, actionOps),
  op('create_event_trigger', '4.3', 'create an event trigger', A.createEventTrigger),
  op('delete_event_trigger', '2.6', 'delete an event trigger and its database triggers', A.deleteEventTrigger, eventOps),
  op('redeliver_event', '2.6', 'deliver an event again', A.redeliverEvent, eventOps),
  op('invoke_event_trigger', '2.6', 'invoke an event trigger by hand (enable_manual)', A.invokeEventTrigger, eventOps),
  op('pause_event_trigger', '6', "stop delivering a trigger's events while changes are still captured", A.eventTriggerName, eventPause),
  op('resume_event_trigger', '6', "deliver a paused trigger's events again", A.eventTriggerName, eventPause),
  op('get_event_logs', '2.6', 'events of a trigger with their state', A.getEventLogs, eventOps),
  op('create_cron_trigger', '2.5', 'create (or with replace, replace) a cron trigger', A.createCronTrigger, cronOps),
  op('delete_cron_trigger', '2.5', 'delete a cron trigger and its future invocations', A.deleteCronTrigger, cronOps),
  op('create_scheduled_event', '2.5', 'schedule a one-off invocation of a webhook', A.createScheduledEvent, cronOps),
  op('delete_scheduled_event', '2.5', 'delete a scheduled invocation that has not happened', A.deleteScheduledEvent, cronOps),
  op('get_cron_triggers', '2.5', 'every cron trigger, also those left out of the metadata', A.getCronTriggers, cronOps),
  op('get_scheduled_events', '2.5', 'scheduled invocations of cron triggers or one-off events, with their state', A.getScheduledEvents, cronOps),
  op('get_event_invocation_logs', '2.6', "delivery attempts of a trigger's events", A.getEventInvocationLogs, eventOps),
  op('pg_create_function_permission', '4.4', 'allow a role to use a tracked function', A.functionPermission),
  op('pg_drop_function_permission', '4.4', 'drop a function permission', A.functionPermission),
  op('bulk', '4.4', 'run several operations, all or nothing', A.bulk),
  op('run_sql', '4.3', 'run SQL on the database (admin only)', A.runSql, { endpoints: QUERY }),
  op('select', '4.1', 'legacy DML: select rows of a tracked table', A.dmlSelect, { endpoints: QUERY, ...legacy }),
  op('insert', '4.1', 'legacy DML: insert rows into a tracked table', A.dmlInsert, { endpoints: QUERY, ...legacy }),
  op('update', '4.1', 'legacy DML: update rows of a tracked table', A.dmlUpdate, { endpoints: QUERY, ...legacy }),
  op('delete', '4.1', 'legacy DML: delete rows of a tracked table', A.dmlDelete, { endpoints: QUERY, ...legacy }),
  op('count', '4.1', 'legacy DML: count rows of a tracked table', A.dmlCount, { endpoints: QUERY, ...legacy }),
  ...TOP_LEVEL_OPERATIONS,
];

/**
 * Decision dec.metadata.source-prefixed: the source-prefixed form of every table, relationship,
 * permission, function and computed-field operation, at /v1/metadata, as the engine's CLI sends them.
 */
export const SOURCE_PREFIXED: readonly string[] = [
  'track_table',
  'untrack_table',
  'set_table_is_enum',
  'set_table_customization',
  'create_object_relationship',
  'create_array_relationship',
  'drop_relationship',
  'rename_relationship',
  'set_relationship_comment',
  'create_remote_relationship',
  'update_remote_relationship',
  'delete_remote_relationship',
  'create_insert_permission',
  'drop_insert_permission',
  'create_select_permission',
  'drop_select_permission',
  'create_update_permission',
  'drop_update_permission',
  'create_delete_permission',
  'drop_delete_permission',
  'set_permission_comment',
  'track_function',
  'untrack_function',
  'set_function_customization',
  'add_computed_field',
  'drop_computed_field',
  'create_event_trigger',
  'delete_event_trigger',
  'redeliver_event',
  'invoke_event_trigger',
  'pause_event_trigger',
  'resume_event_trigger',
  'get_event_logs',
  'get_event_invocation_logs',
];

const PREFIXED_OPERATIONS: readonly OperationSpec[] = SOURCE_PREFIXED.map((type) => {
  const base = OPERATIONS.find((o) => o.type === type)!;
  return { ...base, type: `pg_${type}`, endpoints: ['/v1/metadata'], aliasOf: type, summary: `${type} with a source: ${base.summary}` };
});

/** Every operation type a request may name, with the `pg_` forms. */
export const OPERATIONS_BY_TYPE: ReadonlyMap<string, OperationSpec> = new Map([...OPERATIONS, ...PREFIXED_OPERATIONS].map((o) => [o.type, o]));

/** One item per operation version: `op.<type>` for single-version operations, `op.<type>.v<N>` otherwise. */
export function operationItemId(type: string, version?: number): string {
  const spec = OPERATIONS_BY_TYPE.get(type);
  if (!spec || spec.versions.length === 1 || version === undefined) return `op.${type}`;
  return `op.${type}.v${version}`;
}

export const OPERATION_ITEMS: SpecItem[] = OPERATIONS.flatMap((o) =>
  o.versions.map((v): SpecItem => ({
    id: operationItemId(o.type, o.versions.length > 1 ? v.version : undefined),
    section: o.section,
    level: v.decision ? 'compat' : (o.level ?? 'spec'),
    ...((v.decision ?? o.decision) ? { decision: v.decision ?? o.decision } : {}),
    summary: `${o.type}${o.versions.length > 1 ? ` v${v.version}` : ''}: ${o.summary}`,
  })),
);
