// What the GraphQL compiler works with: the table models and helpers shared by its parts.
import * as sql from 'pg-sql2';
import type { DbColumn } from '../../db/introspection';
import type { Models, TableModel } from '../../schema/model';
import type { CompatHeaders } from '../../sessionNames';
import { geoJsonProblem, rasterProblem } from '../../schema/geoJson';

export type Fragment = sql.SQLQuery | sql.SQLNode;

/** Refused input that validation against the schema cannot catch. */
export class CompileError extends Error {
  constructor(
    message: string,
    readonly code = 'validation-failed',
  ) {
    super(message);
  }
}

export interface CompileContext {
  /** The tables as the role sees them (with the permissions to enforce, unless admin). */
  models: Models;
  /** All tracked tables: permission expressions may go through tables the role cannot read. */
  allModels: Models;
  sessionVariables: Readonly<Record<string, string>>;
  /** On a compatible server: x-hasura-… names are session variables too, and what leaves is named so. */
  compatHeaders?: CompatHeaders;
  /**
   * Compiling a subscription for many sessions at once (execute/cohorts.ts): session variables are
   * still checked against `sessionVariables`, but read in SQL from the session of the cohort's row.
   */
  cohort?: CohortSession;
}

/**
 * The row of a cohort the statement is computed for (its alias), whether a session variable was read
 * from it, and the GraphQL variables read from it with the values of the request compiled.
 */
export interface CohortSession {
  readonly alias: sql.SQLNode;
  readsSession: boolean;
  readonly variables: Record<string, unknown>;
}

/** A cohort to compile a subscription for: nothing read from its rows yet. */
export const newCohort = (): CohortSession => ({ alias: sql.identifier(Symbol('cohort')), readsSession: false, variables: {} });

/** A session variable read in SQL from the session of a cohort's row, rather than bound as its value. */
export class SessionRead {
  constructor(
    readonly cohort: CohortSession,
    readonly name: string,
  ) {}
}

/**
 * A GraphQL variable read in SQL from the variables of a cohort's row, rather than bound as its
 * value (execute/cohortVariables.ts): `value` is the request's own, a string, number, boolean or
 * null, or (an operand of `_in`) a list of those. The row's variables are `json`, so that a number
 * keeps the text it was sent as.
 */
export class VariableRead {
  constructor(
    readonly cohort: CohortSession,
    readonly name: string,
    readonly value: unknown,
  ) {}

  /** The variable's JSON value (`text`: its text, as `->>` gives it); the cohort now reads it. */
  read(text = false): sql.SQLQuery {
    this.cohort.variables[this.name] = this.value;
    return text
      ? sql.query`(${this.cohort.alias}.variables ->> ${sql.value(this.name)})`
      : sql.query`(${this.cohort.alias}.variables -> ${sql.value(this.name)})`;
  }
}

export const table = (t: TableModel) => sql.identifier(t.db.schema, t.db.name);
export const column = (alias: sql.SQLNode, name: string) => sql.query`${alias}.${sql.identifier(name)}`;
export const columnType = (c: DbColumn) => sql.identifier(c.type_schema, c.type);

/** The row of `t` under `alias` as a value of the table's row type (a computed field's argument). */
export const rowValue = (t: TableModel, alias: sql.SQLNode) =>
  sql.query`row(${sql.join(
    t.db.columns.map((c) => column(alias, c.name)),
    ', ',
  )})::${sql.identifier(t.db.schema, t.db.name)}`;

/** A bound value cast to the column's type; JSON columns get JSON text. */
export function typedValue(c: DbColumn, value: unknown): Fragment {
  const constructed = CONSTRUCTED[c.type];
  if (constructed) return constructedValue(c, value, constructed);
  const json = c.type === 'json' || c.type === 'jsonb';
  if (value instanceof SessionRead) {
    const session = sql.query`${value.cohort.alias}.session`;
    return json
      ? sql.query`(${session} -> ${sql.value(value.name)})::${columnType(c)}`
      : sql.query`(${session} ->> ${sql.value(value.name)})::${columnType(c)}`;
  }
  if (value instanceof VariableRead) return sql.query`${value.read(!json)}::${columnType(c)}`;
  const bound = json ? JSON.stringify(value) : value;
  return sql.query`${sql.value(bound)}::${columnType(c)}`;
}

/**
 * PostGIS's types, whose values the engine takes in another form and makes values with a function
 * (decisions dec.graphql.postgis, dec.graphql.postgis-raster): GeoJSON, hexadecimal WKB.
 */
const CONSTRUCTED: Record<string, { fn: string; problem: (value: unknown) => string | undefined }> = {
  geometry: { fn: 'ST_GeomFromGeoJSON', problem: geoJsonProblem },
  geography: { fn: 'ST_GeomFromGeoJSON', problem: geoJsonProblem },
  raster: { fn: 'ST_RastFromHexWKB', problem: rasterProblem },
};

/** A value of a PostGIS column, made by its function and cast to the column's type; a value not in its form is refused before the statement runs. */
function constructedValue(c: DbColumn, value: unknown, { fn, problem }: (typeof CONSTRUCTED)[string]): Fragment {
  const type = columnType(c);
  if (value instanceof SessionRead) return sql.query`${sql.raw(fn)}(${value.cohort.alias}.session ->> ${sql.value(value.name)})::${type}`;
  const given = value instanceof VariableRead ? value.value : value;
  const refused = problem(given);
  if (refused !== undefined) throw new CompileError(refused, 'parse-failed');
  if (given === null || given === undefined) return sql.query`null::${type}`;
  const text = value instanceof VariableRead ? value.read(typeof given === 'string') : sql.value(typeof given === 'string' ? given : JSON.stringify(given));
  return sql.query`${sql.raw(fn)}(${text}::text)::${type}`;
}

/**
 * An array of bound values, cast to an array of the column's type. A list read from a cohort's row
 * is made of its elements, each cast; a null one is bound as null (`_nin: null` matches nothing,
 * where an empty list would match every row).
 */
export function typedArray(c: DbColumn, given: unknown[] | null | VariableRead): Fragment {
  if (CONSTRUCTED[c.type] && Array.isArray(given) && given.length)
    return sql.query`array[${sql.join(
      given.map((v) => typedValue(c, v)),
      ', ',
    )}]`;
  const json = c.type === 'json' || c.type === 'jsonb';
  if (given instanceof VariableRead && Array.isArray(given.value)) {
    return json
      ? sql.query`array(select e::${columnType(c)} from json_array_elements(${given.read()}) as e)`
      : sql.query`array(select json_array_elements_text(${given.read()}))::${columnType(c)}[]`;
  }
  const values = given instanceof VariableRead ? (given.value as null) : given;
  const bound = json && values ? values.map((v) => JSON.stringify(v)) : values;
  return sql.query`${sql.value(bound)}::${columnType(c)}[]`;
}

export const alias = (hint: string) => sql.identifier(Symbol(hint));

declare const conditionBrand: unique symbol;

/**
 * A boolean SQL expression that carries its own parentheses, so it keeps its meaning next to any
 * operator (`a and ${c}`, `not ${c}`). Every condition the compiler makes is one: precedence
 * cannot be lost where conditions are combined, by construction rather than by care.
 */
export type Condition = sql.SQLQuery & { readonly [conditionBrand]: true };

/** `fragment` as a condition: wrapped in parentheses. */
export const condition = (fragment: Fragment): Condition => sql.query`(${fragment})` as Condition;

export const TRUE: Condition = condition(sql.query`true`);
export const FALSE: Condition = condition(sql.query`false`);

const present = (parts: readonly (Condition | undefined)[]) => parts.filter((p): p is Condition => p !== undefined);

/** All of `parts` (absent ones left out); true when there are none. */
export function and(parts: readonly (Condition | undefined)[]): Condition {
  const given = present(parts);
  return given.length === 0 ? TRUE : given.length === 1 ? given[0]! : condition(sql.join(given, ' and '));
}

/** Any of `parts`; false when there are none. */
export function or(parts: readonly Condition[]): Condition {
  return parts.length === 0 ? FALSE : parts.length === 1 ? parts[0]! : condition(sql.join([...parts], ' or '));
}

export const not = (c: Condition): Condition => condition(sql.query`not ${c}`);

/** Some row of `source` (a table with its alias) satisfies `where`. */
export const exists = (source: Fragment, where: Condition): Condition => condition(sql.query`exists (select 1 from ${source} where ${where})`);

/** The join condition of a relationship from `fromAlias` (this table) to `toAlias` (the remote one). */
export const joinCondition = (mapping: readonly [string, string][], fromAlias: sql.SQLNode, toAlias: sql.SQLNode): Condition =>
  and(mapping.map(([local, remote]) => condition(sql.query`${column(fromAlias, local)} = ${column(toAlias, remote)}`)));

/**
 * A JSON object of `pairs`, in their order. json_build_object takes at most 100 arguments, so a
 * larger object is built in pieces whose texts are joined: `{"a" : 1}` and `{"b" : 2}` become
 * `{"a" : 1, "b" : 2}` (merging them as jsonb would reorder the keys, and GraphQL answers in the
 * order of the selection). Each piece is evaluated once.
 */
export function jsonObject(pairs: [string, Fragment][]): Fragment {
  const build = (chunk: [string, Fragment][]) =>
    sql.query`json_build_object(${sql.join(
      chunk.map(([k, v]) => sql.query`${sql.literal(k)}, ${v}`),
      ', ',
    )})`;
  if (pairs.length <= 50) return build(pairs);
  const chunks: [string, Fragment][][] = [];
  for (let i = 0; i < pairs.length; i += 50) chunks.push(pairs.slice(i, i + 50));
  const last = chunks.length - 1;
  const inner = chunks.map((chunk, i) => {
    const text = sql.query`${build(chunk)}::text`;
    if (i === 0) return sql.query`left(${text}, -1)`;
    return i === last ? sql.query`substr(${text}, 2)` : sql.query`substr(left(${text}, -1), 2)`;
  });
  return sql.query`(${sql.join(inner, " || ', ' || ")})::json`;
}

export { sql };
