// The metadata directory's split of actions and custom types (SPEC.md §2.2): actions.graphql holds
// their GraphQL shape (the actions as fields of `type Query` / `type Mutation`, the custom types
// as SDL), actions.yaml the rest (handlers, kinds, headers, permissions, relationships).
import { Kind, parse, print, type DocumentNode, type FieldDefinitionNode, type InputValueDefinitionNode, type StringValueNode } from 'graphql';
import type { Action, CustomField, CustomTypes } from '../../../spec';

/** actions.yaml: what actions.graphql does not say. */
export interface ActionsYaml {
  actions: {
    name: string;
    definition: Omit<Action['definition'], 'type' | 'arguments' | 'output_type' | 'forward_client_headers'> & { forward_client_headers?: boolean };
    permissions?: Action['permissions'];
    comment?: string;
  }[];
  custom_types: {
    enums: { name: string }[];
    input_objects: { name: string }[];
    objects: { name: string; relationships?: NonNullable<CustomTypes['objects']>[number]['relationships'] }[];
    scalars: { name: string }[];
  };
}

const block = (text: string | undefined, indent = '') => (text ? `${indent}${JSON.stringify(text)}\n` : '');
const field = (f: CustomField, indent: string) => `${block(f.description, indent)}${indent}${f.name}: ${f.type}\n`;

/** The SDL of actions.graphql. */
export function actionsGraphQL(actions: readonly Action[], types: CustomTypes | undefined): string {
  const parts: string[] = [];
  for (const root of ['Query', 'Mutation'] as const) {
    const fields = actions.filter((a) => (root === 'Query') === (a.definition.type === 'query'));
    if (!fields.length) continue;
    const body = fields.map((a) => {
      const args = a.definition.arguments?.length ? `(\n${a.definition.arguments.map((x) => field(x, '    ')).join('')}  )` : '';
      return `${block(a.comment, '  ')}  ${a.name}${args}: ${a.definition.output_type}\n`;
    });
    parts.push(`type ${root} {\n${body.join('')}}\n`);
  }
  for (const i of types?.input_objects ?? []) parts.push(`${block(i.description)}input ${i.name} {\n${i.fields.map((f) => field(f, '  ')).join('')}}\n`);
  for (const o of types?.objects ?? []) parts.push(`${block(o.description)}type ${o.name} {\n${o.fields.map((f) => field(f, '  ')).join('')}}\n`);
  for (const e of types?.enums ?? []) {
    const values = e.values.map((v) => `${block(v.description, '  ')}  ${v.value}${v.is_deprecated ? ' @deprecated' : ''}\n`).join('');
    parts.push(`${block(e.description)}enum ${e.name} {\n${values}}\n`);
  }
  for (const s of types?.scalars ?? []) parts.push(`${block(s.description)}scalar ${s.name}\n`);
  return parts.join('\n');
}

/** actions.yaml for the same actions and types, as the engine's CLI writes it: what the SDL says
 *  (the root type, arguments, output type) left out, forward_client_headers only when true. */
export function actionsYaml(actions: readonly Action[], types: CustomTypes | undefined): ActionsYaml {
  return {
    actions: actions.map((a) => {
      const { type: _t, arguments: _a, output_type: _o, forward_client_headers, ...rest } = a.definition;
      const definition = Object.fromEntries(
        Object.entries(a.definition).filter(([key]) => key in rest || (key === 'forward_client_headers' && forward_client_headers)),
      ) as ActionsYaml['actions'][number]['definition'];
      return { name: a.name, definition, ...(a.permissions ? { permissions: a.permissions } : {}), ...(a.comment !== undefined ? { comment: a.comment } : {}) };
    }),
    custom_types: {
      enums: (types?.enums ?? []).map((e) => ({ name: e.name })),
      input_objects: (types?.input_objects ?? []).map((i) => ({ name: i.name })),
      objects: (types?.objects ?? []).map((o) => ({ name: o.name, ...(o.relationships ? { relationships: o.relationships } : {}) })),
      scalars: (types?.scalars ?? []).map((s) => ({ name: s.name })),
    },
  };
}

/** Why the two files do not fit together, thrown with a message for the user. */
export class ActionsFilesError extends Error {}

/** Actions and custom types from actions.yaml and actions.graphql together. */
export function joinActionsFiles(yaml: ActionsYaml, sdl: string): { actions: Action[]; custom_types: CustomTypes } {
  let document: DocumentNode;
  try {
    document = sdl.trim() === '' ? { kind: Kind.DOCUMENT, definitions: [] } : parse(sdl, { noLocation: true });
  } catch (error) {
    throw new ActionsFilesError(`actions.graphql does not parse: ${(error as Error).message}`);
  }
  const description = (d: StringValueNode | undefined) => (d ? { description: d.value } : {});
  const input = (v: InputValueDefinitionNode): CustomField => ({ name: v.name.value, type: print(v.type), ...description(v.description) });
  const output = (f: FieldDefinitionNode): CustomField => ({ name: f.name.value, type: print(f.type), ...description(f.description) });
  const roots = new Map<string, { type: 'query' | 'mutation'; field: FieldDefinitionNode }>();
  const types: Required<CustomTypes> = { input_objects: [], objects: [], scalars: [], enums: [] };
  for (const d of document.definitions) {
    if (d.kind === Kind.OBJECT_TYPE_DEFINITION && (d.name.value === 'Query' || d.name.value === 'Mutation')) {
      for (const f of d.fields ?? []) roots.set(f.name.value, { type: d.name.value === 'Query' ? 'query' : 'mutation', field: f });
    } else if (d.kind === Kind.OBJECT_TYPE_DEFINITION) {
      const relationships = yaml.custom_types.objects.find((o) => o.name === d.name.value)?.relationships;
      types.objects.push({
        name: d.name.value,
        ...description(d.description),
        fields: (d.fields ?? []).map(output),
        ...(relationships ? { relationships } : {}),
      });
    } else if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
      types.input_objects.push({ name: d.name.value, ...description(d.description), fields: (d.fields ?? []).map(input) });
    } else if (d.kind === Kind.ENUM_TYPE_DEFINITION) {
      types.enums.push({
        name: d.name.value,
        ...description(d.description),
        values: (d.values ?? []).map((v) => ({
          value: v.name.value,
          ...description(v.description),
          ...(v.directives?.some((x) => x.name.value === 'deprecated') ? { is_deprecated: true } : {}),
        })),
      });
    } else if (d.kind === Kind.SCALAR_TYPE_DEFINITION) {
      types.scalars.push({ name: d.name.value, ...description(d.description) });
    } else {
      throw new ActionsFilesError(`actions.graphql may hold only type, input, enum and scalar definitions, not ${d.kind}`);
    }
  }
  const actions = yaml.actions.map((a): Action => {
    const root = roots.get(a.name);
    if (!root) throw new ActionsFilesError(`the action ${JSON.stringify(a.name)} of actions.yaml has no field in actions.graphql`);
    const args = (root.field.arguments ?? []).map(input);
    return {
      name: a.name,
      definition: {
        // actions.yaml says forward_client_headers only when it is true.
        forward_client_headers: false,
        ...a.definition,
        type: root.type,
        ...(args.length ? { arguments: args } : {}),
        output_type: print(root.field.type),
      } as Action['definition'],
      ...(a.comment !== undefined ? { comment: a.comment } : {}),
      ...(a.permissions ? { permissions: a.permissions } : {}),
    };
  });
  const extra = [...roots.keys()].filter((name) => !yaml.actions.some((a) => a.name === name));
  if (extra.length) throw new ActionsFilesError(`actions.graphql has fields that actions.yaml does not define: ${extra.join(', ')}`);
  const custom = Object.fromEntries(Object.entries(types).filter(([, list]) => list.length > 0)) as CustomTypes;
  return { actions, custom_types: custom };
}
