// A client that closes its connection before its answer is written: what it asked for is stopped.

/** Aborted when the client goes away before its answer is written (its SQL is cancelled then). */
export function clientGone(res: { on(event: 'close', listener: () => void): unknown; writableFinished: boolean }): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}
