// Subscriptions as live queries: each subscription's statement runs again every refetch interval
// and a result is sent when it differs from the last one that subscriber got. Subscriptions whose
// plans run the same statements with the same values share one poller, whoever asks, so they cost
// one statement per interval together. When the metadata changes, each subscription of a poller is
// compiled again for its own session and joins the poller of its new plan; one that no longer
// compiles is sent the error and ended.
import { GraphQLError } from 'graphql';
import type { Session } from '../auth/session';
import { prepareGraphQLRequest, type GraphQLRequest } from './graphql';
import { databaseErrorAnswer } from './answers';
import { runPlan, type PlanCaller, type PlanPools } from './runPlan';
import type { CompiledPlan, SchemaCache } from './schemaCache';
import { cohortAnswers, cohortPlanOf, cohortRow, statementsKey, type RowOfCohort } from './cohorts';
import { Poller, Pollers, type PollerOwner } from './poller';
import { Subscriber, type LiveResult } from './subscriber';
export type { LiveResult } from './subscriber';

/** The result of an answer's JSON text. */
export function resultOf(text: string): LiveResult {
  const parsed = JSON.parse(text) as { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  if (!parsed.errors) return parsed as LiveResult;
  return { ...parsed, errors: parsed.errors.map((e) => new GraphQLError(e.message, { extensions: e.extensions ?? {} })) };
}

/**
 * Which poller a subscription joins: its plan's statement and bound values (a subscription selects
 * one root field, whose alias is in the statement's text), and whether it runs as a role. Two
 * subscriptions whose plans are alike get the same results, whatever their sessions (session
 * variables the permissions do not read leave the statements alike, and a plan compiled for a cohort
 * of sessions is alike whatever session it was compiled for: execute/cohorts.ts). A subscription's plan is of
 * the database alone: subscription_root holds no field of a remote schema or an action
 * (schema/build.ts), whose answers would depend on who asks.
 */
function pollerKey(plan: CompiledPlan): string {
  // A root field of another source is read there (decision dec.source.forms): which source, and its statement.
  const elsewhere = (plan.sourceParts ?? []).map((part) => [part.source, statementsKey(part.plan)]);
  return JSON.stringify([plan.bounded, statementsKey(plan), ...(elsewhere.length ? [elsewhere] : [])]);
}

/** A subscription as its poller holds it: who asked what, to compile it again when the metadata changes. */
interface Member {
  subscriber: Subscriber;
  session: Session;
  request: GraphQLRequest;
  /** What a cohort's statement reads of it (requests alike are one row); set where it is placed. */
  row?: RowOfCohort;
}

export class LiveQueries extends Pollers<Member, LivePoller> {
  /**
   * Start a subscription whose request compiled to `plan` under `cache`: the first result is
   * taken at once, then the iterator yields each changed result until it is returned or ends.
   */
  async subscribe(session: Session, request: GraphQLRequest, cache: SchemaCache, plan: CompiledPlan): Promise<AsyncIterableIterator<LiveResult> | LiveResult> {
    const first = await answerOf(this.run.pools, plan);
    if (first.final) return first.result;
    const subscriber = new Subscriber(first.text);
    subscriber.push(first.result);
    this.place({ subscriber, session, request }, cache, plan);
    if (this.closed) subscriber.end();
    return subscriber;
  }

  /**
   * A plan whose statement reads session variables is compiled for a cohort of sessions, where it
   * can be: then the subscribers of any session share its poller.
   */
  protected override place(member: Member, cache: SchemaCache, compiled: CompiledPlan): LivePoller {
    const cohort = cohortPlanOf(cache, member.session, member.request);
    member.row = cohort?.cohort && cohortRow(member.session, cohort.cohort);
    return super.place(member, cache, cohort ?? compiled);
  }

  protected make(cache: SchemaCache, plan: CompiledPlan, owner: PollerOwner<Member>): LivePoller {
    return new LivePoller(this.run, this.schemas, cache, plan, owner);
  }

  protected keyOf(plan: CompiledPlan): string {
    return pollerKey(plan);
  }

  protected compileAgain(member: Member, current: SchemaCache): { plan: CompiledPlan } | { result: LiveResult } {
    const prepared = prepareGraphQLRequest(current, member.session, member.request);
    return 'answer' in prepared ? { result: resultOf(prepared.answer.body) } : prepared;
  }
}

/** Run a plan: its text and parsed result, `final` when it is an error that ends the subscription. */
export async function answerOf(pool: PlanPools, plan: CompiledPlan, caller?: PlanCaller): Promise<{ text: string; result: LiveResult; final: boolean }> {
  let text: string;
  let final = false;
  try {
    text = await runPlan(pool, plan, caller);
  } catch (error) {
    text = databaseErrorAnswer(error).body;
    final = true;
  }
  return { text, result: resultOf(text), final };
}

class LivePoller extends Poller<Member> {
  protected async pollMembers(): Promise<void> {
    if (this.plan.cohort) return this.pollCohort();
    const answer = await answerOf(this.run.pools, this.plan);
    if (answer.final) return this.finish(answer.result);
    for (const s of this.members.keys()) s.offer(answer.text, answer.result);
  }

  /** Each distinct row's answer, `batchSize` rows per statement; an error ends the subscriptions of its statement. */
  private async pollCohort(): Promise<void> {
    const rows = new Map<string, RowOfCohort>();
    const byRow = new Map<string, Subscriber[]>();
    for (const [subscriber, { row }] of this.members) {
      const alike = byRow.get(row!.key);
      if (alike) alike.push(subscriber);
      else {
        rows.set(row!.key, row!);
        byRow.set(row!.key, [subscriber]);
      }
    }
    // Parsed once per distinct text, and only for the subscribers it is sent to.
    const parsed = new Map<string, LiveResult>();
    const parse = (text: string) => parsed.get(text) ?? parsed.set(text, resultOf(text)).get(text)!;
    await cohortAnswers(this.run.pools, this.plan, rows, this.run.batchSize, (answers) => {
      for (const [key, answer] of answers)
        for (const subscriber of byRow.get(key)!) {
          if (!answer.final) subscriber.offer(answer.text, parse);
          else {
            subscriber.push(parse(answer.text));
            subscriber.end();
          }
        }
    });
  }
}
