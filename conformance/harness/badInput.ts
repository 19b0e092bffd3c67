// Generated bad input for every operation of spec/: a near-valid argument value built from the
// operation's own argument description, then broken in one place (a wrong type, a missing or an
// extra key, a hostile string, nesting deeper than any server should follow). Only values that the
// spec's own schema refuses are kept, so a correct target must refuse every one and change nothing.
import fc from 'fast-check';
import type { Description } from '../../spec/schema';

/** Strings that have broken servers: SQL and JSON-path injection, NUL, odd Unicode, size. */
export const HOSTILE_STRINGS: readonly string[] = [
  "'; drop table fuzz_bad.sentinel; --",
  '"); delete from fuzz_bad.sentinel; --',
  'x" OR "1"="1',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '💥'.repeat(50),
  '$.args[0]',
  '__proto__',
  'constructor',
  '${process.exit()}',
  '%s%s%s%n',
  '../../etc/passwd',
  ' ',
  '',
  'x'.repeat(70_000),
];

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);
const plainName = fc.constantFrom('sentinel', 'fuzz_bad', 'public', 'user', 'id', 'name');
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** A value that fits the description (mostly): names of the fixture, hostile strings, small numbers. */
export function valueFor(description: Description, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return anyJson;
  switch (description.type) {
    case 'string':
      return fc.oneof(plainName, hostileString, fc.string({ maxLength: 12 }));
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom(2 ** 31, -(2 ** 53), Number.MAX_SAFE_INTEGER));
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case 'any':
    case 'object-any':
      return anyJson;
    case 'literal':
      return fc.constantFrom(...description.values);
    case 'array':
      return fc.array(valueFor(description.items, depth + 1), { minLength: description.minItems ?? 0, maxLength: 3 });
    case 'object': {
      const required = Object.fromEntries(Object.entries(description.required).map(([k, d]) => [k, valueFor(d, depth + 1)]));
      const optional = Object.fromEntries(Object.entries(description.optional).map(([k, d]) => [k, valueFor(d, depth + 1)]));
      return fc.record({ ...required, ...optional }, { requiredKeys: Object.keys(required) });
    }
    case 'record':
      return fc.dictionary(plainName, valueFor(description.values, depth + 1), { maxKeys: 3 });
    case 'union':
      return fc.oneof(...description.of.map((d) => valueFor(d, depth + 1)));
    case 'nullable':
      return fc.oneof(fc.constant(null), valueFor(description.of, depth + 1));
  }
}

type Breakage =
  | { kind: 'wrong-type'; replacement: unknown }
  | { kind: 'drop-key' }
  | { kind: 'extra-key'; key: string; value: unknown }
  | { kind: 'hostile'; value: string }
  | { kind: 'deep'; depth: number };

const breakage: fc.Arbitrary<Breakage> = fc.oneof(
  fc.record({
    kind: fc.constant('wrong-type' as const),
    replacement: fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.string({ maxLength: 5 })),
  }),
  fc.record({ kind: fc.constant('drop-key' as const) }),
  fc.record({
    kind: fc.constant('extra-key' as const),
    key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'unexpected', 'TABLE'), fc.string({ maxLength: 6 })),
    value: anyJson,
  }),
  fc.record({ kind: fc.constant('hostile' as const), value: hostileString }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.constantFrom(150, 1500) }),
);

/** Every place of a JSON value, as paths of keys and indices. */
function places(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = [path];
  if (Array.isArray(value)) return here.concat(value.flatMap((v, i) => places(v, [...path, i])));
  if (typeof value === 'object' && value !== null) return here.concat(Object.entries(value).flatMap(([k, v]) => places(v, [...path, k])));
  return here;
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** The value with one place broken. Keys are set with defineProperty, so `__proto__` stays a key. */
function applyBreakage(value: unknown, path: (string | number)[], how: Breakage): unknown {
  const replaceAt = (v: unknown, i: number, make: (old: unknown) => unknown | typeof DROP): unknown => {
    if (i === path.length) return make(v);
    const key = path[i]!;
    if (Array.isArray(v)) {
      const copy = v.slice();
      const next = replaceAt(v[key as number], i + 1, make);
      if (next === DROP) copy.splice(key as number, 1);
      else copy[key as number] = next;
      return copy;
    }
    const copy: Record<string, unknown> = {};
    for (const [k, old] of Object.entries(v as Record<string, unknown>)) {
      const next = k === key ? replaceAt(old, i + 1, make) : old;
      if (next !== DROP) Object.defineProperty(copy, k, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };
  switch (how.kind) {
    case 'wrong-type':
      return replaceAt(value, 0, () => how.replacement);
    case 'drop-key':
      return path.length === 0 ? {} : replaceAt(value, 0, () => DROP);
    case 'hostile':
      return replaceAt(value, 0, () => how.value);
    case 'deep':
      return replaceAt(value, 0, () => nested(how.depth));
    case 'extra-key':
      return replaceAt(value, 0, (old) => {
        if (typeof old !== 'object' || old === null || Array.isArray(old)) return { [how.key]: how.value };
        const copy = { ...(old as Record<string, unknown>) };
        Object.defineProperty(copy, how.key, { value: how.value, enumerable: true, writable: true, configurable: true });
        return copy;
      });
  }
}
const DROP = Symbol('drop');

/** A near-valid value for the description, broken in one generated place. */
export function brokenValueFor(description: Description): fc.Arbitrary<unknown> {
  return fc.tuple(valueFor(description), breakage, fc.nat()).map(([value, how, pick]) => {
    const all = places(value);
    return applyBreakage(value, all[pick % all.length]!, how);
  });
}
