// BoolExp in the metadata form (SPEC.md §2.1): keyed by column and relationship names, operators
// in `$` or `_` form, `{column: value}` equality, `$and`/`$or`/`$not`, column comparisons.
// Used by the legacy DML; permissions use the same form.
import { BOOL_EXP_SHAPE, connectiveOf, quoteQualified, schema, tableName } from '../../../../spec';
import { below, belowConnective, rolePath, shapePath, type BoolExpEnvironment } from './boolExpEnvironment';
import { relationKey, sourceKey, type DbColumn } from '../../db/introspection';
import { EngineError, engineError } from '../../errors';
import { isSessionVariable } from '../../sessionNames';
import type { TableModel } from '../../schema/model';
import {
  and,
  alias as newAlias,
  column,
  CompileError,
  condition,
  exists,
  joinCondition,
  not,
  or,
  sql,
  table,
  typedArray,
  typedValue,
  type Condition,
  type Fragment,
} from '../graphql/context';
import { permittedColumn } from './dmlRole';
import { aggregatePredicateField } from '../../schema/aggregatePredicates';
import type { RelationshipModel } from '../../schema/model';
import { aggregateOfRelated, predicateParts } from '../graphql/aggregatePredicate';
import { castColumn, OBJECT_OPERATORS, GEO_OPERATORS, geoCondition } from '../graphql/geo';
import { GEO_TYPES } from '../../schema/geoJson';

/** A permission's expression names fields as metadata does, whatever the source's naming convention. */
const METADATA_NAMES = {};

const TEXT_TYPES = ['text', 'varchar', 'bpchar', 'citext', 'name'];
const JSONB_TYPES = ['jsonb'];

const BINARY: Record<string, string> = {
  eq: '=',
  ne: '<>',
  neq: '<>',
  gt: '>',
  lt: '<',
  gte: '>=',
  lte: '<=',
};
const TEXT_OPERATORS: Record<string, string> = {
  like: 'like',
  nlike: 'not like',
  ilike: 'ilike',
  nilike: 'not ilike',
  similar: 'similar to',
  nsimilar: 'not similar to',
  regex: '~',
  nregex: '!~',
  iregex: '~*',
  niregex: '!~*',
};
const JSONB_OPERATORS: Record<string, string> = { contains: '@>', contained_in: '<@' };
const COLUMN_COMPARISONS: Record<string, string> = { ceq: '=', cne: '<>', cneq: '<>', cgt: '>', clt: '<', cgte: '>=', clte: '<=' };

export type { BoolExpEnvironment } from './boolExpEnvironment';

/** The element type the keys of `_has_keys_any` / `_has_keys_all` are checked against. */
const TEXT_KEY = { type: 'text' } as DbColumn;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const operatorName = (key: string) => (key.startsWith('$') || key.startsWith('_') ? key.slice(1) : undefined);

/** §7.2 "is of type <type-name>; this operator works only on column of types <[types]>", naming the column first. */
function typeError(env: BoolExpEnvironment, c: DbColumn, types: string[]): EngineError {
  const e = engineError('unexpected-payload.operator-column-type', env.path, [c.type, `[${types.join(', ')}]`]);
  return new EngineError(e.id, e.status, e.code, `${JSON.stringify(c.name)} ${e.message}`, e.path);
}

function operator(env: BoolExpEnvironment, t: TableModel, alias: sql.SQLNode, c: DbColumn, key: string, operand: unknown): Condition {
  return condition(operatorExpression(env, t, alias, c, key, operand));
}

/** `col`: what the operator compares, the column itself unless given (an aggregate of related rows). */
function operatorExpression(
  env: BoolExpEnvironment,
  t: TableModel,
  alias: sql.SQLNode,
  c: DbColumn,
  key: string,
  operand: unknown,
  col: Fragment = column(alias, c.name),
): Fragment {
  const op = operatorName(key);
  const value = (v: unknown) => (env.resolveValue ? env.resolveValue(v, c) : v);
  if (op === undefined) throw engineError('unexpected-payload.unknown-operator', env.path, [key]);
  if (c.type === 'json') throw engineError('unexpected-payload.json-in-where', env.path);
  if (BINARY[op]) return sql.query`${col} ${sql.raw(BINARY[op]!)} ${typedValue(c, value(operand))}`;
  if (op === 'in' || op === 'nin') {
    let values: unknown[];
    if (Array.isArray(operand)) values = operand.map(value);
    else if (env.sessionLists && isSessionVariable(operand, env.compatHeaders)) values = env.sessionLists === 'unresolved' ? [] : env.sessionLists(operand, c);
    else throw engineError('parse-failed.arguments', env.path, [`expected Array for ${key}`]);
    const list = typedArray(c, values);
    return op === 'in' ? sql.query`${col} = any(${list})` : not(condition(sql.query`${col} = any(${list})`));
  }
  if (op === 'is_null') return operand ? sql.query`${col} is null` : sql.query`${col} is not null`;
  if (TEXT_OPERATORS[op]) {
    if (!TEXT_TYPES.includes(c.type)) throw typeError(env, c, TEXT_TYPES);
    return sql.query`${col} ${sql.raw(TEXT_OPERATORS[op]!)} ${typedValue(c, value(operand))}`;
  }
  if (JSONB_OPERATORS[op] || op === 'has_key' || op === 'has_keys_any' || op === 'has_keys_all') {
    if (!JSONB_TYPES.includes(c.type)) throw typeError(env, c, JSONB_TYPES);
    if (JSONB_OPERATORS[op]) return sql.query`${col} ${sql.raw(JSONB_OPERATORS[op]!)} ${typedValue(c, value(operand))}`;
    if (op === 'has_key') return sql.query`${col} ? ${sql.value(value(operand))}::text`;
    // A list, or (in a permission) a session variable holding one (decision dec.permission.session-lists).
    let keys: unknown[];
    if (Array.isArray(operand)) keys = operand;
    else if (env.sessionLists && isSessionVariable(operand, env.compatHeaders))
      keys = env.sessionLists === 'unresolved' ? [] : env.sessionLists(operand, TEXT_KEY);
    else throw engineError('parse-failed.arguments', env.path, [`expected Array for ${key}`]);
    return sql.query`${col} ${sql.raw(op === 'has_keys_any' ? '?|' : '?&')} ${sql.value(keys.map((k) => (k === null ? null : String(k))))}::text[]`;
  }
  if (COLUMN_COMPARISONS[op]) {
    // The other column: a name (this row), ["name"] (this row) or ["$", "name"] (the root row) (dec.permission.column-comparison).
    const path = Array.isArray(operand) ? operand : [operand];
    const onRoot = path.length === 2 && path[0] === '$';
    const name = onRoot ? path[1] : path.length === 1 ? path[0] : undefined;
    if (typeof name !== 'string') throw engineError('unexpected-payload.expecting-string', env.path);
    const owner = onRoot && env.root ? env.root : { table: t, alias };
    const other = owner.table.db.columns.find((x) => x.name === name);
    if (!other) throw engineError('not-exists.no-such-column', env.path, [JSON.stringify(name)]);
    if (env.role) permittedColumn(env.role, owner.table, 'select', other.name, rolePath(env));
    if (other.type !== c.type) throw engineError('unexpected-payload.incompatible-columns', env.path, [c.name, other.name]);
    return sql.query`${col} ${sql.raw(COLUMN_COMPARISONS[op]!)} ${column(owner.alias, other.name)}`;
  }
  const geoTypes = GEO_OPERATORS.get(op);
  if (geoTypes) {
    if (!geoTypes.includes(c.type)) throw typeError(env, c, [...geoTypes]);
    const refuse = (message: string) => engineError('parse-failed.arguments', env.path, [message]);
    return refusedAsMetadata(() => geoCondition(c, col, op, OBJECT_OPERATORS.has(op) ? operand : value(operand), refuse), refuse);
  }
  if (op === 'cast' && GEO_TYPES.has(c.type)) {
    // `_cast: {geography: {…}}`: the column compared as the other PostGIS type (dec.graphql.postgis).
    if (!isObject(operand)) throw engineError('parse-failed.arguments', env.path, [`expected Object for ${key}`]);
    const parts = Object.entries(operand).map(([target, operators]): Condition => {
      if (!GEO_TYPES.has(target) || target === c.type)
        throw engineError('parse-failed.arguments', env.path, [`cannot cast column of type ${c.type} to ${target}`]);
      const cast = castColumn(c, col, target);
      if (!isObject(operators)) throw engineError('parse-failed.arguments', env.path, [`expected Object for ${target}`]);
      return and(Object.entries(operators).map(([k, o]) => condition(operatorExpression(env, t, alias, cast.column, k, o, cast.value))));
    });
    return and(parts);
  }
  throw engineError('unexpected-payload.unknown-operator', env.path, [key]);
}

/** A GeoJSON value refused by the GraphQL compiler, refused as a metadata argument instead. */
function refusedAsMetadata<T>(make: () => T, refuse: (message: string) => Error): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof CompileError) throw refuse(error.message);
    throw error;
  }
}

/** The SQL condition of a metadata-form BoolExp over rows of `t` aliased `alias`. */
export function compileRawBoolExp(outer: BoolExpEnvironment, t: TableModel, alias: sql.SQLNode, exp: unknown): Condition {
  // The first table an expression is compiled for is its root, for ["$", column] below.
  const env = outer.root ? outer : { ...outer, root: { table: t, alias } };
  if (!isObject(exp)) throw engineError('parse-failed.arguments', shapePath(env), [BOOL_EXP_SHAPE.notObject]);
  const parts: Condition[] = [];
  for (const [key, value] of Object.entries(exp)) {
    const connective = connectiveOf(key);
    if (connective === 'and' || connective === 'or') {
      const inner = belowConnective(env, key);
      if (!Array.isArray(value)) throw engineError('parse-failed.arguments', shapePath(inner), [BOOL_EXP_SHAPE.notArray(key)]);
      const items = value.map((v) => compileRawBoolExp(inner, t, alias, v));
      parts.push(connective === 'and' ? and(items) : or(items));
      continue;
    }
    if (connective === 'not') {
      parts.push(not(compileRawBoolExp(belowConnective(env, key), t, alias, value)));
      continue;
    }
    if (connective === 'exists') {
      parts.push(existsCondition(env, key, value, t.source));
      continue;
    }
    const c = t.db.columns.find((x) => x.name === key);
    if (c) {
      if (env.role) permittedColumn(env.role, t, 'select', c.name, rolePath(env));
      if (isObject(value)) {
        for (const [k, operand] of Object.entries(value)) {
          // A json column is refused before its name is part of the path, as the engine refuses it.
          if (operatorName(k) !== undefined && c.type === 'json') throw engineError('unexpected-payload.json-in-where', env.path);
          parts.push(operator(below(env, c.name, k), t, alias, c, k, operand));
        }
      } else {
        if (c.type === 'json') throw engineError('unexpected-payload.json-in-where', env.path);
        const v = env.resolveValue ? env.resolveValue(value, c) : value;
        parts.push(condition(v === null ? sql.query`${column(alias, c.name)} is null` : sql.query`${column(alias, c.name)} = ${typedValue(c, v)}`));
      }
      continue;
    }
    const aggregated = t.relationships.find((r) => r.kind === 'array' && aggregatePredicateField(METADATA_NAMES, r) === key);
    if (aggregated && !t.relationships.some((r) => r.name === key)) {
      parts.push(aggregatePredicate(env, t, aggregated, alias, value));
      continue;
    }
    const rel = t.relationships.find((r) => r.name === key);
    if (rel) {
      const remote = env.models.get(rel.targetKey)!;
      const r = newAlias(remote.name);
      const readable = env.role ? env.role.rows(remote, r, rolePath(env)) : undefined;
      // The relationship's expression is read there: its name adds nothing to the paths.
      const inner = env.where ? { ...env, where: { ...env.where, shape: env.path } } : env;
      parts.push(
        exists(sql.query`${table(remote)} as ${r}`, and([joinCondition(rel.mapping, alias, r), readable, compileRawBoolExp(inner, remote, r, value)])),
      );
      continue;
    }
    throw engineError('not-exists.no-such-column', env.path, [JSON.stringify(key)]);
  }
  return and(parts);
}

/** `_exists: {_table, _where}`: some row of another tracked table satisfies `_where`. */
function existsCondition(env: BoolExpEnvironment, key: string, value: unknown, source: string | undefined): Condition {
  const shape = belowConnective(env, key);
  if (!isObject(value) || !('_table' in value) || !('_where' in value)) {
    throw engineError('parse-failed.arguments', shapePath(shape), [BOOL_EXP_SHAPE.exists]);
  }
  const parsed = tableName.parse(value._table, env.where ? schema.childPath(shapePath(shape), '_table') : `${env.path}._exists._table`);
  if (!parsed.ok) throw engineError('parse-failed.arguments', parsed.problem.path, [parsed.problem.message]);
  // A table of the same source: the statement runs on that source's database.
  const other = env.models.get(sourceKey(source, relationKey(parsed.value)));
  if (!other) throw engineError('not-exists.table', below(env, '_exists', '_table').path, [quoteQualified(parsed.value)]);
  const e = newAlias(other.name);
  const readable = env.role ? env.role.rows(other, e, rolePath(env)) : undefined;
  const inner = below(env, '_exists', '_where');
  const where = inner.where ? { ...inner, where: { ...inner.where, shape: schema.childPath(shapePath(shape), '_where') } } : inner;
  return exists(sql.query`${table(other)} as ${e}`, and([readable, compileRawBoolExp(where, other, e, value._where)]));
}

/**
 * `<relationship>_aggregate: {count | bool_and | bool_or: {arguments, distinct, filter, predicate}}`
 * (decision dec.graphql.aggregate-predicates): the aggregate of the related rows, compared.
 */
function aggregatePredicate(env: BoolExpEnvironment, t: TableModel, rel: RelationshipModel, alias: sql.SQLNode, value: unknown): Condition {
  const remote = env.models.get(rel.targetKey)!;
  const fail = (message: string) => engineError('parse-failed.arguments', env.path, [message]);
  const parts = predicateParts(
    value,
    remote,
    METADATA_NAMES,
    (name) => {
      const c = remote.db.columns.find((x) => x.name === name);
      if (!c) throw engineError('not-exists.no-such-column', env.path, [JSON.stringify(name)]);
      if (env.role) permittedColumn(env.role, remote, 'select', c.name, env.path);
      return c.name;
    },
    fail,
  );
  if (parts.fn.arguments === 'boolean' && remote.db.columns.find((x) => x.name === parts.columns[0])?.type !== 'bool') {
    throw fail(`${parts.fn.name} takes a boolean column in "arguments"`);
  }
  const aggregate = aggregateOfRelated(parts, rel, remote, alias, (r) => [
    env.role ? env.role.rows(remote, r, env.path) : undefined,
    parts.filter === undefined || parts.filter === null ? undefined : compileRawBoolExp(env, remote, r, parts.filter),
  ]);
  return and(
    Object.entries(parts.predicate).map(([key, operand]) => condition(operatorExpression(env, t, alias, parts.fn.returns.column, key, operand, aggregate))),
  );
}
