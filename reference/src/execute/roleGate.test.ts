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
  (await a3)();
  a2();
  (await a4)();
  expect(order).toEqual(['a3', 'a4']);
  expect(gate.runningFor('a')).toBe(0);
  b1();
  expect(gate.runningFor('b')).toBe(0);
});

test('a waiting request whose client went away leaves the queue', async () => {
  const gate = new RoleGate(1);
  const first = await gate.enter('a');
  const controller = new AbortController();
  const gone = gate.enter('a', controller.signal);
  const next = gate.enter('a');
  controller.abort(new Error('client gone'));
  await expect(gone).rejects.toThrow('client gone');
  first();
  (await next)();
  expect(gate.runningFor('a')).toBe(0);
});
