// The order of the lists export_metadata answers (decision dec.export.form): sorted as the engine
// sorts them, by name, role or URL, tables and functions by schema then name; what was added when
// does not show.
import type { QualifiedName } from '../../../spec';

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A copy of `items` sorted by `key`: a text, or a qualified name (schema first). */
export function sortedBy<T>(items: readonly T[], key: (item: T) => string | QualifiedName): T[] {
  const text = (k: string | QualifiedName): [string, string] => (typeof k === 'string' ? [k, ''] : [k.schema, k.name]);
  return [...items].sort((x, y) => {
    const [a, b] = [text(key(x)), text(key(y))];
    return compare(a[0], b[0]) || compare(a[1], b[1]);
  });
}
