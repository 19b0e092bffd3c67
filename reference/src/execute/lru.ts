/**
 * A map that forgets its least recently used entries once their weight passes `maxWeight`: the
 * caches of parsed documents and compiled plans are bounded by the memory they hold, not by their
 * number, since one entry of a hostile request can be thousands of times larger than another.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (key: K, value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(key, value);
    // An entry heavier than the whole cache is not kept: it would only push out everything else.
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    while (this.total > this.maxWeight) this.delete(this.entries.keys().next().value as K);
  }

  /** The weight held now. */
  get weight(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }
}
