// The metadata directory in either layout the engine's CLI writes: version 2 (SPEC.md §2.2, files
// at the top) and version 3 (databases/ with a file per table and function). version.yaml says
// which. Pure: file names and texts in, a document or file names and texts out; the CLI does the I/O.
import type { MetadataDocument } from '../../../spec';
import { DirectoryError, objectIn, parseYamlText, type DirectoryTexts } from './directoryYaml';
import { readV2, V2_FILES, v2Files } from './directoryV2';
import { defaultSourceOf, readV3, V3_TOP_FILES, v3Files, v3OfExport, type V3Document } from './directoryV3';

export { DirectoryError, type DirectoryTexts } from './directoryYaml';

export type Layout = 2 | 3;

/** A directory read whole: its layout and the document it holds, as replace_metadata takes it. */
export interface DirectoryRead {
  layout: Layout;
  document: Record<string, unknown>;
}

/** The layout version.yaml names: it must name one, since reading a directory in the wrong one loses what it holds. */
export function layoutOf(files: DirectoryTexts): Layout {
  const text = files['version.yaml'];
  if (text === undefined) throw new DirectoryError('version.yaml is missing: it says which layout the directory has (version: 2 or version: 3)');
  const { version } = objectIn('version.yaml', parseYamlText('version.yaml', text), ['version']);
  if (version !== 2 && version !== 3) throw new DirectoryError(`version.yaml: version ${JSON.stringify(version)} is no layout this command reads (2 or 3)`);
  return version;
}

/** The document of every file of a directory; a file it cannot read, or does not know, is an error that names it. */
export function readDirectory(files: DirectoryTexts): DirectoryRead {
  const layout = layoutOf(files);
  return { layout, document: layout === 2 ? readV2(files) : readV3(files) };
}

/** A read directory's document written as export writes it: what differs from the server's files differs in what it says. */
export function filesOfRead(read: DirectoryRead, files: DirectoryTexts): Record<string, string> {
  return read.layout === 2 ? v2Files(read.document as unknown as MetadataDocument) : v3Files(read.document as V3Document, new Set(Object.keys(files)));
}

/** The server's export as the files of a layout, for a directory that holds `existing` (version 3
 *  keeps its words for the server's own database, which the server does not store, and the optional files it has). */
export function filesOfExport(exported: MetadataDocument, layout: Layout, existing: DirectoryTexts): Record<string, string> {
  return layout === 2 ? v2Files(exported) : v3Files(v3OfExport(exported, defaultSourceOf(existing)), new Set(Object.keys(existing)));
}

/** The layout export writes: the one asked for; 3 for a server with other sources; else the directory's own; else 2. */
export function exportLayout(asked: Layout | undefined, exported: MetadataDocument, existing: DirectoryTexts): Layout {
  if (asked !== undefined) return asked;
  if (exported.sources?.length) return 3;
  if (existing['version.yaml'] === undefined) return 2;
  try {
    return layoutOf(existing);
  } catch (error) {
    throw new DirectoryError(`${(error as Error).message}; say which layout to write with --layout 2 or --layout 3`);
  }
}

/** What an export that writes `written` removes of what a directory held: every file of a directory
 *  it could read (all of them are the layout's), else those that are a layout's by name. Other files stay. */
export function staleFiles(written: Record<string, string>, existing: DirectoryTexts): string[] {
  let readable = true;
  try {
    readDirectory(existing);
  } catch {
    readable = false;
  }
  const known = new Set<string>([...V2_FILES, ...V3_TOP_FILES]);
  return Object.keys(existing)
    .filter((file) => !(file in written) && (readable || known.has(file) || file.startsWith('databases/')))
    .sort();
}

/** How many of each kind of object a document holds, for export's line. */
export function summaryOf(document: MetadataDocument): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const inSources = (key: 'tables' | 'functions') => (document.sources ?? []).reduce((n, s) => n + (s[key]?.length ?? 0), 0);
  return [
    count(document.tables.length + inSources('tables'), 'table'),
    count((document.functions?.length ?? 0) + inSources('functions'), 'function'),
    count(document.actions?.length ?? 0, 'action'),
    count(document.remote_schemas?.length ?? 0, 'remote schema'),
    count(document.rest_endpoints?.length ?? 0, 'REST endpoint'),
  ].join(', ');
}
