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
}
