// The transactions one metadata request opens on other sources' databases (run_sql with a
// `source`): one per source, committed together with the request's own (atomicCommit.ts), rolled
// back with it.
import { createHash, randomBytes } from 'node:crypto';
import { DatabaseError, type Pool, type PoolClient } from 'pg';
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
  /** The guard armed in it before SQL first ran there: disarmed by the engine's own commit. */
  guard?: { token: string; hash: string };
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
    if (!tx.guard) tx.guard = await armGuard(tx.client);
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
    const open = [...this.open].map(([name, { client, ranSql, guard }]) => ({ name, client, ranSql, ...(guard ? { guard } : {}) }));
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

/**
 * Arm the source's transaction guard (sql/sourceGuard.ts), making it first where the database lacks
 * it. A database whose user may not make it stays without: run_sql's parser check and the check
 * that the transaction is still the same one remain (decision dec.source.transaction-guard).
 */
async function armGuard(client: PoolClient): Promise<{ token: string; hash: string } | undefined> {
  const [found] = await q.run<{ present: boolean }>(client, q.hasSourceGuard);
  if (!found?.present) {
    await q.run(client, q.savepoint('engine_source_guard'));
    try {
      await q.run(client, q.lockSourceGuardSetup);
      for (const statement of q.SOURCE_GUARD_SETUP) await q.run(client, statement);
      await q.run(client, q.releaseSavepoint('engine_source_guard'));
    } catch (error) {
      if (!(error instanceof DatabaseError) || error.code !== '42501') throw error;
      await q.run(client, q.rollbackToSavepoint('engine_source_guard'));
      return undefined;
    }
  }
  const token = randomBytes(32).toString('hex');
  const hash = createHash('sha256').update(token).digest('hex');
  await q.run(client, q.armSourceGuard(hash));
  return { token, hash };
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
