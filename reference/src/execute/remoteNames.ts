// A customized remote schema's names in a delegated request (decision
// dec.remote-schema.customization): the client's document in the engine's names is sent in the
// remote's (a renamed field aliased to the name the client asked for, so that the answer keeps its
// keys), and the __typename values of the answer come back in the engine's.
import { Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { CustomizedRemote } from '../remote/customization';

/** The document in the remote's own names. */
export function toRemoteNames(document: DocumentNode, names: CustomizedRemote): DocumentNode {
  const typeInfo = new TypeInfo(names.schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      // On leaving: a field renamed on entering would no longer be found by the fields below it.
      Field: {
        leave(node) {
          const parent = typeInfo.getParentType();
          const to = parent && names.fieldToRemote.get(parent.name)?.get(node.name.value);
          if (!to || to === node.name.value) return undefined;
          return { ...node, alias: node.alias ?? node.name, name: { ...node.name, value: to } };
        },
      },
      NamedType(node) {
        const to = names.typeToRemote.get(node.name.value);
        return to ? { ...node, name: { ...node.name, value: to } } : undefined;
      },
    }),
  );
}

/** An answer's __typename values in the engine's names, found along the selections that asked for them. */
export function typenamesFromRemote(
  value: unknown,
  selectionSets: readonly SelectionSetNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  typeFromRemote: ReadonlyMap<string, string>,
): unknown {
  if (Array.isArray(value)) return value.map((v) => typenamesFromRemote(v, selectionSets, fragments, typeFromRemote));
  if (typeof value !== 'object' || value === null) return value;
  // What each key of this object answers, across fragments: a __typename, or fields with selections.
  const keys = new Map<string, { typename: boolean; sets: SelectionSetNode[] }>();
  const walk = (set: SelectionSetNode, seen: ReadonlySet<string>) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        const key = s.alias?.value ?? s.name.value;
        const entry = keys.get(key) ?? { typename: false, sets: [] };
        keys.set(key, entry);
        if (s.name.value === '__typename') entry.typename = true;
        else if (s.selectionSet) entry.sets.push(s.selectionSet);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet, seen);
      } else {
        const fragment = fragments.get(s.name.value);
        // A fragment is walked once per path (validation refuses cycles).
        if (fragment && !seen.has(fragment.name.value)) walk(fragment.selectionSet, new Set([...seen, fragment.name.value]));
      }
    }
  };
  for (const set of selectionSets) walk(set, new Set());
  const out = { ...(value as Record<string, unknown>) };
  for (const [key, { typename, sets }] of keys) {
    if (!(key in out)) continue;
    if (typename) out[key] = typeFromRemote.get(out[key] as string) ?? out[key];
    else if (sets.length) out[key] = typenamesFromRemote(out[key], sets, fragments, typeFromRemote);
  }
  return out;
}
