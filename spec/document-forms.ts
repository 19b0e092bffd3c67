// The older forms of a metadata document that replace_metadata (and the metadata directory) take,
// converted to version 2 before it is parsed (decision dec.metadata.older-forms): version 1 (no
// version key, functions named by FunctionName) and version 3 (tables and functions under the
// default source, whose configuration and customization become `default_source`; other sources
// under `sources`; the other top-level parts as they are, decision dec.metadata.top-level).
import { defaultSource } from './default-source';
import { formatMessage } from './errors';
import { childPath, isPlainObject, parsed, parseFailure, type ParseResult } from './schema';

/** Keys of the default source besides its tables and functions that say nothing the server keeps. */
const SOURCE_KEYS_IGNORED = ['name', 'kind'];
/** Keys of the default source kept as `default_source` (decision dec.metadata.default-source). */
const SOURCE_KEYS_KEPT = ['configuration', 'customization'];

const isEmpty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);
/** The engine's own defaults, which its exports write into every project: as good as empty. */
const ENGINE_DEFAULTS: Record<string, string> = {
  customization: JSON.stringify({ naming_convention: 'hasura-default' }),
};
const nothingToApply = (key: string, v: unknown) => isEmpty(v) || JSON.stringify(v) === ENGINE_DEFAULTS[key];

export function upgradeDocument(value: unknown, path: string): ParseResult<unknown> {
  if (!isPlainObject(value)) return parsed(value);
  if (!('version' in value) || value.version === 1) return parsed(fromVersion1(value));
  if (value.version === 3) return fromVersion3(value, path);
  if (value.version !== 2) return parseFailure(childPath(path, 'version'), `unexpected value ${JSON.stringify(value.version)}; expected one of 1, 2, 3`);
  return parsed(value);
}

/** Version 1: functions are FunctionNames (a string or {schema, name}), not entries. */
function fromVersion1(value: Record<string, unknown>): Record<string, unknown> {
  const { version: _version, functions, ...rest } = value;
  const entries = Array.isArray(functions)
    ? functions.map((f) => (typeof f === 'string' || (isPlainObject(f) && !('function' in f) && 'name' in f) ? { function: f } : f))
    : functions;
  return { version: 2, ...rest, ...(functions !== undefined ? { functions: entries } : {}) };
}

function fromVersion3(value: Record<string, unknown>, path: string): ParseResult<unknown> {
  const { version: _version, sources, ...rest } = value;
  const out: Record<string, unknown> = { version: 2, ...rest };
  if (sources === undefined) return parsed(out);
  if (!Array.isArray(sources)) return parseFailure(childPath(path, 'sources'), 'expected Array', 'parse-failed');
  const others: unknown[] = [];
  for (const [i, source] of sources.entries()) {
    const at = childPath(childPath(path, 'sources'), i);
    if (!isPlainObject(source)) return parseFailure(at, 'expected Object', 'parse-failed');
    if (source.kind !== undefined && source.kind !== 'postgres') {
      return parseFailure(
        childPath(at, 'kind'),
        formatMessage('err.not-supported.source', JSON.stringify(source.name), JSON.stringify(source.kind)),
        'not-supported',
      );
    }
    // Other sources keep their form (decision dec.source.forms): the v2 document lists them under `sources`.
    if (source.name !== 'default') {
      const { customization, ...form } = source;
      others.push(nothingToApply('customization', customization) ? form : source);
      continue;
    }
    const kept: Record<string, unknown> = {};
    for (const [key, part] of Object.entries(source)) {
      if (SOURCE_KEYS_IGNORED.includes(key)) continue;
      if (key === 'tables' || key === 'functions') out[key] = part;
      else if (SOURCE_KEYS_KEPT.includes(key)) kept[key] = part;
      else if (!nothingToApply(key, part)) return parseFailure(childPath(at, key), formatMessage('err.not-supported.not-implemented', key), 'not-supported');
    }
    // Checked here, so that a refusal names the place in the document as it was given.
    const checked = defaultSource.parse(kept, at);
    if (!checked.ok) return checked;
    // A version 3 document always says how it describes the default source, if only by saying nothing.
    out.default_source = checked.value;
  }
  if (others.length > 0) out.sources = others;
  return parsed(out);
}
