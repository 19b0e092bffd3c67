// The metadata document: the JSON form of the config v2 metadata directory (SPEC.md §2.2),
// which is both the output of export_metadata and the input of replace_metadata.
import {
  arrayRelationshipUsing,
  columns as eventColumns,
  deletePermission,
  insertPermission,
  objectRelationshipUsing,
  selectPermission,
  tableConfig,
  updatePermission,
} from './table-schemas';
import { upgradeDocument } from './document-forms';
import { functionName, graphqlName, nonEmptyName, roleName, tableName, type QualifiedName } from './names';
import { remoteRelationship, type RemoteRelationship } from './remote-relationships';
import { DEFAULT_SOURCE, sourceConfiguration, sourceName, type SourceConfiguration } from './sources';
import { defaultSource, type DefaultSource } from './default-source';
import {
  apiLimits,
  backendConfigs,
  inheritedRoles,
  introspectionOptions,
  isEmptyObject,
  metricsConfig,
  network,
  noApiLimits,
  noMetricsConfig,
  openTelemetryConfig,
  type ApiLimits,
  type BackendConfigs,
  type InheritedRole,
  type IntrospectionOptions,
  type MetricsConfig,
  type Network,
  type OpenTelemetryConfig,
} from './top-level';
import { sourceCustomization, type SourceCustomization } from './source-customization';
import { formatMessage } from './errors';
import {
  array,
  boolean,
  childPath,
  integer,
  json,
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
  type Infer,
  type Schema,
} from './schema';

export const ROOT_FIELD_KEYS = [
  'select',
  'select_by_pk',
  'select_aggregate',
  'insert',
  'insert_one',
  'update',
  'update_by_pk',
  'update_many',
  'delete',
  'delete_by_pk',
  // The streaming subscription field (dec.graphql.stream.schema).
  'select_stream',
] as const;
export type RootFieldKey = (typeof ROOT_FIELD_KEYS)[number];

export interface TableConfiguration {
  custom_name?: string;
  identifier?: string;
  custom_root_fields?: Partial<Record<RootFieldKey, string>>;
  custom_column_names?: Record<string, string>;
  /** Per column: its GraphQL name and description (decision dec.table.column-config). */
  column_config?: Record<string, ColumnConfig>;
}

export interface ColumnConfig {
  custom_name?: string;
  comment?: string;
}

export type ManualConfiguration = { remote_table: QualifiedName; column_mapping: Record<string, string> };

export interface ObjectRelationship {
  name: string;
  using: { foreign_key_constraint_on: string | string[] } | { manual_configuration: ManualConfiguration };
  comment?: string;
}

export interface ArrayRelationship {
  name: string;
  using: { foreign_key_constraint_on: { table: QualifiedName; column?: string; columns?: string[] } } | { manual_configuration: ManualConfiguration };
  comment?: string;
}

/** ComputedFieldDefinition (§2.3). */
export interface ComputedFieldDefinition {
  function: QualifiedName;
  table_argument?: string;
  session_argument?: string;
}

export interface ComputedField {
  name: string;
  definition: ComputedFieldDefinition;
  comment?: string;
}

/** An event trigger in the metadata file form (§2.6): operations and enable_manual under definition. */
export interface EventTrigger {
  name: string;
  definition: {
    enable_manual: boolean;
    insert?: { columns: Columns };
    update?: { columns: Columns };
    delete?: { columns: Columns };
  };
  retry_conf: { num_retries: number; interval_sec: number; timeout_sec: number };
  webhook?: string;
  webhook_from_env?: string;
  headers?: ({ name: string; value: string } | { name: string; value_from_env: string })[];
}

export type BoolExp = Record<string, unknown>;
export type Columns = '*' | string[];
export const PERMISSION_TYPES = ['insert', 'select', 'update', 'delete'] as const;
export type PermissionType = (typeof PERMISSION_TYPES)[number];

export interface InsertPermission {
  check: BoolExp;
  set?: Record<string, unknown>;
  columns?: Columns;
  backend_only?: boolean;
}
export interface SelectPermission {
  columns: Columns;
  filter: BoolExp;
  computed_fields?: string[];
  limit?: number;
  allow_aggregations?: boolean;
}
export interface UpdatePermission {
  columns: Columns;
  filter: BoolExp;
  check?: BoolExp;
  set?: Record<string, unknown>;
}
export interface DeletePermission {
  filter: BoolExp;
}
export interface PermissionEntry<P> {
  role: string;
  permission: P;
  comment?: string;
}
export interface PermissionsByType {
  insert: InsertPermission;
  select: SelectPermission;
  update: UpdatePermission;
  delete: DeletePermission;
}
export const permissionListKey = (type: PermissionType) => `${type}_permissions` as const;

export interface TableEntry {
  table: QualifiedName;
  is_enum?: boolean;
  configuration?: TableConfiguration;
  object_relationships?: ObjectRelationship[];
  array_relationships?: ArrayRelationship[];
  computed_fields?: ComputedField[];
  remote_relationships?: RemoteRelationship[];
  event_triggers?: EventTrigger[];
  insert_permissions?: PermissionEntry<InsertPermission>[];
  select_permissions?: PermissionEntry<SelectPermission>[];
  update_permissions?: PermissionEntry<UpdatePermission>[];
  delete_permissions?: PermissionEntry<DeletePermission>[];
}

/**
 * FunctionConfiguration (§2.3); custom_name renames its root fields and its args type, and
 * custom_root_fields the root fields alone, as the engine allows (decision dec.function.customization).
 */
export interface FunctionConfiguration {
  session_argument?: string;
  exposed_as?: 'query' | 'mutation';
  custom_name?: string;
  custom_root_fields?: FunctionRootFields;
}

/** The root fields of a function under names of their own. */
export interface FunctionRootFields {
  function?: string;
  function_aggregate?: string;
}

/** A tracked function (functions.yaml, §2.2) with its configuration and function permissions (§4.4). */
export interface FunctionEntry {
  function: QualifiedName;
  configuration?: FunctionConfiguration;
  permissions?: { role: string }[];
  /** The description of its root field, in place of the one made for it (decision dec.functions.comment). */
  comment?: string;
}

/** query_collections.yaml (§2.2): saved GraphQL documents by name. */
export interface QueryCollection {
  name: string;
  definition: { queries: { name: string; query: string }[] };
  comment?: string;
}

/** allow_list.yaml (§2.2). */
export interface AllowlistEntry {
  collection: string;
}

/** A REST endpoint (§2.8); `methods` left out means the defaults of §4.6 rule 1. */
export interface RestEndpoint {
  name: string;
  url: string;
  methods?: string[];
  definition: { query: { query_name: string; collection_name: string } };
  comment?: string;
}

/** A cron trigger (§2.5); retry_conf with the engine's defaults filled in. */
export interface CronTrigger {
  name: string;
  webhook: string;
  schedule: string;
  include_in_metadata: boolean;
  payload?: unknown;
  headers?: ({ name: string; value: string } | { name: string; value_from_env: string })[];
  retry_conf: { num_retries: number; retry_interval_seconds: number; timeout_seconds: number; tolerance_seconds: number };
  comment?: string;
}

/** Defaults of a cron trigger's or scheduled event's retry_conf (SPEC.md leaves them open: the engine's). */
export const SCHEDULED_RETRY_DEFAULTS = { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 } as const;

/** A header sent to a remote server: a literal value or an environment variable's. */
export type HeaderSpec = { name: string; value: string } | { name: string; value_from_env: string };

/** A remote schema (§2.4), its definition with the defaults filled in (decision dec.remote-schema.defaults). */
export interface RemoteSchema {
  name: string;
  definition: {
    url?: string;
    url_from_env?: string;
    headers?: HeaderSpec[];
    forward_client_headers: boolean;
    timeout_seconds: number;
    /** How its names appear in the engine's schema (decision dec.remote-schema.customization). */
    customization?: RemoteSchemaCustomization;
  };
  comment?: string;
  /** What each role sees of it, when remote schema permissions are enabled (decision dec.remote-schema.permissions). */
  permissions?: RemoteSchemaPermission[];
}

/** New names for a remote schema's root fields, types and fields. */
export interface RemoteSchemaCustomization {
  root_fields_namespace?: string;
  type_names?: NameCustomization;
  field_names?: (NameCustomization & { parent_type: string })[];
}

/** A name becomes mapping[name] when there is one, else prefix + name + suffix. */
export interface NameCustomization {
  prefix?: string;
  suffix?: string;
  mapping?: Record<string, string>;
}

/** A role's part of a remote schema: an SDL document that is a subset of the remote's, with @preset arguments. */
export interface RemoteSchemaPermission {
  role: string;
  definition: { schema: string };
  comment?: string;
}

/** What SPEC.md §2.4 leaves open: the engine's defaults. */
export const REMOTE_SCHEMA_DEFAULTS = { forward_client_headers: false, timeout_seconds: 60 } as const;

/** A field of a custom input object or object type (§2.7); `type` is a GraphQL type such as `[Int!]!`. */
export interface CustomField {
  name: string;
  type: string;
  description?: string;
}

/** A relationship from a custom object type to a tracked table (§2.7 ObjectRelationship). */
export interface CustomObjectRelationship {
  name: string;
  type: 'object' | 'array';
  remote_table: QualifiedName;
  field_mapping: Record<string, string>;
}

/** Custom GraphQL types (§2.7); empty kinds left out. */
export interface CustomTypes {
  input_objects?: { name: string; description?: string; fields: CustomField[] }[];
  objects?: { name: string; description?: string; fields: CustomField[]; relationships?: CustomObjectRelationship[] }[];
  scalars?: { name: string; description?: string }[];
  enums?: { name: string; description?: string; values: { value: string; description?: string; is_deprecated?: boolean }[] }[];
}

/** An action (§2.2 actions.yaml), its definition with the engine's defaults filled in (decision dec.actions.forms). */
export interface Action {
  name: string;
  definition: {
    kind: 'synchronous' | 'asynchronous';
    type: 'query' | 'mutation';
    arguments?: CustomField[];
    output_type: string;
    handler: string;
    forward_client_headers: boolean;
    headers?: HeaderSpec[];
    timeout: number;
  };
  comment?: string;
  permissions?: { role: string; comment?: string }[];
}

export const ACTION_DEFAULTS = { kind: 'synchronous', type: 'mutation', forward_client_headers: false, timeout: 30 } as const;

export interface MetadataDocument {
  version: 2;
  tables: TableEntry[];
  /** Left out when no function is tracked. */
  functions?: FunctionEntry[];
  query_collections?: QueryCollection[];
  allowlist?: AllowlistEntry[];
  rest_endpoints?: RestEndpoint[];
  /** All cron triggers; the export leaves out those with include_in_metadata false. */
  cron_triggers?: CronTrigger[];
  remote_schemas?: RemoteSchema[];
  custom_types?: CustomTypes;
  actions?: Action[];
  /** The sources besides the server's own database (decision dec.source.forms); left out when none. */
  sources?: SourceEntry[];
  // The other top-level parts of the engine's projects (decision dec.metadata.top-level), each left out when empty.
  api_limits?: ApiLimits;
  metrics_config?: MetricsConfig;
  inherited_roles?: InheritedRole[];
  graphql_schema_introspection?: IntrospectionOptions;
  network?: Network;
  backend_configs?: BackendConfigs;
  opentelemetry?: OpenTelemetryConfig;
  /**
   * How the project describes the server's own database (decision dec.metadata.default-source);
   * never stored empty: a parsed document holds {} only to say that it takes the server's away.
   */
  default_source?: DefaultSource;
}

/** A source besides `default`: its database and what of it is tracked. */
export interface SourceEntry {
  name: string;
  kind: 'postgres';
  configuration: SourceConfiguration;
  tables: TableEntry[];
  functions?: FunctionEntry[];
  /** How its root fields and types are named (decision dec.source.customization); left out when empty. */
  customization?: SourceCustomization;
}

/**
 * Parts of a table entry that later kinds of object fill in. Until the server supports a kind,
 * a document may carry it only empty: refusing it is better than dropping it silently.
 */
export const TABLE_KINDS_NOT_YET_SUPPORTED: readonly string[] = [];

/** Top-level keys of the export form, other than `version` and `tables`. */
export const DOCUMENT_KINDS_NOT_YET_SUPPORTED = [] as const;

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

const comment = { comment: nullable(string) };
const objectRelationship = object({ name: nonEmptyName, using: objectRelationshipUsing }, comment);
const arrayRelationship = object({ name: nonEmptyName, using: arrayRelationshipUsing }, comment);
export const computedFieldDefinition = refine(
  object({ function: functionName }, { table_argument: nullable(string), session_argument: nullable(string) }),
  (v) => {
    const d: ComputedFieldDefinition = { function: { schema: v.function.schema, name: v.function.name } };
    if (typeof v.table_argument === 'string') d.table_argument = v.table_argument;
    if (typeof v.session_argument === 'string') d.session_argument = v.session_argument;
    return parsed(d);
  },
);
/** §2.6 defaults: num_retries 0, interval_sec 10, timeout_sec 60. */
export const EVENT_RETRY_DEFAULTS = { num_retries: 0, interval_sec: 10, timeout_sec: 60 } as const;
const nonNegative = refine(integer, (v, path) => (v < 0 ? parseFailure(path, 'expected an integer ≥ 0') : parsed(v)));
export const eventRetryConf = refine(object({}, { num_retries: nonNegative, interval_sec: nonNegative, timeout_sec: nonNegative }), (v) =>
  parsed({ ...EVENT_RETRY_DEFAULTS, ...v } as EventTrigger['retry_conf']),
);
export const eventOperation = object({ columns: eventColumns }, { payload: json });
export const eventHeader = union<[{ name: string; value: string }, { name: string; value_from_env: string }]>(
  [object({ name: nonEmptyName, value: string }), object({ name: nonEmptyName, value_from_env: nonEmptyName })],
  'header {name, value} or {name, value_from_env}',
);
export const eventTrigger: Schema<EventTrigger> = refine(
  object(
    {
      name: nonEmptyName,
      definition: object({}, { enable_manual: boolean, insert: eventOperation, update: eventOperation, delete: eventOperation }),
    },
    { retry_conf: eventRetryConf, webhook: string, webhook_from_env: string, headers: array(eventHeader) },
  ),
  (v, path) => {
    if ((v.webhook === undefined) === (v.webhook_from_env === undefined))
      return parseFailure(path, 'exactly one of "webhook" and "webhook_from_env" is expected');
    const op = (o: { columns: Columns } | undefined) => (o ? { columns: o.columns } : undefined);
    const definition: EventTrigger['definition'] = { enable_manual: v.definition.enable_manual === true };
    for (const key of ['insert', 'update', 'delete'] as const) {
      const o = op(v.definition[key]);
      if (o) definition[key] = o;
    }
    return parsed({
      name: v.name,
      definition,
      retry_conf: v.retry_conf ?? { ...EVENT_RETRY_DEFAULTS },
      ...(v.webhook !== undefined ? { webhook: v.webhook } : { webhook_from_env: v.webhook_from_env! }),
      ...(v.headers?.length ? { headers: v.headers } : {}),
    });
  },
);
const computedField = object({ name: nonEmptyName, definition: computedFieldDefinition }, comment);
const permissionEntry = <T>(permission: Schema<T>) => array(object({ role: roleName, permission }, comment));

/** The configuration without null or empty parts, as it is stored and exported. */
export function normaliseConfiguration(c: Infer<typeof tableConfig> | undefined): TableConfiguration | undefined {
  if (!c) return undefined;
  const out: TableConfiguration = {};
  if (c.custom_name) out.custom_name = c.custom_name;
  if (c.identifier) out.identifier = c.identifier;
  const roots = Object.entries(c.custom_root_fields ?? {}).filter(([, v]) => typeof v === 'string' && v !== '');
  if (roots.length) out.custom_root_fields = Object.fromEntries(roots) as Partial<Record<RootFieldKey, string>>;
  if (c.column_config === undefined) {
    if (c.custom_column_names && Object.keys(c.custom_column_names).length) out.custom_column_names = { ...c.custom_column_names };
  } else {
    // Decision dec.table.column-config: merged per column (column_config wins), exported in both forms.
    const merged: Record<string, ColumnConfig> = {};
    for (const [column, name] of Object.entries(c.custom_column_names ?? {})) if (name !== '') merged[column] = { custom_name: name };
    for (const [column, config] of Object.entries(c.column_config)) {
      const entry: ColumnConfig = {};
      const name = typeof config.custom_name === 'string' && config.custom_name !== '' ? config.custom_name : merged[column]?.custom_name;
      if (name !== undefined) entry.custom_name = name;
      if (typeof config.comment === 'string') entry.comment = config.comment;
      merged[column] = entry;
    }
    const columns = Object.keys(merged)
      .filter((column) => Object.keys(merged[column]!).length > 0)
      .sort();
    if (columns.length) out.column_config = Object.fromEntries(columns.map((column) => [column, merged[column]!]));
    const names = columns.filter((column) => merged[column]!.custom_name !== undefined);
    if (names.length) out.custom_column_names = Object.fromEntries(names.map((column) => [column, merged[column]!.custom_name!]));
  }
  return Object.keys(out).length ? out : undefined;
}

function withComment<T extends { comment?: string | null }>(r: T): T & { comment?: string } {
  const { comment: c, ...rest } = r;
  return (typeof c === 'string' ? { ...rest, comment: c } : rest) as T & { comment?: string };
}

export const tableEntry: Schema<TableEntry> = refine(
  object(
    { table: tableName },
    {
      is_enum: boolean,
      configuration: tableConfig,
      object_relationships: array(objectRelationship),
      array_relationships: array(arrayRelationship),
      computed_fields: array(computedField),
      remote_relationships: array(remoteRelationship),
      event_triggers: array(eventTrigger),
      insert_permissions: permissionEntry(insertPermission),
      select_permissions: permissionEntry(selectPermission),
      update_permissions: permissionEntry(updatePermission),
      delete_permissions: permissionEntry(deletePermission),
      ...onlyEmpty(TABLE_KINDS_NOT_YET_SUPPORTED),
    },
  ),
  (v, path) => {
    const problem = unsupportedKind(v, TABLE_KINDS_NOT_YET_SUPPORTED, path);
    if (problem) return problem;
    const entry: TableEntry = { table: v.table };
    if (v.is_enum) entry.is_enum = true;
    const configuration = normaliseConfiguration(v.configuration);
    if (configuration) entry.configuration = configuration;
    if (v.object_relationships?.length) entry.object_relationships = v.object_relationships.map(withComment) as ObjectRelationship[];
    if (v.array_relationships?.length) entry.array_relationships = v.array_relationships.map(withComment) as ArrayRelationship[];
    if (v.computed_fields?.length) entry.computed_fields = v.computed_fields.map(withComment) as ComputedField[];
    if (v.remote_relationships?.length) entry.remote_relationships = v.remote_relationships;
    if (v.event_triggers?.length) entry.event_triggers = v.event_triggers;
    if (v.insert_permissions?.length) entry.insert_permissions = v.insert_permissions.map(withComment) as PermissionEntry<InsertPermission>[];
    if (v.select_permissions?.length) entry.select_permissions = v.select_permissions.map(withComment) as PermissionEntry<SelectPermission>[];
    if (v.update_permissions?.length) entry.update_permissions = v.update_permissions.map(withComment) as PermissionEntry<UpdatePermission>[];
    if (v.delete_permissions?.length) entry.delete_permissions = v.delete_permissions.map(withComment) as PermissionEntry<DeletePermission>[];
    return parsed(entry);
  },
);

export const functionConfiguration: Schema<FunctionConfiguration> = refine(
  object(
    {},
    {
      session_argument: nullable(string),
      exposed_as: nullable(literal('mutation', 'query')),
      custom_name: nullable(string),
      custom_root_fields: nullable(object({}, { function: nullable(string), function_aggregate: nullable(string) })),
    },
  ),
  (v) => {
    const out: FunctionConfiguration = {};
    if (typeof v.session_argument === 'string') out.session_argument = v.session_argument;
    if (v.exposed_as) out.exposed_as = v.exposed_as;
    if (typeof v.custom_name === 'string' && v.custom_name !== '') out.custom_name = v.custom_name;
    // Unset, null and empty names alike leave a root field its default name.
    const roots: FunctionRootFields = {};
    if (typeof v.custom_root_fields?.function === 'string' && v.custom_root_fields.function !== '') roots.function = v.custom_root_fields.function;
    if (typeof v.custom_root_fields?.function_aggregate === 'string' && v.custom_root_fields.function_aggregate !== '')
      roots.function_aggregate = v.custom_root_fields.function_aggregate;
    if (Object.keys(roots).length > 0) out.custom_root_fields = roots;
    return parsed(out);
  },
);

/** The entry as it is stored and exported: no empty configuration or permission list. */
export function normaliseFunctionEntry(v: {
  function: QualifiedName;
  configuration?: FunctionConfiguration;
  permissions?: { role: string }[];
  comment?: string | null;
}): FunctionEntry {
  const entry: FunctionEntry = { function: { schema: v.function.schema, name: v.function.name } };
  if (v.configuration && Object.keys(v.configuration).length) entry.configuration = v.configuration;
  if (v.permissions?.length) entry.permissions = v.permissions.map((p) => ({ role: p.role }));
  if (typeof v.comment === 'string') entry.comment = v.comment;
  return entry;
}

export const functionEntry: Schema<FunctionEntry> = refine(
  object({ function: functionName }, { configuration: functionConfiguration, permissions: array(object({ role: roleName })), ...comment }),
  (v) => parsed(normaliseFunctionEntry(v)),
);

/** A saved query: its name and GraphQL text. */
export const savedQuery = object({ name: nonEmptyName, query: string });
export const queryCollection: Schema<QueryCollection> = refine(
  object({ name: nonEmptyName, definition: object({ queries: array(savedQuery) }) }, comment),
  (v) =>
    parsed({
      name: v.name,
      definition: { queries: v.definition.queries.map((q) => ({ name: q.name, query: q.query })) },
      ...(typeof v.comment === 'string' ? { comment: v.comment } : {}),
    }),
);
export const allowlistEntry: Schema<AllowlistEntry> = refine(object({ collection: nonEmptyName }, { scope: json }), (v) =>
  parsed({ collection: v.collection }),
);
export const endpointDefinition = object({ query: object({ query_name: nonEmptyName, collection_name: nonEmptyName }) });
/** EndpointMethods (§2.8): a non-empty, case-sensitive list of HTTP methods. */
export const endpointMethods = array(literal('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), { minItems: 1 });
export const restEndpoint: Schema<RestEndpoint> = refine(
  object({ name: nonEmptyName, url: string, definition: endpointDefinition }, { methods: endpointMethods, ...comment }),
  (v) =>
    parsed({
      name: v.name,
      url: v.url,
      ...(v.methods ? { methods: [...v.methods] } : {}),
      definition: { query: { query_name: v.definition.query.query_name, collection_name: v.definition.query.collection_name } },
      ...(typeof v.comment === 'string' ? { comment: v.comment } : {}),
    }),
);

export const scheduledRetryConf = refine(
  object({}, { num_retries: nonNegative, retry_interval_seconds: nonNegative, timeout_seconds: nonNegative, tolerance_seconds: nonNegative }),
  (v) => parsed({ ...SCHEDULED_RETRY_DEFAULTS, ...v } as CronTrigger['retry_conf']),
);
/** A cron trigger as it is stored: include_in_metadata true unless false, retry defaults filled in, no empty parts. */
export function normaliseCronTrigger(v: {
  name: string;
  webhook: string;
  schedule: string;
  include_in_metadata?: boolean;
  payload?: unknown;
  headers?: CronTrigger['headers'];
  retry_conf?: Partial<CronTrigger['retry_conf']>;
  comment?: string | null;
}): CronTrigger {
  return {
    name: v.name,
    webhook: v.webhook,
    schedule: v.schedule,
    include_in_metadata: v.include_in_metadata !== false,
    ...(v.payload !== undefined && v.payload !== null ? { payload: v.payload } : {}),
    ...(v.headers?.length ? { headers: v.headers } : {}),
    retry_conf: { ...SCHEDULED_RETRY_DEFAULTS, ...(v.retry_conf ?? {}) },
    ...(typeof v.comment === 'string' ? { comment: v.comment } : {}),
  };
}
export const cronTrigger: Schema<CronTrigger> = refine(
  object(
    { name: nonEmptyName, webhook: string, schedule: string },
    { include_in_metadata: boolean, payload: json, headers: array(eventHeader), retry_conf: scheduledRetryConf, comment: nullable(string) },
  ),
  (v) => parsed(normaliseCronTrigger(v)),
);

const positive = refine(integer, (v, path) => (v < 1 ? parseFailure(path, 'expected an integer ≥ 1') : parsed(v)));
const nameSuffix = refine(string, (v, path) => (/^[_0-9A-Za-z]+$/.test(v) ? parsed(v) : parseFailure(path, `${JSON.stringify(v)} cannot end a GraphQL name`)));
const nameCustomization = { prefix: graphqlName, suffix: nameSuffix, mapping: record(graphqlName) };
const withoutEmpty = <T extends Record<string, unknown>>(v: T) =>
  Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && !(typeof x === 'object' && x !== null && Object.keys(x).length === 0))) as T;
/** Decision dec.remote-schema.customization: the engine's form, empty parts left out. */
const remoteSchemaCustomization: Schema<RemoteSchemaCustomization> = refine(
  object(
    {},
    {
      root_fields_namespace: graphqlName,
      type_names: object({}, nameCustomization),
      field_names: array(object({ parent_type: graphqlName }, nameCustomization)),
    },
  ),
  (v) =>
    parsed(
      withoutEmpty({
        root_fields_namespace: v.root_fields_namespace,
        type_names: v.type_names && withoutEmpty(v.type_names),
        field_names: v.field_names?.length ? v.field_names.map((f) => withoutEmpty(f)) : undefined,
      }) as RemoteSchemaCustomization,
    ),
);
export const remoteSchemaDefinition = refine(
  object(
    {},
    {
      url: string,
      url_from_env: nonEmptyName,
      headers: array(eventHeader),
      forward_client_headers: boolean,
      timeout_seconds: positive,
      customization: nullable(remoteSchemaCustomization),
    },
  ),
  (v, path) => {
    if ((v.url === undefined) === (v.url_from_env === undefined)) return parseFailure(path, 'exactly one of "url" and "url_from_env" is expected');
    return parsed({
      ...(v.url !== undefined ? { url: v.url } : { url_from_env: v.url_from_env! }),
      ...(v.headers?.length ? { headers: v.headers } : {}),
      forward_client_headers: v.forward_client_headers ?? REMOTE_SCHEMA_DEFAULTS.forward_client_headers,
      timeout_seconds: v.timeout_seconds ?? REMOTE_SCHEMA_DEFAULTS.timeout_seconds,
      ...(v.customization && Object.keys(v.customization).length ? { customization: v.customization } : {}),
    } as RemoteSchema['definition']);
  },
);
const description = { description: nullable(string) };
const withDescription = <T extends { description?: string | null }>(v: T) => {
  const { description: d, ...rest } = v;
  return (typeof d === 'string' ? { ...rest, description: d } : rest) as Omit<T, 'description'> & { description?: string };
};
const customField = refine(object({ name: string, type: string }, description), (v) => parsed(withDescription(v) as CustomField));
export const customTypes: Schema<CustomTypes> = refine(
  object(
    {},
    {
      input_objects: array(refine(object({ name: string, fields: array(customField, { minItems: 1 }) }, description), (v) => parsed(withDescription(v)))),
      objects: array(
        refine(
          object(
            { name: string, fields: array(customField, { minItems: 1 }) },
            {
              ...description,
              relationships: array(object({ name: nonEmptyName, type: literal('object', 'array'), remote_table: tableName, field_mapping: record(string) })),
            },
          ),
          (v) => {
            const { relationships, ...rest } = withDescription(v);
            return parsed(relationships?.length ? { ...rest, relationships } : rest);
          },
        ),
      ),
      scalars: array(refine(object({ name: string }, description), (v) => parsed(withDescription(v)))),
      enums: array(
        refine(
          object(
            {
              name: string,
              values: array(
                refine(object({ value: string }, { ...description, is_deprecated: boolean }), (v) => parsed(withDescription(v))),
                { minItems: 1 },
              ),
            },
            description,
          ),
          (v) => parsed(withDescription(v)),
        ),
      ),
    },
  ),
  (v) => {
    const out: CustomTypes = {};
    for (const key of ['input_objects', 'objects', 'scalars', 'enums'] as const) if (v[key]?.length) (out as Record<string, unknown>)[key] = v[key];
    return parsed(out);
  },
);

const actionKind = literal('synchronous', 'asynchronous');
export const actionDefinition = refine(
  object(
    { output_type: string, handler: string },
    {
      kind: actionKind,
      type: literal('query', 'mutation'),
      arguments: array(customField),
      forward_client_headers: boolean,
      headers: array(eventHeader),
      timeout: positive,
    },
  ),
  (v, path) => {
    const kind = v.kind ?? ACTION_DEFAULTS.kind;
    const type = v.type ?? ACTION_DEFAULTS.type;
    if (kind === 'asynchronous' && type === 'query') return parseFailure(`${path}.kind`, 'an asynchronous action must be a mutation');
    return parsed({
      kind,
      type,
      ...(v.arguments?.length ? { arguments: v.arguments } : {}),
      output_type: v.output_type,
      handler: v.handler,
      forward_client_headers: v.forward_client_headers ?? ACTION_DEFAULTS.forward_client_headers,
      ...(v.headers?.length ? { headers: v.headers } : {}),
      timeout: v.timeout ?? ACTION_DEFAULTS.timeout,
    } as Action['definition']);
  },
);
const actionPermission = refine(object({ role: roleName }, comment), (v) =>
  parsed(typeof v.comment === 'string' ? { role: v.role, comment: v.comment } : { role: v.role }),
);
export const action: Schema<Action> = refine(
  object({ name: nonEmptyName, definition: actionDefinition }, { ...comment, permissions: array(actionPermission) }),
  (v) =>
    parsed({
      name: v.name,
      definition: v.definition,
      ...(typeof v.comment === 'string' ? { comment: v.comment } : {}),
      ...(v.permissions?.length ? { permissions: v.permissions } : {}),
    }),
);

export const remoteSchema: Schema<RemoteSchema> = refine(object({ name: nonEmptyName, definition: remoteSchemaDefinition }, comment), (v) =>
  parsed({ name: v.name, definition: v.definition, ...(typeof v.comment === 'string' ? { comment: v.comment } : {}) }),
);

/** A role's permission on a remote schema, as add_remote_schema_permissions and the document carry it. */
export const remoteSchemaPermissionDefinition = object({ schema: string });
const remoteSchemaPermission: Schema<RemoteSchemaPermission> = refine(object({ role: roleName, definition: remoteSchemaPermissionDefinition }, comment), (v) =>
  parsed({ role: v.role, definition: { schema: v.definition.schema }, ...(typeof v.comment === 'string' ? { comment: v.comment } : {}) }),
);

/** A remote schema as the document holds it: with the permissions of its roles. */
const remoteSchemaEntry: Schema<RemoteSchema> = refine(
  object({ name: nonEmptyName, definition: remoteSchemaDefinition }, { ...comment, permissions: array(remoteSchemaPermission) }),
  (v, path) => {
    const seen = new Set<string>();
    for (const [i, p] of (v.permissions ?? []).entries()) {
      if (seen.has(p.role)) return parseFailure(`${path}.permissions[${i}]`, `the role ${JSON.stringify(p.role)} has two permissions on this remote schema`);
      seen.add(p.role);
    }
    return parsed({
      name: v.name,
      definition: v.definition,
      ...(typeof v.comment === 'string' ? { comment: v.comment } : {}),
      ...(v.permissions?.length ? { permissions: v.permissions } : {}),
    });
  },
);

/** A source besides `default`, in the form the export lists it. */
export const sourceEntry: Schema<SourceEntry> = refine(
  object(
    { name: sourceName, configuration: sourceConfiguration },
    { kind: literal('postgres'), tables: array(tableEntry), functions: array(functionEntry), customization: sourceCustomization },
  ),
  (v, path) => {
    if (v.name === DEFAULT_SOURCE)
      return parseFailure(childPath(path, 'name'), formatMessage('err.not-supported.default-source', JSON.stringify(DEFAULT_SOURCE)), 'not-supported');
    return parsed({
      name: v.name,
      kind: 'postgres' as const,
      configuration: v.configuration,
      tables: v.tables ?? [],
      ...(v.functions?.length ? { functions: v.functions } : {}),
      ...(v.customization && Object.keys(v.customization).length ? { customization: v.customization } : {}),
    });
  },
);

/** The document in version 2 form. */
const metadataDocumentV2: Schema<MetadataDocument> = refine(
  object(
    { version: literal(2) },
    {
      tables: array(tableEntry),
      functions: array(functionEntry),
      query_collections: array(queryCollection),
      allowlist: array(allowlistEntry),
      rest_endpoints: array(restEndpoint),
      cron_triggers: array(cronTrigger),
      remote_schemas: array(remoteSchemaEntry),
      custom_types: customTypes,
      actions: array(action),
      sources: array(sourceEntry),
      // null is as good as absent, as the engine reads these parts.
      api_limits: nullable(apiLimits),
      metrics_config: nullable(metricsConfig),
      inherited_roles: nullable(inheritedRoles),
      graphql_schema_introspection: nullable(introspectionOptions),
      network: nullable(network),
      backend_configs: nullable(backendConfigs),
      opentelemetry: nullable(openTelemetryConfig),
      default_source: nullable(defaultSource),
      ...onlyEmpty(DOCUMENT_KINDS_NOT_YET_SUPPORTED),
    },
  ),
  (v, path) =>
    unsupportedKind(v, DOCUMENT_KINDS_NOT_YET_SUPPORTED, path) ??
    parsed({
      version: 2,
      tables: v.tables ?? [],
      ...(v.functions?.length ? { functions: v.functions } : {}),
      ...(v.query_collections?.length ? { query_collections: v.query_collections } : {}),
      ...(v.allowlist?.length ? { allowlist: v.allowlist } : {}),
      ...(v.rest_endpoints?.length ? { rest_endpoints: v.rest_endpoints } : {}),
      ...(v.cron_triggers?.length ? { cron_triggers: v.cron_triggers } : {}),
      ...(v.remote_schemas?.length ? { remote_schemas: v.remote_schemas } : {}),
      ...(v.custom_types && Object.keys(v.custom_types).length ? { custom_types: v.custom_types } : {}),
      ...(v.actions?.length ? { actions: v.actions } : {}),
      ...(v.sources?.length ? { sources: v.sources } : {}),
      ...topLevelParts(v as Partial<MetadataDocument>),
      // A document that names default_source but says nothing in it takes the server's away; one that
      // does not name it keeps the server's (decision dec.metadata.default-source): {} tells them apart.
      ...('default_source' in v && !topLevelParts(v as Partial<MetadataDocument>).default_source ? { default_source: {} } : {}),
    }),
);

/** The top-level parts of the engine's projects that say something, in the engine's order (decision dec.metadata.top-level). */
export function topLevelParts(v: Partial<MetadataDocument>): Partial<MetadataDocument> {
  return {
    ...(v.api_limits && !noApiLimits(v.api_limits) ? { api_limits: v.api_limits } : {}),
    ...(v.metrics_config && !noMetricsConfig(v.metrics_config) ? { metrics_config: v.metrics_config } : {}),
    ...(v.inherited_roles?.length ? { inherited_roles: v.inherited_roles } : {}),
    ...(v.graphql_schema_introspection?.disabled_for_roles.length ? { graphql_schema_introspection: v.graphql_schema_introspection } : {}),
    ...(v.network?.tls_allowlist?.length ? { network: v.network } : {}),
    ...(v.backend_configs && !isEmptyObject(v.backend_configs) ? { backend_configs: v.backend_configs } : {}),
    ...(v.opentelemetry && !isEmptyObject(v.opentelemetry) ? { opentelemetry: v.opentelemetry } : {}),
    ...(v.default_source && Object.keys(v.default_source).length ? { default_source: v.default_source } : {}),
  };
}

/** A metadata document in any form replace_metadata takes, as version 2 (decision dec.metadata.older-forms). */
export const metadataDocument: Schema<MetadataDocument> = preprocess(upgradeDocument, metadataDocumentV2);

export const emptyMetadata = (): MetadataDocument => ({ version: 2, tables: [] });
