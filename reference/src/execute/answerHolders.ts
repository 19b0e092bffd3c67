// Where a field answered after the statement goes in an answer's data: every row's place of it,
// through lists and objects (execute/remoteJoins.ts, execute/sourceJoins.ts).

/** Where one row's field is: its object, the key, and its path in the answer. */
export interface Holder {
  parent: Record<string, unknown>;
  key: string;
  trail: (string | number)[];
}

/** The holders of a join's field in `data`, walking through lists (without recursion on the data's depth). */
export function holdersOf(data: Record<string, unknown>, path: readonly string[]): Holder[] {
  const out: Holder[] = [];
  let level: { value: unknown; trail: (string | number)[] }[] = [{ value: data, trail: [] }];
  for (const [i, key] of path.entries()) {
    const next: typeof level = [];
    for (let k = 0; k < level.length; k++) {
      const { value, trail } = level[k]!;
      if (Array.isArray(value)) {
        value.forEach((v, j) => level.push({ value: v, trail: [...trail, j] }));
        continue;
      }
      if (typeof value !== 'object' || value === null) continue;
      const object = value as Record<string, unknown>;
      if (i === path.length - 1) out.push({ parent: object, key, trail: [...trail, key] });
      else next.push({ value: object[key], trail: [...trail, key] });
    }
    level = next;
  }
  return out;
}
