// "Did you mean": the known name closest to a mistyped one, when it is close enough to be a typo
// (edit distance from fastest-levenshtein).
import { distance } from 'fastest-levenshtein';

/** The candidate at most `limit` edits from `name` (case aside), the closest first; undefined if none. */
export function nearestName(name: string, candidates: Iterable<string>, limit = 2): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    // Names whose lengths differ by more than the limit cannot be that close.
    if (Math.abs(lower.length - wanted.length) > limit) continue;
    const d = distance(wanted, lower);
    if (d <= limit && (!best || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name;
}
