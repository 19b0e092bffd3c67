// Remote schemas and actions join a schema whose tables and functions are valid already (decision
// dec.schema.always-valid); what of them still keeps a role's schema from being valid is left out
// and named as itself (decision dec.remote-schema.valid-schema), never pinned on a table, and never
// served to fail every request.
import { formatMessage, type MetadataDocument } from '../../../spec';
import { actionsOf } from '../metadata/actions';
import type { InconsistentObject } from '../metadata/inconsistency';
import { remoteSchemasOf } from '../metadata/remoteSchemas';
import type { UsableRemote } from '../remote/view';
import type { SchemaCache } from './schemaCache';
import { firstSchemaError } from './schemaValidity';

export interface Externals {
  remotes: readonly UsableRemote[];
  withActions: boolean;
}

/**
 * The externals that can be served: while a schema built with them (`build`, from types made anew)
 * is not valid, the newest remote schema, else the actions, whose removal changes what is wrong is
 * left out, with the validation's message as its reason.
 */
export function servableExternals(
  document: MetadataDocument,
  externals: Externals,
  build: (externals: Externals) => SchemaCache,
): Externals & { problems: InconsistentObject[] } {
  let current = externals;
  const problems: InconsistentObject[] = [];
  for (;;) {
    const error = firstSchemaError(build(current));
    if (error === undefined) break;
    const candidates: { without: Externals; object: InconsistentObject }[] = current.remotes
      .map((remote) => ({
        without: { ...current, remotes: current.remotes.filter((r) => r !== remote) },
        object: remoteObject(document, remote.endpoint.name, error),
      }))
      .reverse();
    const action = actionsOf(document)[0];
    if (current.withActions && action)
      candidates.push({
        without: { ...current, withActions: false },
        object: { type: 'action', reason: formatMessage('err.validation-failed.schema', error), definition: action },
      });
    const found = candidates.find((c) => firstSchemaError(build(c.without)) !== error);
    if (!found) break;
    problems.push(found.object);
    current = found.without;
  }
  return { ...current, problems };
}

function remoteObject(document: MetadataDocument, name: string, error: string): InconsistentObject {
  const definition = remoteSchemasOf(document).find((r) => r.name === name)!;
  return { type: 'remote_schema', reason: formatMessage('err.remote-schema-error.unusable', JSON.stringify(name), error), definition };
}
