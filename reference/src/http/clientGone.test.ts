// A client that goes before its answer is written abandons its request; what waits for the answer
// to be written is told once it is, or once the client has gone.
import { EventEmitter } from 'node:events';
import { clientGone, whenWritten } from './clientGone';

/** A response that closes when told, its answer written or not. */
const response = (writableFinished: boolean) => Object.assign(new EventEmitter(), { writableFinished, closed: false });

test('closed before its answer was written: abandoned, with the reason', () => {
  const res = response(false);
  const gone = clientGone(res);
  expect(gone.abandoned).toBe(false);
  res.emit('close');
  expect([gone.abandoned, (gone.reason as Error).message]).toEqual([true, 'the client went away']);
});

test('closed once its answer was written: not abandoned', () => {
  const res = response(true);
  const gone = clientGone(res);
  res.emit('close');
  expect([gone.abandoned, gone.reason]).toEqual([false, undefined]);
});

test('whenWritten: at once when the response is closed already, else once it closes, once', () => {
  const closed = Object.assign(response(true), { closed: true });
  const told: string[] = [];
  whenWritten(closed)(() => told.push('closed'));
  expect(told).toEqual(['closed']);
  const open = response(false);
  whenWritten(open)(() => told.push('open'));
  expect(told).toEqual(['closed']);
  open.emit('close');
  open.emit('close');
  expect(told).toEqual(['closed', 'open']);
});
