// The requests of each client of a role in the last minute, for api_limits.rate_limit (decision
// dec.api-limits): a sliding window of their times, kept by this server alone.
import type { RateLimit } from '../../../spec';
import type { Session } from '../auth/session';
import { sessionKey } from '../sessionNames';

const WINDOW_MS = 60_000;

/** Who a rate limit counts together: the role, and the client's address or session variables. */
export function rateKey(limit: RateLimit, session: Session, address: string | undefined): string {
  const role = session.role;
  if (limit.unique_params === 'IP') return JSON.stringify([role, address ?? '']);
  if (Array.isArray(limit.unique_params)) return JSON.stringify([role, ...limit.unique_params.map((v) => session.variables[sessionKey(v)] ?? null)]);
  return JSON.stringify([role]);
}

export class RateCounter {
  private readonly times = new Map<string, number[]>();
  private lastSweep = 0;

  /** Counts a request of `key` at `now`, unless `max` were already made in the minute before: then false. */
  admit(key: string, max: number, now = Date.now()): boolean {
    // Clients that made no request for a minute are forgotten, so that many addresses do not pile up.
    if (now - this.lastSweep > WINDOW_MS) {
      this.lastSweep = now;
      for (const [k, times] of this.times) if (times[times.length - 1]! <= now - WINDOW_MS) this.times.delete(k);
    }
    const recent = (this.times.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    const admitted = recent.length < max;
    if (admitted) recent.push(now);
    if (recent.length) this.times.set(key, recent);
    else this.times.delete(key);
    return admitted;
  }

  /** How many clients are counted. */
  get size(): number {
    return this.times.size;
  }
}
