// What a GraphQL request is answered with: the answer's shape, and PostgreSQL's and the plan's
// refusals as GraphQL errors (codes from SQLSTATE, never from message text).
import { DatabaseError } from 'pg';
import { formatMessage } from '../../../spec';
import { ActionFailed } from './actions';
import { RemoteCallFailed } from './remote';
import { CompileError } from '../sql/graphql/context';

/** The answer: JSON text, passed through as it is. */
export interface GraphQLAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** One error, in the GraphQL error shape. */
export const errorAnswer = (message: string, code: string, path = '$', status = 200): GraphQLAnswer => ({
  status,
  body: JSON.stringify({ errors: [{ message, extensions: { path, code } }] }),
});

/** A changed row fails the permission check: the mutation is undone. */
export class CheckFailed extends Error {}

/** A statement of a plan answered what stops the mutation (a nested insert that cannot go on): undone, answered with this error. */
export class StatementRefused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The source a plan was made for left the metadata before the plan reached its database (decision dec.source.in-flight). */
export class SourceRemoved extends Error {
  constructor(readonly source: string) {
    super(`the source ${JSON.stringify(source)} was removed`);
  }
}

/** The database did not answer (decision err.postgres-error.connection). */
export class ConnectionLost extends Error {}

/** The statement timeout of a role other than admin cancelled the plan's SQL. */
export class StatementTimedOut extends Error {
  constructor(readonly ms: number) {
    super('statement timeout');
  }
}

/** The role's api_limits.time_limit cancelled the plan's SQL (decision dec.api-limits). */
export class TimeLimitExceeded extends Error {
  constructor(readonly seconds: number) {
    super('time limit exceeded');
  }
}

/** PostgreSQL expects a role's plan to cost more than a role may ask for (decision dec.limits.query-cost). */
export class QueryTooCostly extends Error {
  constructor(
    readonly cost: number,
    readonly limit: number,
  ) {
    super('query too costly');
  }
}

/** PostgreSQL refusals as GraphQL errors: codes and messages from SQLSTATE, never from message text. */
export function databaseErrorAnswer(error: unknown): GraphQLAnswer {
  if (error instanceof CheckFailed) return errorAnswer(formatMessage('err.permission-error.check-failed'), 'permission-error');
  if (error instanceof StatementRefused) return errorAnswer(error.message, error.code);
  if (error instanceof QueryTooCostly)
    return errorAnswer(formatMessage('err.graphql.query-too-costly', String(Math.ceil(error.cost)), String(error.limit)), 'validation-failed');
  if (error instanceof StatementTimedOut) return errorAnswer(formatMessage('err.graphql.statement-timeout', String(error.ms)), 'timeout');
  if (error instanceof TimeLimitExceeded) return errorAnswer(formatMessage('err.graphql.time-limit', String(error.seconds)), 'timeout');
  if (error instanceof RemoteCallFailed) return errorAnswer(error.message, 'remote-schema-error');
  // A refusal found while the plan runs (a remote relationship's presets read the session then).
  if (error instanceof CompileError) return errorAnswer(error.message, error.code);
  if (error instanceof ActionFailed) return { status: 200, body: JSON.stringify({ errors: [{ message: error.message, extensions: error.extensions }] }) };
  if (error instanceof SourceRemoved) return errorAnswer(formatMessage('err.graphql.source-removed', JSON.stringify(error.source)), 'not-exists');
  if (error instanceof ConnectionLost) return errorAnswer(formatMessage('err.postgres-error.connection'), 'postgres-error', '$', 500);
  if (!(error instanceof DatabaseError)) throw error;
  const code = error.code ?? '';
  if (code === '23502') {
    return errorAnswer(`Not-NULL violation. null value in column ${JSON.stringify(error.column ?? '')} violates not-null constraint`, 'postgres-error');
  }
  const violations: Record<string, string> = {
    '23505': 'Uniqueness violation',
    '23503': 'Foreign key violation',
    '23514': 'Check constraint violation',
    '23P01': 'Exclusion violation',
  };
  if (violations[code]) return errorAnswer(`${violations[code]}. ${error.message}`, 'constraint-violation');
  if (code.startsWith('22')) return errorAnswer(error.message, 'data-exception');
  if (code === '42501' || code === '25006') return errorAnswer(error.message, 'permission-error');
  return errorAnswer('database query error', 'postgres-error');
}
