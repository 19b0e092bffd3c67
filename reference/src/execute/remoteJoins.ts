// Completing an answer with its remote relationships (decision dec.remote-relationship.execution):
// the rows hold their lhs columns where the field goes; each join is one request to its remote,
// one aliased field per distinct set of values, and every row gets the answer of its values.
import {
  astFromValue,
  Kind,
  print,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import { formatMessage } from '../../../spec';
import type { Session } from '../auth/session';
import { postGraphQL, remoteHeaders, RemoteFailure, type RemoteEndpoint } from '../remote/client';
import type { AnswerBudget } from '../remote/answerBytes';
import type { RolePresets } from '../remote/rolePermission';
import { RemoteCallFailed, remoteCallFailed } from './remote';
import { holdersOf, type Holder } from './answerHolders';
import { isSourceJoinGroup, type Join, type JoinStep, type RemoteJoin } from './remoteJoinPlan';
import { runSourceJoins, type SourceRunner } from './sourceJoins';
import { withPresets } from './remotePresets';
import { toRemoteNames, typenamesFromRemote } from './remoteNames';

/** Who asks, and what the joins need of the server. */
export interface JoinCaller {
  session: Session;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  endpoints: ReadonlyMap<string, RemoteEndpoint>;
  presets?: ReadonlyMap<string, RolePresets>;
  /** Runs a join's statement on its source (undefined: the server's own database). */
  runSource?: SourceRunner;
  /** The request's bound on the bytes of remote answers it holds. */
  budget?: AnswerBudget;
}

/** An argument value of the metadata with each "$column" replaced by the row's value. */
function filled(value: unknown, row: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string' && value.startsWith('$')) return row[value.slice(1)] ?? null;
  if (Array.isArray(value)) return value.map((v) => filled(v, row));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v, row)]));
  return value;
}

const nameNode = (value: string) => ({ kind: Kind.NAME, value }) as const;

function stepArguments(join: RemoteJoin, step: JoinStep, row: Readonly<Record<string, unknown>>): ArgumentNode[] {
  return Object.entries(step.arguments).map(([name, value]) => {
    let literal: ValueNode | null | undefined;
    try {
      literal = astFromValue(filled(value, row), step.argumentTypes[name]!);
    } catch (error) {
      // graphql-js's scalars refuse a value they cannot represent (text for an Int).
      const reason = error instanceof Error ? error.message : String(error);
      throw new RemoteCallFailed(
        formatMessage('err.graphql.remote-relationship-value', JSON.stringify(join.name), JSON.stringify(name), JSON.stringify(step.name), reason),
      );
    }
    return { kind: Kind.ARGUMENT, name: nameNode(name), value: literal ?? ({ kind: Kind.NULL } as ValueNode) };
  });
}

/** The request of one join: `r<i>: first(…) { … last(…, client's arguments) { client's selections } }` per distinct row. */
function requestOf(join: RemoteJoin, rows: readonly Readonly<Record<string, unknown>>[]): DocumentNode {
  const selections = rows.map((row, i): FieldNode => {
    let field: FieldNode | undefined;
    for (let s = join.steps.length - 1; s >= 0; s--) {
      const step = join.steps[s]!;
      const last = s === join.steps.length - 1;
      const args = [...stepArguments(join, step, row), ...(last ? (join.field.arguments ?? []) : [])];
      const selectionSet = last ? join.selectionSet : { kind: Kind.SELECTION_SET, selections: [field!] };
      field = {
        kind: Kind.FIELD,
        ...(s === 0 ? { alias: nameNode(`r${i}`) } : {}),
        name: nameNode(step.name),
        arguments: args,
        ...(selectionSet ? { selectionSet } : {}),
      } as FieldNode;
    }
    return field!;
  });
  return {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: 'query' as never,
        variableDefinitions: join.variableDefinitions,
        selectionSet: { kind: Kind.SELECTION_SET, selections },
      },
      ...join.fragments,
    ],
  } as DocumentNode;
}

const operationOf = (document: DocumentNode) => document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
const fragmentsOf = (document: DocumentNode) =>
  new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));

/** Run one join on `data`: the remote's errors, placed at the first row that asked. */
async function runJoin(data: Record<string, unknown>, join: RemoteJoin, caller: JoinCaller): Promise<unknown[]> {
  const distinct = new Map<string, { row: Record<string, unknown>; holders: Holder[] }>();
  for (const holder of holdersOf(data, join.path)) {
    const row = holder.parent[holder.key] as Record<string, unknown> | null;
    // A row without a value to join on has nothing there: the remote is not asked for it.
    if (!row || join.lhs.some((c) => row[c] === null || row[c] === undefined)) {
      holder.parent[holder.key] = null;
      continue;
    }
    const key = JSON.stringify(join.lhs.map((c) => row[c]));
    const found = distinct.get(key);
    if (found) found.holders.push(holder);
    else distinct.set(key, { row, holders: [holder] });
  }
  if (distinct.size === 0) return [];
  const groups = [...distinct.values()];
  const endpoint = caller.endpoints.get(join.remote)!;
  let document = requestOf(
    join,
    groups.map((g) => g.row),
  );
  if (join.names) document = toRemoteNames(document, join.names);
  let variables = join.variables;
  const presets = caller.presets?.get(join.remote);
  if (presets) ({ document, variables } = withPresets(document, variables, presets, caller.session.variables));
  let answer: { data?: unknown; errors?: unknown };
  try {
    answer = await postGraphQL(
      endpoint,
      { query: print(document), variables },
      remoteHeaders(endpoint, caller.session, caller.headers),
      undefined,
      caller.budget,
    );
  } catch (error) {
    if (error instanceof RemoteFailure) throw remoteCallFailed(endpoint.name, error);
    throw error;
  }
  let answered = typeof answer.data === 'object' && answer.data !== null ? (answer.data as Record<string, unknown>) : {};
  if (join.names)
    answered = typenamesFromRemote(answered, [operationOf(document).selectionSet], fragmentsOf(document), join.names.typeFromRemote) as Record<string, unknown>;
  groups.forEach((g, i) => {
    let value: unknown = answered[`r${i}`];
    for (const step of join.steps.slice(1)) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[step.name] : null;
    for (const h of g.holders) h.parent[h.key] = value ?? null;
  });
  if (!Array.isArray(answer.errors)) return [];
  return answer.errors.map((e: unknown) => {
    // A remote may list anything there (null, a string): only an object's path is read.
    if (typeof e !== 'object' || e === null) return e;
    const path = (e as { path?: unknown }).path;
    if (!Array.isArray(path) || typeof path[0] !== 'string' || !/^r\d+$/.test(path[0])) return e;
    const group = groups[Number(path[0].slice(1))];
    return group ? { ...e, path: [...group.holders[0]!.trail, ...path.slice(join.steps.length)] } : e;
  });
}

/**
 * The answer text completed with its remote relationships: the joins of each stage at once, a
 * stage once the joins to sources that hold its fields have placed their rows.
 */
export async function withRemoteJoins(answer: string, joins: readonly Join[], caller: JoinCaller): Promise<string> {
  const parsed = JSON.parse(answer) as { data?: Record<string, unknown> | null; errors?: unknown[] };
  if (!parsed.data) return answer;
  const data = parsed.data;
  const errors: unknown[] = [];
  const last = Math.max(...joins.map((j) => j.stage ?? 0));
  for (let stage = 0; stage <= last; stage++) {
    const now = joins.filter((j) => (j.stage ?? 0) === stage);
    const found = await Promise.all(now.map((j) => (isSourceJoinGroup(j) ? runSourceJoins(data, j, caller.runSource!) : runJoin(data, j, caller))));
    errors.push(...found.flat());
  }
  const all = [...(parsed.errors ?? []), ...errors];
  return JSON.stringify(all.length ? { data, errors: all } : { data });
}
