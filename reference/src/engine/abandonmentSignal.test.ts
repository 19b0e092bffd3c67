// The AbortSignal of a metadata request's abandonment (abandonmentSignal.ts).
import { Abandon, type Abandonment } from '../execute/abandonment';
import { abortSignalOf } from './abandonmentSignal';

test('a request with no abandonment to follow has no signal', () => {
  expect(abortSignalOf(undefined)).toBeUndefined();
});

test('the signal aborts when the client goes, not before', () => {
  const gone = new Abandon();
  const signal = abortSignalOf(gone)!;
  expect(signal.aborted).toBe(false);
  expect(gone.listening).toBe(1);
  gone.abandon('client went away');
  expect(signal.aborted).toBe(true);
});

test('a client gone already gives a signal aborted already, and is not listened to', () => {
  const listened: string[] = [];
  const gone: Abandonment = {
    abandoned: true,
    reason: 'client went away',
    onAbandon: () => {
      listened.push('listener');
      return () => {};
    },
  };
  expect(abortSignalOf(gone)!.aborted).toBe(true);
  expect(listened).toEqual([]);
});
