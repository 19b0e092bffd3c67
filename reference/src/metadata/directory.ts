// The metadata directory (SPEC.md §2.2): the export form split into YAML files, actions and
// custom types into actions.yaml and the SDL of actions.graphql. Pure: file names to texts.
import { parse as parseYaml, stringify } from 'yaml';
import type { MetadataDocument } from '../../../spec';
import { actionsGraphQL, actionsYaml, joinActionsFiles, type ActionsYaml } from './actionsSdl';

/** The files of a metadata directory, in the order they are written. */
export const DIRECTORY_FILES = [
  'version.yaml',
  'tables.yaml',
  'functions.yaml',
  'actions.yaml',
  'actions.graphql',
  'allow_list.yaml',
  'cron_triggers.yaml',
  'query_collections.yaml',
  'remote_schemas.yaml',
  'rest_endpoints.yaml',
  'sources.yaml',
] as const;

export type DirectoryFile = (typeof DIRECTORY_FILES)[number];

/** Why files cannot be read as metadata: names the file. */
export class DirectoryError extends Error {}

const yamlText = (value: unknown) => stringify(value, { lineWidth: 0 });

/** The files of an exported document. */
export function directoryFiles(document: MetadataDocument): Record<DirectoryFile, string> {
  const actions = document.actions ?? [];
  return {
    'version.yaml': yamlText({ version: document.version }),
    'tables.yaml': yamlText(document.tables),
    'functions.yaml': yamlText(document.functions ?? []),
    'actions.yaml': yamlText(actionsYaml(actions, document.custom_types)),
    'actions.graphql': actionsGraphQL(actions, document.custom_types),
    'allow_list.yaml': yamlText(document.allowlist ?? []),
    'cron_triggers.yaml': yamlText(document.cron_triggers ?? []),
    'query_collections.yaml': yamlText(document.query_collections ?? []),
    'remote_schemas.yaml': yamlText(document.remote_schemas ?? []),
    'rest_endpoints.yaml': yamlText(document.rest_endpoints ?? []),
    // The sources besides the server's own database, with what is tracked in them (dec.source.forms).
    'sources.yaml': yamlText(document.sources ?? []),
  };
}

/** The layout version.yaml names: it must say which, since reading a directory in the wrong one loses what it holds. */
export function layoutOf(text: string | undefined): number {
  if (text === undefined) throw new DirectoryError('version.yaml is missing: it says which layout the directory has (version: 2 or version: 3)');
  const value = parseYamlFile('version.yaml', text);
  if (!isObject(value)) throw new DirectoryError('version.yaml must hold an object');
  const unknown = Object.keys(value).filter((key) => key !== 'version');
  if (unknown.length) throw new DirectoryError(`version.yaml: unknown key ${unknown.join(', ')} (expected version)`);
  if (value.version !== 2 && value.version !== 3)
    throw new DirectoryError(`version.yaml: version ${JSON.stringify(value.version)} is no layout this command reads (2 or 3)`);
  return value.version;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseYamlFile(name: string, text: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    throw new DirectoryError(`${name} is not valid YAML: ${(error as Error).message}`);
  }
}

/** The document that files describe; a missing file is an empty part. Left to replace_metadata to validate. */
export function documentFromFiles(files: Partial<Record<DirectoryFile, string>>): Record<string, unknown> {
  const read = (name: DirectoryFile, fallback: unknown): unknown => {
    const text = files[name];
    if (text === undefined) return fallback;
    return parseYamlFile(name, text) ?? fallback;
  };
  const list = (name: DirectoryFile) => {
    const value = read(name, []);
    if (!Array.isArray(value)) throw new DirectoryError(`${name} must hold a list`);
    return value as unknown[];
  };
  const layout = layoutOf(files['version.yaml']);
  if (layout !== 2) throw new DirectoryError('version.yaml: version 3 is a layout this command does not read yet');
  const actionsPart = read('actions.yaml', { actions: [], custom_types: {} }) as Partial<ActionsYaml>;
  const yamlPart: ActionsYaml = {
    actions: actionsPart.actions ?? [],
    custom_types: { enums: [], input_objects: [], objects: [], scalars: [], ...(actionsPart.custom_types ?? {}) },
  };
  let joined: ReturnType<typeof joinActionsFiles>;
  try {
    joined = joinActionsFiles(yamlPart, files['actions.graphql'] ?? '');
  } catch (error) {
    throw new DirectoryError((error as Error).message);
  }
  const parts: Record<string, unknown[]> = {
    functions: list('functions.yaml'),
    allowlist: list('allow_list.yaml'),
    cron_triggers: list('cron_triggers.yaml'),
    query_collections: list('query_collections.yaml'),
    remote_schemas: list('remote_schemas.yaml'),
    rest_endpoints: list('rest_endpoints.yaml'),
    sources: list('sources.yaml'),
    actions: joined.actions,
  };
  return {
    version: 2,
    tables: list('tables.yaml'),
    ...Object.fromEntries(Object.entries(parts).filter(([, v]) => v.length > 0)),
    ...(Object.keys(joined.custom_types).length ? { custom_types: joined.custom_types } : {}),
  };
}
