// How a case names what it checks: the spec IDs go at the end of the test title in brackets,
// where the reporter and the coverage check read them. A two-sided rule's ID may carry the side
// the case checks (`rule.x:allowed`, `rule.x:refused`).
import { ITEMS_BY_ID, splitSide } from '../../spec';
import { profileAvailable, type Requirement } from './target';
import type { ProfileName } from './profiles';

export function covers(ids: readonly string[], title: string): string {
  for (const named of ids) {
    const { id, side } = splitSide(named);
    const item = ITEMS_BY_ID.get(id);
    if (!item) throw new Error(`unknown spec ID ${id} in "${title}"`);
    if (side && !item.sides) throw new Error(`${id} has no sides, so ${named} in "${title}" names none`);
  }
  return `${title} [${ids.join(' ')}]`;
}

/** The spec IDs at the end of a title, without the sides. */
export const idsOfTitle = (title: string): string[] => [
  ...new Set((/\[([^\[\]]+)\]\s*$/.exec(title)?.[1]?.split(/\s+/) ?? []).map((named) => splitSide(named).id)),
];

/** A case that needs something of the target; without it the case is reported as not run. */
export function caseNeeding(requirement: Requirement, ids: readonly string[], title: string, fn: () => Promise<void>, timeoutMs?: number): void {
  if (requirement.met) {
    test(covers(ids, title), fn, timeoutMs);
  } else {
    // Visible in the report as not run, never as passed.
    test.skip(covers(ids, `${title} (not run: needs ${requirement.needs})`), fn);
  }
}

/** A case that needs a target configured as `profile` (`timeoutMs`: when its own waits add up to more than jest's limit). */
export function caseWithProfile(profile: ProfileName, ids: readonly string[], title: string, fn: () => Promise<void>, timeoutMs?: number): void {
  caseNeeding({ met: profileAvailable(profile), needs: `ENGINE_URL_${profile.toUpperCase().replace(/-/g, '_')}` }, ids, title, fn, timeoutMs);
}
