// Streaming subscriptions (decisions dec.graphql.stream.cursor, dec.graphql.stream.multiplexed):
// each subscriber has a cursor. Its first batch is taken at once; then, every refetch interval, the
// poller of its statement runs that statement once per `batchSize` distinct rows (session,
// variables, cursor) of its subscribers, sends each subscriber its batch when the batch has rows,
// and moves the subscriber's cursor to the batch's last row. Subscriptions whose statements are
// alike but for those rows share a poller, whoever asks and from wherever they stream.
import type { Session } from '../auth/session';
import { prepareGraphQLRequest, type GraphQLRequest } from './graphql';
import { ConnectionLost, databaseErrorAnswer, SourceRemoved } from './answers';
import { cohortAnswers, cohortPlanOf, cohortRow, statementsKey, type CohortAnswer, type RowOfCohort } from './cohorts';
import type { CohortRow } from '../sql/graphql/cohort';
import { resultOf } from './liveQueries';
import type { PlanPools } from './runPlan';
import type { CompiledPlan, SchemaCache } from './schemaCache';
import { Poller, Pollers, type PollerOwner } from './poller';
import { Subscriber, type LiveResult } from './subscriber';

/** A streaming subscription as its poller holds it: who asked what (to compile it again), and its cursor. */
interface Member {
  subscriber: Subscriber;
  session: Session;
  request: GraphQLRequest;
  /** What the statement reads of its request (its session, its compared variables), as its own plan was compiled. */
  reads: CohortRow;
  /** The text of the cursor column's value past which its next batch starts (null: no row is past it). */
  cursor: string | null;
}

/** The poller a streaming plan joins: its statement and values but the cohort's rows, whether it runs as a role, and where. */
const pollerKey = (plan: CompiledPlan) => JSON.stringify([plan.bounded, statementsKey(plan), plan.stream?.source ?? null]);

/** What a plan's statement reads of a member: its row, with its own cursor. */
const rowOf = (member: Member): RowOfCohort => cohortRow(member.session, { ...member.reads, cursor: member.cursor });

/** What a plan compiled for a request reads of it. */
const readsOf = (plan: CompiledPlan): CohortRow => ({ session: plan.cohort!.session, variables: plan.cohort!.variables });

export class StreamingQueries extends Pollers<Member, StreamPoller> {
  /**
   * Start a streaming subscription whose request compiled to `compiled` under `cache`: its first
   * batch is taken at once (and sent when it has rows), then the iterator yields each further batch
   * with rows until it is returned or ends. An error before any batch is the result returned. It runs
   * as compiled for a cohort, which reads sessions and compared variables from the rows as well.
   */
  async subscribe(
    session: Session,
    request: GraphQLRequest,
    cache: SchemaCache,
    compiled: CompiledPlan,
  ): Promise<AsyncIterableIterator<LiveResult> | LiveResult> {
    const plan = cohortPlanOf(cache, session, request) ?? compiled;
    const member: Member = { subscriber: new Subscriber(''), session, request, reads: readsOf(plan), cursor: plan.cohort!.cursor ?? null };
    const [first] = await batchesOf(this.run.pools, plan, [member], 1);
    if (first!.answer.final) return resultOf(first!.answer.text);
    deliver(member, first!.answer, resultOf);
    this.place(member, cache, plan);
    if (this.closed) member.subscriber.end();
    return member.subscriber;
  }

  protected make(cache: SchemaCache, plan: CompiledPlan, owner: PollerOwner<Member>): StreamPoller {
    return new StreamPoller(this.run, this.schemas, cache, plan, owner);
  }

  protected keyOf(plan: CompiledPlan): string {
    return pollerKey(plan);
  }

  /**
   * Compiled again, a subscription goes on from its cursor, reading what its new plan reads of it.
   * (It is still a stream: no other root field takes the required batch_size and cursor.)
   */
  protected compileAgain(member: Member, current: SchemaCache): { plan: CompiledPlan } | { result: LiveResult } {
    const prepared = prepareGraphQLRequest(current, member.session, member.request, { cohort: true });
    if ('answer' in prepared) return { result: resultOf(prepared.answer.body) };
    member.reads = readsOf(prepared.plan);
    return prepared;
  }
}

/** Send a member the batch it was answered, when it has rows, and move its cursor past them; an error ends it. */
function deliver(member: Member, answer: CohortAnswer, parse: (text: string) => LiveResult): void {
  if (answer.final) {
    member.subscriber.push(parse(answer.text));
    member.subscriber.end();
    return;
  }
  if (answer.cursor === null || answer.cursor === undefined) return;
  member.cursor = answer.cursor;
  member.subscriber.push(parse(answer.text));
}

/**
 * The batch of each of `members`: members whose rows are alike are one row of the statement,
 * `batchSize` rows per statement; each member with the answer of its row.
 */
async function batchesOf(
  pools: PlanPools,
  plan: CompiledPlan,
  members: readonly Member[],
  batchSize: number,
  answered?: (pairs: { member: Member; answer: CohortAnswer }[]) => void,
): Promise<{ member: Member; answer: CohortAnswer }[]> {
  const rows = new Map<string, RowOfCohort>();
  const byRow = new Map<string, Member[]>();
  for (const member of members) {
    const row = rowOf(member);
    const alike = byRow.get(row.key);
    if (alike) alike.push(member);
    else {
      rows.set(row.key, row);
      byRow.set(row.key, [member]);
    }
  }
  const all: { member: Member; answer: CohortAnswer }[] = [];
  const source = plan.stream?.source;
  let where: PlanPools | undefined;
  let gone: unknown = new ConnectionLost();
  try {
    where = source === undefined ? pools : pools.sourcePools?.(source, false);
  } catch (error) {
    // Its source left the metadata: the subscription ends with that error (decision dec.source.in-flight).
    if (!(error instanceof SourceRemoved)) throw error;
    gone = error;
  }
  if (!where) {
    const text = databaseErrorAnswer(gone).body;
    const pairs = members.map((member) => ({ member, answer: { text, final: true } }));
    answered?.(pairs);
    return pairs;
  }
  try {
    await cohortAnswers(where, plan, rows, batchSize, (answers) => {
      const pairs = [...answers].flatMap(([key, answer]) => byRow.get(key)!.map((member) => ({ member, answer })));
      all.push(...pairs);
      answered?.(pairs);
    });
  } finally {
    if (where !== pools) where.release?.();
  }
  return all;
}

class StreamPoller extends Poller<Member> {
  /** Each member's next batch; the members that join meanwhile are polled the next time, from their own cursors. */
  protected async pollMembers(): Promise<void> {
    // Parsed once per distinct text, and only for the subscribers it is sent to.
    const parsed = new Map<string, LiveResult>();
    const parse = (text: string) => parsed.get(text) ?? parsed.set(text, resultOf(text)).get(text)!;
    await batchesOf(this.run.pools, this.plan, [...this.members.values()], this.run.batchSize, (pairs) => {
      for (const { member, answer } of pairs) deliver(member, answer, parse);
    });
  }
}
