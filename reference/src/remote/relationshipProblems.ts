// Remote relationships whose remote side cannot be served (decision dec.remote-relationship.forms):
// the remote schema is missing, cannot be served or is customized, or the path of remote_field does
// not resolve in it.
import { quoteQualified, remoteTarget, type MetadataDocument, type TableEntry } from '../../../spec';
import { engineError, type EngineError } from '../errors';
import { remoteRelationshipInconsistency, type InconsistentObject } from '../metadata/inconsistency';
import type { RemoteContribution } from '../metadata/remoteSchemas';
import { lhsProblem, remoteRelationshipsOf } from '../metadata/remoteRelationships';
import { sourcesOf } from '../metadata/sources';
import { relationKey, type Introspection } from '../db/introspection';
import { resolveRemotePath } from '../schema/remoteRelationshipField';
import { namingOf, type CustomizedRemote } from './customization';

/** The remotes that can be served: their root fields, and their names where customized. */
type Served = { contribution: RemoteContribution; names?: CustomizedRemote };

export function remoteRelationshipProblems(
  document: MetadataDocument,
  usable: readonly Served[],
  db?: Introspection,
): { object: InconsistentObject; error: EngineError }[] {
  const problems: { object: InconsistentObject; error: EngineError }[] = [];
  const known = new Set((document.remote_schemas ?? []).map((r) => r.name));
  // The server's own tables, then each source's (decision dec.source.forms): those are checked against their database in their part.
  const entries: { entry: TableEntry; source?: string }[] = [
    ...document.tables.map((entry) => ({ entry })),
    ...sourcesOf(document).flatMap((s) => s.tables.map((entry) => ({ entry, source: s.name }))),
  ];
  for (const { entry, source } of entries) {
    // A table the database lacks, or a relationship its table cannot serve, is reported as that.
    const table = source === undefined ? db?.tables.get(relationKey(entry.table)) : undefined;
    if (db && source === undefined && !table) continue;
    for (const rel of remoteRelationshipsOf(entry)) {
      if (table && lhsProblem(table, rel) !== undefined) continue;
      const target = remoteTarget(rel.definition);
      if (!target) continue; // a source's table: decided with the sources' models (execute/sourceModels.ts)
      const remote = usable.find((u) => u.contribution.name === target.remote_schema);
      const name = JSON.stringify(target.remote_schema);
      const reason = !remote
        ? known.has(target.remote_schema)
          ? `the remote schema ${name} cannot be served`
          : `the remote schema ${name} does not exist`
        : ((r) => ('problem' in r ? r.problem : undefined))(
            resolveRemotePath(remote.contribution, target.remote_field, remote.names ? namingOf(remote.names) : undefined),
          );
      if (reason === undefined) continue;
      const object = remoteRelationshipInconsistency(entry.table, rel, reason);
      problems.push({
        object: source === undefined ? object : { ...object, source },
        error: engineError('remote-schema-error.remote-relationship', '$.args', [JSON.stringify(rel.name), quoteQualified(entry.table), reason]),
      });
    }
  }
  return problems;
}
