// The version 2 layout of the metadata directory (SPEC.md §2.2, the engine CLI's config v2): the
// export form split into files at the top of the directory, actions and custom types into
// actions.yaml and the SDL of actions.graphql, other sources into sources.yaml. Pure: texts in, texts out.
import type { MetadataDocument } from '../../../spec';
import { actionsFilesOf, actionsOfFiles, DirectoryError, listIn, parseYamlText, yamlV2Text, type DirectoryTexts } from './directoryYaml';

/** The files of the layout, in the order they are written. */
export const V2_FILES = [
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

/** The list files besides tables.yaml, and the document key each holds. */
const LISTS = {
  'functions.yaml': 'functions',
  'allow_list.yaml': 'allowlist',
  'cron_triggers.yaml': 'cron_triggers',
  'query_collections.yaml': 'query_collections',
  'remote_schemas.yaml': 'remote_schemas',
  'rest_endpoints.yaml': 'rest_endpoints',
  // The sources besides the server's own database, with what is tracked in them (dec.source.forms).
  'sources.yaml': 'sources',
} as const;

/** The files of a document in this layout. */
export function v2Files(document: MetadataDocument): Record<string, string> {
  const texts: Record<string, string> = {
    'version.yaml': yamlV2Text({ version: 2 }),
    'tables.yaml': yamlV2Text(document.tables),
    ...actionsFilesOf(document.actions ?? [], document.custom_types, yamlV2Text),
    ...Object.fromEntries(Object.entries(LISTS).map(([file, key]) => [file, yamlV2Text(document[key] ?? [])])),
  };
  return Object.fromEntries(V2_FILES.map((file) => [file, texts[file]!]));
}

/** The document the files describe; a missing file is an empty part. Left to replace_metadata to validate. */
export function readV2(files: DirectoryTexts): Record<string, unknown> {
  const unknown = Object.keys(files).filter((file) => !(V2_FILES as readonly string[]).includes(file));
  if (unknown.length) throw new DirectoryError(`${unknown.sort()[0]} is no file of the version 2 layout`);
  const list = (file: string) => (files[file] === undefined ? [] : listIn(file, parseYamlText(file, files[file])));
  const parts: Record<string, unknown[]> = Object.fromEntries(Object.entries(LISTS).map(([file, key]) => [key, list(file)]));
  const joined = actionsOfFiles(
    files['actions.yaml'] === undefined ? undefined : parseYamlText('actions.yaml', files['actions.yaml']),
    files['actions.graphql'],
  );
  return {
    version: 2,
    tables: list('tables.yaml'),
    ...Object.fromEntries(Object.entries(parts).filter(([, v]) => v.length > 0)),
    ...(joined.actions.length ? { actions: joined.actions } : {}),
    ...(Object.keys(joined.custom_types).length ? { custom_types: joined.custom_types } : {}),
  };
}
