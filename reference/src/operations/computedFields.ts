// Handlers of add_computed_field and drop_computed_field (SPEC.md §4.3): read the function, then
// apply metadata/computedFields.ts.
import type { ComputedFieldDefinition, QualifiedName } from '../../../spec';
import * as C from '../metadata/computedFields';
import { SUCCESS, type OperationContext } from './context';
import { introspectFor } from './functions';

export async function addComputedField(ctx: OperationContext, args: C.AddComputedFieldArgs): Promise<unknown> {
  const field = { name: args.name, definition: args.definition as ComputedFieldDefinition };
  // Introspect as if the field were there, so that its function is read.
  const probe = {
    ...ctx.document,
    tables: ctx.document.tables.map((t) =>
      t.table.schema === args.table.schema && t.table.name === args.table.name ? { ...t, computed_fields: [...C.computedFieldsOf(t), field] } : t,
    ),
  };
  const db = await introspectFor(ctx, probe);
  ctx.document = C.addComputedField(ctx.document, db, args);
  return SUCCESS;
}

export async function dropComputedField(ctx: OperationContext, args: { table: QualifiedName; name: string; cascade?: boolean }): Promise<unknown> {
  ctx.document = C.dropComputedField(ctx.document, args);
  return SUCCESS;
}
