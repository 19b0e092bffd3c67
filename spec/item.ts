// Every checkable statement of SPEC.md (and every decision taken where it says "not shown")
// is an item with a stable ID. Conformance tests name the IDs they cover.

/** `spec`: SPEC.md states it, every implementation must pass. `compat`: SPEC.md leaves it
 *  "not shown"; the decision below is what the reference does (usually Hasura v2's behaviour). */
export type Level = 'spec' | 'compat';

export interface SpecItem {
  id: string;
  /** The SPEC.md section it comes from, e.g. "4.3". */
  section: string;
  level: Level;
  summary: string;
  /** For `compat` items: what the reference does where SPEC.md is silent. */
  decision?: string;
  /** Behaviour that cannot be observed over HTTP and SQL (server start-up), so a reference
   *  test names it instead of a conformance test. */
  verifiedBy?: 'reference';
  /**
   * A rule that lets something through on one side and refuses it on the other: what each side
   * is. Cases name the side they check as `<id>:allowed` or `<id>:refused`, and each side needs
   * a case of its own.
   */
  sides?: { allowed: string; refused: string };
}

export type Side = 'allowed' | 'refused';

/** `rule.x:allowed` → `{id: 'rule.x', side: 'allowed'}`; an ID without a side has none. */
export function splitSide(named: string): { id: string; side?: Side } {
  const m = /^(.*):(allowed|refused)$/.exec(named);
  return m ? { id: m[1]!, side: m[2] as Side } : { id: named };
}
