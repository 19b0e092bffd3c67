// Completing an answer with its relationships to tables of sources (decision
// dec.remote-relationship.to-source): the rows hold their mapped columns where the field goes; the
// joins of a stage to one source are one statement over each join's distinct sets of values, and
// every row gets the value of its set.
import { holdersOf, type Holder } from './answerHolders';
import type { SourceJoinGroup } from './plan';
import type { CompiledPlan } from './plan';
import { JOIN_INDEX, joinKeyName, type JoinKeys } from '../sql/graphql/sourceJoin';

/** Runs a plan on a source (undefined: the server's own database): the answer's text, `{"data": …}`. */
export type SourceRunner = (source: string | undefined, plan: CompiledPlan) => Promise<string>;

/** The distinct sets of values of a join's rows, each with the rows that have it. A set with a null matches no row, as a join does. */
function setsOf(data: Record<string, unknown>, path: readonly string[], lhs: readonly string[]): { sets: Record<string, unknown>[]; holders: Holder[][] } {
  const distinct = new Map<string, Holder[]>();
  const sets: Record<string, unknown>[] = [];
  for (const holder of holdersOf(data, path)) {
    // The statement wrote an object of the mapped columns here (a row that is not there has no holder).
    const row = holder.parent[holder.key] as Record<string, unknown>;
    const values = lhs.map((c) => row[c] ?? null);
    const key = JSON.stringify(values);
    const found = distinct.get(key);
    if (found) {
      found.push(holder);
      continue;
    }
    distinct.set(key, [holder]);
    sets.push(Object.fromEntries([[JOIN_INDEX, sets.length], ...values.map((v, i) => [joinKeyName(i), v])]));
  }
  return { sets, holders: [...distinct.values()] };
}

/** Run a group of joins on `data`, in place: one statement on their source, unless no row asks. */
export async function runSourceJoins(data: Record<string, unknown>, group: SourceJoinGroup, run: SourceRunner): Promise<unknown[]> {
  const found = group.joins.map((j) => setsOf(data, j.path, j.lhs));
  if (found.every((f) => f.sets.length === 0)) return [];
  const keys = new Map<unknown, string>(group.joins.map((j, i) => [j.keys, JSON.stringify(found[i]!.sets)]));
  const plan: CompiledPlan = {
    ...group.plan,
    statements: group.plan.statements.map((s) => ({ ...s, values: s.values.map((v) => keys.get(v as JoinKeys) ?? v) })),
  };
  const answer = JSON.parse(await run(group.source, plan)) as { data: Record<string, unknown[]> };
  group.plan.estimatedCost ??= plan.estimatedCost;
  // Rows of one set share its value: a join of the next stage finds every place of it before it writes any.
  found.forEach(({ holders }, j) => {
    const values = answer.data[String(j)]!;
    holders.forEach((rows, i) => {
      for (const h of rows) h.parent[h.key] = values[i] ?? null;
    });
  });
  return [];
}
