// What a validated operation is compiled to: the statements, and the parts answered beside them or
// after them (remote schemas, actions, other sources, remote relationships), as data.
import type { FieldNode, FragmentDefinitionNode, GraphQLInputType, SelectionSetNode, VariableDefinitionNode } from 'graphql';
import type { RemoteEndpoint } from '../remote/client';
import type { CustomizedRemote } from '../remote/customization';
import type { RolePresets } from '../remote/rolePermission';
import type { JoinKeys } from '../sql/graphql/sourceJoin';
import type { ActionPart } from './actions';
import type { RemotePart } from './remote';

/** A statement of a plan, named so each connection prepares it once and then only binds values. */
export interface PlanStatement {
  alias: string;
  name: string;
  text: string;
  values: unknown[];
  /**
   * What its data is to the answer: one element of the alias's list, in the order of the statements
   * (update_<t>_many); nothing, only what later statements read (a step of a nested insert); else
   * (absent) the alias's value.
   */
  part?: 'element' | 'step';
  /** Values bound when it runs to the data of earlier statements: `value` (an index of `values`) to the JSON array of the data of the statements at `from`. */
  reads?: { value: number; from: number[] }[];
  /** A step that must insert a row: the refusal when its data is an empty list. */
  refusedWhenEmpty?: { message: string; code: string };
}

export interface CompiledPlan {
  kind: 'query' | 'mutation';
  /** A role other than admin's: its SQL runs with the statement timeout. */
  bounded: boolean;
  /** The role's api_limits.time_limit, in milliseconds: its SQL is cancelled after it (decision dec.api-limits). */
  timeLimitMs?: number;
  /** The operation it answers: a subscription runs as a query, again and again. */
  operation: 'query' | 'mutation' | 'subscription';
  /** One statement for a query; for a mutation, one or more per root field, run in order in one transaction. */
  statements: PlanStatement[];
  /** Root fields answered without the database (__typename), by alias. */
  literals: Map<string, string>;
  order: string[];
  /**
   * Namespace fields of a mutation (decision dec.source.customization): by alias, the aliases of the
   * fields under it, each answered under the key `<alias>\u0000<inner alias>`.
   */
  nested?: ReadonlyMap<string, readonly string[]>;
  /** A mutation's session variables: event triggers record who made a change. */
  sessionVariables?: Readonly<Record<string, string>>;
  /** Root fields answered by remote schemas, one request per remote. */
  remote?: RemotePart[] | undefined;
  /** Root fields answered by actions' handlers. */
  actions?: ActionPart[] | undefined;
  /** Remote relationships the rows are completed with (to remote schemas and to sources' tables), and where their remotes are. */
  remoteJoins?: { joins: Join[]; endpoints: ReadonlyMap<string, RemoteEndpoint>; presets?: ReadonlyMap<string, RolePresets> };
  /** Root fields of other sources: each source's part runs on its database (decision dec.source.forms). */
  sourceParts?: { source: string; plan: CompiledPlan }[];
  /**
   * A subscription compiled for a cohort of sessions (execute/cohorts.ts): its one statement answers
   * `(i, data)` for each row `{i, session, variables}` of the JSON array bound at `value` (as
   * compiled, the row of the request it was compiled for). `session`: whether the statement reads
   * the row's session; `variables`: the GraphQL variables it reads from the row, with the values of
   * the request compiled.
   */
  cohort?: { value: number; session: boolean; variables: Readonly<Record<string, unknown>>; cursor?: string | null };
  /**
   * A streaming subscription (decision dec.graphql.stream.cursor): always a cohort's, whose rows
   * carry each subscriber's cursor (as compiled, the request's initial value, `cohort.cursor`); its
   * statement answers `(i, data, cursor)`. `source`: the source its table is in, where it runs.
   */
  stream?: { source?: string };
  /** A query with @cached: how long its answer is kept, whether to make it anew, and its key (decision dec.graphql.cached). */
  cached?: { ttlSeconds: number; refresh: boolean; key: string };
  /** PostgreSQL's estimate of what the statements cost, once asked (decision dec.limits.query-cost). */
  estimatedCost?: number;
}

/** One field of the path into the remote, with its arguments' types (to write the rows' values as literals). */
export interface JoinStep {
  name: string;
  arguments: Record<string, unknown>;
  argumentTypes: Record<string, GraphQLInputType>;
}

export interface RemoteJoin {
  /** The relationship's name, for messages. */
  name: string;
  /** How many joins to sources hold it: it runs once they have placed their rows (0: on the statement's rows). */
  stage?: number;
  /** Aliases from the root field to the relationship's field; arrays between them are walked through. */
  path: string[];
  remote: string;
  lhs: string[];
  steps: JoinStep[];
  /** The client's field: its arguments and selections go to the last step. */
  field: FieldNode;
  selectionSet: SelectionSetNode | undefined;
  fragments: FragmentDefinitionNode[];
  variableDefinitions: VariableDefinitionNode[];
  /** The values of the variables the field reads, as the client sent them. */
  variables: Record<string, unknown>;
  /** A customized remote's names: the request goes in the remote's own, __typename comes back in the engine's. */
  names?: CustomizedRemote;
}

/** A remote relationship to a table of a source, asked at `path`. */
export interface SourceJoin {
  path: string[];
  /** The row's columns whose values are joined on (field_mapping's keys, in order). */
  lhs: string[];
  /** The bound value of the plan's statement that takes its sets of values. */
  keys: JoinKeys;
}

/** The joins of one stage to one source: one statement, whose JSON object holds each join's values under its position. */
export interface SourceJoinGroup {
  stage: number;
  /** undefined: the server's own database. */
  source?: string;
  joins: SourceJoin[];
  plan: CompiledPlan;
}

export type Join = RemoteJoin | SourceJoinGroup;
