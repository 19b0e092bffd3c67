// What both layouts of the metadata directory share: the files as texts, YAML read strictly and
// written as the engine's CLI writes it, and the error that names the file a directory fails on.
import { Document, LineCounter, Scalar, parseDocument, stringify, type Tags } from 'yaml';
import type { Action, CustomTypes } from '../../../spec';
import { actionsGraphQL, actionsYaml, joinActionsFiles, type ActionsYaml } from './actionsSdl';

/** The files of a directory: paths relative to it, parts joined by `/`, with their texts. */
export type DirectoryTexts = Readonly<Record<string, string>>;

/** Why files cannot be read as metadata: names the file. */
export class DirectoryError extends Error {}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One YAML document; anything the parser only warns about (an unknown tag, …) is refused too. */
export function parseYamlText(name: string, text: string, customTags: Tags = []): unknown {
  const lines = new LineCounter();
  const document = parseDocument(text, { customTags, prettyErrors: false, lineCounter: lines });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem) {
    const { line, col } = lines.linePos(problem.pos[0]);
    const at = ` (line ${line}, column ${col})`;
    const message = problem.code === 'MULTIPLE_DOCS' ? 'it holds more than one document' : problem.message;
    throw new DirectoryError(`${name} is not valid YAML${at}: ${message}`);
  }
  return document.toJS();
}

/** A list: what the file must hold (an empty file is an empty list). */
export function listIn(name: string, value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new DirectoryError(`${name} must hold a list`);
  return value;
}

/** A list of objects. */
function objectsIn(name: string, value: unknown): Record<string, unknown>[] {
  const list = listIn(name, value);
  for (const [i, item] of list.entries()) if (!isObject(item)) throw new DirectoryError(`${name}: item ${i + 1} must be an object`);
  return list as Record<string, unknown>[];
}

/** An object with only the given keys (an empty file is an empty object). */
export function objectIn(name: string, value: unknown, keys?: readonly string[]): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (!isObject(value)) throw new DirectoryError(`${name} must hold an object`);
  const unknown = keys ? Object.keys(value).filter((key) => !keys.includes(key)) : [];
  if (unknown.length) throw new DirectoryError(`${name}: unknown key ${unknown.join(', ')} (expected ${keys!.join(', ')})`);
  return value;
}

/** The text of a version 2 directory's files (unchanged since that layout was first written). */
export const yamlV2Text = (value: unknown) => stringify(value, { lineWidth: 0 });

const V3_OPTIONS = { lineWidth: 0, singleQuote: true, blockQuote: 'literal' } as const;

/** The text of a version 3 directory's files, as the engine's CLI writes them: two spaces, lists
 *  indented under their key, strings quoted with ' where they must be, multi-line ones as blocks. */
export const yamlV3Text = (value: unknown) => new Document(value).toString(V3_OPTIONS);

/** `"!include path"`: double-quoted, as the CLI writes it. */
export function includeOf(path: string): Scalar<string> {
  const scalar = new Scalar(`!include ${path}`);
  scalar.type = Scalar.QUOTE_DOUBLE;
  return scalar;
}

/** actions.yaml and actions.graphql, the same in both layouts. */
export function actionsFilesOf(actions: readonly Action[], types: CustomTypes | undefined, text: (value: unknown) => string) {
  return { 'actions.yaml': text(actionsYaml(actions, types)), 'actions.graphql': actionsGraphQL(actions, types) };
}

/** Actions and custom types from actions.yaml's value and actions.graphql's text (either may be missing). */
export function actionsOfFiles(yamlValue: unknown, sdl: string | undefined): { actions: Action[]; custom_types: CustomTypes } {
  const part = objectIn('actions.yaml', yamlValue, ['actions', 'custom_types']);
  // The custom types' own parts are actions.graphql's; actions.yaml adds only the relationships of objects.
  const types = objectIn('actions.yaml: custom_types', part.custom_types);
  const yaml = {
    actions: objectsIn('actions.yaml: actions', part.actions),
    custom_types: { ...types, objects: objectsIn('actions.yaml: custom_types.objects', types.objects) },
  } as ActionsYaml;
  try {
    return joinActionsFiles(yaml, sdl ?? '');
  } catch (error) {
    throw new DirectoryError((error as Error).message);
  }
}
