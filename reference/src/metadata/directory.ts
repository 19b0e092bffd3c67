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

/** The document that files describe; a missing file is an empty part. Left to replace_metadata to validate. */
export function documentFromFiles(files: Partial<Record<DirectoryFile, string>>): Record<string, unknown> {
  const read = (name: DirectoryFile, fallback: unknown): unknown => {
    const text = files[name];
    if (text === undefined) return fallback;
    try {
      return parseYaml(text) ?? fallback;
    } catch (error) {
      throw new DirectoryError(`${name} is not valid YAML: ${(error as Error).message}`);
    }
  };
  const list = (name: DirectoryFile) => {
    const value = read(name, []);
    if (!Array.isArray(value)) throw new DirectoryError(`${name} must hold a list`);
    return value as unknown[];
  };
  const version = read('version.yaml', { version: 2 }) as { version?: unknown };
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
    version: version.version ?? 2,
    tables: list('tables.yaml'),
    ...Object.fromEntries(Object.entries(parts).filter(([, v]) => v.length > 0)),
    ...(Object.keys(joined.custom_types).length ? { custom_types: joined.custom_types } : {}),
  };
}
