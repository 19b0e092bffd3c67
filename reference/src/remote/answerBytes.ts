// The bytes of remote answers a server holds (decision dec.limits.remote-answers): each call's answer
// is bounded (MAX_REMOTE_ANSWER_BYTES), all the answers of one request together, and all those of
// one role's requests in flight together. An answer past a bound stops being read and fails its
// call: a request that gathers large answers from several fields or several remotes, or a role that
// sends many such requests at once, cannot take the server's memory from the others.

/** Bytes held per role, across its requests in flight. */
export class RemoteAnswerBytes {
  private readonly held = new Map<string, number>();

  constructor(
    readonly perRequest: number,
    readonly perRole: number,
  ) {}

  /** The budget of one request of `role`: released (once) when its answer is made. */
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
    if (!this.pool.take(this.role, n)) return `the remote answers of the role's requests in flight are larger than ${this.pool.perRole} bytes together`;
    this.bytes += n;
    return undefined;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.give(this.role, this.bytes);
  }
}
