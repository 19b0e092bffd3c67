// Enum tables (SPEC.md §2.3 "is_enum"): which tables can be one, checked against their rows.
import { quoteQualified, type QualifiedName } from '../../../spec';
import { primaryKeyOf, type DbColumn, type DbTable } from '../db/introspection';
import { engineError } from '../errors';

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);

/** What a table's columns say of it as an enum table: its value and comment columns where they can be, and what keeps it from being one. */
export interface EnumFindings {
  /** The engine's reasons, in its order: the primary key, then the other columns. */
  reasons: string[];
  /** The primary key column, when it can hold the values (its rows are then read). */
  valueColumn: string | undefined;
  commentColumn: string | undefined;
}

/** PostgreSQL's own names of the types it lists under other names in pg_type (format_type's). */
const SQL_TYPE_NAMES: Readonly<Record<string, string>> = {
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  float4: 'real',
  float8: 'double precision',
  bool: 'boolean',
  bpchar: 'character',
  varchar: 'character varying',
  timestamp: 'timestamp without time zone',
  timestamptz: 'timestamp with time zone',
  time: 'time without time zone',
  timetz: 'time with time zone',
};

const typeMismatch = (what: string, column: DbColumn) =>
  `the table’s ${what} (${JSON.stringify(column.name)}) must have type "text", not type ${JSON.stringify(SQL_TYPE_NAMES[column.type] ?? column.type)}`;
const listed = (names: readonly string[]) => [...names].sort().join(', ');

/** The engine's checks of an enum table's columns (all of them, not the first that fails). */
export function enumFindings(table: DbTable): EnumFindings {
  const reasons: string[] = [];
  const pk = primaryKeyOf(table);
  let valueColumn: string | undefined;
  if (!pk) reasons.push('the table must have a primary key');
  else if (pk.columns.length > 1) reasons.push(`the table’s primary key must not span multiple columns (${listed(pk.columns)})`);
  else {
    const key = table.columns.find((c) => c.name === pk.columns[0])!;
    if (TEXT_TYPES.has(key.type)) valueColumn = key.name;
    else reasons.push(typeMismatch('primary key', key));
  }
  // Without a usable key every column counts as one besides it, as the engine counts them.
  const others = table.columns.filter((c) => c.name !== valueColumn);
  let commentColumn: string | undefined;
  if (others.length > 1) {
    reasons.push(
      `the table must have exactly one primary key and optionally one comment column, not ${others.length} columns (${listed(others.map((c) => c.name))})`,
    );
  } else if (others.length === 1) {
    if (TEXT_TYPES.has(others[0]!.type)) commentColumn = others[0]!.name;
    else reasons.push(typeMismatch('comment column', others[0]!));
  }
  return { reasons, valueColumn, commentColumn };
}

/** Why these values cannot be an enum's (none, or some that are no GraphQL enum value names), in the engine's words; undefined when they can. */
export function enumValuesProblem(values: readonly string[]): string | undefined {
  if (values.length === 0) return 'the table must have at least one row';
  const bad = values.filter((v) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(v) || ['true', 'false', 'null'].includes(v)).sort();
  if (bad.length === 0) return undefined;
  const last = JSON.stringify(bad[bad.length - 1]);
  if (bad.length === 1) return `the value ${last} is not a valid GraphQL enum value name`;
  // The engine quotes the first of two, and none but the last of more.
  const before = bad.length === 2 ? JSON.stringify(bad[0]) : `${bad.slice(0, -1).join(', ')},`;
  return `the values ${before} and ${last} are not valid GraphQL enum value names`;
}

/** What follows "cannot be used as an enum": one reason, or a list of them, as the engine writes them. */
export function enumReasonsText(reasons: readonly string[]): string {
  if (reasons.length === 1) return `because ${reasons[0]}`;
  return `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`;
}

/** The refusal of a table that cannot be an enum, for every reason found. */
export function enumRefusal(name: QualifiedName, reasons: readonly string[]) {
  return engineError('constraint-violation.enum-table', '$.args', [quoteQualified(name), enumReasonsText(reasons)]);
}

/** Every reason a table cannot be an enum: its columns' and, when its key can hold values, its rows'. */
export function enumReasons(found: EnumFindings, values: readonly string[] | undefined): string[] {
  const problem = found.valueColumn !== undefined && values !== undefined ? enumValuesProblem(values) : undefined;
  return problem ? [...found.reasons, problem] : found.reasons;
}
