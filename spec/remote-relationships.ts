// Remote relationships (decision dec.remote-relationship.forms): a field of a table's type answered
// by a field of a remote schema, its arguments filled from the row's columns. Two document forms,
// kept as given: {to_remote_schema: {remote_schema, lhs_fields, remote_field}} and the older
// {remote_schema, hasura_fields, remote_field}. A third joins a table of a source
// (decision dec.remote-relationship.to-source): {to_source: {source, table, relationship_type, field_mapping}}.
import { GRAPHQL_NAME, nonEmptyName, tableName, type QualifiedName } from './names';
import { array, childPath, isPlainObject, literal, object, parseFailure, parsed, record, refine, type ParseResult, type Schema } from './schema';

/** One field of the path into the remote: its arguments (`"$column"` reads the row) and the field below it, if any. */
export interface RemoteFieldCall {
  arguments: Record<string, unknown>;
  field?: RemoteFieldPath;
}

/** Exactly one key: the remote field's name. */
export type RemoteFieldPath = Record<string, RemoteFieldCall>;

export interface ToRemoteSchema {
  remote_schema: string;
  lhs_fields: string[];
  remote_field: RemoteFieldPath;
}

/** Rows of a table of a source (the server's own: `default`), joined on field_mapping {this table's column: the target's}. */
export interface ToSource {
  source: string;
  table: QualifiedName;
  relationship_type: 'object' | 'array';
  field_mapping: Record<string, string>;
}

export type RemoteRelationshipDefinition =
  { to_remote_schema: ToRemoteSchema } | { remote_schema: string; hasura_fields: string[]; remote_field: RemoteFieldPath } | { to_source: ToSource };

export interface RemoteRelationship {
  name: string;
  definition: RemoteRelationshipDefinition;
}

/** A path into a remote nests at most this deep: deeper is refused while parsing. */
export const REMOTE_FIELD_MAX_DEPTH = 16;

function parsePath(value: unknown, path: string, depth: number): ParseResult<RemoteFieldPath> {
  if (!isPlainObject(value)) return parseFailure(path, 'expected an object with one remote field');
  const keys = Object.keys(value);
  if (keys.length !== 1) return parseFailure(path, `expected exactly one remote field, found ${keys.length}`);
  if (depth > REMOTE_FIELD_MAX_DEPTH) return parseFailure(path, `remote fields nest at most ${REMOTE_FIELD_MAX_DEPTH} deep`);
  const name = keys[0]!;
  const at = childPath(path, name);
  if (!GRAPHQL_NAME.test(name)) return parseFailure(at, `${JSON.stringify(name)} is not a GraphQL name`);
  const call = value[name];
  if (!isPlainObject(call)) return parseFailure(at, 'expected an object with arguments');
  for (const key of Object.keys(call)) if (key !== 'arguments' && key !== 'field') return parseFailure(at, `unexpected key ${JSON.stringify(key)}`);
  if (!isPlainObject(call.arguments)) return parseFailure(childPath(at, 'arguments'), 'expected an object');
  for (const arg of Object.keys(call.arguments))
    if (!GRAPHQL_NAME.test(arg)) return parseFailure(childPath(childPath(at, 'arguments'), arg), `${JSON.stringify(arg)} is not a GraphQL name`);
  const out: RemoteFieldCall = { arguments: call.arguments };
  if (call.field !== undefined) {
    const below = parsePath(call.field, childPath(at, 'field'), depth + 1);
    if (!below.ok) return below;
    out.field = below.value;
  }
  const result: RemoteFieldPath = {};
  Object.defineProperty(result, name, { value: out, enumerable: true, writable: true, configurable: true });
  return parsed(result);
}

export const remoteFieldPath: Schema<RemoteFieldPath> = { description: { type: 'object-any' }, parse: (v, p) => parsePath(v, p, 1) };

const columns = array(nonEmptyName);

const toRemoteSchema = object({ remote_schema: nonEmptyName, lhs_fields: columns, remote_field: remoteFieldPath });

const fieldMapping = refine(record(nonEmptyName), (v, path) =>
  Object.keys(v).length === 0 ? parseFailure(path, 'field_mapping must map at least one column') : parsed(v),
);

const toSource = object({ source: nonEmptyName, table: tableName, relationship_type: literal('object', 'array'), field_mapping: fieldMapping });

/** A definition in one of its forms. */
export const remoteRelationshipDefinition: Schema<RemoteRelationshipDefinition> = refine(
  object({}, { to_remote_schema: toRemoteSchema, to_source: toSource, remote_schema: nonEmptyName, hasura_fields: columns, remote_field: remoteFieldPath }),
  (v, path): ParseResult<RemoteRelationshipDefinition> => {
    const legacy = v.remote_schema !== undefined || v.hasura_fields !== undefined || v.remote_field !== undefined;
    if (v.to_source) {
      if (legacy || v.to_remote_schema)
        return parseFailure(path, 'to_source cannot be given with to_remote_schema, remote_schema, hasura_fields or remote_field');
      return parsed({ to_source: v.to_source });
    }
    if (v.to_remote_schema) {
      if (legacy) return parseFailure(path, 'to_remote_schema cannot be given with remote_schema, hasura_fields or remote_field');
      return parsed({ to_remote_schema: v.to_remote_schema });
    }
    if (v.remote_schema === undefined) return parseFailure(path, 'expected to_remote_schema, or remote_schema with hasura_fields and remote_field');
    if (v.hasura_fields === undefined) return parseFailure(path, 'key "hasura_fields" not found');
    if (v.remote_field === undefined) return parseFailure(path, 'key "remote_field" not found');
    return parsed({ remote_schema: v.remote_schema, hasura_fields: v.hasura_fields, remote_field: v.remote_field });
  },
);

export const remoteRelationship: Schema<RemoteRelationship> = object({ name: nonEmptyName, definition: remoteRelationshipDefinition });

/** The target of a definition joining a source's table, if it is one. */
export const sourceTarget = (definition: RemoteRelationshipDefinition): ToSource | undefined => ('to_source' in definition ? definition.to_source : undefined);

/** A remote schema's definition in one shape, whichever form it was given in; undefined for to_source. */
export function remoteTarget(definition: RemoteRelationshipDefinition): ToRemoteSchema | undefined {
  if ('to_source' in definition) return undefined;
  if ('to_remote_schema' in definition) return definition.to_remote_schema;
  return { remote_schema: definition.remote_schema, lhs_fields: definition.hasura_fields, remote_field: definition.remote_field };
}

/** The columns of its table a definition reads: lhs_fields, or field_mapping's keys. */
export function lhsColumns(definition: RemoteRelationshipDefinition): string[] {
  const target = sourceTarget(definition);
  return target ? Object.keys(target.field_mapping) : remoteTarget(definition)!.lhs_fields;
}

/** The fields of the path, outermost first. */
export function remoteFieldSteps(path: RemoteFieldPath): { name: string; arguments: Record<string, unknown> }[] {
  const steps: { name: string; arguments: Record<string, unknown> }[] = [];
  for (let at: RemoteFieldPath | undefined = path; at;) {
    const name: string = Object.keys(at)[0]!;
    steps.push({ name, arguments: at[name]!.arguments });
    at = at[name]!.field;
  }
  return steps;
}

/** The columns an argument value reads: every string "$column" in it, at any depth (walked without recursion). */
export function columnReferences(value: unknown): Set<string> {
  const out = new Set<string>();
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string' && v.startsWith('$')) out.add(v.slice(1));
    else if (Array.isArray(v)) pending.push(...v);
    else if (isPlainObject(v)) pending.push(...Object.values(v));
  }
  return out;
}

/** The legacy create_remote_relationship arguments at the top level: {name, table, hasura_fields, remote_schema, remote_field}. */
export const LEGACY_DEFINITION_KEYS = ['remote_schema', 'hasura_fields', 'remote_field'] as const;
