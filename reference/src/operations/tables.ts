// Handlers of the table operations (SPEC.md §4.3): load what the database says, then apply the
// pure operation of metadata/tables.ts.
import { DEFAULT_SOURCE, normaliseConfiguration, type QualifiedName, type TableConfiguration, type TableEntry } from '../../../spec';
import type { Infer } from '../../../spec/schema';
import type { tableConfig } from '../../../spec/table-schemas';
import { enumFindings, enumReasons, enumRefusal } from '../metadata/enumTable';
import { dependentName, leadingTo } from '../metadata/sourceRelationshipDependents';
import { withSourceView } from '../metadata/sources';
import { databaseTable, replaceEntry, setConfiguration, trackedEntry, trackTable as track, untrackTable as untrack } from '../metadata/tables';
import * as q from '../sql';
import { SUCCESS, type OperationContext } from './context';

type RawConfiguration = Infer<typeof tableConfig>;

/** An enum table is refused with every reason the engine gives: its columns', then its rows' when its key can hold them. */
async function checkEnumTable(ctx: OperationContext, table: QualifiedName): Promise<void> {
  const db = await ctx.introspect([table]);
  const found = enumFindings(databaseTable(db, table));
  const values =
    found.valueColumn === undefined
      ? undefined
      : (await q.run<{ value: string }>(ctx.db, q.enumTableValues(table.schema, table.name, found.valueColumn, found.commentColumn))).map((r) => r.value);
  const reasons = enumReasons(found, values);
  if (reasons.length > 0) throw enumRefusal(table, reasons);
}

export async function trackTable(ctx: OperationContext, args: { table: QualifiedName; is_enum?: boolean; configuration?: RawConfiguration }): Promise<unknown> {
  const db = await ctx.introspect([args.table]);
  const configuration = normaliseConfiguration(args.configuration);
  ctx.document = track(ctx.document, db, { table: args.table, ...(args.is_enum ? { is_enum: true } : {}), ...(configuration ? { configuration } : {}) });
  if (args.is_enum) await checkEnumTable(ctx, args.table);
  return SUCCESS;
}

export async function untrackTable(ctx: OperationContext, args: { table: QualifiedName; cascade?: boolean }): Promise<unknown> {
  // to_source relationships from any source's tables that lead here are named in the refusal (decision dec.remote-relationship.to-source).
  const whole = ctx.within ? withSourceView(ctx.within.outer.document, ctx.within.source, ctx.document) : ctx.document;
  const remote = leadingTo(whole, ctx.within?.source ?? DEFAULT_SOURCE, args.table).map(dependentName);
  ctx.document = untrack(ctx.document, await ctx.introspect(), args, remote);
  return SUCCESS;
}

export async function setTableIsEnum(ctx: OperationContext, args: { table: QualifiedName; is_enum: boolean }): Promise<unknown> {
  const entry = trackedEntry(ctx.document, args.table);
  if (args.is_enum) await checkEnumTable(ctx, args.table);
  const { is_enum: _old, ...rest } = entry;
  ctx.document = replaceEntry(ctx.document, args.is_enum ? { ...rest, is_enum: true } : rest);
  return SUCCESS;
}

export async function setTableCustomization(ctx: OperationContext, args: { table: QualifiedName; configuration?: RawConfiguration }): Promise<unknown> {
  trackedEntry(ctx.document, args.table);
  ctx.document = setConfiguration(ctx.document, await ctx.introspect(), args.table, normaliseConfiguration(args.configuration));
  return SUCCESS;
}

/** Deprecated: replaces the custom root fields and column names, keeping the custom name. */
export async function setTableCustomFields(
  ctx: OperationContext,
  args: { table: QualifiedName; custom_root_fields?: RawConfiguration['custom_root_fields']; custom_column_names?: Record<string, string> },
): Promise<unknown> {
  const entry: TableEntry = trackedEntry(ctx.document, args.table);
  const current: TableConfiguration = entry.configuration ?? {};
  const configuration = normaliseConfiguration({
    ...(current.custom_name ? { custom_name: current.custom_name } : {}),
    ...(current.identifier ? { identifier: current.identifier } : {}),
    ...(args.custom_root_fields ? { custom_root_fields: args.custom_root_fields } : {}),
    ...(args.custom_column_names ? { custom_column_names: args.custom_column_names } : {}),
  });
  ctx.document = setConfiguration(ctx.document, await ctx.introspect(), args.table, configuration);
  return SUCCESS;
}
