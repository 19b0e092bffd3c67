// `!include` in a version 3 metadata directory, as the engine's CLI reads it: a string
// `"!include path"` (or a value tagged `!include path`) stands for the file at path, relative to
// the folder of the file that says it. A YAML file stands for its value, any other for its text.
import { posix } from 'node:path';
import { DirectoryError, isObject, parseYamlText, type DirectoryTexts } from './directoryYaml';

const INCLUDE = /^!include\s+(.+)$/s;

/** A value tagged `!include`, until it is resolved. */
class IncludeTag {
  constructor(readonly target: string) {}
}
/** The parser's tags: a value tagged `!include` is read as one to resolve. */
export const INCLUDE_TAGS = [{ tag: '!include', resolve: (target: string) => new IncludeTag(target) }];

export interface Resolved {
  value: unknown;
  /** Every file read for it, the first one included. */
  reached: Set<string>;
  /** The file a list or object of the value was read from. */
  fileOf(part: unknown): string | undefined;
}

/** The value of the YAML file `path` with every `!include` in it resolved, at any depth. */
export function readWithIncludes(files: DirectoryTexts, path: string): Resolved {
  const reached = new Set<string>();
  const origins = new WeakMap<object, string>();
  const read = (file: string, chain: readonly string[]): unknown => {
    reached.add(file);
    const value = parseYamlText(file, files[file]!, INCLUDE_TAGS);
    const resolve = (v: unknown): unknown => {
      const target = v instanceof IncludeTag ? v.target : typeof v === 'string' ? INCLUDE.exec(v.trim())?.[1] : undefined;
      if (target !== undefined) return include(file, target.trim().replace(/^"|"$/g, ''), chain);
      if (Array.isArray(v)) return remember(v.map(resolve), file);
      if (isObject(v)) return remember(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)])), file);
      return v;
    };
    return resolve(value);
  };
  const remember = <T extends object>(part: T, file: string) => {
    origins.set(part, file);
    return part;
  };
  const include = (from: string, target: string, chain: readonly string[]): unknown => {
    const path = posix.join(posix.dirname(from), target);
    if (path === '..' || path.startsWith('../')) throw new DirectoryError(`${from}: !include ${target} leads outside the directory`);
    if (chain.includes(path)) throw new DirectoryError(`${from}: !include ${target} includes itself: ${[...chain, path].join(' → ')}`);
    if (files[path] === undefined) throw new DirectoryError(`${from}: !include ${target}: there is no file ${path}`);
    if (!path.endsWith('.yaml')) {
      reached.add(path);
      return files[path];
    }
    return read(path, [...chain, path]);
  };
  if (files[path] === undefined) throw new DirectoryError(`${path} is missing`);
  const value = read(path, [path]);
  // A WeakMap has no entry for what is not an object: a string or null has no file of its own.
  return { value, reached, fileOf: (part) => origins.get(part as object) };
}
