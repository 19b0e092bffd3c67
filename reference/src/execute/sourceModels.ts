// The table models and functions of every source in one map (decision dec.source.forms): the
// server's own first, then each other source's, keyed apart; a table or function of another source
// whose GraphQL names are taken is left out, reported as an inconsistent object of that source.
import { appliedCustomization, formatMessage, quoteQualified, type MetadataDocument, type SourceCustomization } from '../../../spec';
import { sourcesOf } from '../metadata/sources';
import type { Introspection } from '../db/introspection';
import type { InconsistentObject } from '../metadata/inconsistency';
import { isServedTable } from '../metadata/naming';
import { buildFunctionModels, type FunctionModel } from '../schema/functions';
import { buildModels, sourceModels, type EnumValue, type Models, type TableModel } from '../schema/model';
import { resolveSourceRelationships } from '../schema/sourceRelationships';
import { typeName } from '../schema/typeNames';
import { withPrefixSuffix, type NamingConvention } from '../metadata/namingCase';

/** A source besides default as its schema is built: what is tracked in it, and its database. */
export interface SourceSchemaInput {
  name: string;
  /** The source's tables and functions, as a document of their own. */
  document: MetadataDocument;
  db: Introspection;
  enumValues: ReadonlyMap<string, EnumValue[]>;
}

export function modelsOfSources(
  document: MetadataDocument,
  db: Introspection,
  enumValues: ReadonlyMap<string, EnumValue[]>,
  sources: readonly SourceSchemaInput[],
  defaultNaming: NamingConvention = 'hasura-default',
): { models: Map<string, TableModel>; functions: FunctionModel[]; sourceConflicts: InconsistentObject[] } {
  // The server's own tables under the default source's customization, as another source's are under theirs.
  const ownCustomization = appliedCustomization(document.default_source?.customization);
  const ownNaming = ownCustomization?.naming_convention ?? defaultNaming;
  const ownModels = buildModels(served(document), db, enumValues, ownNaming);
  const own = customized({ models: ownModels, functions: buildFunctionModels(document, db, ownModels) }, ownCustomization, ownNaming);
  const models = new Map(ownModels);
  const functions = own.functions;
  // The names the server's own tables and functions take matter only to those of other sources.
  if (sources.length === 0) return { models, functions, sourceConflicts: resolveSourceRelationships(document, models) };
  const taken = new Map<string, string>();
  const sourceConflicts: InconsistentObject[] = [];
  const claim = (names: readonly string[], what: string) => {
    const clash = names.find((n) => taken.has(n) && taken.get(n) !== what);
    if (clash !== undefined) return formatMessage('err.already-exists.graphql-name', JSON.stringify(clash), what, taken.get(clash)!);
    for (const n of names) taken.set(n, what);
    return undefined;
  };
  for (const m of ownModels.values()) {
    if (m.namespace !== undefined) claim([m.namespace], 'the namespace of the source "default"');
    claim(graphQLNamesOfModel(m), `table ${quoteQualified(m.entry.table)}`);
  }
  for (const f of functions) claim(rootNamesOf(models, f), `function ${quoteQualified(f.entry.function)}`);
  for (const source of sources) {
    const customization = sourcesOf(document).find((s) => s.name === source.name)?.customization;
    const naming = customization?.naming_convention ?? defaultNaming;
    const own = buildModels(served(source.document), source.db, source.enumValues, naming);
    const keyed = customized(sourceModels(own, buildFunctionModels(source.document, source.db, own), source.name), customization, naming);
    const of = ` of the source ${JSON.stringify(source.name)}`;
    for (const [key, model] of keyed.models) {
      // The namespace field is the source's one root field (decision dec.source.customization).
      const namespace = model.namespace === undefined ? undefined : claim([model.namespace], `the namespace${of}`);
      const reason = namespace ?? claim(graphQLNamesOfModel(model), `table ${quoteQualified(model.entry.table)}${of}`);
      if (reason === undefined) models.set(key, model);
      else sourceConflicts.push({ type: 'table', reason, definition: { schema: model.entry.table.schema, name: model.entry.table.name }, source: source.name });
    }
    for (const f of keyed.functions) {
      if (!models.has(f.tableKey)) continue;
      const reason = claim(rootNamesOf(models, f), `function ${quoteQualified(f.entry.function)}${of}`);
      if (reason === undefined) functions.push(f);
      else sourceConflicts.push({ type: 'function', reason, definition: f.entry, source: source.name });
    }
  }
  // Decision dec.remote-relationship.to-source: relationships to tables of sources, now that all are known.
  sourceConflicts.push(...resolveSourceRelationships(document, models));
  return { models, functions, sourceConflicts };
}

/** The document without the tables that have no GraphQL name: tracked, left out of the schema (decision dec.table.unserved-name). */
function served(document: MetadataDocument): MetadataDocument {
  return document.tables.every(isServedTable) ? document : { ...document, tables: document.tables.filter(isServedTable) };
}

/** The root fields a function claims: under a namespace, none (they are the namespace's, claimed with the tables). */
const rootNamesOf = (models: ReadonlyMap<string, TableModel>, f: FunctionModel) =>
  models.get(f.tableKey)!.namespace === undefined ? [f.field, f.aggregateField] : [];

/** The GraphQL names a table claims: its type and its root fields (under a namespace, those are the source's). */
function graphQLNamesOfModel(model: TableModel): string[] {
  return [...new Set([typeName(model), ...(model.namespace === undefined ? Object.values(model.rootFields) : [])])];
}

/**
 * A source's models and functions under its customization (decision dec.source.customization): every
 * root field, custom names included, between the prefix and the suffix; under the namespace, if any;
 * every type generated for them between the type prefix and suffix, joined as the source's naming
 * convention joins them (decision 048: under graphql-default what follows a prefix starts upper case).
 */
function customized(keyed: { models: Models; functions: FunctionModel[] }, c: SourceCustomization | undefined, naming: NamingConvention) {
  const rootFields = c?.root_fields;
  const typeNames = c?.type_names;
  if (!rootFields && !typeNames) return keyed;
  const name = (n: string) => withPrefixSuffix(naming, 'field', n, rootFields?.prefix, rootFields?.suffix);
  const type = (n: string) => withPrefixSuffix(naming, 'type', n, typeNames?.prefix, typeNames?.suffix);
  const namespace = rootFields?.namespace === undefined ? {} : { namespace: rootFields.namespace };
  const types = typeNames ? { typeNames } : {};
  // Models are changed in place: relationships between them are found by key, and rows of the same object.
  for (const m of keyed.models.values()) {
    // A column of an enum table's type takes that table's type, of the same source.
    if (typeNames) for (const col of m.columns) if (col.enumType !== undefined) col.enumType = type(col.enumType);
    Object.assign(m, namespace, types, {
      rootFields: Object.fromEntries(Object.entries(m.rootFields).map(([k, v]) => [k, name(v)])) as TableModel['rootFields'],
    });
  }
  const functions = keyed.functions.map((f) => ({
    ...f,
    uncustomized: { field: f.field, aggregateField: f.aggregateField },
    field: name(f.field),
    aggregateField: name(f.aggregateField),
    argsType: type(f.argsType),
  }));
  return { models: keyed.models, functions };
}
