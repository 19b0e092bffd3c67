// get_catalog_state and set_catalog_state (decision dec.catalog-state): the tools' state, read and
// written in the request's transaction, so that in a bulk it commits with the rest (the engine's
// CLI records an applied migration here; engine-reference migrate records it in the same bulk).
import * as q from '../sql';
import { SUCCESS, type OperationContext } from './context';

export async function getCatalogState(ctx: OperationContext): Promise<unknown> {
  const [row] = await q.run<{ id: string; cli_state: unknown; console_state: unknown }>(ctx.db, q.readCatalogState);
  return { id: row!.id, cli_state: row!.cli_state, console_state: row!.console_state };
}

export async function setCatalogState(ctx: OperationContext, args: { type: 'cli' | 'console'; state: unknown }): Promise<unknown> {
  await q.run(ctx.db, q.writeCatalogState(args.type, args.state));
  return SUCCESS;
}
