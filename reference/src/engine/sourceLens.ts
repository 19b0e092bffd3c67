// Table and function operations with the `source` of another database (decision
// dec.source.forms): the operation runs on that source's tables and functions as a document of
// their own, against its database inside the request's transaction there, and its result goes back
// under the source. What it may not break is checked here: the source's own consistency, and the
// GraphQL names of every source.
import { engineError } from '../errors';
import { findInconsistencies, introducedBy } from '../metadata/inconsistency';
import { reportInconsistencies } from '../metadata/inconsistencyReport';
import { labelledParts, sourcesOf, sourceView, withSourceView } from '../metadata/sources';
import { checkNamesAcross } from '../metadata/tables';
import type { OperationContext } from '../operations/context';
import { requestContext, type ContextSources } from './requestContext';
import { ServedState } from './served';
import type { SourceTransactions } from './sourceTransactions';

export async function inSource(
  sources: ContextSources,
  transactions: SourceTransactions,
  ctx: OperationContext,
  name: string,
  work: (sub: OperationContext) => Promise<unknown>,
): Promise<unknown> {
  const source = sourcesOf(ctx.document).find((s) => s.name === name)!;
  const client = await transactions.client(name, () => sources.sourcePools.poolOf(source));
  const pool = sources.sourcePools.poolOf(source);
  const view = sourceView(ctx.document, name);
  // Its own served state: table details are kept per database.
  const { ctx: sub } = requestContext(
    { ...sources, ...('problem' in pool ? {} : { pool }), served: new ServedState(sources.config, sources.remotes) },
    client,
    { document: view, resourceVersion: ctx.resourceVersion },
  );
  sub.within = { source: name, outer: ctx };
  const before = findInconsistencies(view, await sub.introspect());
  const result = await work(sub);
  if (sub.document !== view) {
    const introduced = introducedBy(before, findInconsistencies(sub.document, await sub.introspect()));
    if (introduced.length > 0 && !ctx.acceptInconsistencies)
      throw engineError('unexpected.inconsistent-metadata', '$.args', [], reportInconsistencies(introduced));
    const next = withSourceView(ctx.document, name, sub.document);
    checkNamesAcross(labelledParts(next));
    ctx.document = next;
  }
  return result;
}
