// A subscription's statement for a cohort of sessions (execute/cohorts.ts): one row per session of
// a JSON array bound once, the statement computed for each laterally, reading the session variables
// and GraphQL variables of its row; what is bound (the query's own values) is the same for every row.
import { sql, type CohortSession, type Fragment } from './context';

/** Stands for the cohort's rows among the compiled statement's values, until they are bound. */
export const COHORT_ROWS = Object.freeze({ cohortRows: true });

/**
 * `(i, data)` for each row `{i, session, variables}` of the cohort: `data` is the answer of
 * `statement` for that session and those variables. The variables stay `json`, so that a number
 * reaches its cast as the text it was sent as (as a bound value does). A streaming subscription's
 * rows carry its cursor too, and its statement answers the cursor after its batch
 * (`(i, data, cursor)`, sql/graphql/stream.ts).
 */
export function cohortStatement(cohort: CohortSession, statement: Fragment, streaming = false): sql.SQLQuery {
  const answer = sql.identifier(Symbol('answer'));
  if (streaming) {
    return sql.query`select ${cohort.alias}.i, ${answer}.data, ${answer}.cursor
  from json_to_recordset(${sql.value(COHORT_ROWS)}::json) as ${cohort.alias}(i integer, session jsonb, variables json, cursor text)
  cross join lateral (${statement}) as ${answer}`;
  }
  return sql.query`select ${cohort.alias}.i, ${answer}.data
  from json_to_recordset(${sql.value(COHORT_ROWS)}::json) as ${cohort.alias}(i integer, session jsonb, variables json)
  cross join lateral (${statement}) as ${answer}`;
}

/** What a cohort's statement reads of a request: its session (when `session`), these variables, and a streaming subscription's cursor. */
export interface CohortRow {
  session: boolean;
  variables: Readonly<Record<string, unknown>>;
  /** A streaming subscription's cursor: the text of its column's value (null: no row is past it). */
  cursor?: string | null;
}

/** Row `i` of a cohort, for a request with `session` and `row`'s variables (and cursor). */
export const cohortRowOf = (i: number, session: Readonly<Record<string, string>>, row: CohortRow) => ({
  i,
  session: row.session ? session : {},
  variables: row.variables,
  ...(row.cursor !== undefined ? { cursor: row.cursor } : {}),
});
