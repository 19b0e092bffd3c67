// The bytes of remote answers a server holds (decision dec.limits.remote-answers): each call's answer
// is bounded (MAX_REMOTE_ANSWER_BYTES), all the answers of one request together, and all those of
// one role's requests in flight together. An answer past a bound stops being read and fails its
// call: a request that gathers large answers from several fields or several remotes, or a role that
// sends many such requests at once, cannot take the server's memory from the others. A role's bound
// counts what the server holds, not what it read: each byte read is held several times over until
// the request's answer has been written (HELD_COPIES).
//
// When a role's requests together reach its bound, the one that began reading first waits for the
// others to give bytes back, and the others are refused: without it, requests that read at once
// each hold a part, and all are refused in turn while none completes.

/** The copies of a byte of a remote's answer held until the answer is written: as read, as text, as parsed values, in the answer written out. */
export const HELD_COPIES = 4;

/** Bytes held per role, across its requests in flight. */
export class RemoteAnswerBytes {
  private readonly held = new Map<string, number>();
  /** Per role, the requests that have read, the first to read first. */
  private readonly readers = new Map<string, AnswerBudget[]>();
  /** Per role, those waiting for bytes to be given back. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    readonly perRequest: number,
    readonly perRole: number,
  ) {}

  /** The budget of one request of `role`: released (once) when its answer has been written. */
  forRequest(role: string): AnswerBudget {
    return new AnswerBudget(this, role);
  }

  heldBy(role: string): number {
    return this.held.get(role) ?? 0;
  }

  /** Takes `bytes` for `role`; false, taking nothing, when that would pass the role's bound. */
  take(role: string, bytes: number): boolean {
    const now = this.heldBy(role) + bytes;
    if (now > this.perRole) return false;
    this.held.set(role, now);
    return true;
  }

  give(role: string, bytes: number): void {
    const now = this.heldBy(role) - bytes;
    if (now > 0) this.held.set(role, now);
    else this.held.delete(role);
    const waiting = this.waiting.get(role);
    this.waiting.delete(role);
    for (const wake of waiting ?? []) wake();
  }

  /** Whether `budget` is the role's first reader (it becomes a reader when it is not one yet). */
  first(role: string, budget: AnswerBudget): boolean {
    const readers = this.readers.get(role) ?? [];
    if (!readers.includes(budget)) this.readers.set(role, [...readers, budget]);
    return (this.readers.get(role) ?? [])[0] === budget;
  }

  /** A promise kept the next time the role gives bytes back. */
  givenBack(role: string): Promise<void> {
    return new Promise((resolve) => this.waiting.set(role, [...(this.waiting.get(role) ?? []), resolve]));
  }

  leave(role: string, budget: AnswerBudget): void {
    const readers = (this.readers.get(role) ?? []).filter((b) => b !== budget);
    if (readers.length) this.readers.set(role, readers);
    else this.readers.delete(role);
    // The next reader may be first now: it looks again.
    this.give(role, 0);
  }
}

/** What one request's remote answers hold so far. */
export class AnswerBudget {
  private bytes = 0;
  private released = false;

  constructor(
    private readonly pool: RemoteAnswerBytes,
    private readonly role: string,
  ) {}

  /** Counts `n` more bytes read; the reason it may not, or undefined. */
  take(n: number): string | undefined {
    if (this.released) return undefined;
    if (this.bytes + n > this.pool.perRequest) return `the remote answers of this request are larger than ${this.pool.perRequest} bytes together`;
    this.pool.first(this.role, this);
    if (!this.pool.take(this.role, n * HELD_COPIES)) return this.roleBoundReason();
    this.bytes += n;
    return undefined;
  }

  /** As take, but the role's first reader waits for bytes given back rather than being refused. */
  async takeOrWait(n: number): Promise<string | undefined> {
    for (;;) {
      const refused = this.take(n);
      // Waiting helps only the first reader, and only when its bytes fit the role's bound once the others' are given back.
      if (refused !== this.roleBoundReason() || !this.pool.first(this.role, this) || (this.bytes + n) * HELD_COPIES > this.pool.perRole) return refused;
      await this.pool.givenBack(this.role);
      if (this.released) return undefined;
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.give(this.role, this.bytes * HELD_COPIES);
    this.pool.leave(this.role, this);
  }

  private roleBoundReason(): string {
    return `the remote answers of the role's requests in flight would hold more than ${this.pool.perRole} bytes (${HELD_COPIES} copies of each byte read)`;
  }
}
