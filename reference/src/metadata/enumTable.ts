// Enum tables (SPEC.md §2.3 "is_enum"): which tables can be one, checked against their rows.
import { quoteQualified, type QualifiedName } from '../../../spec';
import { primaryKeyOf, type DbTable } from '../db/introspection';
import { engineError } from '../errors';

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);

export interface EnumShape {
  valueColumn: string;
  commentColumn: string | undefined;
}

/** The columns of an enum table, or the refusal that says why the table cannot be one. */
export function enumShape(table: DbTable, name: QualifiedName): EnumShape {
  const refuse = (reason: string) => engineError('constraint-violation.enum-table', '$.args', [quoteQualified(name), reason]);
  const pk = primaryKeyOf(table);
  if (!pk) throw refuse('it has no primary key');
  if (pk.columns.length !== 1) throw refuse('its primary key is not a single column');
  const valueColumn = pk.columns[0]!;
  const value = table.columns.find((c) => c.name === valueColumn)!;
  if (!TEXT_TYPES.has(value.type)) throw refuse(`its primary key column ${JSON.stringify(valueColumn)} is not of a text type`);
  const others = table.columns.filter((c) => c.name !== valueColumn);
  if (others.length > 1) throw refuse('it has more than one column besides its primary key');
  const comment = others[0];
  if (comment && !TEXT_TYPES.has(comment.type)) throw refuse(`its column ${JSON.stringify(comment.name)} is not of a text type`);
  return { valueColumn, commentColumn: comment?.name };
}

/** Why these values cannot be an enum's (none, or some that are no GraphQL enum value names); undefined when they can. */
export function enumValuesProblem(values: readonly string[]): string | undefined {
  if (values.length === 0) return 'it has no rows';
  const bad = values.filter((v) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(v) || ['true', 'false', 'null'].includes(v)).map((v) => JSON.stringify(v));
  if (bad.length === 0) return undefined;
  if (bad.length === 1) return `the value ${bad[0]} is not a valid GraphQL enum value name`;
  return `the values ${bad.slice(0, -1).join(', ')} and ${bad[bad.length - 1]} are not valid GraphQL enum value names`;
}

/** Enum values must be GraphQL enum value names, and there must be some. */
export function checkEnumValues(name: QualifiedName, values: readonly string[]): void {
  const problem = enumValuesProblem(values);
  if (problem) throw engineError('constraint-violation.enum-table', '$.args', [quoteQualified(name), problem]);
}
