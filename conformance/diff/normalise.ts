// What of an answer two implementations must agree on. Always: the status, the data (GraphQL
// `data` with its key order, which follows the query; other bodies with keys in any order, arrays
// in their order), and the first error's code and path (the engine reports one error where a
// document has several problems; which and how many others an implementation adds is its own). An error's message only where the
// specification fixes it: when either side's message has the form of an entry of the error
// catalogue (spec/errors.ts). Everything else (extra `internal` details, headers, timing) is left out.
import { ERRORS } from '../../spec/errors';

export interface Answer {
  status: number;
  /** The parsed body, or the text when it is not JSON. */
  body: unknown;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A pattern that is all placeholder (`<problem>`) fixes nothing.
const PATTERNS = ERRORS.filter((e) => e.message.replace(/<[^>]+>/g, '').trim().length >= 3).map(
  (e) =>
    new RegExp(
      `^${e.message
        .split(/<[^>]+>/)
        .map(escapeRegex)
        .join('.+')}$`,
      's',
    ),
);

/** Whether the specification fixes a message of this form. */
export const fixedMessage = (message: unknown): boolean => typeof message === 'string' && PATTERNS.some((p) => p.test(message));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value with the keys of every object sorted: for answers whose key order does not matter. */
export function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortedKeys(v[k])]),
  );
}

interface ErrorForm {
  code: unknown;
  path: unknown;
  message?: unknown;
}

/** The two answers as compared: messages kept where either side's is fixed by the specification. */
export function comparable(a: Answer, b: Answer): [unknown, unknown] {
  const errorsA = errorsOf(a.body);
  const errorsB = errorsOf(b.body);
  const keep = (i: number) => fixedMessage(errorsA[i]?.message) || fixedMessage(errorsB[i]?.message);
  return [form(a, errorsA, keep), form(b, errorsB, keep)];
}

/** Whether two answers differ in what the comparison keeps. */
export function differ(a: Answer, b: Answer): boolean {
  const [x, y] = comparable(a, b);
  // Each form's keys are in a fixed order but GraphQL data's, whose order is compared.
  return JSON.stringify(x) !== JSON.stringify(y);
}

function errorsOf(body: unknown): ErrorForm[] {
  if (!isObject(body)) return [];
  if (Array.isArray(body.errors)) {
    return body.errors.map((e: unknown) => {
      const error = isObject(e) ? e : {};
      const extensions = isObject(error.extensions) ? error.extensions : {};
      return { code: extensions.code, path: extensions.path, message: error.message };
    });
  }
  if (typeof body.error === 'string') return [{ code: body.code, path: body.path, message: body.error }];
  return [];
}

function form(answer: Answer, errors: ErrorForm[], keep: (i: number) => boolean): unknown {
  const body = answer.body;
  const shown = errors.slice(0, 1).map((e, i) => ({ code: e.code, path: e.path, ...(keep(i) ? { message: e.message } : {}) }));
  if (isObject(body) && Array.isArray(body.errors)) {
    return { status: answer.status, errors: shown, ...('data' in body ? { data: body.data } : {}) };
  }
  if (isObject(body) && typeof body.error === 'string') return { status: answer.status, error: shown[0] };
  // A GraphQL answer: its data; `extensions` (costs, tracing) are the implementation's own.
  if (isObject(body) && 'data' in body) return { status: answer.status, data: body.data };
  return { status: answer.status, body: sortedKeys(body) };
}
