import { Abandon } from './abandonment';
import { RoleGate } from './roleGate';

test('a role runs at most its share at once; the rest wait in order; other roles go on', async () => {
  const gate = new RoleGate(2);
  const a1 = await gate.enter('a');
  const a2 = await gate.enter('a');
  const order: string[] = [];
  const a3 = gate.enter('a').then((leave) => (order.push('a3'), leave));
  const a4 = gate.enter('a').then((leave) => (order.push('a4'), leave));
  const b1 = await gate.enter('b');
  expect([gate.runningFor('a'), gate.runningFor('b')]).toEqual([2, 1]);
  await Promise.resolve();
  expect(order).toEqual([]);
  a1();
  a1(); // freeing twice frees once
  // The place passed on to the next in line: still two running.
  expect(gate.runningFor('a')).toBe(2);
  const leaveA3 = await a3;
  leaveA3();
  leaveA3();
  expect(gate.runningFor('a')).toBe(2);
  a2();
  expect(gate.runningFor('a')).toBe(1);
  (await a4)();
  expect(order).toEqual(['a3', 'a4']);
  expect(gate.runningFor('a')).toBe(0);
  b1();
  expect(gate.runningFor('b')).toBe(0);
  // Nothing kept for roles with no one running or waiting (role names come and go).
  expect(gate.rolesHeld()).toBe(0);
}, 2_000);

test('a waiting request whose client went away leaves the queue', async () => {
  const gate = new RoleGate(1);
  const first = await gate.enter('a');
  const client = new Abandon();
  const gone = gate.enter('a', client);
  const next = gate.enter('a');
  client.abandon(new Error('client gone'));
  await expect(gone).rejects.toThrow('client gone');
  first();
  const leaveNext = await next;
  expect(gate.runningFor('a')).toBe(1);
  leaveNext();
  expect(gate.runningFor('a')).toBe(0);
  expect(gate.rolesHeld()).toBe(0);
}, 2_000);

test('a client gone before it would wait is refused at once; one gone after it was let in changes nothing', async () => {
  const gate = new RoleGate(1);
  const gone = new Abandon();
  gone.abandon(new Error('client gone'));
  const first = await gate.enter('a', gone); // a free place: taken, the answer is for the caller to drop
  await expect(gate.enter('a', gone)).rejects.toThrow('client gone');
  const client = new Abandon();
  const second = gate.enter('a', client);
  expect(client.listening).toBe(1);
  first();
  const leave = await second;
  // Let in: the gate no longer listens to the client (a long-lived one would gather listeners).
  expect(client.listening).toBe(0);
  client.abandon(new Error('late'));
  expect(gate.runningFor('a')).toBe(1);
  const third = gate.enter('a');
  leave();
  (await third)();
  expect(gate.runningFor('a')).toBe(0);
}, 2_000);

test('roles are counted apart, each up to its share', async () => {
  const gate = new RoleGate(1);
  const leaves = await Promise.all(['a', 'b', 'c'].map((r) => gate.enter(r)));
  expect(['a', 'b', 'c'].map((r) => gate.runningFor(r))).toEqual([1, 1, 1]);
  expect(gate.rolesHeld()).toBe(3);
  let waited = false;
  const another = gate.enter('b').then((leave) => ((waited = true), leave));
  await new Promise((resolve) => setImmediate(resolve));
  expect(waited).toBe(false);
  leaves[1]!();
  (await another)();
  leaves[0]!();
  leaves[2]!();
  expect(['a', 'b', 'c'].map((r) => gate.runningFor(r))).toEqual([0, 0, 0]);
  expect(gate.rolesHeld()).toBe(0);
}, 2_000);

describe('within a capacity shared by every share', () => {
  /** Enter and note when admitted. */
  const entering = (gate: RoleGate, share: string, admitted: string[]) =>
    gate.enter(share).then((leave) => {
      admitted.push(share);
      return leave;
    });
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  test('two busy shares leave a place for a third: it is let in at once, without waiting for their queues', async () => {
    // Each share at most half of the ten places, and the last free one kept for a newcomer.
    const gate = new RoleGate(5, 10);
    const admitted: string[] = [];
    const a = Array.from({ length: 20 }, () => entering(gate, 'a', admitted));
    void Array.from({ length: 20 }, () => entering(gate, 'b', admitted));
    await settle();
    expect([gate.runningFor('a'), gate.runningFor('b')]).toEqual([5, 4]);
    const c = entering(gate, 'c', admitted);
    await settle();
    expect(gate.runningFor('c')).toBe(1);
    expect(admitted[admitted.length - 1]).toBe('c');
    (await c)();
    // What a frees goes to b, which runs fewer, up to the place kept free.
    for (const leave of await Promise.all(a.slice(0, 2))) leave();
    await settle();
    expect([gate.runningFor('a'), gate.runningFor('b')]).toEqual([4, 5]);
    const d = entering(gate, 'd', admitted);
    await settle();
    expect(gate.runningFor('d')).toBe(1);
    (await d)();
  }, 2_000);

  test('a freed place goes to the waiting share that runs the fewest; the last place only to a share that runs nothing', async () => {
    const gate = new RoleGate(5, 3);
    const admitted: string[] = [];
    const first = await gate.enter('a');
    const second = await gate.enter('a');
    const third = await gate.enter('b'); // the place kept for a newcomer
    const waiting = [entering(gate, 'a', admitted), entering(gate, 'b', admitted), entering(gate, 'c', admitted), entering(gate, 'c', admitted)];
    await settle();
    expect(admitted).toEqual([]);
    first();
    await settle();
    expect(admitted).toEqual(['c']); // it runs nothing: it goes first
    second();
    await settle();
    expect(admitted).toEqual(['c', 'a']); // a runs nothing now, b and c one each
    third();
    await settle();
    expect(admitted).toEqual(['c', 'a', 'b']);
    const [wa, wb] = await Promise.all(waiting.slice(0, 2));
    wa!();
    await settle();
    // c runs one and would take the last free place: it waits.
    expect(admitted).toEqual(['c', 'a', 'b']);
    wb!();
    await settle();
    expect(admitted).toEqual(['c', 'a', 'b', 'c']);
    (await waiting[2]!)();
    (await waiting[3]!)();
    expect(gate.rolesHeld()).toBe(0);
  }, 2_000);

  test('with a capacity of one, places go by turn', async () => {
    const gate = new RoleGate(1, 1);
    const admitted: string[] = [];
    const first = await gate.enter('a');
    const next = [entering(gate, 'a', admitted), entering(gate, 'b', admitted)];
    first();
    (await next[1]!)();
    (await next[0]!)();
    expect(admitted).toEqual(['b', 'a']);
  }, 2_000);

  test('a larger capacity lets those waiting in at once; a smaller one admits no one until enough have left', async () => {
    const gate = new RoleGate(5, 2);
    const admitted: string[] = [];
    const held = [await gate.enter('a'), await gate.enter('b')];
    const next = [entering(gate, 'c', admitted), entering(gate, 'd', admitted)];
    await settle();
    expect(admitted).toEqual([]);
    gate.resize(4);
    await settle();
    expect(admitted).toEqual(['c', 'd']);
    gate.resize(2);
    const late = entering(gate, 'e', admitted);
    for (const leave of held) leave();
    await settle();
    expect(admitted).toEqual(['c', 'd']);
    (await next[0]!)();
    await settle();
    expect(admitted).toEqual(['c', 'd', 'e']);
    (await next[1]!)();
    (await late)();
    expect(gate.rolesHeld()).toBe(0);
  }, 2_000);
});
