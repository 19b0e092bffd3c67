// The presets of a role's remote schema permission in the request sent to the remote (decision
// dec.remote-schema.presets): preset arguments added to every field that has them, preset input
// fields to every object of their input type, given as a literal or in a variable.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type GraphQLInputType,
  type ObjectFieldNode,
  type ValueNode,
} from 'graphql';
import type { Preset, RolePresets } from '../remote/rolePermission';
import { CompileError } from '../sql/graphql/context';
import { headerName } from '../sql/graphql/permissions';

/**
 * The document and variables of a request to a remote (its root fields at its own root) with the
 * role's presets in them.
 */
export function withPresets(
  document: DocumentNode,
  variables: Record<string, unknown>,
  presets: RolePresets,
  session: Readonly<Record<string, string>>,
): { document: DocumentNode; variables: Record<string, unknown> } {
  const schema = presets.schema;
  const typeInfo = new TypeInfo(schema);
  const edited = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const forField = parent && presets.args.get(`${parent.name}.${node.name.value}`);
        if (!forField) return undefined;
        const added: ArgumentNode[] = [...forField].map(([name, p]) => ({
          kind: Kind.ARGUMENT,
          name: { kind: Kind.NAME, value: name },
          value: presetValue(p, session),
        }));
        return { ...node, arguments: [...(node.arguments ?? []), ...added] };
      },
      ObjectValue(node) {
        const type = getNamedType(typeInfo.getInputType());
        const forType = type && presets.inputFields.get(type.name);
        if (!forType) return undefined;
        const added: ObjectFieldNode[] = [...forType].map(([name, p]) => ({
          kind: Kind.OBJECT_FIELD,
          name: { kind: Kind.NAME, value: name },
          value: presetValue(p, session),
        }));
        return { ...node, fields: [...node.fields, ...added] };
      },
    }),
  );
  const out: Record<string, unknown> = { ...variables };
  for (const definition of edited.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of definition.variableDefinitions ?? []) {
      const type = typeFromAST(schema, v.type) as GraphQLInputType | undefined;
      const name = v.variable.name.value;
      if (type && name in out) out[name] = presetInValue(out[name], type, presets, session);
    }
  }
  return { document: edited, variables: out };
}

/** A variable's value with the preset fields of each input object in it. */
function presetInValue(value: unknown, type: GraphQLInputType, presets: RolePresets, session: Readonly<Record<string, string>>): unknown {
  if (value === null || value === undefined) return value;
  if (isNonNullType(type)) return presetInValue(value, type.ofType, presets, session);
  if (isListType(type)) {
    const item = type.ofType as GraphQLInputType;
    return Array.isArray(value) ? value.map((v) => presetInValue(v, item, presets, session)) : presetInValue(value, item, presets, session);
  }
  if (!isInputObjectType(type) || typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = type.getFields();
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) out[name] = fields[name] ? presetInValue(v, fields[name].type, presets, session) : v;
  for (const [name, p] of presets.inputFields.get(type.name) ?? []) out[name] = valueFromASTUntyped(presetValue(p, session));
  return out;
}

/** A preset as a GraphQL value: a static one as written, a session variable's as its scalar or enum. */
function presetValue(preset: Preset, session: Readonly<Record<string, string>>): ValueNode {
  if (preset.kind === 'static') return preset.value;
  const raw = session[preset.variable];
  if (raw === undefined) throw new CompileError(`missing header : ${preset.header}`, 'invalid-headers');
  const value = raw.trim();
  const refuse = (what: string) => new CompileError(`${headerName(preset.header)} should be ${what}`, 'invalid-headers');
  const type = preset.type;
  if (isEnumType(type)) {
    if (!type.getValue(value)) throw refuse(`one of the values of ${type.name}`);
    return { kind: Kind.ENUM, value };
  }
  switch (type.name) {
    case 'Int':
      if (!/^-?\d+$/.test(value)) throw refuse('an integer');
      return { kind: Kind.INT, value: String(Number(value)) };
    case 'Float':
      if (value === '' || !Number.isFinite(Number(value))) throw refuse('a number');
      return { kind: Kind.FLOAT, value: String(Number(value)) };
    case 'Boolean':
      if (value !== 'true' && value !== 'false') throw refuse('true or false');
      return { kind: Kind.BOOLEAN, value: value === 'true' };
    default:
      return { kind: Kind.STRING, value: raw };
  }
}
