// What two answers must agree on: status, data (GraphQL data in its key order), the first error's
// code and path, and its message only where the specification fixes one of that form.
import { comparable, differ, fixedMessage, sortedKeys } from './normalise';

const gqlError = (message: string, code = 'validation-failed', path = '$') => ({ message, extensions: { path, code } });

test('a message of a form the error catalogue fixes is compared; a free-form one is not', () => {
  expect(fixedMessage('Cannot query field "n" on type "t".')).toBe(false);
  expect(fixedMessage('check constraint of an insert/update permission has failed')).toBe(true);
  expect(fixedMessage('view/table already untracked : "engine_diff.t0"')).toBe(true);
  expect(fixedMessage('no such table/view exists in postgres : "engine_diff.t9"')).toBe(true);
  // A pattern that is all placeholder fixes nothing.
  expect(fixedMessage('anything at all')).toBe(false);
  expect(fixedMessage(42)).toBe(false);
  expect(fixedMessage({ toString: () => 'view/table already untracked : "x"' })).toBe(false);
});

test('metadata errors: code and path always, the message where it is fixed', () => {
  const a = { status: 400, body: { path: '$.args', error: 'view/table already untracked : "s.t"', code: 'already-untracked', internal: 'x' } };
  const b = { status: 400, body: { path: '$.args', error: 'view/table already untracked : "s.u"', code: 'already-untracked' } };
  expect(comparable(a, b)).toEqual([
    { status: 400, error: { code: 'already-untracked', path: '$.args', message: 'view/table already untracked : "s.t"' } },
    { status: 400, error: { code: 'already-untracked', path: '$.args', message: 'view/table already untracked : "s.u"' } },
  ]);
  expect(differ(a, b)).toBe(true);
  const free = (error: string) => ({ status: 400, body: { path: '$.args', error, code: 'unexpected' } });
  expect(differ(free('one wording'), free('another wording'))).toBe(false);
  // Fixed on one side is enough: the other side's free wording differs from it.
  const fixed = { status: 400, body: { path: '$.args', error: 'view/table already untracked : "s.t"', code: 'unexpected' } };
  expect(differ(fixed, free('table s.t is not tracked'))).toBe(true);
  expect(differ(free('table s.t is not tracked'), fixed)).toBe(true);
  expect(differ(free('one wording'), { status: 400, body: { path: '$.args.x', error: 'one wording', code: 'unexpected' } })).toBe(true);
  expect(differ(free('one wording'), { status: 500, body: { path: '$.args', error: 'one wording', code: 'unexpected' } })).toBe(true);
});

test('GraphQL errors: the first error only, by code and path', () => {
  const one = { status: 200, body: { errors: [gqlError('Cannot query field "n" on type "t".')] } };
  const two = { status: 200, body: { errors: [gqlError('field "n" not found'), gqlError('another problem')] } };
  expect(comparable(one, two)).toEqual([
    { status: 200, errors: [{ code: 'validation-failed', path: '$' }] },
    { status: 200, errors: [{ code: 'validation-failed', path: '$' }] },
  ]);
  expect(differ(one, two)).toBe(false);
  expect(differ(one, { status: 200, body: { errors: [gqlError('x', 'permission-error')] } })).toBe(true);
  expect(differ(one, { status: 200, body: { errors: [gqlError('x', 'validation-failed', '$.selectionSet')] } })).toBe(true);
  expect(differ(one, { status: 200, body: { data: { t: [] } } })).toBe(true);
  expect(differ({ status: 200, body: { data: { t: [] } } }, one)).toBe(true);
  // Errors with data beside them: the data is compared too.
  expect(differ({ status: 200, body: { ...one.body, data: null } }, { status: 200, body: { ...one.body, data: { t: [] } } })).toBe(true);
  expect(comparable({ status: 200, body: { ...one.body, data: null } }, one)[0]).toEqual({
    status: 200,
    errors: [{ code: 'validation-failed', path: '$' }],
    data: null,
  });
});

test('GraphQL data is compared with its key order; other bodies with keys in any order, arrays in order', () => {
  const data = (d: unknown) => ({ status: 200, body: { data: d } });
  expect(differ(data({ t: [{ id: 1, n: null }] }), data({ t: [{ id: 1, n: null }] }))).toBe(false);
  expect(differ(data({ t: [{ id: 1, n: null }] }), data({ t: [{ n: null, id: 1 }] }))).toBe(true);
  expect(differ(data({ t: [{ id: 1 }, { id: 2 }] }), data({ t: [{ id: 2 }, { id: 1 }] }))).toBe(true);
  expect(differ(data({ t: [] }), data({ t: [{ id: 1 }] }))).toBe(true);
  const body = (b: unknown) => ({ status: 200, body: b });
  expect(differ(body({ a: 1, b: { c: 2, d: 3 } }), body({ b: { d: 3, c: 2 }, a: 1 }))).toBe(false);
  expect(differ(body([1, 2]), body([2, 1]))).toBe(true);
  expect(differ(body({ count: 1 }), body({ count: 2 }))).toBe(true);
  expect(differ(body(null), body(null))).toBe(false);
  expect(differ(body(null), body({}))).toBe(true);
  // A GraphQL answer's extensions are the implementation's own.
  expect(differ(data({ t: [] }), body({ data: { t: [] }, extensions: { cost: 3 } }))).toBe(false);
  expect(differ(body('text'), body('text'))).toBe(false);
  expect(differ(body('text'), body('other'))).toBe(true);
  expect(sortedKeys({ b: [{ d: 1, c: 2 }], a: null })).toEqual({ a: null, b: [{ c: 2, d: 1 }] });
  expect(JSON.stringify(sortedKeys({ b: [{ d: 1, c: 2 }], a: null }))).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
});
