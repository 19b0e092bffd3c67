// Handlers of the query collection and allow-list operations (SPEC.md §2.2, in the engine's
// documented forms): pure changes of metadata/collections.ts.
import type { QueryCollection } from '../../../spec';
import * as C from '../metadata/collections';
import { SUCCESS, type OperationContext } from './context';

const apply =
  <A>(change: (document: OperationContext['document'], args: A) => OperationContext['document']) =>
  async (ctx: OperationContext, args: A): Promise<unknown> => {
    ctx.document = change(ctx.document, args);
    return SUCCESS;
  };

export const createQueryCollection = apply<QueryCollection & { comment?: string | null }>(C.createQueryCollection);
export const dropQueryCollection = apply<{ collection: string; cascade?: boolean }>(C.dropQueryCollection);
export const addQueryToCollection = apply<{ collection_name: string; query_name: string; query: string }>(C.addQueryToCollection);
export const dropQueryFromCollection = apply<{ collection_name: string; query_name: string }>(C.dropQueryFromCollection);
export const addCollectionToAllowlist = apply<{ collection: string }>(C.addCollectionToAllowlist);
export const dropCollectionFromAllowlist = apply<{ collection: string }>(C.dropCollectionFromAllowlist);
