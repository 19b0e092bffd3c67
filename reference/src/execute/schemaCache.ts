// The GraphQL side of the metadata: table models and the schema each role sees, rebuilt when the
// metadata or the database changes, with the caches that belong to that version.
import type { NamingConvention } from '../metadata/namingCase';
import type { DocumentNode, GraphQLError, GraphQLNamedType } from 'graphql';
import type { RemoteContribution } from '../metadata/remoteSchemas';
import type { RemoteEndpoint } from '../remote/client';
import type { CompiledPlan } from './plan';
export type { CompiledPlan } from './plan';
import { PERMISSION_TYPES, permissionListKey, type Action, type ApiLimits, type CustomTypes, type MetadataDocument, type TlsAllow } from '../../../spec';
import type { InconsistentObject } from '../metadata/inconsistency';
import type { RequestLimits } from '../config';
import { relationKey, type Introspection } from '../db/introspection';
import { enumFindings } from '../metadata/enumTable';
import { type EnumValue, type Models } from '../schema/model';
import { modelsOfSources, type SourceSchemaInput } from './sourceModels';
export type { SourceSchemaInput } from './sourceModels';
import { buildSchema, type BuiltSchema, type ExternalRoots } from '../schema/build';
import type { RemoteRelationshipFields } from '../schema/objectTypes';
import { resolveRemotePath, type RemoteNaming } from '../schema/remoteRelationshipField';
import { namingOf, type CustomizedRemote } from '../remote/customization';
import { sharedScalar } from '../schema/typeContext';
import { buildActionTypes, hasRelationships } from '../schema/actions';
import { actionsOf } from '../metadata/actions';
import { tlsAllowlistOf } from '../metadata/network';
import { everyEventTriggerOf } from '../metadata/eventTriggers';
import { modelsForRole } from '../schema/roles';
import { withInheritedPermissions } from '../metadata/inheritedPermissions';
import { RateCounter } from './rateCounter';
import { TypeShare } from '../schema/typeShare';
import { allowedDocuments } from '../metadata/collections';
import { functionsForRole, type FunctionModel } from '../schema/functions';
import * as q from '../sql';
import { ResponseCache } from './responseCache';
import { weightedCache, type WeightedCache } from './weightedCache';
import type { UsableRemote } from '../remote/view';
import type { RolePresets } from '../remote/rolePermission';
export type { UsableRemote } from '../remote/view';

export interface RoleSchema {
  models: Models;
  built: BuiltSchema;
}

export interface SchemaCache {
  models: Models;
  /** Tables and functions of other sources left out: their GraphQL names are taken. */
  sourceConflicts: readonly InconsistentObject[];
  /** The tracked functions that can be served, for admin; roles get those they may use. */
  functions: readonly FunctionModel[];
  readonly inferFunctionPermissions: boolean;
  /** Some tracked table has event triggers: mutations record their session for them. */
  readonly capturesEvents: boolean;
  /** With the allow-list enabled: the documents roles other than admin may send, normalised. */
  readonly allowList?: ReadonlySet<string>;
  /** What one request may ask for (the server's settings, kept with the caches they bound). */
  readonly limits: RequestLimits;
  /** Roles that some permission names: every other role gets the same schema, built once. */
  readonly knownRoles: ReadonlySet<string>;
  /** Roles with a backend_only insert permission: only theirs differ for backend-only requests. */
  readonly backendOnlyRoles: ReadonlySet<string>;
  readonly admin: BuiltSchema;
  /** Root fields and types of the remote schemas (every role alike) and of the actions a role may use. */
  externalFor(role: string, backendOnly?: boolean): ExternalRoots;
  /** The actions, by name, and the custom types. */
  readonly actions: ReadonlyMap<string, Action>;
  readonly customTypes: CustomTypes | undefined;
  /** The metadata's TLS allow-list, for the handlers of actions (decision dec.network.tls-allowlist). */
  readonly tlsAllowlist: readonly TlsAllow[];
  /** Schemas of the other roles, built when a role first asks. */
  roles: Map<string, RoleSchema>;
  /** Types and schemas the roles' schemas share. */
  share: TypeShare;
  /** The remote servers whose root fields the schemas carry, by name. */
  readonly remotes: ReadonlyMap<string, RemoteEndpoint>;
  /** The customized remotes' names, by remote (decision dec.remote-schema.customization). */
  readonly remoteNames: ReadonlyMap<string, CustomizedRemote>;
  documents: WeightedCache<{ document: DocumentNode } | { errors: readonly GraphQLError[] }>;
  plans: WeightedCache<CompiledPlan>;
  /** The answers of @cached queries made with this version of the schemas. */
  responses: ResponseCache;
  /** The API limits of the metadata (decision dec.api-limits), and the requests its rate limits count. */
  readonly apiLimits?: ApiLimits;
  readonly rates: RateCounter;
  /** Roles that may not introspect the schema (decision dec.graphql.introspection-disabled). */
  readonly introspectionDisabled: ReadonlySet<string>;
}

export function buildSchemaCache(
  given: MetadataDocument,
  db: Introspection,
  enumValues: ReadonlyMap<string, EnumValue[]>,
  limits: RequestLimits,
  options: {
    inferFunctionPermissions?: boolean;
    /** The naming convention of sources whose customization names none (decision 048). */
    defaultNaming?: NamingConvention;
    allowList?: boolean;
    remotes?: readonly UsableRemote[];
    withActions?: boolean;
    /** The share of a version before: the types of tables it has unchanged are taken from it. */
    previous?: TypeShare;
    /** The sources besides default that can be served, with what is tracked in them (decision dec.source.forms). */
    sources?: readonly SourceSchemaInput[];
  } = {},
): SchemaCache {
  // Inherited roles get their parents' permissions (decision dec.inherited-roles).
  const { document } = withInheritedPermissions(given);
  const inferFunctionPermissions = options.inferFunctionPermissions ?? true;
  const { models, functions, sourceConflicts } = modelsOfSources(document, db, enumValues, options.sources ?? [], options.defaultNaming);
  const everyTable = [...document.tables, ...(options.sources ?? []).flatMap((s) => s.document.tables)];
  const share = new TypeShare(options.previous);
  const remotes = options.remotes ?? [];
  const makeActionTypes = (tables?: ExternalRoots['tables']) =>
    options.withActions ? buildActionTypes(document.custom_types, actionsOf(document), (name) => sharedScalar(share, name), tables) : undefined;
  const actionTypes = makeActionTypes();
  const externals = new Map<RemoteContribution | string | undefined, ExternalRoots>();
  // Custom objects with relationships take each role's own table types: their types are the role's.
  const perRole = options.withActions === true && hasRelationships(document.custom_types);
  const knownRoles = rolesOf(document, options.sources ?? []);
  // Remote schema permissions apply: a role other than admin sees only its own part of each remote.
  const permissioned = remotes.some((r) => r.roles !== undefined);
  const remotesFor = (role: string): RemoteOfRole[] =>
    remotes.flatMap((r) => {
      const naming = r.names ? { naming: namingOf(r.names) } : {};
      if (!r.roles || role === 'admin') return [{ contribution: r.contribution, ...naming }];
      const own = r.roles.get(role);
      return own ? [{ ...own, ...naming }] : [];
    });
  const externalFor = (asked: string, backendOnly = false) => {
    // Roles that no permission names share one entry, however many names arrive.
    const role = asked === 'admin' || knownRoles.has(asked) ? asked : '';
    if (perRole) {
      // One schema per entry of the roles' cache (role and backend-only flag): its own table types.
      const key = `${role}\u0000${backendOnly}`;
      let found = externals.get(key);
      if (!found) {
        const tables: NonNullable<ExternalRoots['tables']> = {};
        const own = makeActionTypes(tables)!;
        externals.set(key, (found = { ...externalRoots(remotesFor(role), role === 'admin' ? own.all : own.forRole(role), key), tables }));
      }
      return found;
    }
    const fromActions = role === 'admin' ? actionTypes?.all : actionTypes?.forRole(role);
    // With remote schema permissions each role has its own part of the remotes.
    const key = permissioned ? `\u0001${role}` : fromActions;
    let found = externals.get(key);
    if (!found) externals.set(key, (found = externalRoots(remotesFor(role), fromActions, permissioned ? role : '')));
    return found;
  };
  let admin: BuiltSchema | undefined;
  // Half of the memory for parsed documents (about 40 bytes of tree per byte of text, with the
  // key), half for compiled plans (their SQL text and bound values, twice for UTF-16).
  const half = Math.floor(limits.cacheMaxBytes / 2);
  return {
    models,
    functions,
    sourceConflicts,
    inferFunctionPermissions,
    capturesEvents: everyEventTriggerOf(document).length > 0,
    ...(options.allowList ? { allowList: allowedDocuments(document) } : {}),
    limits,
    knownRoles,
    backendOnlyRoles: new Set(everyTable.flatMap((t) => (t.insert_permissions ?? []).filter((p) => p.permission.backend_only).map((p) => p.role))),
    share,
    // Built when an admin request first needs it: roles' schemas do not.
    get admin() {
      return (admin ??= buildSchema(models, share, functions, externalFor('admin')));
    },
    externalFor,
    actions: new Map(options.withActions ? actionsOf(document).map((a) => [a.name, a]) : []),
    customTypes: document.custom_types,
    tlsAllowlist: tlsAllowlistOf(given),
    remotes: new Map(remotes.map((r) => [r.contribution.name, r.endpoint])),
    remoteNames: new Map(remotes.flatMap((r) => (r.names ? [[r.contribution.name, r.names] as const] : []))),
    roles: new Map(),
    documents: weightedCache(
      half,
      (key, value: { document: DocumentNode } | { errors: readonly GraphQLError[] }) => 2 * key.length + ('document' in value ? 40 * key.length : 1000),
    ),
    responses: new ResponseCache(limits.responseCacheMaxBytes),
    ...(given.api_limits ? { apiLimits: given.api_limits } : {}),
    rates: new RateCounter(),
    introspectionDisabled: new Set(given.graphql_schema_introspection?.disabled_for_roles ?? []),
    plans: weightedCache(
      half,
      (key, plan: CompiledPlan) => 2 * key.length + plan.statements.reduce((n, s) => n + 2 * s.text.length + 2 * JSON.stringify(s.values).length, 1000),
    ),
  };
}

/** A remote's part that a role sees, and the presets sent for it. */
type RemoteOfRole = { contribution: RemoteContribution; presets?: RolePresets; naming?: RemoteNaming };

let instances = 0;

/** The field of a remote relationship through the role's part of its remote, where the path resolves there. */
function remoteRelationshipFields(remotes: readonly RemoteOfRole[]): RemoteRelationshipFields {
  const byName = new Map(remotes.map((r) => [r.contribution.name, r]));
  return (rel) => {
    const remote = byName.get(rel.remoteSchema);
    const resolved = remote && resolveRemotePath(remote.contribution, rel.remoteField, remote.naming);
    return resolved && 'field' in resolved ? resolved.field : undefined;
  };
}

function externalRoots(remotes: readonly RemoteOfRole[], actions: RemoteContribution | undefined, role = ''): ExternalRoots {
  const query: ExternalRoots['query'] = {};
  const mutation: ExternalRoots['mutation'] = {};
  const queryOwners = new Map<string, string>();
  const mutationOwners = new Map<string, string>();
  const types = new Map<string, GraphQLNamedType>();
  for (const c of [...remotes.map((r) => r.contribution), ...(actions ? [actions] : [])]) {
    for (const [name, field] of c.query) {
      query[name] = field;
      queryOwners.set(name, c.name);
    }
    for (const [name, field] of c.mutation) {
      mutation[name] = field;
      mutationOwners.set(name, c.name);
    }
    for (const [name, type] of c.types) types.set(name, type);
  }
  const actionKey = actions ? [...actions.query.keys(), ...actions.mutation.keys()].join(',') : '';
  const presets = new Map(
    remotes.flatMap((r) => (r.presets && (r.presets.args.size > 0 || r.presets.inputFields.size > 0) ? [[r.contribution.name, r.presets]] : [])),
  );
  return {
    ...(presets.size ? { remotePresets: presets } : {}),
    ...(remotes.length ? { remoteRelationshipField: remoteRelationshipFields(remotes), instance: String(++instances) } : {}),
    key: [...remotes.map((r) => r.contribution.name), actionKey, role].join('\u0000'),
    query,
    mutation,
    types: [...types.values()],
    queryOwners,
    mutationOwners,
  };
}

function rolesOf(document: MetadataDocument, sources: readonly SourceSchemaInput[]): Set<string> {
  const roles = new Set<string>();
  for (const t of [...document.tables, ...sources.flatMap((s) => s.document.tables)]) {
    for (const type of PERMISSION_TYPES) for (const p of t[permissionListKey(type)] ?? []) roles.add(p.role);
  }
  for (const f of [...(document.functions ?? []), ...sources.flatMap((s) => s.document.functions ?? [])])
    for (const p of f.permissions ?? []) roles.add(p.role);
  for (const a of document.actions ?? []) for (const p of a.permissions ?? []) roles.add(p.role);
  for (const r of document.remote_schemas ?? []) for (const p of r.permissions ?? []) roles.add(p.role);
  return roles;
}

/** The rows of the tracked enum tables, read inside the caller's transaction. */
export async function loadEnumValues(db: q.Queryable, document: MetadataDocument, introspection: Introspection): Promise<Map<string, EnumValue[]>> {
  const out = new Map<string, EnumValue[]>();
  for (const entry of document.tables) {
    if (!entry.is_enum) continue;
    const table = introspection.tables.get(relationKey(entry.table));
    if (!table) continue;
    // Read whenever the key can hold values, so that an inconsistency names every reason (enumReasons).
    const found = enumFindings(table);
    if (found.valueColumn === undefined) continue;
    try {
      out.set(
        relationKey(entry.table),
        await q.run<EnumValue>(db, q.enumTableValues(entry.table.schema, entry.table.name, found.valueColumn, found.commentColumn)),
      );
    } catch {
      // no longer an enum table: it stays a plain table in the schema
    }
  }
  return out;
}

/** The models and schema a role sees; `backendOnly` adds its backend_only insert permissions. */
export function roleSchema(cache: SchemaCache, role: string, asked: boolean): RoleSchema {
  // A role without backend_only insert permissions sees the same schema either way: built once.
  const backendOnly = asked && cache.backendOnlyRoles.has(role);
  // Any number of role names may arrive; those without permissions share one entry.
  const key = cache.knownRoles.has(role) ? `${role}\u0000${backendOnly}` : '';
  let found = cache.roles.get(key);
  if (!found) {
    const models = modelsForRole(cache.models, role, { backendOnly });
    found = {
      models,
      built: buildSchema(
        models,
        cache.share,
        functionsForRole(cache.functions, models, role, cache.inferFunctionPermissions),
        cache.externalFor(role, backendOnly),
      ),
    };
    cache.roles.set(key, found);
  }
  return found;
}
