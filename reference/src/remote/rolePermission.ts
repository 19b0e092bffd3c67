// A role's permission on a remote schema (decisions dec.remote-schema.permissions and
// dec.remote-schema.presets): its SDL checked to be a subset of the remote's schema, the role's
// schema built from it, and the argument presets the engine sends in the role's place.
import { documentNesting } from '../schema/documentNesting';
import type { Preset, RolePresets } from '../schema/remoteRolePresets';
import { directiveProblems, presetOf, stripForRole } from './presetDirectives';
import { perSchema } from './perSchema';
export type { Preset, RolePresets } from '../schema/remoteRolePresets';
import {
  buildASTSchema,
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  parse,
  print,
  validateSchema,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type TypeDefinitionNode,
} from 'graphql';
import type { CompatHeaders } from '../sessionNames';

/** What a role sees of a remote schema, and what the engine adds to its requests. */
export interface RoleRemote {
  schema: GraphQLSchema;
  presets: RolePresets;
}

/** How deep brackets of a role's SDL may nest (types, preset values): as deep as JSON bodies may. */
const MAX_NESTING = 128;

const KIND_WORD: Partial<Record<Kind, string>> = {
  [Kind.OBJECT_TYPE_DEFINITION]: 'object',
  [Kind.INTERFACE_TYPE_DEFINITION]: 'interface',
  [Kind.UNION_TYPE_DEFINITION]: 'union',
  [Kind.ENUM_TYPE_DEFINITION]: 'enum',
  [Kind.INPUT_OBJECT_TYPE_DEFINITION]: 'input object',
  [Kind.SCALAR_TYPE_DEFINITION]: 'scalar',
};

function kindOf(type: GraphQLNamedType): string {
  if (isObjectType(type)) return 'object';
  if (isInterfaceType(type)) return 'interface';
  if (isUnionType(type)) return 'union';
  if (isEnumType(type)) return 'enum';
  if (isInputObjectType(type)) return 'input object';
  return 'scalar';
}

const withArticle = (word: string) => `${/^(?!uni)[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
const quoted = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(', ');

/** The role's part of `upstream` that `sdl` describes, or every reason it is not a subset. Once per schema and text. */
const byBrand = { engine: perSchema((upstream, sdl) => check(upstream, sdl)), hasura: perSchema((upstream, sdl) => check(upstream, sdl, 'hasura')) };
export const roleRemote = (upstream: GraphQLSchema, sdl: string, compat?: CompatHeaders): RoleRemote | { reasons: string[] } =>
  byBrand[compat ?? 'engine'](upstream, sdl);

/** The message of validation-failed.remote-schema-permission's <reasons>: one reason, or all of them a line each. */
export function reasonsText(reasons: readonly string[]): string {
  return reasons.length === 1 ? `because ${reasons[0]}` : `for the following reasons:\n${reasons.map((r) => ` • ${r}`).join('\n')}`;
}

/** The parser's message when `sdl` is not GraphQL SDL (text nested past what the parser is given is left to roleRemote). */
export function sdlSyntaxProblem(sdl: string): string | undefined {
  if (documentNesting(sdl) > MAX_NESTING) return undefined;
  try {
    parse(sdl, { noLocation: true });
    return undefined;
  } catch (error) {
    if (error instanceof GraphQLError) return error.message;
    throw error;
  }
}

function check(upstream: GraphQLSchema, sdl: string, compat?: CompatHeaders): RoleRemote | { reasons: string[] } {
  // The parser recurses per bracket: deeper nesting than any schema needs is refused before it.
  if (documentNesting(sdl) > MAX_NESTING) return { reasons: [`the schema nests brackets deeper than ${MAX_NESTING}`] };
  let document: DocumentNode;
  try {
    document = parse(sdl, { noLocation: true });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return { reasons: [`the schema is not GraphQL SDL: ${error.message}`] };
  }
  const reasons: string[] = [];
  const args = new Map<string, Map<string, Preset>>();
  const inputFields = new Map<string, Map<string, Preset>>();
  const types: TypeDefinitionNode[] = [];
  const schemaDefinitions = document.definitions.filter((d) => d.kind === Kind.SCHEMA_DEFINITION);
  if (schemaDefinitions.length > 1) reasons.push('multiple schema definitions found');
  for (const d of document.definitions) {
    if (d.kind === Kind.SCHEMA_DEFINITION) continue;
    if (!(d.kind in KIND_WORD)) {
      reasons.push(`only type definitions and a schema definition are expected, found a ${d.kind}`);
      continue;
    }
    types.push(d as TypeDefinitionNode);
  }
  const seen = new Set<string>();
  for (const t of types) {
    if (seen.has(t.name.value)) reasons.push(`the type ${JSON.stringify(t.name.value)} is defined twice`);
    seen.add(t.name.value);
  }
  // The roots: the schema definition's, or the types named Query and Mutation.
  const rootNamed = (operation: 'query' | 'mutation' | 'subscription', fallback: string) => {
    const schemaDefinition = schemaDefinitions[0];
    if (schemaDefinition?.kind === Kind.SCHEMA_DEFINITION) return schemaDefinition.operationTypes.find((o) => o.operation === operation)?.type.name.value;
    return seen.has(fallback) ? fallback : undefined;
  };
  const query = rootNamed('query', 'Query');
  const mutation = rootNamed('mutation', 'Mutation');
  if (!query) reasons.push('query root does not exist in the schema definition');
  else if (query !== upstream.getQueryType()?.name)
    reasons.push(`the query root ${JSON.stringify(query)} is not the remote schema's query root ${JSON.stringify(upstream.getQueryType()?.name)}`);
  if (mutation && mutation !== upstream.getMutationType()?.name)
    reasons.push(
      `the mutation root ${JSON.stringify(mutation)} is not the remote schema's mutation root${upstream.getMutationType() ? ` ${JSON.stringify(upstream.getMutationType()!.name)}` : ': it has none'}`,
    );
  if (rootNamed('subscription', 'Subscription')) reasons.push("a remote schema's subscriptions are not served");

  for (const t of types) {
    const name = t.name.value;
    const word = KIND_WORD[t.kind]!;
    const other = upstream.getType(name);
    if (!other) {
      reasons.push(`${word} ${JSON.stringify(name)} does not exist in the upstream remote schema`);
      continue;
    }
    if (kindOf(other) !== word) {
      reasons.push(`${JSON.stringify(name)} is ${withArticle(kindOf(other))} in the upstream remote schema, not ${withArticle(word)}`);
      continue;
    }
    reasons.push(...directiveProblems(upstream, t.directives, `${word} ${JSON.stringify(name)}`, false));
    if ((t.kind === Kind.OBJECT_TYPE_DEFINITION || t.kind === Kind.INTERFACE_TYPE_DEFINITION) && (isObjectType(other) || isInterfaceType(other))) {
      const theirs = other.getFields();
      const upstreamInterfaces = new Set(other.getInterfaces().map((i) => i.name));
      const extra = (t.interfaces ?? []).map((i) => i.name.value).filter((i) => !upstreamInterfaces.has(i));
      if (extra.length) reasons.push(`${word} ${JSON.stringify(name)} implements ${quoted(extra)}, which it does not implement in the upstream remote schema`);
      for (const f of t.fields ?? []) {
        const field = theirs[f.name.value];
        const where = `field ${JSON.stringify(f.name.value)} of ${word} ${JSON.stringify(name)}`;
        if (!field) {
          reasons.push(`${where} does not exist in the upstream remote schema`);
          continue;
        }
        if (print(f.type) !== String(field.type)) reasons.push(`expected the type of ${where} to be ${String(field.type)} but received ${print(f.type)}`);
        reasons.push(...directiveProblems(upstream, f.directives, where, false));
        const given = new Set<string>();
        for (const a of f.arguments ?? []) {
          given.add(a.name.value);
          const arg = field.args.find((x) => x.name === a.name.value);
          const argWhere = `argument ${JSON.stringify(a.name.value)} of ${where}`;
          if (!arg) {
            reasons.push(`${argWhere} does not exist in the upstream remote schema`);
            continue;
          }
          if (print(a.type) !== String(arg.type)) reasons.push(`expected the type of ${argWhere} to be ${String(arg.type)} but received ${print(a.type)}`);
          const preset = presetOf(upstream, a, arg.type, argWhere, reasons, compat);
          if (preset) {
            const key = `${name}.${f.name.value}`;
            if (!args.has(key)) args.set(key, new Map());
            args.get(key)!.set(a.name.value, preset);
          }
        }
        const missing = field.args.filter((a) => a.type.toString().endsWith('!') && a.defaultValue === undefined && !given.has(a.name)).map((a) => a.name);
        if (missing.length) reasons.push(`${where} expects the following non-nullable arguments to be present: ${quoted(missing)}`);
      }
    } else if (t.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION && isInputObjectType(other)) {
      const theirs = other.getFields();
      const given = new Set<string>();
      for (const f of t.fields ?? []) {
        given.add(f.name.value);
        const field = theirs[f.name.value];
        const where = `field ${JSON.stringify(f.name.value)} of input object ${JSON.stringify(name)}`;
        if (!field) {
          reasons.push(`${where} does not exist in the upstream remote schema`);
          continue;
        }
        if (print(f.type) !== String(field.type)) reasons.push(`expected the type of ${where} to be ${String(field.type)} but received ${print(f.type)}`);
        const preset = presetOf(upstream, f, field.type, where, reasons, compat);
        if (preset) {
          if (!inputFields.has(name)) inputFields.set(name, new Map());
          inputFields.get(name)!.set(f.name.value, preset);
        }
      }
      const fields = t.fields ?? [];
      if (fields.length > 0 && fields.every((f) => (f.directives ?? []).some((d) => d.name.value === 'preset')))
        reasons.push(`every field of input object ${JSON.stringify(name)} is preset: the role must be left at least one`);
      const missing = Object.values(theirs)
        .filter((f) => f.type.toString().endsWith('!') && f.defaultValue === undefined && !given.has(f.name))
        .map((f) => f.name);
      if (missing.length) reasons.push(`input object ${JSON.stringify(name)} expects the following non-nullable fields to be present: ${quoted(missing)}`);
    } else if (t.kind === Kind.ENUM_TYPE_DEFINITION && isEnumType(other)) {
      const values = new Set(other.getValues().map((v) => v.name));
      const extra = (t.values ?? []).map((v) => v.name.value).filter((v) => !values.has(v));
      if (extra.length) reasons.push(`enum ${JSON.stringify(name)} has values that the upstream remote enum does not have: ${quoted(extra)}`);
    } else if (t.kind === Kind.UNION_TYPE_DEFINITION && isUnionType(other)) {
      const members = new Set(other.getTypes().map((m) => m.name));
      const extra = (t.types ?? []).map((m) => m.name.value).filter((m) => !members.has(m));
      if (extra.length) reasons.push(`union ${JSON.stringify(name)} has members that the upstream remote union does not have: ${quoted(extra)}`);
    }
  }
  if (reasons.length) return { reasons };
  // The role's schema: its SDL without the preset arguments and fields, and without directives
  // other than @deprecated (they belong to the remote, which sees the request as it was written).
  const stripped = stripForRole(document);
  let schema: GraphQLSchema;
  try {
    schema = buildASTSchema(stripped);
  } catch (error) {
    return { reasons: [error instanceof Error ? error.message : String(error)] };
  }
  const invalid = validateSchema(schema);
  if (invalid.length) return { reasons: invalid.map((e) => e.message) };
  return { schema, presets: { args, inputFields, schema } };
}
