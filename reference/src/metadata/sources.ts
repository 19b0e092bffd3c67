// The sources of a document besides `default` (decision dec.source.forms): adding, changing,
// renaming and dropping them. Whether a source's database answers is decided with its connection
// (db/sourcePools.ts).
import {
  appliedCustomization,
  DEFAULT_SOURCE,
  type MetadataDocument,
  type SourceConfiguration,
  type SourceCustomization,
  type SourceEntry,
} from '../../../spec';
import { engineError, type EngineError } from '../errors';

export const sourcesOf = (document: MetadataDocument): readonly SourceEntry[] => document.sources ?? [];

/** The isolation level the default source's configuration names for the server's own database (dec.source.isolation-level). */
export const ownIsolationLevel = (document: MetadataDocument | undefined) => document?.default_source?.configuration?.connection_info?.isolation_level;

export function withSources(document: MetadataDocument, sources: readonly SourceEntry[]): MetadataDocument {
  const { sources: _, ...rest } = document;
  return sources.length ? { ...rest, sources: [...sources] } : rest;
}

/** Whether `name` is a source the document adds (`default` is none of them). */
const isSource = (document: MetadataDocument, name: string) => sourcesOf(document).some((s) => s.name === name);

function notDefault(name: string): void {
  if (name === DEFAULT_SOURCE) throw engineError('not-supported.default-source', '$.args', [JSON.stringify(name)]);
}

function existing(document: MetadataDocument, name: string): SourceEntry {
  notDefault(name);
  const found = sourcesOf(document).find((s) => s.name === name);
  if (!found) throw engineError('not-exists.source', '$.args', [JSON.stringify(name)]);
  return found;
}

/**
 * Why an operation's `source` argument cannot be served: a name that is no source. Undefined otherwise.
 */
export function sourceArgumentProblem(document: MetadataDocument, operation: { source?: string; path: string }): EngineError | undefined {
  const { source, path } = operation;
  if (source === undefined || source === DEFAULT_SOURCE) return undefined;
  if (!isSource(document, source)) return engineError('not-exists.source', `${path}.args`, [JSON.stringify(source)]);
  return undefined;
}

/** A customization as the source keeps it: none when it names nothing (decision dec.source.customization). */
const kept = (customization: SourceCustomization | undefined) => (customization && Object.keys(customization).length ? { customization } : {});

/**
 * pg_add_source: a new source with nothing tracked; with replace_configuration, a new configuration
 * (and customization, as given) for one there is.
 */
export function addSource(
  document: MetadataDocument,
  name: string,
  configuration: SourceConfiguration,
  replaceConfiguration: boolean,
  customization?: SourceCustomization,
): MetadataDocument {
  notDefault(name);
  const sources = sourcesOf(document);
  if (sources.some((s) => s.name === name)) {
    if (!replaceConfiguration) throw engineError('already-exists.source', '$.args', [JSON.stringify(name)]);
    return updateSource(document, name, configuration, customization ?? {});
  }
  return withSources(document, [...sources, { name, kind: 'postgres', configuration, tables: [], ...kept(customization) }]);
}

/**
 * pg_update_source: the configuration and the customization each replaced when given, what is tracked
 * kept. The default source's customization alone may be replaced (decision dec.metadata.default-source).
 */
export function updateSource(
  document: MetadataDocument,
  name: string,
  configuration: SourceConfiguration | undefined,
  customization?: SourceCustomization,
): MetadataDocument {
  if (name === DEFAULT_SOURCE && configuration === undefined && customization !== undefined) {
    const { customization: _, ...rest } = document.default_source ?? {};
    const described = { ...rest, ...kept(customization) };
    const { default_source: __, ...others } = document;
    return Object.keys(described).length ? { ...others, default_source: described } : others;
  }
  const found = existing(document, name);
  if (!configuration && !customization) return document;
  return withSources(
    document,
    sourcesOf(document).map((s) => {
      if (s !== found) return s;
      const { customization: _, ...rest } = s;
      return { ...rest, ...(configuration ? { configuration } : {}), ...(customization ? kept(customization) : kept(s.customization)) };
    }),
  );
}

/** rename_source: the same source under a new name, in its place. */
export function renameSource(document: MetadataDocument, name: string, newName: string): MetadataDocument {
  const found = existing(document, name);
  notDefault(newName);
  if (sourcesOf(document).some((s) => s.name === newName)) throw engineError('already-exists.source', '$.args', [JSON.stringify(newName)]);
  return withSources(
    document,
    sourcesOf(document).map((s) => (s === found ? { ...s, name: newName } : s)),
  );
}

/** pg_drop_source: the source and what is tracked in it. */
export function dropSource(document: MetadataDocument, name: string): MetadataDocument {
  const found = existing(document, name);
  return withSources(
    document,
    sourcesOf(document).filter((s) => s !== found),
  );
}

/** The sources a change brought or reconnected: added, or with another connection. */
export function connectionsChanged(before: MetadataDocument, after: MetadataDocument): SourceEntry[] {
  // The primary and the read replicas: a source is connected to anew when any of them changed.
  const connections = (s: SourceEntry) => JSON.stringify([s.configuration.connection_info, s.configuration.read_replicas ?? []]);
  const old = new Map(sourcesOf(before).map((s) => [s.name, connections(s)]));
  return sourcesOf(after).filter((s) => old.get(s.name) !== connections(s));
}

/**
 * A source's tables and functions as a document of their own, with the rest of the document (remote
 * schemas, custom types) beside them: what the table and function operations work on.
 */
export function sourceView(document: MetadataDocument, name: string): MetadataDocument {
  const source = sourcesOf(document).find((s) => s.name === name)!;
  const { sources: _, functions: __, ...rest } = document;
  return { ...rest, tables: source.tables, ...(source.functions?.length ? { functions: source.functions } : {}) };
}

/** The document with a source's tables and functions taken from `view`. */
export function withSourceView(document: MetadataDocument, name: string, view: MetadataDocument): MetadataDocument {
  return withSources(
    document,
    sourcesOf(document).map((s) => {
      if (s.name !== name) return s;
      const { functions: _, ...rest } = s;
      return { ...rest, tables: view.tables, ...(view.functions?.length ? { functions: view.functions } : {}) };
    }),
  );
}

/** Every source's tables and functions, default first, each labelled for messages. */
export function labelledParts(document: MetadataDocument): { label: string; document: MetadataDocument; customization?: SourceCustomization }[] {
  const own = appliedCustomization(document.default_source?.customization);
  return [
    { label: '', document, ...(own ? { customization: own } : {}) },
    ...sourcesOf(document).map((s) => ({
      label: ` of the source ${JSON.stringify(s.name)}`,
      document: sourceView(document, s.name),
      ...(s.customization ? { customization: s.customization } : {}),
    })),
  ];
}

/** The sources of a document that track something, each with its part and its place in `sources`. */
export function trackingParts(document: MetadataDocument): { source: SourceEntry; view: MetadataDocument; index: number }[] {
  return sourcesOf(document).flatMap((source, index) => {
    const view = sourceView(document, source.name);
    return view.tables.length + (view.functions?.length ?? 0) > 0 ? [{ source, view, index }] : [];
  });
}
