// Which remote schemas of a document can be served, and why the others cannot: not introspected
// successfully, or defining a GraphQL name that the tables, functions or an earlier remote define.
import { inheritedRemotePermissions } from '../metadata/inheritedPermissions';
import type { GraphQLSchema } from 'graphql';
import { formatMessage, type MetadataDocument } from '../../../spec';
import { engineError, type EngineError } from '../errors';
import type { InconsistentObject } from '../metadata/inconsistency';
import { reportInconsistencies } from '../metadata/inconsistencyReport';
import { firstConflict, remoteSchemasOf, type RemoteContribution } from '../metadata/remoteSchemas';
import type { RemoteEndpoint } from './client';
import { remoteRefusal, type RemoteSchemaStore } from './store';
import type { Introspection } from '../db/introspection';
import { actionsOf } from '../metadata/actions';
import { buildActionTypes } from '../schema/actions';
import { customScalar } from '../schema/scalars';
import { customizedContribution, customizedRemote, type CustomizedRemote } from './customization';
import { reasonsText, roleRemote, type RolePresets, type RoleRemote } from './rolePermission';
import { remoteRelationshipProblems } from './relationshipProblems';
import type { CompatHeaders } from '../sessionNames';
import { tlsAllowlistOf } from '../metadata/network';

/** A remote schema that can be served: where it is and what it brings. */
export interface UsableRemote {
  endpoint: RemoteEndpoint;
  contribution: RemoteContribution;
  /** Its names as the engine shows them, when it is customized. */
  names?: CustomizedRemote;
  /**
   * With remote schema permissions enabled: what each role with a permission sees of it and the
   * presets sent for it (a role not here sees nothing of it; admin sees it all).
   */
  roles?: ReadonlyMap<string, { contribution: RemoteContribution; presets: RolePresets }>;
}

export interface RemoteProblem {
  object: InconsistentObject;
  /** What a metadata change that brings this problem is refused with. */
  error: EngineError;
}

export interface RemoteView {
  usable: UsableRemote[];
  /** The actions' root fields and types clash with nothing: they are served. */
  actionsUsable: boolean;
  problems: RemoteProblem[];
}

/**
 * `local` builds the schema of the tables and functions alone; called only when there are remotes.
 * `permissions`: remote schema permissions are enabled (ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS).
 * `db`: the database, where known; a remote relationship its table cannot serve is reported as that, once.
 */
export function remoteView(
  document: MetadataDocument,
  local: () => GraphQLSchema,
  store: RemoteSchemaStore,
  permissions = false,
  db?: Introspection,
  /** Session variables in presets may be named x-hasura-… (decision dec.compat.headers). */
  compat?: CompatHeaders,
): RemoteView {
  const remotes = remoteSchemasOf(document);
  const actions = actionsOf(document);
  if (remotes.length === 0 && actions.length === 0) return { usable: [], actionsUsable: false, problems: remoteRelationshipProblems(document, [], db) };
  const own = local();
  const usable: UsableRemote[] = [];
  const problems: RemoteProblem[] = [];
  // The actions first: they change only with the metadata, while a remote may change any time.
  const actionTypes = buildActionTypes(document.custom_types, actions, (name) => customScalar(name));
  const fromActions = actionTypes ? [actionTypes.all] : [];
  const actionConflict = actionTypes && firstConflict(own, fromActions);
  if (actionConflict) {
    problems.push({
      object: { type: 'action', reason: formatMessage('err.remote-schema-conflicts.graphql-name', ...actionConflict), definition: actions[0]! },
      error: engineError('remote-schema-conflicts.graphql-name', '$.args', actionConflict),
    });
  }
  const claimed = actionConflict ? [] : fromActions;
  for (const remote of remotes) {
    const state = store.state(remote, tlsAllowlistOf(document));
    if (!state || 'problem' in state) {
      const error = remoteRefusal(remote.name, state ?? { problem: 'it has not been introspected yet' });
      problems.push({ object: { type: 'remote_schema', reason: error.message, definition: remote }, error });
      continue;
    }
    const customization = remote.definition.customization;
    const names = customizedRemote(state.schema, customization);
    if ('problem' in names) {
      // The engine finds the customized remote inconsistent, for the reason alone.
      const object: InconsistentObject = { type: 'remote_schema', reason: names.problem, definition: remote };
      problems.push({ object, error: engineError('invalid-configuration.remote-schema', '$.args', [names.problem], reportInconsistencies([object])) });
      continue;
    }
    const contribution = customizedContribution(remote.name, names);
    const customized = customization ? { names } : {};
    const conflict = firstConflict(own, [...claimed, ...usable.map((u) => u.contribution), contribution]);
    if (conflict) {
      problems.push({
        object: { type: 'remote_schema', reason: formatMessage('err.remote-schema-conflicts.graphql-name', ...conflict), definition: remote },
        error: engineError('remote-schema-conflicts.graphql-name', '$.args', conflict),
      });
      continue;
    }
    if (!permissions) {
      usable.push({ endpoint: state.endpoint, contribution, ...customized });
      continue;
    }
    // Each role's part is a subset of the remote's: it brings no name that the whole does not.
    const roles = new Map<string, { contribution: RemoteContribution; presets: RolePresets }>();
    // Inherited roles' parts too (decision dec.inherited-roles): a part that cannot be served is its parents' to report.
    const inherited = inheritedRemotePermissions(document, remote.name);
    for (const p of [...(remote.permissions ?? []), ...inherited]) {
      const role = roleRemote(state.schema, p.definition.schema, compat);
      // The role's part under the remote's customization.
      const roleNames = 'reasons' in role ? undefined : customizedRemote(role.schema, customization);
      const reasons = 'reasons' in role ? role.reasons : roleNames && 'problem' in roleNames ? [roleNames.problem] : undefined;
      if (reasons && inherited.includes(p)) continue;
      if (reasons) {
        const message = formatMessage('err.validation-failed.remote-schema-permission', reasonsText(reasons));
        problems.push({
          object: { type: 'remote_schema_permission', reason: message, definition: { remote_schema: remote.name, ...p } },
          error: engineError('validation-failed.remote-schema-permission', '$.args', [reasonsText(reasons)]),
        });
        continue;
      }
      roles.set(p.role, { contribution: customizedContribution(remote.name, roleNames as CustomizedRemote), presets: (role as RoleRemote).presets });
    }
    usable.push({ endpoint: state.endpoint, contribution, roles, ...customized });
  }
  problems.push(...remoteRelationshipProblems(document, usable, db));
  return { usable, actionsUsable: actionTypes !== undefined && !actionConflict, problems };
}

/**
 * What a change that brings `problem` is refused with. A remote that the change adds or redefines
 * and that clashes is refused as the engine refuses a metadata object it finds inconsistent
 * (err.invalid-configuration.remote-schema); anything else with the problem's own error.
 */
export function introducedRemoteError(problem: RemoteProblem, before: MetadataDocument): EngineError {
  const o = problem.object;
  if (o.type !== 'remote_schema' || problem.error.id !== 'err.remote-schema-conflicts.graphql-name') return problem.error;
  const previous = remoteSchemasOf(before).find((r) => r.name === o.definition.name);
  if (previous && JSON.stringify(previous.definition) === JSON.stringify(o.definition.definition)) return problem.error;
  return engineError('invalid-configuration.remote-schema', '$.args', [o.reason], reportInconsistencies([o]));
}
