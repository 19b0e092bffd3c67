// run_sql keeps the metadata consistent with the database its SQL made (decision
// dec.run_sql.consistency): when the SQL may have changed what the metadata names, the document as
// run_sql left it is checked against the new database inside the request's transaction, and an
// object that is inconsistent now and was not before refuses the request (the SQL is undone with it).
import { engineError } from '../errors';
import { findInconsistencies, introducedBy, type InconsistentObject } from '../metadata/inconsistency';
import { reportInconsistencies } from '../metadata/inconsistencyReport';
import type { OperationContext } from './context';

/** Whether run_sql checks the metadata after its SQL: as asked, else when the SQL does more than read and change rows (as the engine decides). */
export function checksConsistency(asked: boolean | undefined, onlyRows: boolean): boolean {
  return asked ?? !onlyRows;
}

/** What is inconsistent before the SQL runs: call it before. */
export async function problemsBefore(ctx: OperationContext): Promise<InconsistentObject[]> {
  return [...(await ctx.inconsistenciesBefore()), ...(await ctx.schemaProblemsBefore())];
}

/** Refuse the request when the database now makes an object inconsistent that `before` did not have. */
export async function refuseNewInconsistencies(ctx: OperationContext, before: readonly InconsistentObject[]): Promise<void> {
  const now = [...findInconsistencies(ctx.document, await ctx.introspect()), ...(await ctx.schemaProblems(ctx.document))];
  const introduced = introducedBy(before, now);
  if (introduced.length > 0) throw engineError('unexpected.new-inconsistent-metadata', '$.args', [], reportInconsistencies(introduced));
}
