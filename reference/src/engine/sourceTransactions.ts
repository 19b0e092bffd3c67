// The transactions one metadata request opens on other sources' databases (run_sql with a
// `source`): one per source, committed just before the request's own, rolled back with it.
import type { Pool, PoolClient } from 'pg';
import { engineError } from '../errors';
import * as q from '../sql';

export class SourceTransactions {
  private readonly open = new Map<string, { client: PoolClient; started: string }>();

  /** The connection of the source's transaction, begun on first use. */
  async client(name: string, poolOf: () => Pool | { problem: string }): Promise<PoolClient> {
    return (await this.transaction(name, poolOf)).client;
  }

  private async transaction(name: string, poolOf: () => Pool | { problem: string }): Promise<{ client: PoolClient; started: string }> {
    let tx = this.open.get(name);
    if (!tx) {
      const client = await connect(poolOf(), name);
      await q.run(client, q.beginReadWrite);
      const [row] = await q.run<{ started: string }>(client, q.transactionStart);
      tx = { client, started: row!.started };
      this.open.set(name, tx);
    }
    return tx;
  }

  /** Run `work` in the source's transaction, which must still be the same one after it. */
  async run<T>(name: string, poolOf: () => Pool | { problem: string }, work: (db: PoolClient) => Promise<T>): Promise<T> {
    const tx = await this.transaction(name, poolOf);
    const result = await work(tx.client);
    const [after] = await q.run<{ started: string }>(tx.client, q.transactionStart);
    if (after?.started !== tx.started) throw engineError('bad-request.transaction-control', '$.args.sql', ['ROLLBACK']);
    return result;
  }

  /** Run `work` alone in a read-only transaction on the source, rolled back after it. */
  static async readOnly<T>(pool: Pool | { problem: string }, name: string, work: (db: PoolClient) => Promise<T>): Promise<T> {
    const client = await connect(pool, name);
    try {
      await q.run(client, q.defaultReadOnly);
      await q.run(client, q.beginReadOnly);
      try {
        return await work(client);
      } finally {
        await q.run(client, q.rollback);
      }
    } finally {
      client.release(true);
    }
  }

  /** Commit (or roll back) every source's transaction, and give the connections back, never to be reused. */
  async finish(commit: boolean): Promise<void> {
    const open = [...this.open.values()];
    this.open.clear();
    let failure: unknown;
    for (const { client } of open) {
      try {
        await q.run(client, commit && failure === undefined ? q.commit : q.rollback);
      } catch (error) {
        failure ??= error;
      } finally {
        client.release(true);
      }
    }
    if (failure !== undefined) throw failure;
  }
}

async function connect(pool: Pool | { problem: string }, name: string): Promise<PoolClient> {
  if ('problem' in pool)
    throw engineError('invalid-configuration.source-connection', '$.args', [], [{ type: 'source', name: `source ${name}`, message: pool.problem }]);
  try {
    return await pool.connect();
  } catch (error) {
    throw engineError('postgres-error.connection', '$', [], { message: error instanceof Error ? error.message : String(error) });
  }
}
