// How a case names what it checks: the spec IDs go at the end of the test title in brackets,
// where the reporter and the coverage check read them.
import { ITEMS_BY_ID } from '../../spec';
import { profileAvailable, type Requirement } from './target';
import type { ProfileName } from './profiles';

export function covers(ids: readonly string[], title: string): string {
  for (const id of ids) {
    if (!ITEMS_BY_ID.has(id)) throw new Error(`unknown spec ID ${id} in "${title}"`);
  }
  return `${title} [${ids.join(' ')}]`;
}

export const idsOfTitle = (title: string): string[] => /\[([^\[\]]+)\]\s*$/.exec(title)?.[1]?.split(/\s+/) ?? [];

/** A case that needs something of the target; without it the case is reported as not run. */
export function caseNeeding(requirement: Requirement, ids: readonly string[], title: string, fn: () => Promise<void>): void {
  if (requirement.met) {
    test(covers(ids, title), fn);
  } else {
    // Visible in the report as not run, never as passed.
    test.skip(covers(ids, `${title} (not run: needs ${requirement.needs})`), fn);
  }
}

/** A case that needs a target configured as `profile`. */
export function caseWithProfile(profile: ProfileName, ids: readonly string[], title: string, fn: () => Promise<void>): void {
  caseNeeding({ met: profileAvailable(profile), needs: `ENGINE_URL_${profile.toUpperCase().replace(/-/g, '_')}` }, ids, title, fn);
}
