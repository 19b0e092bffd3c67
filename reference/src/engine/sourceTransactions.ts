// The transactions one metadata request opens on other sources' databases (run_sql with a
// `source`): one per source, committed together with the request's own (atomicCommit.ts), rolled
// back with it.
import type { Pool, PoolClient } from 'pg';
import { engineError } from '../errors';
import * as q from '../sql';
import { endEach, type SourceParticipant } from './atomicCommit';
import { giveBack } from './sessionReset';

interface Transaction {
  client: PoolClient;
  pool: Pool;
  started: string;
  /** SQL given to `run` (run_sql's, the triggers of event triggers) went through it: it may have left state in the session. */
  ranSql: boolean;
}

export class SourceTransactions {
  private readonly open = new Map<string, Transaction>();

  /** The connection of the source's transaction, begun on first use. */
  async client(name: string, poolOf: () => Pool | { problem: string }): Promise<PoolClient> {
    return (await this.transaction(name, poolOf)).client;
  }

  /** Whether this request holds a transaction on the source, taken from `pool`. */
  holds(name: string, pool: Pool): boolean {
    return this.open.get(name)?.pool === pool;
  }

  private async transaction(name: string, poolOf: () => Pool | { problem: string }): Promise<Transaction> {
    let tx = this.open.get(name);
    if (!tx) {
      const pool = usable(poolOf(), name);
      const client = await connect(pool);
      try {
        await q.run(client, q.beginReadWrite);
        const [row] = await q.run<{ started: string }>(client, q.transactionStart);
        tx = { client, pool, started: row!.started, ranSql: false };
      } catch (error) {
        client.release(true);
        throw error;
      }
      this.open.set(name, tx);
    }
    return tx;
  }

  /** Run `work` in the source's transaction, which must still be the same one after it. */
  async run<T>(name: string, poolOf: () => Pool | { problem: string }, work: (db: PoolClient) => Promise<T>): Promise<T> {
    const tx = await this.transaction(name, poolOf);
    tx.ranSql = true;
    const result = await work(tx.client);
    const [after] = await q.run<{ started: string }>(tx.client, q.transactionStart);
    if (after?.started !== tx.started) throw engineError('bad-request.transaction-control', '$.args.sql', ['ROLLBACK']);
    return result;
  }

  /** Run `work` alone in a read-only transaction on the source, rolled back after it. */
  static async readOnly<T>(pool: Pool | { problem: string }, name: string, work: (db: PoolClient) => Promise<T>): Promise<T> {
    const client = await connect(usable(pool, name));
    let ended = false;
    try {
      await q.run(client, q.defaultReadOnly);
      await q.run(client, q.beginReadOnly);
      try {
        return await work(client);
      } finally {
        await q.run(client, q.rollback);
        ended = true;
      }
    } finally {
      await giveBack(client, true, ended);
    }
  }

  /** Hand the open transactions over to be committed together with the request's own (atomicCommit.ts). */
  participants(): SourceParticipant[] {
    const open = [...this.open].map(([name, { client, ranSql }]) => ({ name, client, ranSql }));
    this.open.clear();
    return open;
  }

  /**
   * Roll back every source's transaction and give the connections back to their pools, reset when
   * SQL ran through `run`, closed when the transaction did not end (sessionReset.ts).
   */
  async rollback(): Promise<void> {
    await endEach(this.participants(), false);
  }
}

/** The source's pool, or the refusal of a source whose connection cannot be had. */
function usable(pool: Pool | { problem: string }, name: string): Pool {
  if ('problem' in pool)
    throw engineError('invalid-configuration.source-connection', '$.args', [], [{ type: 'source', name: `source ${name}`, message: pool.problem }]);
  return pool;
}

async function connect(pool: Pool): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw engineError('postgres-error.connection', '$', [], { message: error instanceof Error ? error.message : String(error) });
  }
}
