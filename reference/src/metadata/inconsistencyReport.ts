// Inconsistent objects as the engine reports them (decision dec.inconsistency.report): what
// depends on an inconsistent table is inconsistent with it, and every object carries the engine's
// `name` and a reason that says what kind of problem it is.
import { displayQualified, formatMessage, quoteQualified, sameQualified, type MetadataDocument, type QualifiedName } from '../../../spec';
import type { InconsistentObject } from './inconsistency';
import { relationshipsOf, targetOf } from './relationships';
import type { Introspection } from '../db/introspection';

/** The table an inconsistent object of type table names (its definition is the table, or its display name). */
function tableOf(document: MetadataDocument, o: InconsistentObject): QualifiedName | undefined {
  if (o.type !== 'table') return undefined;
  const d = o.definition;
  return typeof d === 'string' ? document.tables.find((t) => displayQualified(t.table) === d)?.table : d;
}

/**
 * The relationships that lead to a table of `objects` and are not in `objects` yet: the engine
 * cannot build them without the table, so they are inconsistent too (and dropped with it).
 */
export function dependentRelationships(document: MetadataDocument, db: Introspection, objects: readonly InconsistentObject[]): InconsistentObject[] {
  const own = objects.filter((o) => !('source' in o && o.source !== undefined));
  const gone = own.flatMap((o) => {
    const t = tableOf(document, o);
    return t ? [t] : [];
  });
  if (gone.length === 0) return [];
  const reported = new Set(own.flatMap((o) => (o.type === 'object_relation' || o.type === 'array_relation' ? [JSON.stringify(o.definition)] : [])));
  const out: InconsistentObject[] = [];
  for (const entry of document.tables) {
    if (gone.some((t) => sameQualified(t, entry.table))) continue;
    for (const { rel, kind } of relationshipsOf(entry)) {
      const target = targetOf(entry, rel, kind, db);
      if (!target || !gone.some((t) => sameQualified(t, target))) continue;
      const definition = { table: entry.table, ...rel };
      if (reported.has(JSON.stringify(definition))) continue;
      out.push({
        type: kind === 'object' ? 'object_relation' : 'array_relation',
        reason: formatMessage(
          'err.constraint-violation.relationship',
          quoteQualified(entry.table),
          JSON.stringify(rel.name),
          formatMessage('err.not-exists.table', quoteQualified(target)),
        ),
        definition,
      });
    }
  }
  return out;
}

/** The engine's name of an object: its kind, its name, and where it is. */
function nameOf(o: InconsistentObject): string {
  const source = `in source ${('source' in o && o.source) || 'default'}`;
  switch (o.type) {
    case 'table':
      return `table ${typeof o.definition === 'string' ? o.definition : displayQualified(o.definition)} ${source}`;
    case 'function':
      return `function ${displayQualified(o.definition.function)} ${source}`;
    case 'object_relation':
    case 'array_relation': {
      const d = o.definition as { table: QualifiedName; name: string };
      return `${o.type} ${d.name} in table ${displayQualified(d.table)} ${source}`;
    }
    case 'computed_field':
    case 'remote_relationship':
      return `${o.type} ${o.definition.name} in table ${displayQualified(o.definition.table)} ${source}`;
    case 'insert_permission':
    case 'select_permission':
    case 'update_permission':
    case 'delete_permission':
      return `${o.type} ${o.definition.role} in table ${displayQualified(o.definition.table)} ${source}`;
    case 'remote_schema_permission':
      return `remote_schema_permission ${o.definition.role} permission in remote schema ${o.definition.remote_schema}`;
    case 'source':
    case 'inherited_role':
    case 'inherited role permission inconsistency':
      return o.name;
    default:
      return `${o.type} ${o.definition.name}`;
  }
}

const PREFIX = 'Inconsistent object: ';

/** Objects as the responses carry them: with the engine's name, the reason after "Inconsistent object: ". */
export function reportInconsistencies(objects: readonly InconsistentObject[]): Record<string, unknown>[] {
  return objects.map((o) => {
    // These carry the engine's name and words already.
    if (o.type === 'source' || o.type === 'inherited_role' || o.type === 'inherited role permission inconsistency') return o;
    const { type, reason, ...rest } = o;
    return { type, name: nameOf(o), reason: reason.startsWith(PREFIX) ? reason : PREFIX + reason, ...rest };
  });
}
