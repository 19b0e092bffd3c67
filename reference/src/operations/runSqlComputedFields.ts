// run_sql and the functions of computed fields, followed as the engine follows them (decision
// dec.computed_fields.run_sql): a function stays the same function only while its oid does. One
// that the SQL dropped (renamed, or dropped and made again, whatever its new signature) takes its
// computed fields with it: refused without cascade, dropped with the select permissions that list
// them with cascade. One the SQL overloaded or made VOLATILE is refused, cascade or not.
import { displayQualified, quoteQualified, type MetadataDocument, type TableEntry } from '../../../spec';
import { relationKey, type DbFunction, type Introspection } from '../db/introspection';
import { engineError } from '../errors';
import { computedFieldsOf, withoutComputedFieldsCascading } from '../metadata/computedFields';
import { replaceEntry } from '../metadata/tableEntries';

interface Change {
  entry: TableEntry;
  field: string;
  before: DbFunction;
  after: readonly DbFunction[];
}

export function followComputedFieldFunctions(
  document: MetadataDocument,
  before: Introspection,
  after: Introspection,
  cascade: boolean,
  path: string,
): MetadataDocument {
  const changes: Change[] = [];
  for (const entry of document.tables) {
    if (!after.relations.has(relationKey(entry.table))) continue;
    for (const field of computedFieldsOf(entry)) {
      const key = relationKey(field.definition.function);
      const old = before.functions.get(key);
      // A function that was missing or overloaded before was inconsistent already.
      if (old?.length !== 1) continue;
      changes.push({ entry, field: field.name, before: old[0]!, after: after.functions.get(key) ?? [] });
    }
  }
  const dropped = changes.filter((c) => !c.after.some((f) => f.oid === c.before.oid));
  if (dropped.length > 0 && !cascade) {
    throw engineError('dependency-error.drop', path, [dropped.map((c) => `computed field ${displayQualified(c.entry.table)}.${c.field}`).join(', ')]);
  }
  for (const c of changes) {
    if (dropped.includes(c)) continue;
    const names = [quoteQualified(c.before), JSON.stringify(c.field), quoteQualified(c.entry.table)];
    if (c.after.length > 1) throw engineError('not-supported.computed-field-function-overloaded', path, names);
    const now = c.after.find((f) => f.oid === c.before.oid)!;
    if (now.volatility === 'VOLATILE' && c.before.volatility !== 'VOLATILE') throw engineError('not-supported.computed-field-function-volatile', path, names);
  }
  let next = document;
  for (const c of dropped) {
    const entry = next.tables.find((t) => t.table === c.entry.table || relationKey(t.table) === relationKey(c.entry.table))!;
    next = replaceEntry(next, withoutComputedFieldsCascading(entry, [c.field]));
  }
  return next;
}
