// A plain TypeScript model of BoolExp (SPEC.md §2.1, metadata form) over the fuzz table, with
// SQL's three-valued logic: what a role with the expression as its select filter must see.
// Also the fast-check generators of such expressions.
import fc from 'fast-check';

export interface FuzzRow {
  id: number;
  n: number | null;
  t: string | null;
  b: boolean | null;
  j: Record<string, unknown> | null;
  owner: number;
}

export type BoolExp = Record<string, unknown>;
type Truth = boolean | null;

const and3 = (xs: Truth[]): Truth => (xs.includes(false) ? false : xs.includes(null) ? null : true);
const or3 = (xs: Truth[]): Truth => (xs.includes(true) ? true : xs.includes(null) ? null : false);
const not3 = (x: Truth): Truth => (x === null ? null : !x);

/** LIKE with backslash escapes, as PostgreSQL reads the pattern. */
function likeRegex(pattern: string, flags: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') source += pattern[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, `${flags}u`); // u: one character is one code point, as in PostgreSQL
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function compare(op: string, value: unknown, operand: unknown): Truth {
  if (op === 'is_null') return operand ? value === null : value !== null;
  // Nothing is in the empty list, not even null: _in [] never holds, _nin [] always does.
  if ((op === 'in' || op === 'nin') && Array.isArray(operand) && operand.length === 0) return op === 'nin';
  if (value === null || operand === null) return null;
  switch (op) {
    case 'eq':
      return value === operand;
    case 'ne':
    case 'neq':
      return value !== operand;
    case 'gt':
      return (value as number) > (operand as number);
    case 'lt':
      return (value as number) < (operand as number);
    case 'gte':
      return (value as number) >= (operand as number);
    case 'lte':
      return (value as number) <= (operand as number);
    case 'in':
      return (operand as unknown[]).includes(value);
    case 'nin':
      return !(operand as unknown[]).includes(value);
    case 'like':
      return likeRegex(operand as string, '').test(value as string);
    case 'nlike':
      return !likeRegex(operand as string, '').test(value as string);
    case 'ilike':
      return likeRegex(operand as string, 'i').test(value as string);
    case 'nilike':
      return !likeRegex(operand as string, 'i').test(value as string);
    case 'contains':
      return Object.entries(operand as Record<string, unknown>).every(([k, v]) => (value as Record<string, unknown>)[k] === v);
    case 'has_key':
      return (operand as string) in (value as Record<string, unknown>);
    case 'has_keys_any':
      return (operand as string[]).some((k) => k in (value as Record<string, unknown>));
    case 'has_keys_all':
      return (operand as string[]).every((k) => k in (value as Record<string, unknown>));
    default:
      throw new Error(`the model has no operator ${op}`);
  }
}

/** What an evaluation needs beyond the row: the session, and the rows a relationship leads to. */
export interface ModelEnvironment {
  session: Record<string, string>;
  /** The table a relationship of `table` leads to, and the related rows of `row`. */
  related?(table: string, relationship: string, row: ModelRow): { table: string; rows: ModelRow[] } | undefined;
  /** Whether a related row may be used (a `where` sees only rows the role's filter keeps); all when absent. */
  visible?(table: string, row: ModelRow): boolean;
}

export type ModelRow = Record<string, unknown>;

/** The truth of `exp` for `row` of `table`, in SQL's three-valued logic. */
export function evaluateIn(exp: BoolExp, table: string, row: ModelRow, env: ModelEnvironment): Truth {
  const parts: Truth[] = [];
  for (const [key, value] of Object.entries(exp)) {
    const op = key.startsWith('$') || key.startsWith('_') ? key.slice(1) : undefined;
    if (op === 'and') parts.push(and3((value as BoolExp[]).map((x) => evaluateIn(x, table, row, env))));
    else if (op === 'or') parts.push(or3((value as BoolExp[]).map((x) => evaluateIn(x, table, row, env))));
    else if (op === 'not') parts.push(not3(evaluateIn(value as BoolExp, table, row, env)));
    else if (key.endsWith('_aggregate') && env.related?.(table, key.slice(0, -'_aggregate'.length), row)) {
      parts.push(aggregatePredicate(value as BoolExp, env.related(table, key.slice(0, -'_aggregate'.length), row)!, env));
    } else {
      const relation = env.related?.(table, key, row);
      if (relation) {
        // A relationship holds when some related row the caller may use satisfies the expression.
        parts.push(relation.rows.some((r) => (env.visible?.(relation.table, r) ?? true) && evaluateIn(value as BoolExp, relation.table, r, env) === true));
        continue;
      }
      const column = row[key];
      const resolve = (v: unknown) => (typeof v === 'string' && /^x-engine-/i.test(v) ? Number(env.session[v.toLowerCase()]) : v);
      if (isObject(value)) {
        // An object under a column holds operators (the generators make no JSON equality).
        for (const [k, operand] of Object.entries(value)) parts.push(compare(k.slice(1), column, resolve(operand)));
      } else {
        parts.push(value === null ? column === null : compare('eq', column, resolve(value)));
      }
    }
  }
  return and3(parts);
}

/**
 * `{count | bool_and | bool_or: {arguments, distinct, filter, predicate}}` over the related rows the
 * caller may use (decision dec.graphql.aggregate-predicates), in SQL's terms: count(*) counts rows,
 * count(c) the non-null values, count(distinct c) the distinct ones; bool_and and bool_or ignore
 * nulls and are null over no value.
 */
function aggregatePredicate(exp: BoolExp, relation: { table: string; rows: ModelRow[] }, env: ModelEnvironment): Truth {
  const [fn, body] = Object.entries(exp)[0] as [string, { arguments?: string | string[]; distinct?: boolean; filter?: BoolExp; predicate: BoolExp }];
  const rows = relation.rows.filter(
    (r) => (env.visible?.(relation.table, r) ?? true) && (body.filter === undefined || evaluateIn(body.filter, relation.table, r, env) === true),
  );
  const columns = body.arguments === undefined ? [] : Array.isArray(body.arguments) ? body.arguments : [body.arguments];
  let result: unknown;
  if (fn === 'count') {
    if (columns.length === 0) result = rows.length;
    else {
      const values = rows.map((r) => r[columns[0]!]).filter((v) => v !== null);
      result = body.distinct ? new Set(values).size : values.length;
    }
  } else {
    const values = rows.map((r) => r[columns[0]!]).filter((v) => v !== null) as boolean[];
    result = values.length === 0 ? null : fn === 'bool_and' ? values.every(Boolean) : values.some(Boolean);
  }
  return and3(Object.entries(body.predicate).map(([k, operand]) => compare(k.slice(1), result, operand)));
}

/** `exp` over a row of the single fuzz table. */
export const evaluate = (exp: BoolExp, row: FuzzRow, session: Record<string, string>): Truth =>
  evaluateIn(exp, 'item', row as unknown as ModelRow, { session });

// Generators. Text operands mix pattern characters, quotes, backslashes and SQL that must stay data.
const HOSTILE = ["'", "''", '"', '\\\\', "'; drop table fuzz.item; --", '$1', 'ä', '😀', ' OR 1=1'];
const textValue = fc.oneof(fc.constantFrom('a', 'b', 'ab', 'Ab', 'ba', 'abc', ''), fc.constantFrom(...HOSTILE));
const likePattern = fc
  .array(fc.constantFrom('a', 'b', 'A', 'B', '%', '_', '\\%', '\\_', "'", ' '), { minLength: 0, maxLength: 5 })
  .map((parts) => parts.join(''));
const intValue = fc.integer({ min: -2, max: 12 });

/** The columns of a table by the kind of leaf made for them, and its relationships. */
export interface TableShape {
  ints: string[];
  texts: string[];
  bools: string[];
  jsonbs: string[];
  /** Integer columns compared with the session's X-Engine-User-Id (permission form only). */
  sessionInts: string[];
  relationships: Record<string, string>;
  /** Array relationships whose rows are aggregated in predicates (`<relationship>_aggregate`), by their target. */
  aggregated?: Record<string, string>;
}

/**
 * `permission`: the metadata form (`$`/`_` operators, bare equality, session variables).
 * `where`: the GraphQL `where` form (`_` operators only, literal values).
 */
export type BoolExpForm = 'permission' | 'where';

/** Generators of expressions over each table of `tables`, through their relationships. */
export function boolExpArbitraries(tables: Record<string, TableShape>, form: BoolExpForm): Record<string, fc.Arbitrary<BoolExp>> {
  const prefix = form === 'permission' ? fc.constantFrom('_', '$') : fc.constant('_');
  const permission = form === 'permission';
  const op = (column: string, ops: string[], value: fc.Arbitrary<unknown>) =>
    fc.tuple(prefix, fc.constantFrom(...ops), value).map(([p, o, v]) => ({ [column]: { [`${p}${o}`]: v } }));
  const isNull = (column: string) => fc.tuple(prefix, fc.boolean()).map(([p, v]) => ({ [column]: { [`${p}is_null`]: v } }));
  const leaves = (shape: TableShape): fc.Arbitrary<BoolExp>[] => [
    ...shape.ints.flatMap((c) => [
      op(c, ['eq', 'neq', 'gt', 'lt', 'gte', 'lte'], intValue),
      op(c, ['in', 'nin'], fc.array(intValue, { maxLength: 4 })),
      isNull(c),
      ...(permission ? [intValue.map((v) => ({ [c]: v }))] : []),
    ]),
    ...(permission
      ? shape.sessionInts.flatMap((c) => [fc.constant({ $or: [{ [c]: 'X-Engine-User-Id' }] }), fc.constant({ [c]: { _neq: 'x-engine-user-id' } })])
      : []),
    ...shape.texts.flatMap((c) => [
      op(c, ['eq', 'neq'], textValue),
      op(c, ['like', 'nlike', 'ilike', 'nilike'], likePattern),
      op(c, ['in', 'nin'], fc.array(textValue, { maxLength: 3 })),
      isNull(c),
    ]),
    ...shape.bools.flatMap((c) => [op(c, ['eq', 'neq'], fc.boolean()), isNull(c), ...(permission ? [fc.boolean().map((v) => ({ [c]: v }))] : [])]),
    ...shape.jsonbs.flatMap((c) => [
      fc.constantFrom<Record<string, unknown>>({ a: 1 }, { a: 2 }, { b: 'x' }, { a: 1, b: 'x' }, {}).map((v) => ({ [c]: { _contains: v } })),
      fc.constantFrom('a', 'b', 'c').map((k) => ({ [c]: { _has_key: k } })),
      fc.subarray(['a', 'b', 'c']).map((ks) => ({ [c]: { _has_keys_any: ks } })),
      fc.subarray(['a', 'b', 'c']).map((ks) => ({ [c]: { _has_keys_all: ks } })),
    ]),
  ];
  return fc.letrec<Record<string, BoolExp>>((tie) =>
    Object.fromEntries(
      Object.entries(tables).map(([name, shape]) => {
        const own = leaves(shape);
        const leaf = fc.oneof(...own);
        const arbitrary = fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          ...own,
          fc.tuple(prefix, fc.array(tie(name), { maxLength: 3 })).map(([p, xs]) => ({ [`${p}and`]: xs })),
          fc.tuple(prefix, fc.array(tie(name), { maxLength: 3 })).map(([p, xs]) => ({ [`${p}or`]: xs })),
          fc.tuple(prefix, tie(name)).map(([p, x]) => ({ [`${p}not`]: x })),
          // Several keys in one object hold together.
          fc.tuple(leaf, leaf).map(([a, b]) => ({ ...a, ...b })),
          ...Object.entries(shape.relationships).map(([rel, target]) => tie(target).map((x) => ({ [rel]: x }))),
          ...Object.entries(shape.aggregated ?? {}).map(([rel, target]) => aggregatePredicateArbitrary(rel, tables[target]!, tie(target), prefix)),
        );
        return [name, arbitrary];
      }),
    ),
  ) as Record<string, fc.Arbitrary<BoolExp>>;
}

/** `<relationship>_aggregate` over the rows of `target`: count of none or one column, bool_and or bool_or of a boolean one. */
function aggregatePredicateArbitrary(rel: string, target: TableShape, filter: fc.Arbitrary<BoolExp>, prefix: fc.Arbitrary<string>): fc.Arbitrary<BoolExp> {
  const options = fc.record({ filter: fc.option(filter, { nil: undefined }), distinct: fc.option(fc.boolean(), { nil: undefined }) });
  const without = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const count = fc
    .tuple(
      options,
      fc.option(fc.constantFrom(...target.ints, ...target.texts, ...target.bools), { nil: undefined }),
      prefix,
      fc.constantFrom('eq', 'gt', 'lt', 'gte'),
      fc.integer({ min: 0, max: 4 }),
    )
    .map(([o, column, p, op, n]) =>
      without({
        filter: o.filter,
        distinct: column === undefined ? undefined : o.distinct,
        arguments: column === undefined ? undefined : [column],
        predicate: { [`${p}${op}`]: n },
      }),
    )
    .map((body) => ({ [`${rel}_aggregate`]: { count: body } }));
  if (target.bools.length === 0) return count;
  const bool = fc
    .tuple(options, fc.constantFrom('bool_and', 'bool_or'), fc.constantFrom(...target.bools), prefix, fc.boolean())
    .map(([o, fn, column, p, v]) => ({
      [`${rel}_aggregate`]: { [fn]: without({ filter: o.filter, distinct: o.distinct, arguments: column, predicate: { [`${p}eq`]: v } }) },
    }));
  return fc.oneof(count, bool);
}

const ITEM_SHAPE: TableShape = { ints: ['n'], texts: ['t'], bools: ['b'], jsonbs: ['j'], sessionInts: ['owner'], relationships: {} };

/** Permission-form expressions over the single fuzz table. */
export const boolExpArbitrary: fc.Arbitrary<BoolExp> = boolExpArbitraries({ item: ITEM_SHAPE }, 'permission').item!;

/** Rows of the fuzz table: every combination of null and not null, and some hostile text. */
export function fuzzRows(): FuzzRow[] {
  const texts = [null, 'a', 'b', 'ab', 'Ab', 'ba', 'abc', '', "'", '\\', '%', '_', 'a%b', 'A_B', "'; drop table fuzz.item; --", 'ä', '😀', ' OR 1=1'];
  const jsons: (Record<string, unknown> | null)[] = [null, {}, { a: 1 }, { a: 2, b: 'x' }, { b: 'y', c: true }];
  const rows: FuzzRow[] = [];
  for (let i = 0; i < 48; i++) {
    rows.push({
      id: i + 1,
      n: i % 7 === 0 ? null : ((i * 5) % 13) - 2,
      t: texts[i % texts.length]!,
      b: i % 3 === 0 ? null : i % 2 === 0,
      j: jsons[i % jsons.length]!,
      owner: (i % 3) + 1,
    });
  }
  return rows;
}
