// Subscriptions multiplexed as the engine does: the subscribers of one document whose statements
// differ only in the session variables their permissions read, or in the GraphQL variables compared
// with columns, share one statement compiled for a cohort (sql/graphql/cohort.ts). Each interval
// runs it once per `batchSize` distinct rows (what the statement reads of a request: its session,
// its variables), bound as one JSON array, and splits the answers by row.
import type { Session } from '../auth/session';
import { databaseErrorAnswer } from './answers';
import { prepareGraphQLRequest, type GraphQLRequest } from './graphql';
import { cohortRowOf, type CohortRow } from '../sql/graphql/cohort';
import { answerOfData, guarded, type PlanPools } from './runPlan';
import type { CompiledPlan, SchemaCache } from './schemaCache';

/** A session's answer: its JSON text, `final` when it is an error that ends the subscription. */
export interface CohortAnswer {
  text: string;
  final: boolean;
  /** A streaming subscription's cursor after the batch answered: null when the batch has no rows. */
  cursor?: string | null;
}

/**
 * The subscription compiled for a cohort, when its statement reads session variables or GraphQL
 * variables and can take them from a cohort's rows. (A subscription selects one root field: of the server's own database,
 * whose plan is then one statement, or of another source, whose plan is never a cohort's; remote
 * schemas, actions and remote relationships are not subscribed to.)
 */
export function cohortPlanOf(cache: SchemaCache, session: Session, request: GraphQLRequest): CompiledPlan | undefined {
  const prepared = prepareGraphQLRequest(cache, session, request, { cohort: true });
  return 'plan' in prepared && prepared.plan.cohort ? prepared.plan : undefined;
}

/** What makes two plans' statements alike: their texts and values, but a cohort's rows (alike whatever request a plan was compiled for). */
export const statementsKey = (plan: CompiledPlan): unknown[] => plan.statements.map((s) => [s.text, s.values.filter((_, i) => i !== plan.cohort?.value)]);

/** What a cohort's statement reads of one request: the row it is answered as (requests alike are one row). */
export interface RowOfCohort {
  readonly key: string;
  readonly session: Readonly<Record<string, string>>;
  readonly variables: Readonly<Record<string, unknown>>;
  /** A streaming subscription's cursor. */
  readonly cursor?: string | null;
}

/** The row of a request whose cohort plan reads `reads` (compiled for it): what the statement reads of its session and variables (and cursor), keyed. */
export function cohortRow(session: Session, reads: CohortRow): RowOfCohort {
  const row = cohortRowOf(0, session.variables, reads);
  const read = [row.session, row.variables, ...(row.cursor !== undefined ? [row.cursor] : [])];
  return { key: JSON.stringify(read), session: row.session, variables: row.variables, ...(row.cursor !== undefined ? { cursor: row.cursor } : {}) };
}

/**
 * The answers of a cohort plan for each of `rows` (by their keys), `batchSize` rows per statement,
 * the statements at once; each batch's answers go to `answered` as soon as its statement is back.
 */
export async function cohortAnswers(
  pools: PlanPools,
  plan: CompiledPlan,
  rows: ReadonlyMap<string, RowOfCohort>,
  batchSize: number,
  answered: (answers: ReadonlyMap<string, CohortAnswer>) => void,
): Promise<void> {
  const keys = [...rows.keys()];
  const batches: string[][] = [];
  for (let i = 0; i < keys.length; i += batchSize) batches.push(keys.slice(i, i + batchSize));
  await Promise.all(
    batches.map(async (batch) => {
      const answers = new Map<string, CohortAnswer>();
      try {
        const answered = await runCohort(
          pools,
          plan,
          batch.map((key) => rows.get(key)!),
        );
        batch.forEach((key, i) => answers.set(key, { ...answered[i]!, final: false }));
      } catch (error) {
        const text = databaseErrorAnswer(error).body;
        for (const key of batch) answers.set(key, { text, final: true });
      }
      answered(answers);
    }),
  );
}

/** One statement for these rows: the answer for each, in their order (and a streaming subscription's cursor after it). */
async function runCohort(pools: PlanPools, plan: CompiledPlan, rows: readonly RowOfCohort[]): Promise<{ text: string; cursor?: string | null }[]> {
  const statement = plan.statements[0]!;
  const values = [...statement.values];
  values[plan.cohort!.value] = JSON.stringify(
    rows.map((row, i) => ({ i, session: row.session, variables: row.variables, ...(row.cursor !== undefined ? { cursor: row.cursor } : {}) })),
  );
  if (pools.logSql) pools.logSql({ text: statement.text, values });
  const answered = await guarded(pools, plan, undefined, async (pool) => {
    const client = await pools.statements.connect(pool);
    try {
      return await pools.statements.query<{ i: number; data: string; cursor?: string | null }>(
        client,
        { ...statement, values },
        pools.preparedStatements !== false,
      );
    } finally {
      client.release();
    }
  });
  const byRow = new Map(answered.map((row) => [row.i, row]));
  return rows.map((_, i) => {
    const row = byRow.get(i)!;
    return { text: answerOfData(plan, row.data), ...(row.cursor !== undefined ? { cursor: row.cursor } : {}) };
  });
}
