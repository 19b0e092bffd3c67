// Root fields of remote schemas: each remote's share of an operation is sent to it as one GraphQL
// request (its fields with their aliases, the fragments and variables they use), and its answer
// is spliced into the engine's by alias.
import { Kind, print, visit, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { formatMessage } from '../../../spec';
import type { Session } from '../auth/session';
import { postGraphQL, remoteHeaders, RemoteFailure, type RemoteEndpoint } from '../remote/client';
import type { RolePresets } from '../remote/rolePermission';
import type { CollectedField } from '../sql/graphql/fields';
import { withPresets } from './remotePresets';

/** One remote's share of an operation, ready to send. */
export interface RemotePart {
  endpoint: RemoteEndpoint;
  aliases: string[];
  body: { query: string; variables: Record<string, unknown>; operationName?: string };
}

/** The parts of an operation answered by remote schemas, one per remote, in the order fields come. */
export function remoteParts(
  operation: OperationDefinitionNode,
  fields: readonly CollectedField[],
  ownerOf: (name: string) => string | undefined,
  endpoints: ReadonlyMap<string, RemoteEndpoint>,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Readonly<Record<string, unknown>>,
  /** The role's remote schema permissions: their presets go into what is sent. */
  role?: { presets: ReadonlyMap<string, RolePresets>; session: Readonly<Record<string, string>> },
): RemotePart[] {
  const groups = new Map<string, CollectedField[]>();
  for (const f of fields) {
    const owner = ownerOf(f.name)!;
    groups.set(owner, [...(groups.get(owner) ?? []), f]);
  }
  return [...groups.entries()].map(([owner, group]) => {
    const selections: FieldNode[] = group.map((f) => ({ ...f.node, ...(f.selectionSet ? { selectionSet: f.selectionSet } : {}) }));
    // The fragments the fields spread (and those fragments spread), and the variables all of them read.
    const usedFragments = new Map<string, FragmentDefinitionNode>();
    const usedVariables = new Set<string>();
    const scan = (node: unknown) =>
      visit(node as DocumentNode, {
        FragmentSpread(spread) {
          const fragment = fragments[spread.name.value];
          if (fragment && !usedFragments.has(fragment.name.value)) {
            usedFragments.set(fragment.name.value, fragment);
            scan(fragment);
          }
        },
        Variable(v) {
          usedVariables.add(v.name.value);
        },
      });
    for (const s of selections) scan(s);
    const definition: OperationDefinitionNode = {
      kind: Kind.OPERATION_DEFINITION,
      operation: operation.operation,
      ...(operation.name ? { name: operation.name } : {}),
      variableDefinitions: (operation.variableDefinitions ?? []).filter((d) => usedVariables.has(d.variable.name.value)),
      selectionSet: { kind: Kind.SELECTION_SET, selections },
    };
    let document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [definition, ...usedFragments.values()] };
    let sent = Object.fromEntries(Object.entries(variables).filter(([name]) => usedVariables.has(name)));
    const presets = role?.presets.get(owner);
    if (role && presets) ({ document, variables: sent } = withPresets(document, sent, presets, role.session));
    return {
      endpoint: endpoints.get(owner)!,
      aliases: group.map((f) => f.alias),
      body: {
        query: print(document),
        variables: sent,
        ...(operation.name ? { operationName: operation.name.value } : {}),
      },
    };
  });
}

/** A remote schema did not answer (decision err.graphql.remote-failed). */
export class RemoteCallFailed extends Error {}

/** What the remote parts answered: JSON text by alias, and the remotes' own errors. */
export async function runRemoteParts(
  parts: readonly RemotePart[],
  session: Session | undefined,
  clientHeaders: Readonly<Record<string, string | string[] | undefined>>,
): Promise<{ values: Map<string, string>; errors: unknown[] }> {
  const answers = await Promise.all(
    parts.map(async (part) => {
      try {
        return { part, answer: await postGraphQL(part.endpoint, part.body, remoteHeaders(part.endpoint, session, clientHeaders)) };
      } catch (error) {
        if (error instanceof RemoteFailure)
          throw new RemoteCallFailed(formatMessage('err.graphql.remote-failed', JSON.stringify(part.endpoint.name), error.message));
        throw error;
      }
    }),
  );
  const values = new Map<string, string>();
  const errors: unknown[] = [];
  for (const { part, answer } of answers) {
    const data = typeof answer.data === 'object' && answer.data !== null ? (answer.data as Record<string, unknown>) : {};
    for (const alias of part.aliases) values.set(alias, JSON.stringify(data[alias] ?? null));
    if (Array.isArray(answer.errors)) errors.push(...answer.errors);
  }
  return { values, errors };
}
