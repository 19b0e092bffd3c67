// The bytes of remote answers held: per request (as read) and per role (each byte read counted as
// the copies made of it), given back when a request's answer has been written.
import { RemoteAnswerBytes } from './answerBytes';

test('a request holds its answers up to its bound; past it, the bytes are refused and nothing more is counted', () => {
  const bytes = new RemoteAnswerBytes(100, 1_000);
  const request = bytes.forRequest('user');
  expect(request.take(60)).toBeUndefined();
  expect(request.take(40)).toBeUndefined();
  expect(request.take(1)).toBe('the remote answers of this request are larger than 100 bytes together');
  // Four copies of each byte read are held for the role: as read, as text, as values, in the answer.
  expect(bytes.heldBy('user')).toBe(400);
  request.release();
  request.release();
  expect(bytes.heldBy('user')).toBe(0);
  // Released: what it reads after its answer was made is no longer counted.
  expect(request.take(500)).toBeUndefined();
  expect(bytes.heldBy('user')).toBe(0);
});

test("a role's requests in flight share the role's bound, counted as the copies held; other roles have their own [dec.limits.remote-answers]", () => {
  const bytes = new RemoteAnswerBytes(100, 600);
  const first = bytes.forRequest('user');
  const second = bytes.forRequest('user');
  const other = bytes.forRequest('guest');
  expect(first.take(100)).toBeUndefined();
  expect(second.take(51)).toBe("the remote answers of the role's requests in flight would hold more than 600 bytes (4 copies of each byte read)");
  expect(second.take(50)).toBeUndefined();
  expect(other.take(100)).toBeUndefined();
  expect([bytes.heldBy('user'), bytes.heldBy('guest')]).toEqual([600, 400]);
  first.release();
  expect(second.take(50)).toBeUndefined();
  expect(bytes.heldBy('user')).toBe(400);
  second.release();
  other.release();
  expect([bytes.heldBy('user'), bytes.heldBy('guest')]).toEqual([0, 0]);
});

test("at the role's bound the role's first reader waits for bytes given back; the others are refused and give theirs back", async () => {
  const bytes = new RemoteAnswerBytes(100, 400);
  const first = bytes.forRequest('user');
  const second = bytes.forRequest('user');
  expect(first.take(50)).toBeUndefined();
  expect(second.take(50)).toBeUndefined();
  expect(bytes.heldBy('user')).toBe(400);
  const refusal = "the remote answers of the role's requests in flight would hold more than 400 bytes (4 copies of each byte read)";
  expect(await second.takeOrWait(1)).toBe(refusal);
  let waited: string | undefined | 'pending' = 'pending';
  const waiting = first.takeOrWait(10).then((r) => (waited = r));
  await new Promise((resolve) => setImmediate(resolve));
  expect(waited).toBe('pending');
  second.release();
  await waiting;
  expect([waited, bytes.heldBy('user')]).toEqual([undefined, 240]);
  // Another reader is refused while the first reads; once the first is gone, it is first and waits in turn.
  const third = bytes.forRequest('user');
  expect(third.take(40)).toBeUndefined();
  expect(await third.takeOrWait(5)).toBe(refusal);
  first.release();
  const fourth = bytes.forRequest('user');
  expect(fourth.take(60)).toBeUndefined();
  expect(bytes.heldBy('user')).toBe(400);
  let next: string | undefined | 'pending' = 'pending';
  const nextWaiting = third.takeOrWait(5).then((r) => (next = r));
  await new Promise((resolve) => setImmediate(resolve));
  expect(next).toBe('pending');
  expect(await fourth.takeOrWait(1)).toBe(refusal);
  fourth.release();
  await nextWaiting;
  expect([next, bytes.heldBy('user')]).toEqual([undefined, 180]);
  third.release();
  expect(bytes.heldBy('user')).toBe(0);
});

test('the first reader is refused at once when its bytes would not fit the role alone', async () => {
  const bytes = new RemoteAnswerBytes(200, 400);
  const only = bytes.forRequest('user');
  expect(only.take(90)).toBeUndefined();
  expect(await only.takeOrWait(11)).toBe("the remote answers of the role's requests in flight would hold more than 400 bytes (4 copies of each byte read)");
  expect(await only.takeOrWait(10)).toBeUndefined();
  only.release();
  expect(bytes.heldBy('user')).toBe(0);
});

test("a request released twice gives its bytes back once: the bytes of the role's other requests stay counted", () => {
  const bytes = new RemoteAnswerBytes(1000, 1000);
  const one = bytes.forRequest('user');
  const other = bytes.forRequest('user');
  expect([one.take(10), other.take(20)]).toEqual([undefined, undefined]);
  one.release();
  one.release();
  expect(bytes.heldBy('user')).toBe(80);
});

/** Two readers of role user: the first, after 10 bytes, asks for 90 more while the second holds 90; the second lets go. */
async function firstReaderWaitsForSecond(bytes: RemoteAnswerBytes): Promise<void> {
  const first = bytes.forRequest('user');
  const second = bytes.forRequest('user');
  expect([first.take(10), second.take(90)]).toEqual([undefined, undefined]);
  const waited = first.takeOrWait(90);
  second.release();
  expect(await waited).toBeUndefined();
}

test("the first reader whose bytes fit the role's bound exactly waits for the others' to be given back", async () => {
  const bytes = new RemoteAnswerBytes(1000, 400);
  await firstReaderWaitsForSecond(bytes);
  expect(bytes.heldBy('user')).toBe(400);
});

test('a request released before it read anything leaves no reader behind: the next first reader still waits', async () => {
  const bytes = new RemoteAnswerBytes(1000, 400);
  bytes.forRequest('user').release();
  await firstReaderWaitsForSecond(bytes);
});
