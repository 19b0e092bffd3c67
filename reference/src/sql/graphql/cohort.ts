// A subscription's statement for a cohort of sessions (execute/cohorts.ts): one row per session of
// a JSON array bound once, the statement computed for each laterally, reading the session variables
// of its row; what is bound (the query's own values) is the same for every session.
import { sql, type CohortSession, type Fragment } from './context';

/** Stands for the cohort's rows among the compiled statement's values, until they are bound. */
export const COHORT_ROWS = Object.freeze({ cohortRows: true });

/** `(i, data)` for each row `{i, session}` of the cohort: `data` is the answer of `statement` for that session. */
export function cohortStatement(cohort: CohortSession, statement: Fragment): sql.SQLQuery {
  const answer = sql.identifier(Symbol('answer'));
  return sql.query`select ${cohort.alias}.i, ${answer}.data
  from json_to_recordset(${sql.value(COHORT_ROWS)}::json) as ${cohort.alias}(i integer, session jsonb)
  cross join lateral (${statement}) as ${answer}`;
}
