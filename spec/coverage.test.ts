// Every spec item has a conformance case (or, for start-up behaviour, a reference test), or is
// listed in NOT_YET_COVERED. The list only shrinks: a listed item that gains a case fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ITEMS, ITEMS_BY_ID, splitSide } from './index';
import { NOT_YET_COVERED } from './not-yet-covered';

const root = join(__dirname, '..');

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path, suffix);
    return path.endsWith(suffix) ? [path] : [];
  });
}

/** Spec IDs named in the given files: as string literals ('op.x'), or in brackets in a title ([op.x]); sides dropped. */
function idsNamedIn(files: string[]): Set<string> {
  const ids = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/['\[]((?:op|err|rule|dec)\.[A-Za-z0-9_.:-]*[A-Za-z0-9_-])['\]]/g)) ids.add(splitSide(m[1]!).id);
  }
  return ids;
}

const conformanceIds = idsNamedIn(filesUnder(join(root, 'conformance', 'cases'), '.test.ts'));
const referenceIds = idsNamedIn(filesUnder(join(root, 'reference'), '.test.ts'));

/**
 * How many cases name each ID, and each side of a two-sided rule (`rule.x:allowed` counts for
 * `rule.x` and for its side): each `covers([...])`, `caseWithProfile(name, [...])` and
 * `caseNeeding(requirement, [...])` list counts once, and so does the list a file's own case-making
 * function takes first (`caseInBulk([...], row)`: a function named case… that defines one case).
 */
function casesPerId(files: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const file of files) {
    for (const list of readFileSync(file, 'utf8').matchAll(/(?:covers\(\s*|(?:caseWithProfile|caseNeeding)\([^,]+,\s*|\bcase[A-Z]\w*\(\s*)\[([^\]]*)\]/g)) {
      const named = [...list[1]!.matchAll(/'((?:op|err|rule|dec)\.[^']+)'/g)].map((m) => m[1]!);
      for (const id of new Set(named.map((n) => splitSide(n).id))) add(id);
      for (const n of new Set(named.filter((n) => splitSide(n).side))) add(n);
    }
  }
  return counts;
}

describe('spec coverage', () => {
  test('items that rest on a single case are reported', () => {
    const counts = casesPerId(filesUnder(join(root, 'conformance', 'cases'), '.test.ts'));
    const single = ITEMS.filter((item) => counts.get(item.id) === 1).map((item) => item.id);
    process.stdout.write(`spec items resting on a single case: ${single.length}${single.length ? ` (${single.join(', ')})` : ''}\n`);
    // Every ID a case names is counted: the count cannot miss a case that names it.
    expect([...conformanceIds].filter((id) => ITEMS_BY_ID.has(id) && !counts.has(id) && !NOT_YET_COVERED.includes(id))).toEqual([]);
  });

  test('every two-sided rule has a case checking each side', () => {
    const counts = casesPerId(filesUnder(join(root, 'conformance', 'cases'), '.test.ts'));
    const missing = ITEMS.filter((item) => item.sides && !NOT_YET_COVERED.includes(item.id)).flatMap((item) =>
      (['allowed', 'refused'] as const).filter((side) => !counts.has(`${item.id}:${side}`)).map((side) => `${item.id}:${side} (${item.sides![side]})`),
    );
    expect(missing).toEqual([]);
  });

  test('every ID that a case names exists, with a side only where the item has sides', () => {
    expect([...conformanceIds, ...referenceIds].filter((id) => !ITEMS_BY_ID.has(id))).toEqual([]);
    const sided = [...casesPerId(filesUnder(join(root, 'conformance', 'cases'), '.test.ts')).keys()].filter((named) => splitSide(named).side);
    expect(sided.filter((named) => !ITEMS_BY_ID.get(splitSide(named).id)?.sides)).toEqual([]);
  });

  test('IDs are unique', () => {
    expect(ITEMS.length).toBe(ITEMS_BY_ID.size);
  });

  test('every item has a test or is listed as not yet covered', () => {
    const missing = ITEMS.filter((item) => {
      if (NOT_YET_COVERED.includes(item.id)) return false;
      return item.verifiedBy === 'reference' ? !referenceIds.has(item.id) : !conformanceIds.has(item.id);
    }).map((item) => item.id);
    expect(missing).toEqual([]);
  });

  test('the not-yet-covered list names only real, uncovered items, once each', () => {
    expect(NOT_YET_COVERED.filter((id) => !ITEMS_BY_ID.has(id))).toEqual([]);
    expect(NOT_YET_COVERED.filter((id) => conformanceIds.has(id))).toEqual([]);
    expect(new Set(NOT_YET_COVERED).size).toBe(NOT_YET_COVERED.length);
    process.stdout.write(`spec items: ${ITEMS.length}; not yet covered: ${NOT_YET_COVERED.length}\n`);
  });

  test('compat items record their decision', () => {
    expect(ITEMS.filter((i) => i.level === 'compat' && !i.decision).map((i) => i.id)).toEqual([]);
  });
});
