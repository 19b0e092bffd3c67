// Custom GraphQL types (SPEC.md §2.7) as pure functions over the document: set_custom_types
// replaces them all, after checking names, field types and relationships to tracked tables.
import { Kind, parseType, type TypeNode } from 'graphql';
import { quoteQualified, type Action, type CustomTypes, type MetadataDocument } from '../../../spec';
import { relationKey, type Introspection } from '../db/introspection';
import { engineError } from '../errors';
import { isGraphQLName } from './naming';
import { findEntry } from './tables';

export const BUILT_IN_SCALARS = ['Int', 'Float', 'String', 'Boolean', 'ID'] as const;

export type TypeKind = 'scalar' | 'enum' | 'input_object' | 'object';

/**
 * Every custom type by name, with its kind; `postgresScalars`: the scalars of PostgreSQL's types that
 * the types may name besides their own (decision dec.action.postgres-scalars).
 */
export function customTypeKinds(types: CustomTypes | undefined, postgresScalars: ReadonlySet<string> = new Set()): Map<string, TypeKind> {
  const kinds = new Map<string, TypeKind>([...BUILT_IN_SCALARS, ...postgresScalars].map((n) => [n, 'scalar']));
  for (const s of types?.scalars ?? []) kinds.set(s.name, 'scalar');
  for (const e of types?.enums ?? []) kinds.set(e.name, 'enum');
  for (const i of types?.input_objects ?? []) kinds.set(i.name, 'input_object');
  for (const o of types?.objects ?? []) kinds.set(o.name, 'object');
  return kinds;
}

/** The named types that custom types and actions use, each once. */
export function typeNamesUsed(types: CustomTypes | undefined, actions: readonly Pick<Action, 'definition'>[]): string[] {
  const fields = [...(types?.input_objects ?? []), ...(types?.objects ?? [])].flatMap((t) => t.fields.map((f) => f.type));
  const ofActions = actions.flatMap((a) => [...(a.definition.arguments ?? []).map((x) => x.type), a.definition.output_type]);
  return [...new Set([...fields, ...ofActions].map(namedTypeOf).filter((n): n is string => n !== undefined))];
}

/** The named type at the bottom of a GraphQL type such as `[Int!]!`, or undefined when it does not parse. */
export function namedTypeOf(type: string): string | undefined {
  let node: TypeNode;
  try {
    node = parseType(type);
  } catch {
    return undefined;
  }
  while (node.kind !== Kind.NAMED_TYPE) node = node.type;
  return node.name.value;
}

/** Why `type` cannot be used where `use` says (an input or an output), or undefined when it can. */
export function typeProblem(type: string, kinds: ReadonlyMap<string, TypeKind>, use: 'input' | 'output'): string | undefined {
  const named = namedTypeOf(type);
  if (named === undefined) return `${JSON.stringify(type)} is not a GraphQL type`;
  const kind = kinds.get(named);
  if (kind === undefined) return `the type ${JSON.stringify(named)} is not defined`;
  if (use === 'input' && kind === 'object') return `${JSON.stringify(named)} is an object type, which cannot be an input`;
  if (use === 'output' && kind === 'input_object') return `${JSON.stringify(named)} is an input object type, which cannot be an output`;
  return undefined;
}

const refuse = (reason: string) => engineError('constraint-violation.custom-types', '$.args', [reason]);
/** A name or type that cannot be read at all, before the types are checked against each other and the tables. */
const refuseName = (reason: string) => engineError('validation-failed.custom-types', '$.args', [reason]);

/** Custom types must have valid, distinct names, known field types and relationships to tracked tables. */
export function validateCustomTypes(types: CustomTypes, document: MetadataDocument, db: Introspection, postgresScalars: ReadonlySet<string> = new Set()): void {
  const seen = new Set<string>(BUILT_IN_SCALARS);
  const all = [...(types.scalars ?? []), ...(types.enums ?? []), ...(types.input_objects ?? []), ...(types.objects ?? [])];
  for (const t of all) {
    if (!isGraphQLName(t.name)) throw refuseName(`${JSON.stringify(t.name)} is not a valid GraphQL name`);
    if (seen.has(t.name)) throw refuse(`the type name ${JSON.stringify(t.name)} is defined more than once`);
    seen.add(t.name);
  }
  const kinds = customTypeKinds(types, postgresScalars);
  for (const e of types.enums ?? []) {
    const values = new Set<string>();
    for (const v of e.values) {
      if (!isGraphQLName(v.value) || ['true', 'false', 'null'].includes(v.value))
        throw refuseName(`${JSON.stringify(v.value)} (a value of enum ${JSON.stringify(e.name)}) is not a valid enum value`);
      if (values.has(v.value)) throw refuse(`the value ${JSON.stringify(v.value)} of enum ${JSON.stringify(e.name)} is defined more than once`);
      values.add(v.value);
    }
  }
  const checkFields = (owner: string, fields: readonly { name: string; type: string }[], use: 'input' | 'output') => {
    const names = new Set<string>();
    for (const f of fields) {
      if (!isGraphQLName(f.name)) throw refuseName(`${JSON.stringify(f.name)} (a field of ${JSON.stringify(owner)}) is not a valid GraphQL name`);
      if (names.has(f.name)) throw refuse(`the field ${JSON.stringify(f.name)} of ${JSON.stringify(owner)} is defined more than once`);
      names.add(f.name);
      if (namedTypeOf(f.type) === undefined)
        throw refuseName(`field ${JSON.stringify(f.name)} of ${JSON.stringify(owner)}: ${JSON.stringify(f.type)} is not a GraphQL type`);
      const problem = typeProblem(f.type, kinds, use);
      if (problem) throw refuse(`field ${JSON.stringify(f.name)} of ${JSON.stringify(owner)}: ${problem}`);
    }
    return names;
  };
  for (const i of types.input_objects ?? []) checkFields(i.name, i.fields, 'input');
  for (const o of types.objects ?? []) {
    const fields = checkFields(o.name, o.fields, 'output');
    const relationshipNames = new Set<string>();
    for (const r of o.relationships ?? []) {
      const where = `relationship ${JSON.stringify(r.name)} of ${JSON.stringify(o.name)}`;
      if (!isGraphQLName(r.name)) throw refuseName(`${where}: the name is not a valid GraphQL name`);
      if (fields.has(r.name) || relationshipNames.has(r.name)) throw refuse(`${where}: the name is taken by a field or another relationship`);
      relationshipNames.add(r.name);
      if (!findEntry(document, r.remote_table)) throw refuse(`${where}: the table ${quoteQualified(r.remote_table)} is not tracked`);
      const table = db.tables.get(relationKey(r.remote_table));
      if (!table) throw refuse(`${where}: the table ${quoteQualified(r.remote_table)} does not exist`);
      const mapping = Object.entries(r.field_mapping);
      if (mapping.length === 0) throw refuse(`${where}: field_mapping is empty`);
      for (const [field, column] of mapping) {
        const f = o.fields.find((x) => x.name === field);
        if (!f) throw refuse(`${where}: ${JSON.stringify(field)} is not a field of ${JSON.stringify(o.name)}`);
        if (kinds.get(namedTypeOf(f.type)!) === 'object') throw refuse(`${where}: the field ${JSON.stringify(field)} is an object, not a scalar`);
        // The engine takes such types and then finds them inconsistent: refused with its code.
        if (f.type.includes('[')) throw engineError('invalid-configuration.custom-types', '$.args', [`${where}: the field ${JSON.stringify(field)} is a list`]);
        if (!table.columns.some((c) => c.name === column))
          throw refuse(`${where}: ${JSON.stringify(column)} is not a column of ${quoteQualified(r.remote_table)}`);
      }
    }
  }
}

/** The tables the custom types' relationships point at. */
export const tablesOfCustomTypes = (types: CustomTypes | undefined) =>
  (types?.objects ?? []).flatMap((o) => (o.relationships ?? []).map((r) => r.remote_table));
