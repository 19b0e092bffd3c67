// What part of a client's document goes along with some of its nodes to another server: the
// fragments they spread (and those fragments spread) and the variables all of them read.
import { visit, type ASTNode, type DocumentNode, type FragmentDefinitionNode } from 'graphql';

export function usedDefinitions(
  nodes: readonly ASTNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): { fragments: Map<string, FragmentDefinitionNode>; variables: Set<string> } {
  const used = new Map<string, FragmentDefinitionNode>();
  const variables = new Set<string>();
  const scan = (node: ASTNode) =>
    visit(node as DocumentNode, {
      FragmentSpread(spread) {
        const fragment = fragments[spread.name.value];
        if (fragment && !used.has(fragment.name.value)) {
          used.set(fragment.name.value, fragment);
          scan(fragment);
        }
      },
      Variable(v) {
        variables.add(v.name.value);
      },
    });
  for (const node of nodes) scan(node);
  return { fragments: used, variables };
}
