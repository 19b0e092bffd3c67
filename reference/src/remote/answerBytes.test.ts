// The bytes of remote answers held: per request and per role, given back when a request's answer is made.
import { RemoteAnswerBytes } from './answerBytes';

test('a request holds its answers up to its bound; past it, the bytes are refused and nothing more is counted', () => {
  const bytes = new RemoteAnswerBytes(100, 1_000);
  const request = bytes.forRequest('user');
  expect(request.take(60)).toBeUndefined();
  expect(request.take(40)).toBeUndefined();
  expect(request.take(1)).toBe('the remote answers of this request are larger than 100 bytes together');
  expect(bytes.heldBy('user')).toBe(100);
  request.release();
  request.release();
  expect(bytes.heldBy('user')).toBe(0);
  // Released: what it reads after its answer was made is no longer counted.
  expect(request.take(500)).toBeUndefined();
  expect(bytes.heldBy('user')).toBe(0);
});

test("a role's requests in flight share the role's bound; other roles have their own [dec.limits.remote-answers]", () => {
  const bytes = new RemoteAnswerBytes(100, 150);
  const first = bytes.forRequest('user');
  const second = bytes.forRequest('user');
  const other = bytes.forRequest('guest');
  expect(first.take(100)).toBeUndefined();
  expect(second.take(51)).toBe("the remote answers of the role's requests in flight are larger than 150 bytes together");
  expect(second.take(50)).toBeUndefined();
  expect(other.take(100)).toBeUndefined();
  expect([bytes.heldBy('user'), bytes.heldBy('guest')]).toEqual([150, 100]);
  first.release();
  expect(second.take(50)).toBeUndefined();
  expect(bytes.heldBy('user')).toBe(100);
  second.release();
  other.release();
  expect([bytes.heldBy('user'), bytes.heldBy('guest')]).toEqual([0, 0]);
});
