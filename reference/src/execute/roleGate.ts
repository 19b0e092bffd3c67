// A fair share of the roles' connections (decision 017, dec.limits.fair-share). Each share — a role,
// every user of it together, or one session whatever role it takes — runs at most `perShare`
// statements at once, and all shares together at most `capacity`. When a place frees, it goes to
// the waiting share that runs the fewest statements (the one served longest ago among equals), and
// one place is kept for a share that runs nothing yet: however many shares are busy, a newcomer gets
// a connection as soon as one is free, never after the busy shares' queues.
import type { Abandonment } from './abandonment';

interface Waiter {
  admit: () => void;
}

export class RoleGate {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  /** When each share was last given a place: among shares that run as many, the one served longest ago goes first. */
  private readonly served = new Map<string, number>();
  private total = 0;
  private turn = 0;

  constructor(
    readonly perShare: number,
    private capacity = Number.POSITIVE_INFINITY,
  ) {}

  /** All shares together may now run `capacity` statements: more places go to those waiting at once; fewer are taken back as statements end. */
  resize(capacity: number): void {
    this.capacity = capacity;
    this.admitWaiting();
  }

  /** Wait for a place of `share`; the function it gives back frees it (once). */
  async enter(share: string, gone?: Abandonment): Promise<() => void> {
    if (!this.yieldsTo(share) && this.mayTake(share)) {
      this.take(share);
    } else {
      // A client gone before it would wait takes no place in the queue.
      if (gone?.abandoned) throw gone.reason;
      await new Promise<void>((resolve, reject) => {
        const queue = this.waiting.get(share) ?? [];
        this.waiting.set(share, queue);
        const waiter: Waiter = {
          admit: () => {
            stopListening?.();
            resolve();
          },
        };
        const abandon = () => {
          const i = queue.indexOf(waiter);
          if (i >= 0) queue.splice(i, 1);
          if (queue.length === 0) this.waiting.delete(share);
          this.forgetIfIdle(share);
          reject(gone!.reason);
        };
        queue.push(waiter);
        const stopListening = gone?.onAbandon(abandon);
      });
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.leave(share);
    };
  }

  /** Statements of `share` running now (for tests and the log). */
  runningFor(share: string): number {
    return this.running.get(share) ?? 0;
  }

  /** How many shares the gate keeps anything for: none once every place is free and no one waits. */
  rolesHeld(): number {
    return new Set([...this.running.keys(), ...this.waiting.keys()]).size;
  }

  /** Whether a place may go to `share` now: within its own share, the capacity, and the place kept for newcomers. */
  private mayTake(share: string): boolean {
    const running = this.runningFor(share);
    if (running >= this.perShare || this.total >= this.capacity) return false;
    // The last free place is for a share that runs nothing yet.
    return running === 0 || this.capacity <= 1 || this.total < this.capacity - 1;
  }

  /** Whether `share` lets others go first: someone waits already, in its own queue or in a share that runs fewer. */
  private yieldsTo(share: string): boolean {
    if (this.waiting.has(share)) return true;
    const running = this.runningFor(share);
    for (const other of this.waiting.keys()) if (this.runningFor(other) < running && this.mayTake(other)) return true;
    return false;
  }

  private take(share: string): void {
    this.running.set(share, this.runningFor(share) + 1);
    this.served.set(share, this.turn++);
    this.total++;
  }

  /** A place freed: it goes to the waiting shares, fewest running first. */
  private leave(share: string): void {
    const running = this.runningFor(share) - 1;
    if (running > 0) this.running.set(share, running);
    else this.running.delete(share);
    this.total--;
    this.forgetIfIdle(share);
    this.admitWaiting();
  }

  private admitWaiting(): void {
    for (;;) {
      let next: string | undefined;
      for (const share of this.waiting.keys()) {
        if (!this.mayTake(share)) continue;
        if (
          next === undefined ||
          this.runningFor(share) < this.runningFor(next) ||
          (this.runningFor(share) === this.runningFor(next) && (this.served.get(share) ?? -1) < (this.served.get(next) ?? -1))
        ) {
          next = share;
        }
      }
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const waiter = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(next);
      this.take(next);
      waiter.admit();
    }
  }

  private forgetIfIdle(share: string): void {
    if (!this.running.has(share) && !this.waiting.has(share)) this.served.delete(share);
  }
}
