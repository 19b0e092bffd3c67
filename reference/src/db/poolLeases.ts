// Pools that a metadata change retires while requests still use them (decision dec.source.in-flight):
// a request holds a lease from the moment it takes a source's pools until its work there is done,
// and a retired pool is ended only once no lease is left. Ended at once instead, it would refuse
// the connect of a request that took it a moment before ("Cannot use a pool after calling end")
// and never serve the requests queued for one of its connections.

/** Leases on pools (or sets of pools), and the ends of those retired, deferred while leased. */
export class PoolLeases<K extends object> {
  private readonly held = new Map<K, number>();
  private readonly retired = new Map<K, () => Promise<void>>();
  private readonly ending = new Set<Promise<void>>();

  /** A lease on `key`, given back by the function returned (once; later calls do nothing). */
  take(key: K): () => void {
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = this.held.get(key)! - 1;
      if (left > 0) return void this.held.set(key, left);
      this.held.delete(key);
      const end = this.retired.get(key);
      if (end) {
        this.retired.delete(key);
        this.track(end());
      }
    };
  }

  /** `key` is no longer handed out: `end` runs now when it is not leased, else when its last lease is given back. */
  retire(key: K, end: () => Promise<void>): void {
    if (this.held.has(key)) this.retired.set(key, end);
    else this.track(end());
  }

  /** How many retired pools wait for their leases. */
  get waiting(): number {
    return this.retired.size;
  }

  /** Ends every retired pool now, leased or not (the server stops), and waits for all the ends. */
  async endAll(): Promise<void> {
    const ends = [...this.retired.values()];
    this.retired.clear();
    for (const end of ends) this.track(end());
    await Promise.all([...this.ending]);
  }

  private track(ended: Promise<void>): void {
    const settled = ended.catch(() => {}).finally(() => this.ending.delete(settled));
    this.ending.add(settled);
  }
}
