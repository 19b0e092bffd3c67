// Answers of queries that carry @cached (decision dec.graphql.cached), kept for their ttl. An entry
// is keyed by everything the answer is made from: the role, the document, the operation, the
// variables and the session's variables (the plan cache's key), so two sessions that could see
// different rows never share one. Bounded by the bytes it holds; a new metadata version has a cache
// of its own (it lives in the SchemaCache), so nothing is served from an older schema.
import { weightedCache, type WeightedCache } from './weightedCache';

interface Entry {
  body: string;
  expiresAt: number;
}

export class ResponseCache {
  /** None when the server keeps no answers (a bound of 0 bytes). */
  private readonly entries: WeightedCache<Entry> | undefined;

  constructor(maxBytes: number) {
    this.entries = maxBytes > 0 ? weightedCache(maxBytes, (key, entry) => 2 * (key.length + entry.body.length) + 64) : undefined;
  }

  /** The answer kept for `key`, with the seconds it has left, while it has some. */
  get(key: string, now = Date.now()): { body: string; secondsLeft: number } | undefined {
    const entry = this.entries?.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries!.delete(key);
      return undefined;
    }
    return { body: entry.body, secondsLeft: Math.ceil((entry.expiresAt - now) / 1000) };
  }

  /** Keeps a successful answer for `ttlSeconds` (none for 0 or less). */
  set(key: string, body: string, ttlSeconds: number, now = Date.now()): void {
    if (ttlSeconds <= 0) return;
    this.entries?.set(key, { body, expiresAt: now + ttlSeconds * 1000 });
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
