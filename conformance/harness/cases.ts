// How a case names what it checks: the spec IDs go at the end of the test title in brackets,
// where the reporter and the coverage check read them. A two-sided rule's ID may carry the side
// the case checks (`rule.x:allowed`, `rule.x:refused`). Whether each ID names an item of the spec
// is checked once a run, by the reporter (`idProblems`), and by spec/coverage.test.ts: a case file
// need not load the spec's tables only to name its IDs.
import type { SpecItem } from '../../spec/item';
import { splitSide } from '../../spec/item';
import { profileAvailable, type Requirement } from './target';
import type { ProfileName } from './profiles';

/** The kinds of spec ID: a bracketed word that starts with none of them is no ID. */
const ID_KIND = /^(?:op|err|rule|dec)\./;
const NAMED_ID = new RegExp(`${ID_KIND.source}[A-Za-z0-9_.-]*[A-Za-z0-9_-](?::(?:allowed|refused))?$`);

export function covers(ids: readonly string[], title: string): string {
  const malformed = ids.find((named) => !NAMED_ID.test(named));
  if (malformed !== undefined) throw new Error(`malformed spec ID ${malformed} in "${title}"`);
  return `${title} [${ids.join(' ')}]`;
}

/** The spec IDs at the end of a title as named, sides kept. */
export const namedInTitle = (title: string): string[] => /\[([^\[\]]+)\]\s*$/.exec(title)?.[1]?.split(/\s+/) ?? [];

/** The spec IDs at the end of a title, without the sides. */
export const idsOfTitle = (title: string): string[] => [...new Set(namedInTitle(title).map((named) => splitSide(named).id))];

/** What is wrong with the IDs a title names: an ID the spec lacks, or a side named of an item without sides. */
export function idProblems(title: string, items: ReadonlyMap<string, SpecItem>): string[] {
  // A title of another test may end in brackets that hold no IDs (a command line's arguments).
  return namedInTitle(title)
    .filter((named) => ID_KIND.test(named))
    .flatMap((named) => {
      const { id, side } = splitSide(named);
      const item = items.get(id);
      if (!item) return [`unknown spec ID ${id} in "${title}"`];
      if (side && !item.sides) return [`${id} has no sides, so ${named} in "${title}" names none`];
      return [];
    });
}

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
