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

export function evaluate(exp: BoolExp, row: FuzzRow, session: Record<string, string>): Truth {
  const parts: Truth[] = [];
  for (const [key, value] of Object.entries(exp)) {
    const op = key.startsWith('$') || key.startsWith('_') ? key.slice(1) : undefined;
    if (op === 'and') parts.push(and3((value as BoolExp[]).map((x) => evaluate(x, row, session))));
    else if (op === 'or') parts.push(or3((value as BoolExp[]).map((x) => evaluate(x, row, session))));
    else if (op === 'not') parts.push(not3(evaluate(value as BoolExp, row, session)));
    else {
      const column = row[key as keyof FuzzRow] as unknown;
      const resolve = (v: unknown) => (typeof v === 'string' && /^x-engine-/i.test(v) ? Number(session[v.toLowerCase()]) : v);
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

// Generators. Text operands mix pattern characters, quotes, backslashes and SQL that must stay data.
const HOSTILE = ["'", "''", '"', '\\\\', "'; drop table fuzz.item; --", '$1', 'ä', '😀', ' OR 1=1'];
const textValue = fc.oneof(fc.constantFrom('a', 'b', 'ab', 'Ab', 'ba', 'abc', ''), fc.constantFrom(...HOSTILE));
const likePattern = fc
  .array(fc.constantFrom('a', 'b', 'A', 'B', '%', '_', '\\%', '\\_', "'", ' '), { minLength: 0, maxLength: 5 })
  .map((parts) => parts.join(''));
const prefix = fc.constantFrom('_', '$');
const intValue = fc.integer({ min: -2, max: 12 });

const intLeaf = fc.oneof(
  fc.tuple(prefix, fc.constantFrom('eq', 'neq', 'gt', 'lt', 'gte', 'lte'), intValue).map(([p, op, v]) => ({ n: { [`${p}${op}`]: v } })),
  fc.tuple(prefix, fc.constantFrom('in', 'nin'), fc.array(intValue, { maxLength: 4 })).map(([p, op, v]) => ({ n: { [`${p}${op}`]: v } })),
  fc.tuple(prefix, fc.boolean()).map(([p, v]) => ({ n: { [`${p}is_null`]: v } })),
  intValue.map((v) => ({ n: v })),
  fc.constant({ $or: [{ owner: 'X-Engine-User-Id' }] }),
  fc.constant({ owner: { _neq: 'x-engine-user-id' } }),
);
const textLeaf = fc.oneof(
  fc.tuple(prefix, fc.constantFrom('eq', 'neq'), textValue).map(([p, op, v]) => ({ t: { [`${p}${op}`]: v } })),
  fc.tuple(prefix, fc.constantFrom('like', 'nlike', 'ilike', 'nilike'), likePattern).map(([p, op, v]) => ({ t: { [`${p}${op}`]: v } })),
  fc.tuple(prefix, fc.constantFrom('in', 'nin'), fc.array(textValue, { maxLength: 3 })).map(([p, op, v]) => ({ t: { [`${p}${op}`]: v } })),
  fc.tuple(prefix, fc.boolean()).map(([p, v]) => ({ t: { [`${p}is_null`]: v } })),
);
const boolLeaf = fc.oneof(
  fc.tuple(prefix, fc.constantFrom('eq', 'neq'), fc.boolean()).map(([p, op, v]) => ({ b: { [`${p}${op}`]: v } })),
  fc.boolean().map((v) => ({ b: v })),
  fc.tuple(prefix, fc.boolean()).map(([p, v]) => ({ b: { [`${p}is_null`]: v } })),
);
const jsonLeaf = fc.oneof(
  fc.constantFrom<Record<string, unknown>>({ a: 1 }, { a: 2 }, { b: 'x' }, { a: 1, b: 'x' }, {}).map((v) => ({ j: { _contains: v } })),
  fc.constantFrom('a', 'b', 'c').map((k) => ({ j: { _has_key: k } })),
  fc.subarray(['a', 'b', 'c']).map((ks) => ({ j: { _has_keys_any: ks } })),
  fc.subarray(['a', 'b', 'c']).map((ks) => ({ j: { _has_keys_all: ks } })),
);

export const boolExpArbitrary: fc.Arbitrary<BoolExp> = fc.letrec<{ exp: BoolExp }>((tie) => ({
  exp: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    intLeaf,
    textLeaf,
    boolLeaf,
    jsonLeaf,
    fc.tuple(prefix, fc.array(tie('exp'), { maxLength: 3 })).map(([p, xs]) => ({ [`${p}and`]: xs })),
    fc.tuple(prefix, fc.array(tie('exp'), { maxLength: 3 })).map(([p, xs]) => ({ [`${p}or`]: xs })),
    fc.tuple(prefix, tie('exp')).map(([p, x]) => ({ [`${p}not`]: x })),
    // Several keys in one object hold together.
    fc.tuple(intLeaf, textLeaf).map(([a, b]) => ({ ...a, ...b })),
  ),
})).exp;

/** Rows of the fuzz table: every combination of null and not null, and some hostile text. */
export function fuzzRows(): FuzzRow[] {
  const texts = [null, 'a', 'b', 'ab', 'Ab', 'ba', 'abc', '', "'", '\\', '%', '_', 'a%b', 'A_B', "'; drop table fuzz.item; --", 'ä', '😀', ' OR 1=1'];
  const jsons: (Record<string, unknown> | null)[] = [null, {}, { a: 1 }, { a: 2, b: 'x' }, { b: 'y', c: true }];
  const rows: FuzzRow[] = [];
  for (let i = 0; i < 48; i++) {
    rows.push({
      id: i + 1,
      n: i % 7 === 0 ? null : (i * 5) % 13 - 2,
      t: texts[i % texts.length]!,
      b: i % 3 === 0 ? null : i % 2 === 0,
      j: jsons[i % jsons.length]!,
      owner: (i % 3) + 1,
    });
  }
  return rows;
}
