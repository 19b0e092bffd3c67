// Writes that many deliveries make at nearly the same time, sent together: while one batch's
// statement runs, what comes in waits, and goes in the next statement at once when it ends (as a
// database groups commits). One write alone is sent at once: batching never adds a wait.

export class Batches<T> {
  private waiting: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writing = false;

  constructor(
    /** Writes the items of one batch (in the order they came), or fails for all of them. */
    private readonly write: (items: readonly T[]) => Promise<void>,
    /** The most items one statement takes. */
    private readonly most: number,
  ) {}

  /** Settled when the batch that holds `item` is written; failed when that batch fails. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.next();
    });
  }

  private async next(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.most);
      try {
        await this.write(batch.map((w) => w.item));
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.writing = false;
  }
}
