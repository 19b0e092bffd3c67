// Compiled statements run by name, so that each connection prepares them once (decision 004). A
// prepared statement keeps what PostgreSQL resolved when it was prepared: the types of its
// parameters (by OID) and the shape of its result. Once run_sql or SQL outside the service drops an
// object and makes it again under the same name, the statement's text is the same but what it was
// prepared for is gone ("cache lookup failed for type N"). So a change of the database starts a new
// generation: a connection that prepared statements in an older one is closed, not used again
// (node-postgres remembers what it prepared on a connection; closing it forgets both sides), and a
// statement refused for a stale object starts one at once and runs again (decision
// dec.run_sql.recreated-objects).
import { DatabaseError, type Pool, type PoolClient, type QueryResultRow } from 'pg';

export interface NamedStatement {
  name: string;
  text: string;
  values: unknown[];
}

export class StatementGenerations {
  private current = 0;
  /** The generation in which each connection first ran a named statement. */
  private readonly preparedIn = new WeakMap<PoolClient, number>();

  /** The database's objects changed: what connections prepared before is not run again. */
  advance(): void {
    this.current++;
  }

  /** A connection of the pool whose prepared statements, if any, are of the current generation. */
  async connect(pool: Pool): Promise<PoolClient> {
    for (;;) {
      const client = await pool.connect();
      const at = this.preparedIn.get(client);
      if (at === undefined || at === this.current) return client;
      client.release(true);
    }
  }

  /**
   * Run a statement by name on a connection taken with `connect`; unnamed when its source's
   * configuration says use_prepared_statements: false (for a pooler that keeps no session).
   */
  async query<R extends QueryResultRow>(client: PoolClient, statement: NamedStatement, prepared = true): Promise<R[]> {
    if (!prepared) return (await client.query<R>({ text: statement.text, values: statement.values })).rows;
    if (!this.preparedIn.has(client)) this.preparedIn.set(client, this.current);
    return (await client.query<R>({ name: statement.name, text: statement.text, values: statement.values })).rows;
  }

  /** Run `work` (on connections taken with `connect`) again once when PostgreSQL refused a statement prepared for objects that changed. */
  async retryingStale<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!preparedForChangedObjects(error)) throw error;
      this.advance();
      return work();
    }
  }
}

/** PostgreSQL's refusals of a prepared statement whose objects were dropped or changed. */
function preparedForChangedObjects(error: unknown): boolean {
  if (!(error instanceof DatabaseError)) return false;
  if (error.code === '0A000') return error.message.startsWith('cached plan must not change result type');
  return error.code === 'XX000' && error.message.startsWith('cache lookup failed');
}
