// Subscriptions multiplexed as the engine does: the subscribers of one document whose statements
// differ only in the session variables their permissions read share one statement compiled for a
// cohort of sessions (sql/graphql/cohort.ts). Each interval runs it once per `batchSize` distinct
// sessions, with their sessions bound as one JSON array, and splits the rows by session.
import type { Session } from '../auth/session';
import { databaseErrorAnswer } from './answers';
import { prepareGraphQLRequest, type GraphQLRequest } from './graphql';
import { answerOfData, guarded, type PlanPools } from './runPlan';
import type { CompiledPlan, SchemaCache } from './schemaCache';

/** A session's answer: its JSON text, `final` when it is an error that ends the subscription. */
export interface CohortAnswer {
  text: string;
  final: boolean;
}

/**
 * The subscription compiled for a cohort, when its statement reads session variables and can take
 * them from a cohort's rows. (A subscription selects one root field: of the server's own database,
 * whose plan is then one statement, or of another source, whose plan is never a cohort's; remote
 * schemas, actions and remote relationships are not subscribed to.)
 */
export function cohortPlanOf(cache: SchemaCache, session: Session, request: GraphQLRequest): CompiledPlan | undefined {
  const prepared = prepareGraphQLRequest(cache, session, request, { cohort: true });
  return 'plan' in prepared && prepared.plan.cohort ? prepared.plan : undefined;
}

/** What makes two plans' statements alike: their texts and values, but a cohort's rows (alike whatever session a plan was compiled for). */
export const statementsKey = (plan: CompiledPlan): unknown[] => plan.statements.map((s) => [s.text, s.values.filter((_, i) => i !== plan.cohort?.value)]);

/**
 * The answers of a cohort plan for each of `sessions` (keyed as `sessionKey` keys them), `batchSize`
 * sessions per statement, the statements at once; each batch's answers go to `answered` as soon as
 * its statement is back.
 */
export async function cohortAnswers(
  pools: PlanPools,
  plan: CompiledPlan,
  sessions: ReadonlyMap<string, Readonly<Record<string, string>>>,
  batchSize: number,
  answered: (answers: ReadonlyMap<string, CohortAnswer>) => void,
): Promise<void> {
  const keys = [...sessions.keys()];
  const batches: string[][] = [];
  for (let i = 0; i < keys.length; i += batchSize) batches.push(keys.slice(i, i + batchSize));
  await Promise.all(
    batches.map(async (batch) => {
      const answers = new Map<string, CohortAnswer>();
      try {
        const texts = await runCohort(
          pools,
          plan,
          batch.map((key) => sessions.get(key)!),
        );
        batch.forEach((key, i) => answers.set(key, { text: texts[i]!, final: false }));
      } catch (error) {
        const text = databaseErrorAnswer(error).body;
        for (const key of batch) answers.set(key, { text, final: true });
      }
      answered(answers);
    }),
  );
}

/** One statement for these sessions: the answer for each, in their order. */
async function runCohort(pools: PlanPools, plan: CompiledPlan, sessions: readonly Readonly<Record<string, string>>[]): Promise<string[]> {
  const statement = plan.statements[0]!;
  const values = [...statement.values];
  values[plan.cohort!.value] = JSON.stringify(sessions.map((session, i) => ({ i, session })));
  if (pools.logSql) pools.logSql({ text: statement.text, values });
  const rows = await guarded(
    pools,
    plan,
    undefined,
    async (pool) => (await pool.query<{ i: number; data: string }>({ name: statement.name, text: statement.text, values })).rows,
  );
  const byRow = new Map(rows.map((row) => [row.i, row.data]));
  return sessions.map((_, i) => answerOfData(plan, byRow.get(i)!));
}

/** Sessions alike are one row of a cohort. */
export const sessionKey = (session: Session): string => JSON.stringify(session.variables);
