// The directives of a role's SDL on a remote schema (decision dec.remote-schema.presets): @preset on
// arguments and input fields, what else may stand (@deprecated and the remote's own), and the SDL
// the role's schema is built from, without them.
import {
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  print,
  valueFromAST,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type InputValueDefinitionNode,
} from 'graphql';
import type { Preset } from '../schema/remoteRolePresets';
import { isSessionVariable, sessionKey, spokenName, type CompatHeaders } from '../sessionNames';

const PRESET = 'preset';
const quoted = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(', ');

/** Directives of a type or field: @deprecated and those the remote defines; @preset only where `presetAllowed`. */
export function directiveProblems(
  upstream: GraphQLSchema,
  directives: readonly ConstDirectiveNode[] | undefined,
  where: string,
  presetAllowed: boolean,
): string[] {
  const out: string[] = [];
  for (const d of directives ?? []) {
    const name = d.name.value;
    if (name === PRESET) {
      if (!presetAllowed) out.push(`@preset is allowed only on arguments and input fields, not on the ${where}`);
    } else if (!upstream.getDirective(name)) {
      out.push(`the directive @${name} of the ${where} does not exist in the upstream remote schema`);
    }
  }
  return out;
}

/** The preset of an argument or input field, if it has one; what is wrong with it goes to `reasons`. */
export function presetOf(
  upstream: GraphQLSchema,
  node: InputValueDefinitionNode,
  type: GraphQLInputType,
  where: string,
  reasons: string[],
  /** On a compatible server "x-hasura-…" names a session variable too (decision dec.compat.headers). */
  compat?: CompatHeaders,
): Preset | undefined {
  reasons.push(...directiveProblems(upstream, node.directives, where, true));
  const presets = (node.directives ?? []).filter((d) => d.name.value === PRESET);
  if (presets.length === 0) return undefined;
  if (presets.length > 1) {
    reasons.push(`the ${where} has more than one @preset`);
    return undefined;
  }
  const given = presets[0]!.arguments ?? [];
  const value = given.find((a) => a.name.value === 'value')?.value;
  const staticArg = given.find((a) => a.name.value === 'static')?.value;
  const unknown = given.map((a) => a.name.value).filter((n) => n !== 'value' && n !== 'static');
  if (!value || unknown.length) {
    reasons.push(`the @preset of the ${where} takes "value" and, optionally, "static"${unknown.length ? `, not ${quoted(unknown)}` : ''}`);
    return undefined;
  }
  if (staticArg && staticArg.kind !== Kind.BOOLEAN) {
    reasons.push(`"static" of the @preset of the ${where} must be true or false`);
    return undefined;
  }
  const isStatic = staticArg?.kind === Kind.BOOLEAN && staticArg.value;
  if (value.kind === Kind.STRING && isSessionVariable(value.value, compat) && !isStatic) {
    const named = isNonNullType(type) ? type.ofType : type;
    if (isListType(named) || !(isScalarType(named) || isEnumType(named))) {
      reasons.push(`a session variable preset needs a scalar or enum type, and the ${where} is ${String(type)}`);
      return undefined;
    }
    return { kind: 'session', variable: sessionKey(value.value), header: spokenName(value.value.toLowerCase(), compat), type: named };
  }
  // A static value must be one the remote takes for that type.
  if (valueFromAST(value, type) === undefined) {
    reasons.push(`the preset ${print(value)} of the ${where} is not a value of type ${String(type)}`);
    return undefined;
  }
  return { kind: 'static', value };
}

export function stripForRole(document: DocumentNode): DocumentNode {
  const keep = (directives: readonly ConstDirectiveNode[] | undefined) => (directives ?? []).filter((d) => d.name.value === 'deprecated');
  const unpreset = (values: readonly InputValueDefinitionNode[] | undefined) =>
    (values ?? []).filter((v) => !(v.directives ?? []).some((d) => d.name.value === PRESET)).map((v) => ({ ...v, directives: keep(v.directives) }));
  const definitions = document.definitions.map((d): DefinitionNode => {
    switch (d.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_DEFINITION:
        return { ...d, directives: [], fields: (d.fields ?? []).map((f) => ({ ...f, directives: keep(f.directives), arguments: unpreset(f.arguments) })) };
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
        return { ...d, directives: [], fields: unpreset(d.fields) };
      case Kind.ENUM_TYPE_DEFINITION:
        return { ...d, directives: [], values: (d.values ?? []).map((v) => ({ ...v, directives: keep(v.directives) })) };
      case Kind.UNION_TYPE_DEFINITION:
      case Kind.SCALAR_TYPE_DEFINITION:
        return { ...d, directives: [] };
      default:
        return d;
    }
  });
  return { ...document, definitions };
}
