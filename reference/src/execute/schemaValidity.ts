// Accepted metadata always yields a valid GraphQL schema for every role (decision
// dec.schema.always-valid): the schemas of admin, of every role a permission names and of any other
// role are built and validated; what keeps one from being valid is an inconsistent object, left out
// of what is served, reported by get_inconsistent_metadata, refused by a change that brings it
// (unless allow_inconsistent_metadata says otherwise) and removed by drop_inconsistent_metadata.
import type { GraphQLSchema } from 'graphql';
import { formatMessage, quoteQualified, type MetadataDocument } from '../../../spec';
import { relationKey, type Introspection } from '../db/introspection';
import { EngineError } from '../errors';
import { computedFieldsOf } from '../metadata/computedFields';
import { withoutObjects } from '../metadata/document';
import { enumFindings, enumReasons, enumReasonsText } from '../metadata/enumTable';
import { functionsOf } from '../metadata/functions';
import { inheritedRoleInconsistencies } from '../metadata/inheritedPermissions';
import type { InconsistentObject } from '../metadata/inconsistency';
import { relationshipsOf } from '../metadata/relationships';
import type { EnumValue } from '../schema/model';
import { schemaErrors } from '../schema/schemaValidation';
import type { RequestLimits } from '../config';
import { buildSchemaCache, roleSchema, type SchemaCache } from './schemaCache';

type BuildOptions = Parameters<typeof buildSchemaCache>[4];

export interface ValidSchemaCache {
  cache: SchemaCache;
  /** The objects left out so that every schema is valid. */
  problems: InconsistentObject[];
  /** The document without them: what the cache serves. */
  document: MetadataDocument;
}

/** A role name no permission names: every such role gets the schema it stands for. */
const ANY_OTHER_ROLE = '\u0000any other role';

/** Enum tables that cannot be enums (any more): their shape, no rows, or values that are no GraphQL names. */
export function enumProblems(document: MetadataDocument, db: Introspection, enumValues: ReadonlyMap<string, EnumValue[]>): InconsistentObject[] {
  const out: InconsistentObject[] = [];
  for (const entry of document.tables) {
    if (!entry.is_enum) continue;
    const table = db.tables.get(relationKey(entry.table));
    if (!table) continue; // a missing table is reported as such
    const found = enumFindings(table);
    const reasons = enumReasons(
      found,
      (enumValues.get(relationKey(entry.table)) ?? []).map((v) => v.value),
    );
    if (reasons.length === 0) continue;
    const reason = formatMessage('err.constraint-violation.enum-table', quoteQualified(entry.table), enumReasonsText(reasons));
    out.push({ type: 'table', reason, definition: { schema: entry.table.schema, name: entry.table.name } });
  }
  return out;
}

/** What graphql-js threw while building a schema that is not valid; anything else is thrown on. */
function schemaBuildError(error: unknown): Error {
  if (error instanceof EngineError || !(error instanceof Error) || error instanceof TypeError || error instanceof RangeError) throw error;
  return error;
}

/** The first reason a schema of the cache is not valid (building it included), or undefined. */
export function firstSchemaError(cache: SchemaCache): string | undefined {
  const schemas: (() => GraphQLSchema)[] = [
    () => cache.admin.schema,
    ...[...cache.knownRoles, ANY_OTHER_ROLE].flatMap((role) => [false, true].map((backendOnly) => () => roleSchema(cache, role, backendOnly).built.schema)),
  ];
  for (const schema of schemas) {
    try {
      const errors = schemaErrors(schema());
      if (errors.length > 0) return errors[0];
    } catch (error) {
      return schemaBuildError(error).message;
    }
  }
  return undefined;
}

/**
 * The admin schema of a document as it is built (valid or not). Built with types of a version
 * before, it is built again from nothing when it is not valid: only a fresh build says what is wrong.
 */
export function adminSchemaOf(
  document: MetadataDocument,
  db: Introspection,
  enumValues: ReadonlyMap<string, EnumValue[]>,
  limits: RequestLimits,
  options: BuildOptions = {},
): GraphQLSchema {
  if (options.previous) {
    const cache = buildSchemaCache(document, db, enumValues, limits, options);
    try {
      if (schemaErrors(cache.admin.schema).length === 0) return cache.admin.schema;
    } catch (error) {
      schemaBuildError(error);
    } finally {
      cache.share.forgetPrevious();
    }
  }
  return buildSchemaCache(document, db, enumValues, limits, { ...options, previous: undefined }).admin.schema;
}

/** The objects of a document that a schema is built from, the most recently added first. */
function candidates(document: MetadataDocument): InconsistentObject[] {
  const reason = '';
  const fields = document.tables.flatMap((t) =>
    computedFieldsOf(t).map((f): InconsistentObject => ({ type: 'computed_field', reason, definition: { table: t.table, ...f } })),
  );
  const functions = functionsOf(document).map((f): InconsistentObject => ({ type: 'function', reason, definition: f }));
  const relationships = document.tables.flatMap((t) =>
    relationshipsOf(t).map(({ rel, kind }): InconsistentObject => ({
      type: kind === 'object' ? 'object_relation' : 'array_relation',
      reason,
      definition: { table: t.table, ...rel },
    })),
  );
  const tables = document.tables.map((t): InconsistentObject => ({ type: 'table', reason, definition: { schema: t.table.schema, name: t.table.name } }));
  return [...fields.reverse(), ...functions.reverse(), ...relationships.reverse(), ...tables.reverse()];
}

/** At most this many objects are searched for one that keeps a schema from being valid. */
const MAX_CULPRITS = 20;

/**
 * The schema cache of a document, every schema of it valid: enum tables that cannot be enums are
 * left out, and while some schema is still invalid, the object whose removal makes it valid (tried
 * newest first) is left out too, with the validation's message as its reason. With
 * `options.previous`, the types of tables a version before had alike are taken from it.
 */
export function validSchemaCache(
  document: MetadataDocument,
  db: Introspection,
  enumValues: ReadonlyMap<string, EnumValue[]>,
  limits: RequestLimits,
  options: BuildOptions = {},
): ValidSchemaCache {
  // An inherited role whose parents are missing is left out; permissions its parents disagree on are reported.
  const problems = [...enumProblems(document, db, enumValues), ...inheritedRoleInconsistencies(document)];
  let current = problems.length ? withoutObjects(document, problems) : document;
  let cache = buildSchemaCache(current, db, enumValues, limits, options);
  if (options.previous && firstSchemaError(cache) !== undefined) {
    // An invalid schema is searched from types made now only: nothing of a version before is trusted.
    options = { ...options, previous: undefined };
    cache = buildSchemaCache(current, db, enumValues, limits, options);
  }
  for (let round = 0; round < MAX_CULPRITS; round++) {
    const error = firstSchemaError(cache);
    if (error === undefined) return settled(cache, problems, current);
    let found: { object: InconsistentObject; document: MetadataDocument; cache: SchemaCache } | undefined;
    for (const candidate of candidates(current)) {
      const without = withoutObjects(current, [candidate]);
      const rebuilt = buildSchemaCache(without, db, enumValues, limits, options);
      if (firstSchemaError(rebuilt) !== error) {
        found = { object: candidate, document: without, cache: rebuilt };
        break;
      }
    }
    if (!found) break;
    problems.push({ ...found.object, reason: formatMessage('err.validation-failed.schema', error) } as InconsistentObject);
    current = found.document;
    cache = found.cache;
  }
  // Nothing single explains it: serve nothing of the tables rather than fail every request.
  const error = firstSchemaError(cache);
  if (error !== undefined) {
    const all = current.tables.map((t): InconsistentObject => ({
      type: 'table',
      reason: formatMessage('err.validation-failed.schema', error),
      definition: { ...t.table },
    }));
    problems.push(...all);
    current = withoutObjects(current, all);
    cache = buildSchemaCache(current, db, enumValues, limits, options);
  }
  return settled(cache, problems, current);
}

/** Every schema of the cache is built: it takes nothing more from the version before. */
function settled(cache: SchemaCache, problems: InconsistentObject[], document: MetadataDocument): ValidSchemaCache {
  cache.share.forgetPrevious();
  return { cache, problems: [...problems, ...cache.sourceConflicts], document };
}
