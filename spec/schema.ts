// Argument schemas of SPEC.md operations, as values: each one both describes the expected
// JSON (for reports and docs) and parses raw JSON into a typed value, reporting the first
// problem with a JSON path in the `$.args.table` form that the error envelope uses.

export interface ParseProblem {
  path: string;
  message: string;
  /** The error code to answer with; `parse-failed` when absent. */
  code?: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problem: ParseProblem };

export interface Schema<T> {
  /** A short JSON-schema-like description, used by reports and docs. */
  readonly description: Description;
  parse(input: unknown, path: string): ParseResult<T>;
}

export type Description =
  | { type: 'string' | 'boolean' | 'integer' | 'number' | 'any' | 'object-any' }
  | { type: 'literal'; values: readonly (string | number | boolean | null)[] }
  | { type: 'array'; items: Description; minItems?: number }
  | { type: 'object'; required: Record<string, Description>; optional: Record<string, Description> }
  | { type: 'record'; values: Description }
  | { type: 'union'; of: Description[] }
  | { type: 'nullable'; of: Description };

export type Infer<S> = S extends Schema<infer T> ? T : never;

const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const fail = (path: string, message: string, code?: string): ParseResult<never> => ({
  ok: false,
  problem: code ? { path, message, code } : { path, message },
});

/** The JSON type name of a value, as the messages show it. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'Null';
  if (Array.isArray(value)) return 'Array';
  switch (typeof value) {
    case 'string':
      return 'String';
    case 'number':
      return 'Number';
    case 'boolean':
      return 'Boolean';
    case 'object':
      return 'Object';
    default:
      return 'Unknown';
  }
}

const mismatch = (path: string, expected: string, value: unknown) => fail(path, `expected ${expected}, but encountered ${jsonTypeName(value)}`);

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Path of a key below `path`: `$.args.table`, or `$.args["odd key"]` for non-identifier keys. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export const string: Schema<string> = {
  description: { type: 'string' },
  parse: (v, p) => (typeof v === 'string' ? ok(v) : mismatch(p, 'String', v)),
};

export const boolean: Schema<boolean> = {
  description: { type: 'boolean' },
  parse: (v, p) => (typeof v === 'boolean' ? ok(v) : mismatch(p, 'Boolean', v)),
};

export const integer: Schema<number> = {
  description: { type: 'integer' },
  parse: (v, p) => (typeof v === 'number' && Number.isInteger(v) ? ok(v) : mismatch(p, 'Integer', v)),
};

export const number: Schema<number> = {
  description: { type: 'number' },
  parse: (v, p) => (typeof v === 'number' ? ok(v) : mismatch(p, 'Number', v)),
};

/** Any JSON value, kept as it is. */
export const json: Schema<unknown> = { description: { type: 'any' }, parse: (v) => ok(v) };

/** Any JSON object, kept as it is. */
export const jsonObject: Schema<Record<string, unknown>> = {
  description: { type: 'object-any' },
  parse: (v, p) => (isPlainObject(v) ? ok(v) : mismatch(p, 'Object', v)),
};

export function literal<const T extends string | number | boolean>(...values: T[]): Schema<T> {
  return {
    description: { type: 'literal', values },
    parse: (v, p) =>
      values.includes(v as T)
        ? ok(v as T)
        : fail(p, `unexpected value ${JSON.stringify(v)}; expected one of ${values.map((x) => JSON.stringify(x)).join(', ')}`),
  };
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return {
    description: { type: 'nullable', of: inner.description },
    parse: (v, p) => (v === null ? ok(null) : inner.parse(v, p)),
  };
}

export function array<T>(items: Schema<T>, options: { minItems?: number } = {}): Schema<T[]> {
  return {
    description: { type: 'array', items: items.description, ...options },
    parse(v, p) {
      if (!Array.isArray(v)) return mismatch(p, 'Array', v);
      if (options.minItems !== undefined && v.length < options.minItems) {
        return fail(p, options.minItems === 1 ? "can't be empty" : `expected at least ${options.minItems} items`);
      }
      const out: T[] = [];
      for (let i = 0; i < v.length; i++) {
        const r = items.parse(v[i], childPath(p, i));
        if (!r.ok) return r;
        out.push(r.value);
      }
      return ok(out);
    },
  };
}

export function record<T>(values: Schema<T>): Schema<Record<string, T>> {
  return {
    description: { type: 'record', values: values.description },
    parse(v, p) {
      if (!isPlainObject(v)) return mismatch(p, 'Object', v);
      const out: Record<string, T> = {};
      for (const [k, x] of Object.entries(v)) {
        const r = values.parse(x, childPath(p, k));
        if (!r.ok) return r;
        // An own key even when it is "__proto__" (an assignment would set the prototype instead).
        Object.defineProperty(out, k, { value: r.value, enumerable: true, writable: true, configurable: true });
      }
      return ok(out);
    },
  };
}

type Shape = Record<string, Schema<unknown>>;
type ObjectOf<R extends Shape, O extends Shape> = { [K in keyof R]: Infer<R[K]> } & { [K in keyof O]?: Infer<O[K]> };

/**
 * An object with required and optional keys. Unknown keys are refused, so that a misspelt
 * optional key is reported instead of silently ignored.
 */
export function object<R extends Shape, O extends Shape = Record<never, never>>(required: R, optional?: O): Schema<ObjectOf<R, O>> {
  const opt = (optional ?? {}) as O;
  const describe = (s: Shape) => Object.fromEntries(Object.entries(s).map(([k, x]) => [k, x.description]));
  return {
    description: { type: 'object', required: describe(required), optional: describe(opt) },
    parse(v, p) {
      if (!isPlainObject(v)) return mismatch(p, 'Object', v);
      const out: Record<string, unknown> = {};
      for (const [key, schema] of Object.entries(required)) {
        if (!(key in v)) return fail(p, `key ${JSON.stringify(key)} not found`);
        const r = schema.parse(v[key], childPath(p, key));
        if (!r.ok) return r;
        out[key] = r.value;
      }
      for (const [key, value] of Object.entries(v)) {
        if (key in required) continue;
        const schema = opt[key];
        if (!schema) return fail(p, `unexpected key ${JSON.stringify(key)}`);
        if (value === undefined) continue;
        const r = schema.parse(value, childPath(p, key));
        if (!r.ok) return r;
        out[key] = r.value;
      }
      return ok(out as ObjectOf<R, O>);
    },
  };
}

/** The first alternative that parses wins; when none does, the problem names all of them. */
export function union<T extends unknown[]>(alternatives: { [K in keyof T]: Schema<T[K]> }, expected: string): Schema<T[number]> {
  return {
    description: { type: 'union', of: alternatives.map((a) => a.description) },
    parse(v, p) {
      let deepest: ParseProblem | undefined;
      for (const alt of alternatives) {
        const r = alt.parse(v, p);
        if (r.ok) return r;
        // A problem below the value itself means the shape was recognised: report that one.
        if (r.problem.path !== p && (!deepest || r.problem.path.length > deepest.path.length)) deepest = r.problem;
      }
      return deepest ? { ok: false, problem: deepest } : mismatch(p, expected, v);
    },
  };
}

/** Apply a further check or conversion to a parsed value. */
export function refine<T, U>(inner: Schema<T>, check: (value: T, path: string) => ParseResult<U>): Schema<U> {
  return {
    description: inner.description,
    parse(v, p) {
      const r = inner.parse(v, p);
      return r.ok ? check(r.value, p) : r;
    },
  };
}

/** Convert raw input (an older form, say) before the inner schema parses it. */
export function preprocess<T>(convert: (value: unknown, path: string) => ParseResult<unknown>, inner: Schema<T>): Schema<T> {
  return {
    description: inner.description,
    parse(v, p) {
      const r = convert(v, p);
      return r.ok ? inner.parse(r.value, p) : r;
    },
  };
}

export { ok as parsed, fail as parseFailure };
