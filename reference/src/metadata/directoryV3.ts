// The version 3 layout of the metadata directory, the engine CLI's current one (config v3):
// databases/databases.yaml lists the sources, each source's tables and functions one file each,
// reached by `!include`; the other parts of the document one file each at the top. Read, it is the
// version 3 document that replace_metadata takes; written, it is what the CLI writes. Pure.
import type { Action, CustomTypes, MetadataDocument } from '../../../spec';
import {
  actionsFilesOf,
  actionsOfFiles,
  DirectoryError,
  includeOf,
  isObject,
  listIn,
  objectIn,
  parseYamlText,
  yamlV3Text,
  type DirectoryTexts,
} from './directoryYaml';
import { INCLUDE_TAGS, readWithIncludes, type Resolved } from './includes';

/** The document of a version 3 directory: `sources` (the server's own database is `default`) and the other parts by key. */
export interface V3Document {
  version: 3;
  sources: Record<string, unknown>[];
  [key: string]: unknown;
}

const DATABASES = 'databases/databases.yaml';

interface TopFile {
  file: string;
  key: string;
  /** What the file holds when the document has nothing there, as the CLI writes it. */
  empty: unknown[] | Record<string, unknown>;
  /** The keys the file may hold, where its form is fixed. */
  keys?: string[];
  /** Written by newer CLIs only: written when the directory has it. */
  optional?: true;
}

/** The files at the top besides version.yaml, databases/ and the actions' two. */
const TOP_FILES: TopFile[] = [
  { file: 'allow_list.yaml', key: 'allowlist', empty: [] },
  { file: 'api_limits.yaml', key: 'api_limits', empty: {} },
  { file: 'backend_configs.yaml', key: 'backend_configs', empty: {}, optional: true },
  { file: 'cron_triggers.yaml', key: 'cron_triggers', empty: [] },
  { file: 'graphql_schema_introspection.yaml', key: 'graphql_schema_introspection', empty: { disabled_for_roles: [] }, keys: ['disabled_for_roles'] },
  { file: 'inherited_roles.yaml', key: 'inherited_roles', empty: [] },
  { file: 'metrics_config.yaml', key: 'metrics_config', empty: {}, optional: true },
  { file: 'network.yaml', key: 'network', empty: {} },
  { file: 'opentelemetry.yaml', key: 'opentelemetry', empty: {}, optional: true },
  { file: 'query_collections.yaml', key: 'query_collections', empty: [] },
  { file: 'remote_schemas.yaml', key: 'remote_schemas', empty: [] },
  { file: 'rest_endpoints.yaml', key: 'rest_endpoints', empty: [] },
];

/** Every file at the top of the layout. */
export const V3_TOP_FILES = ['version.yaml', 'actions.graphql', 'actions.yaml', ...TOP_FILES.map((t) => t.file)];

/** The server's own database as a directory says it when it says nothing else. */
const DEFAULT_SOURCE = {
  name: 'default',
  kind: 'postgres',
  configuration: { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, isolation_level: 'read-committed' } },
};

/** The document the files describe. Every file of the directory must be read for it: one that is not is named in the error. */
export function readV3(files: DirectoryTexts): V3Document {
  const reached = new Set(['version.yaml']);
  const read = (file: string): Resolved => {
    const resolved = readWithIncludes(files, file);
    for (const f of resolved.reached) reached.add(f);
    return resolved;
  };
  if (files[DATABASES] === undefined) throw new DirectoryError(`${DATABASES} is missing: it lists the databases and what is tracked in each`);
  const databases = read(DATABASES);
  const document: V3Document = { version: 3, sources: listIn(DATABASES, databases.value).map((source, i) => checkedSource(source, i, databases)) };
  if (files['actions.yaml'] !== undefined || files['actions.graphql'] !== undefined) {
    const joined = actionsOfFiles(files['actions.yaml'] === undefined ? undefined : read('actions.yaml').value, files['actions.graphql']);
    reached.add('actions.graphql');
    if (joined.actions.length) document.actions = joined.actions;
    if (Object.keys(joined.custom_types).length) document.custom_types = joined.custom_types;
  }
  for (const top of TOP_FILES) {
    if (files[top.file] === undefined) continue;
    const resolved = read(top.file);
    const where = resolved.fileOf(resolved.value) ?? top.file;
    document[top.key] = Array.isArray(top.empty) ? listIn(where, resolved.value) : objectIn(where, resolved.value, top.keys);
  }
  const unknown = Object.keys(files)
    .filter((file) => !reached.has(file))
    .sort();
  if (unknown.length) throw new DirectoryError(`${unknown[0]} is no file of the version 3 layout, and no !include names it`);
  return document;
}

/** A source of databases.yaml: an object with a name, its tables and functions lists of objects. */
function checkedSource(source: unknown, i: number, databases: Resolved): Record<string, unknown> {
  const where = databases.fileOf(source) ?? DATABASES;
  if (!isObject(source) || typeof source.name !== 'string') throw new DirectoryError(`${where}: source ${i + 1} must be an object with a name`);
  for (const [key, what] of [
    ['tables', 'a table'],
    ['functions', 'a function'],
  ] as const) {
    const list = listIn(`${databases.fileOf(source[key]) ?? where}: ${key} of source ${source.name}`, source[key]);
    for (const [j, item] of list.entries()) {
      if (isObject(item)) continue;
      const file = databases.fileOf(item);
      throw new DirectoryError(
        file ? `${file} must hold an object (${what})` : `${databases.fileOf(list) ?? where}: item ${j + 1} must be an object (${what})`,
      );
    }
  }
  return source;
}

/** The version 3 document of the server's export: its own tables and functions are the source
 *  `default`, described as `defaultSource` says (the directory's own words for it) or plainly. */
export function v3OfExport(exported: MetadataDocument, defaultSource: Record<string, unknown> | undefined): V3Document {
  const { version: _v, tables, functions, sources, ...rest } = exported;
  const own = { ...(defaultSource ?? DEFAULT_SOURCE), tables, ...(functions?.length ? { functions } : {}) };
  return { version: 3, sources: [own, ...((sources ?? []) as unknown as Record<string, unknown>[])], ...rest };
}

/** The source `default` as a directory's databases.yaml says it (without its tables and functions), if it can be read. */
export function defaultSourceOf(files: DirectoryTexts): Record<string, unknown> | undefined {
  let sources: unknown;
  try {
    sources = parseYamlText(DATABASES, files[DATABASES] ?? '[]', INCLUDE_TAGS);
  } catch {
    return undefined;
  }
  const own = Array.isArray(sources) ? sources.find((s) => isObject(s) && s.name === 'default') : undefined;
  if (!isObject(own)) return undefined;
  const { tables: _t, functions: _f, ...rest } = own;
  return rest;
}

/** The files of a version 3 document; `present` names the files of the directory, which keeps the optional ones it has. */
export function v3Files(document: V3Document, present: ReadonlySet<string>): Record<string, string> {
  const files: Record<string, string> = { 'version.yaml': yamlV3Text({ version: 3 }) };
  const directories = new Names(['databases.yaml']);
  const entries = document.sources.map((source) => {
    const directory = directories.take(String(source.name));
    const { tables, functions, ...rest } = source;
    const entry: Record<string, unknown> = { ...rest };
    if (tables !== undefined) entry.tables = splitInto(files, `databases/${directory}/tables`, tables as unknown[], 'table');
    if (Array.isArray(functions) && functions.length === 0) entry.functions = functions;
    else if (functions !== undefined) entry.functions = splitInto(files, `databases/${directory}/functions`, functions as unknown[], 'function');
    return entry;
  });
  files[DATABASES] = yamlV3Text(entries);
  Object.assign(files, actionsFilesOf((document.actions ?? []) as Action[], document.custom_types as CustomTypes | undefined, yamlV3Text));
  for (const top of TOP_FILES) {
    if (top.optional && !present.has(top.file) && document[top.key] === undefined) continue;
    files[top.file] = yamlV3Text(document[top.key] ?? top.empty);
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** One file per table (or function) in `folder`, and the list file that includes each; gives the include of the list. */
function splitInto(files: Record<string, string>, folder: string, items: unknown[], key: 'table' | 'function') {
  // <schema>_<name> never is tables or functions: the list files cannot be taken.
  const names = new Names([]);
  const includes = items.map((item) => {
    const name = names.take(fileStem(isObject(item) ? item[key] : undefined), '.yaml');
    files[`${folder}/${name}`] = yamlV3Text(item);
    return includeOf(name);
  });
  const list = `${folder}/${key}s.yaml`;
  files[list] = yamlV3Text(includes);
  return includeOf(list.slice('databases/'.length));
}

/** `<schema>_<name>`, as the CLI names a table's or function's file (a bare name is of schema public). */
function fileStem(name: unknown): string {
  if (typeof name === 'string') return `public_${name}`;
  if (isObject(name)) return `${String(name.schema ?? name.dataset ?? '')}_${String(name.name)}`;
  return 'unnamed';
}

/** File and folder names that are safe and distinct: no separators, none taken twice (whatever the case, for file systems that ignore it). */
class Names {
  private readonly taken: Set<string>;
  constructor(reserved: string[]) {
    this.taken = new Set(reserved);
  }
  take(wanted: string, suffix = ''): string {
    const safe = wanted.replace(/[/\\\0]/g, '_').replace(/^\.*$/, (dots) => `_${dots}`);
    let name = `${safe}${suffix}`;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${safe}_${n}${suffix}`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}
