// export_metadata, replace_metadata, clear_metadata, reload_metadata,
// get_inconsistent_metadata and drop_inconsistent_metadata (SPEC.md §4.3).
import type { MetadataDocument } from '../../../spec';
import { engineError } from '../errors';
import { clearedDocument, exportForm, withoutInconsistent } from '../metadata/document';
import { findInconsistencies } from '../metadata/inconsistency';
import { SUCCESS, type OperationContext } from './context';

export async function exportMetadata(ctx: OperationContext): Promise<unknown> {
  return exportForm(ctx.document);
}

type ReplaceArgs = MetadataDocument | { metadata: MetadataDocument; allow_inconsistent_metadata?: boolean };

export async function replaceMetadata(ctx: OperationContext, args: ReplaceArgs, version: number): Promise<unknown> {
  const v2 = version === 2 ? (args as { metadata: MetadataDocument; allow_inconsistent_metadata?: boolean }) : undefined;
  const document = v2 ? v2.metadata : (args as MetadataDocument);
  const inconsistent = findInconsistencies(document, await ctx.introspect());
  if (inconsistent.length > 0 && !v2?.allow_inconsistent_metadata) {
    // Rule replace_metadata.1: the same 400 for v1 and v2.
    throw engineError('unexpected.inconsistent-metadata', '$.args', [], inconsistent);
  }
  ctx.document = document;
  ctx.acceptInconsistencies = true;
  if (!v2) return SUCCESS;
  return { is_consistent: inconsistent.length === 0, inconsistent_objects: inconsistent };
}

export async function clearMetadata(ctx: OperationContext): Promise<unknown> {
  ctx.document = clearedDocument();
  return SUCCESS;
}

export async function reloadMetadata(ctx: OperationContext): Promise<unknown> {
  ctx.invalidateIntrospection();
  const inconsistent = findInconsistencies(ctx.document, await ctx.introspect());
  // Reloading reports what does not fit any more; it does not refuse it.
  ctx.acceptInconsistencies = true;
  return inconsistent.length === 0
    ? { ...SUCCESS, is_consistent: true }
    : { ...SUCCESS, is_consistent: false, inconsistent_objects: inconsistent };
}

export async function getInconsistentMetadata(ctx: OperationContext): Promise<unknown> {
  return findInconsistencies(ctx.document, await ctx.introspect());
}

export async function dropInconsistentMetadata(ctx: OperationContext): Promise<unknown> {
  ctx.document = withoutInconsistent(ctx.document, await ctx.introspect());
  return SUCCESS;
}
