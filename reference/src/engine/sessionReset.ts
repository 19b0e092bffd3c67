// Connections that ran user SQL (run_sql) go back to their pool with their session reset; one that
// cannot be reset, or whose transaction did not end, is closed instead.
import type { PoolClient } from 'pg';
import * as q from '../sql';

/** Give `client` back to its pool: as it is when no user SQL ran, reset when some did, closed when `ended` is false or the reset fails. */
export async function giveBack(client: PoolClient, ranUserSql: boolean, ended: boolean): Promise<void> {
  if (!ended) return client.release(true);
  if (!ranUserSql) return client.release();
  try {
    await q.run(client, q.resetSession);
  } catch {
    return client.release(true);
  }
  client.release();
}
