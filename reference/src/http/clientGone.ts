// A client that closes its connection before its answer is written: what it asked for is stopped.
import { Abandon, type Abandonment } from '../execute/abandonment';

/** Abandoned when the client goes away before its answer is written (its SQL is cancelled then). */
export function clientGone(res: { on(event: 'close', listener: () => void): unknown; writableFinished: boolean }): Abandonment {
  const gone = new Abandon();
  res.on('close', () => {
    if (!res.writableFinished) gone.abandon(new Error('the client went away'));
  });
  return gone;
}

/** Calls `done` once the answer has been written, or the client has gone: at once when that is already so. */
export function whenWritten(res: { once(event: 'close', listener: () => void): unknown; closed: boolean }): (done: () => void) => void {
  return (done) => {
    if (res.closed) done();
    else res.once('close', done);
  };
}
