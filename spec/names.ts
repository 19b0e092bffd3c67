import { isPlainObject, parseFailure, parsed, string, union, object, refine, type Schema } from './schema';

/** A table, view or function name with its schema, as the export form writes it. */
export interface QualifiedName {
  schema: string;
  name: string;
}

/** SPEC.md §2.1 leaves the schema of a bare string name unstated; it is `public` (decision dec.table-name.default-schema). */
export const DEFAULT_SCHEMA = 'public';

const qualifiedObject = object({ name: string }, { schema: string });

function qualifiedName(kind: string): Schema<QualifiedName> {
  return refine(union<[string, { name: string; schema?: string }]>([string, qualifiedObject], `String or Object (${kind})`), (value, path) => {
    if (typeof value !== 'string') return parsed({ schema: value.schema ?? DEFAULT_SCHEMA, name: value.name });
    if (value.length === 0) return parseFailure(path, `${kind} name can't be empty`);
    return parsed({ schema: DEFAULT_SCHEMA, name: value });
  });
}

/** TableName (§2.1): a string, or `{schema, name}`. */
export const tableName = qualifiedName('table');
/** FunctionName (§2.1): a string, or `{schema, name}`. */
export const functionName = qualifiedName('function');

/** How messages name a table: bare in `public`, `schema.name` elsewhere, in double quotes. */
export function quoteQualified(q: QualifiedName): string {
  return JSON.stringify(displayQualified(q));
}

export function displayQualified(q: QualifiedName): string {
  return q.schema === DEFAULT_SCHEMA ? q.name : `${q.schema}.${q.name}`;
}

/** Roles, relationships and computed fields (decision err.parse-failed.empty-name): never empty. */
export const nonEmptyName: Schema<string> = refine(string, (value, path) => (value === '' ? parseFailure(path, 'empty string not allowed') : parsed(value)));

/** A role travels in the X-Engine-Role header (decision err.parse-failed.role-name). */
export const roleName: Schema<string> = refine(nonEmptyName, (value, path) =>
  /[\u0000-\u001f\u007f]/.test(value) || value.trim() !== value
    ? parseFailure(path, 'a role name may not have control characters or surrounding spaces')
    : parsed(value),
);

export const sameQualified = (a: QualifiedName, b: QualifiedName) => a.schema === b.schema && a.name === b.name;

export { isPlainObject };

/** A GraphQL name (the spec's Name production). */
export const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A string that is a GraphQL name, refused (400 parse-failed) otherwise. */
export const graphqlName: Schema<string> = refine(string, (v, path) =>
  GRAPHQL_NAME.test(v) ? parsed(v) : parseFailure(path, `${JSON.stringify(v)} is not a GraphQL name`),
);
