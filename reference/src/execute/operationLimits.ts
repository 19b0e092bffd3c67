// What one GraphQL request may ask for (decisions dec.limits.*): the nesting of its JSON and of its
// document's brackets (the parser and everything after it recurse once per level), the size of its
// document, and for roles other than admin the depth and number of fields of its operation, with
// each fragment counted every time it is spread.
import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { formatMessage } from '../../../spec';
import type { RequestLimits } from '../config';
import { documentNesting } from '../schema/documentNesting';
export { documentNesting, nestsDeeperThan } from '../schema/documentNesting';

/** Why a document may not be parsed at all, for any role; undefined when it may. */
export function documentProblem(text: string, limits: RequestLimits): string | undefined {
  if (Buffer.byteLength(text, 'utf8') > limits.maxDocumentBytes) return formatMessage('err.graphql.document-too-large', String(limits.maxDocumentBytes));
  if (documentNesting(text) > limits.maxJsonDepth) return formatMessage('err.graphql.document-too-deep', String(limits.maxJsonDepth));
  return undefined;
}

interface Measure {
  depth: number;
  fields: number;
}

const NOTHING: Measure = { depth: 0, fields: 0 };

/**
 * Why the operations of a document ask too much; undefined when they do not. Every role is bound
 * by how deep fragments spread fragments (validation and compilation recurse along that chain), and
 * by the depth and field count of each operation, each spread counting its fragment again: `bounded`
 * roles (all but admin) by their limits, admin by its larger ones.
 */
export function operationProblem(document: DocumentNode, limits: RequestLimits, bounded: boolean): string | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  // Each fragment is measured once; a cycle (refused by validation later) counts as nothing.
  const measured = new Map<string, Measure | 'measuring'>();
  let tooDeep = false;
  // `level`: how many fragments spread fragments down to here; past the limit the measuring stops.
  const measureSet = (set: SelectionSetNode, level: number): Measure => {
    let depth = 0;
    let fields = 0;
    for (const s of set.selections) {
      let m: Measure;
      if (s.kind === Kind.FIELD) {
        const inner = s.selectionSet ? measureSet(s.selectionSet, level) : NOTHING;
        m = { depth: inner.depth + 1, fields: inner.fields + 1 };
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        m = measureSet(s.selectionSet, level);
      } else {
        m = measureFragment(s.name.value, level + 1);
      }
      depth = Math.max(depth, m.depth);
      fields += m.fields;
    }
    return { depth, fields };
  };
  const measureFragment = (name: string, level: number): Measure => {
    if (level > limits.maxJsonDepth) tooDeep = true;
    const known = measured.get(name);
    if (tooDeep || known === 'measuring') return NOTHING;
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment) return NOTHING;
    measured.set(name, 'measuring');
    const m = measureSet(fragment.selectionSet, level);
    measured.set(name, m);
    return m;
  };
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const { depth, fields } = measureSet(d.selectionSet, 0);
    if (tooDeep) return formatMessage('err.graphql.document-too-deep', String(limits.maxJsonDepth));
    const [maxDepth, maxFields] = bounded ? [limits.maxQueryDepth, limits.maxQueryFields] : [limits.maxAdminQueryDepth, limits.maxAdminQueryFields];
    if (depth > maxDepth) return formatMessage('err.graphql.operation-too-deep', String(depth), String(maxDepth));
    if (fields > maxFields) return formatMessage('err.graphql.operation-too-wide', String(fields), String(maxFields));
  }
  return undefined;
}
