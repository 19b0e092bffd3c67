// The fields a selection set asks for, with fragments spread, @skip/@include applied, fields of
// the same alias merged, and argument values coerced (variables substituted).
import {
  getArgumentValues,
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

export interface FieldEnvironment {
  fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  variables: Readonly<Record<string, unknown>>;
}

export interface CollectedField {
  alias: string;
  name: string;
  node: FieldNode;
  /** Sub-selections of every occurrence of this alias. */
  selectionSet: SelectionSetNode | undefined;
  args: Record<string, unknown>;
  definition: GraphQLField<unknown, unknown> | undefined;
}

function included(env: FieldEnvironment, node: SelectionNode): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, env.variables as Record<string, unknown>);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, env.variables as Record<string, unknown>);
  return include?.if !== false;
}

export function collectFields(env: FieldEnvironment, type: GraphQLObjectType, selectionSet: SelectionSetNode): CollectedField[] {
  const byAlias = new Map<string, { node: FieldNode; selections: SelectionNode[] }>();
  const visit = (set: SelectionSetNode, seenFragments: Set<string>) => {
    for (const selection of set.selections) {
      if (!included(env, selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const alias = selection.alias?.value ?? selection.name.value;
        const existing = byAlias.get(alias);
        if (existing) existing.selections.push(...(selection.selectionSet?.selections ?? []));
        else byAlias.set(alias, { node: selection, selections: [...(selection.selectionSet?.selections ?? [])] });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!selection.typeCondition || selection.typeCondition.name.value === type.name) visit(selection.selectionSet, seenFragments);
      } else {
        const name = selection.name.value;
        const fragment = env.fragments[name];
        if (!fragment || seenFragments.has(name) || fragment.typeCondition.name.value !== type.name) continue;
        visit(fragment.selectionSet, new Set([...seenFragments, name]));
      }
    }
  };
  visit(selectionSet, new Set());
  const fields = type.getFields();
  return [...byAlias.entries()].map(([alias, { node, selections }]) => {
    const definition = fields[node.name.value];
    return {
      alias,
      name: node.name.value,
      node,
      selectionSet: node.selectionSet ? { kind: Kind.SELECTION_SET, selections } : undefined,
      args: definition ? getArgumentValues(definition, node, env.variables as Record<string, unknown>) : {},
      definition,
    };
  });
}
