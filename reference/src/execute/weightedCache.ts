// The caches of parsed documents and compiled plans are bounded by the memory they hold, not by
// their number, since one entry of a hostile request can be thousands of times larger than
// another: lru-cache with a size per entry. An entry heavier than the whole cache is not kept.
import { LRUCache } from 'lru-cache';

export type WeightedCache<V extends {}> = LRUCache<string, V>;

export function weightedCache<V extends {}>(maxWeight: number, weigh: (key: string, value: V) => number): WeightedCache<V> {
  return new LRUCache<string, V>({ maxSize: maxWeight, sizeCalculation: (value, key) => Math.max(1, Math.ceil(weigh(key, value))) });
}
