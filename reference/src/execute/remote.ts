// Root fields of remote schemas: each remote's share of an operation is sent to it as one GraphQL
// request (its fields with their aliases, the fragments and variables they use), and its answer
// is spliced into the engine's by alias.
import { Kind, print, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { formatMessage } from '../../../spec';
import type { Session } from '../auth/session';
import { postGraphQL, remoteHeaders, RemoteFailure, UnframedRemoteFailure, type RemoteEndpoint } from '../remote/client';
import type { AnswerBudget } from '../remote/answerBytes';
import type { RolePresets } from '../remote/rolePermission';
import type { CollectedField } from '../sql/graphql/fields';
import type { CustomizedRemote } from '../remote/customization';
import { toRemoteNames, typenamesFromRemote } from './remoteNames';
import { withPresets } from './remotePresets';
import { usedDefinitions } from './usedDefinitions';

/** One remote's share of an operation, ready to send. */
export interface RemotePart {
  endpoint: RemoteEndpoint;
  aliases: string[];
  body: { query: string; variables: Record<string, unknown>; operationName?: string };
  /** A customized remote's answer: its __typename values renamed, and its data under the namespace field's alias. */
  answer?: {
    selectionSet: SelectionSetNode;
    fragments: ReadonlyMap<string, FragmentDefinitionNode>;
    typeFromRemote: ReadonlyMap<string, string>;
    namespace?: string;
  };
}

/**
 * The parts of an operation answered by remote schemas, one per remote (one per namespace field of
 * a customized one), in the order fields come.
 */
export function remoteParts(
  operation: OperationDefinitionNode,
  fields: readonly CollectedField[],
  ownerOf: (name: string) => string | undefined,
  endpoints: ReadonlyMap<string, RemoteEndpoint>,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Readonly<Record<string, unknown>>,
  remoteNames: ReadonlyMap<string, CustomizedRemote> = new Map(),
  /** The role's remote schema permissions: their presets go into what is sent. */
  role?: { presets: ReadonlyMap<string, RolePresets>; session: Readonly<Record<string, string>> },
): RemotePart[] {
  const groups = new Map<string, CollectedField[]>();
  for (const f of fields) {
    const owner = ownerOf(f.name)!;
    groups.set(owner, [...(groups.get(owner) ?? []), f]);
  }
  return [...groups.entries()].flatMap(([owner, group]) => {
    const names = remoteNames.get(owner);
    // Under a namespace, each namespace field's selections are root fields of the remote.
    const units = names?.namespace
      ? group.map((f) => ({ aliases: [f.alias], selections: f.selectionSet?.selections ?? [], namespace: f.alias }))
      : [
          {
            aliases: group.map((f) => f.alias),
            selections: group.map((f): FieldNode => ({ ...f.node, ...(f.selectionSet ? { selectionSet: f.selectionSet } : {}) })),
          },
        ];
    return units.map((unit): RemotePart => {
      const { fragments: usedFragments, variables: usedVariables } = usedDefinitions(unit.selections, fragments);
      const definition: OperationDefinitionNode = {
        kind: Kind.OPERATION_DEFINITION,
        operation: operation.operation,
        ...(operation.name ? { name: operation.name } : {}),
        variableDefinitions: (operation.variableDefinitions ?? []).filter((d) => usedVariables.has(d.variable.name.value)),
        selectionSet: { kind: Kind.SELECTION_SET, selections: unit.selections },
      };
      let document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [definition, ...usedFragments.values()] };
      if (names) document = toRemoteNames(document, names);
      let sent = Object.fromEntries(Object.entries(variables).filter(([name]) => usedVariables.has(name)));
      const presets = role?.presets.get(owner);
      if (role && presets) ({ document, variables: sent } = withPresets(document, sent, presets, role.session));
      return {
        endpoint: endpoints.get(owner)!,
        aliases: unit.aliases,
        body: {
          query: print(document),
          variables: sent,
          ...(operation.name ? { operationName: operation.name.value } : {}),
        },
        ...(names ? { answer: answerShape(document, names, 'namespace' in unit ? unit.namespace : undefined) } : {}),
      };
    });
  });
}

function answerShape(document: DocumentNode, names: CustomizedRemote, namespace: string | undefined): NonNullable<RemotePart['answer']> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let selectionSet: SelectionSetNode | undefined;
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    else if (d.kind === Kind.OPERATION_DEFINITION) selectionSet = d.selectionSet;
  }
  return { selectionSet: selectionSet!, fragments, typeFromRemote: names.typeFromRemote, ...(namespace ? { namespace } : {}) };
}

/** A remote schema did not answer (decision err.graphql.remote-failed). */
export class RemoteCallFailed extends Error {}

/** The request's error for a remote that did not answer: in the engine's words alone when they are its (err.graphql.remote-http-exception). */
export const remoteCallFailed = (name: string, error: RemoteFailure) =>
  new RemoteCallFailed(
    error instanceof UnframedRemoteFailure ? error.message : formatMessage('err.graphql.remote-failed', JSON.stringify(name), error.message),
  );

/** What the remote parts answered: JSON text by alias, and the remotes' own errors. */
export async function runRemoteParts(
  parts: readonly RemotePart[],
  session: Session | undefined,
  clientHeaders: Readonly<Record<string, string | string[] | undefined>>,
  budget?: AnswerBudget,
): Promise<{ values: Map<string, string>; errors: unknown[] }> {
  const answers = await Promise.all(
    parts.map(async (part) => {
      try {
        return { part, answer: await postGraphQL(part.endpoint, part.body, remoteHeaders(part.endpoint, session, clientHeaders), undefined, budget) };
      } catch (error) {
        if (error instanceof RemoteFailure) throw remoteCallFailed(part.endpoint.name, error);
        throw error;
      }
    }),
  );
  const values = new Map<string, string>();
  const errors: unknown[] = [];
  for (const { part, answer } of answers) {
    let data = typeof answer.data === 'object' && answer.data !== null ? (answer.data as Record<string, unknown>) : {};
    const shape = part.answer;
    if (shape) data = typenamesFromRemote(data, [shape.selectionSet], shape.fragments, shape.typeFromRemote) as Record<string, unknown>;
    if (shape?.namespace) values.set(shape.namespace, answer.data === null || answer.data === undefined ? 'null' : JSON.stringify(data));
    else for (const alias of part.aliases) values.set(alias, JSON.stringify(data[alias] ?? null));
    if (Array.isArray(answer.errors))
      errors.push(...(shape?.namespace ? answer.errors.map((e: unknown) => underNamespace(e, shape.namespace!)) : answer.errors));
  }
  return { values, errors };
}

/** A remote's error with the namespace field's alias at the head of its path (the remote's root is under it). */
function underNamespace(error: unknown, alias: string): unknown {
  if (typeof error !== 'object' || error === null || !Array.isArray((error as { path?: unknown }).path)) return error;
  return { ...error, path: [alias, ...(error as { path: unknown[] }).path] };
}
