// A request whose client may go away before its answer is written: what it asked for stops then (its
// place in a role's queue is given up, its statement cancelled). A plain list of listeners: an
// AbortController per request (its AbortSignal an EventTarget, made and listened to for every
// cached query) took 4 % of the server's time under a point lookup for the making alone.

/** Tells whether, and when, the client of a request went away. */
export interface Abandonment {
  readonly abandoned: boolean;
  /** What a request abandoned ends with. */
  readonly reason: unknown;
  /** Calls `listener` when the client goes (not if it has gone already); gives back how to stop listening. */
  onAbandon(listener: () => void): () => void;
}

/** An abandonment its owner declares (`abandon`), once. */
export class Abandon implements Abandonment {
  abandoned = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  abandon(reason: unknown): void {
    if (this.abandoned) return;
    this.abandoned = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  onAbandon(listener: () => void): () => void {
    if (this.abandoned) return () => {};
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Listeners waiting (none once the request no longer listens). */
  get listening(): number {
    return this.listeners.length;
  }
}

/** An abandonment that comes when the client goes, or when `ms` have passed (`ranOut` then). */
export function timeLimited(gone: Abandonment | undefined, ms: number): { gone: Abandonment; readonly ranOut: boolean; stop(): void } {
  const both = new Abandon();
  let ranOut = false;
  const timer = setTimeout(() => {
    ranOut = true;
    both.abandon('time limit');
  }, ms);
  if (gone?.abandoned) both.abandon(gone.reason);
  const stopListening = gone?.onAbandon(() => both.abandon(gone.reason));
  return {
    gone: both,
    get ranOut() {
      return ranOut;
    },
    stop() {
      clearTimeout(timer);
      stopListening?.();
    },
  };
}
