// Handlers of the function operations (SPEC.md §4.3 track_function / untrack_function, §4.4
// function permissions): load the database's functions, then apply metadata/functions.ts.
import { DEFAULT_SCHEMA, type FunctionConfiguration, type MetadataDocument, type QualifiedName } from '../../../spec';
import type { Introspection } from '../db/introspection';
import { tablesNamedBy } from '../metadata/document';
import * as F from '../metadata/functions';
import { checkNames } from '../metadata/tables';
import { SUCCESS, type OperationContext } from './context';

type TrackArgs = { function: QualifiedName; configuration?: FunctionConfiguration; comment?: string | null } | { schema?: string; name: string };

export async function trackFunction(ctx: OperationContext, args: TrackArgs): Promise<unknown> {
  // Version 1 names the function by schema and name at the top of args.
  const v2 = 'function' in args;
  const name = v2 ? args.function : { schema: args.schema ?? DEFAULT_SCHEMA, name: args.name };
  const configuration = v2 ? args.configuration : undefined;
  const comment = v2 ? args.comment : undefined;
  // Introspect the document with the function in it, so that its overloads are read.
  const db = await introspectFor(ctx, { ...ctx.document, functions: [...F.functionsOf(ctx.document), { function: name }] });
  const next = F.trackFunction(ctx.document, db, {
    function: name,
    ...(configuration ? { configuration } : {}),
    ...(comment !== undefined ? { comment } : {}),
  });
  checkNames(next, db);
  ctx.document = next;
  return SUCCESS;
}

/** The database with what `document` names (tables and functions), before it becomes the request's document. */
export async function introspectFor(ctx: OperationContext, document: MetadataDocument): Promise<Introspection> {
  const before = ctx.document;
  ctx.document = document;
  try {
    return await ctx.introspect(tablesNamedBy(document));
  } finally {
    ctx.document = before;
  }
}

export async function setFunctionCustomization(ctx: OperationContext, args: F.SetFunctionCustomizationArgs): Promise<unknown> {
  const db = await introspectFor(ctx, ctx.document);
  const next = F.setFunctionCustomization(ctx.document, db, args);
  checkNames(next, db);
  ctx.document = next;
  return SUCCESS;
}

type UntrackArgs = { schema?: string; name?: string; table?: QualifiedName; function?: QualifiedName };

export async function untrackFunction(ctx: OperationContext, args: UntrackArgs): Promise<unknown> {
  const name = args.function ?? args.table ?? { schema: args.schema ?? DEFAULT_SCHEMA, name: args.name ?? '' };
  ctx.document = F.untrackFunction(ctx.document, name);
  return SUCCESS;
}

export async function createFunctionPermission(ctx: OperationContext, args: F.FunctionPermissionArgs): Promise<unknown> {
  ctx.document = F.createFunctionPermission(ctx.document, await ctx.introspect(), args, ctx.config.inferFunctionPermissions);
  return SUCCESS;
}

export async function dropFunctionPermission(ctx: OperationContext, args: F.FunctionPermissionArgs): Promise<unknown> {
  ctx.document = F.dropFunctionPermission(ctx.document, args);
  return SUCCESS;
}
