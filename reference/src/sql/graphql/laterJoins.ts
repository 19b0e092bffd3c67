// Fields of a row answered after its statement has run (execute/remoteJoins.ts): the statement
// gives them the row's values to join on.
import type { TableModel } from '../../schema/model';
import { relationshipFieldOf } from '../../schema/generatedFields';

/** The columns a field answered later joins on: a remote relationship's, or one to a source's table (its `_aggregate` too); undefined: another field. */
export function joinedLater(t: TableModel, field: string): readonly string[] | undefined {
  const remote = t.remoteRelationships.find((r) => r.name === field);
  if (remote) return remote.lhs;
  const source = t.sourceRelationships.find((r) => r.name === field || (r.kind === 'array' && relationshipFieldOf(t, r.name, 'aggregate') === field));
  return source?.mapping.map(([c]) => c);
}
