// The GraphQL pools of the server's own database (roles' and admin's), opened at the isolation level
// the default source's configuration names (decision dec.source.isolation-level). The level is a
// startup option of their connections, so a query costs no statement more; when the metadata names
// another level, new pools are opened for the next request and the old ones closed.
import type { Pool } from 'pg';
import type { ConnectionInfo } from '../../../spec';
import { isolationOptions } from './sourcePools';

export type IsolationLevel = ConnectionInfo['isolation_level'];

/** The roles' and admin's GraphQL pools of one level. */
export interface GraphqlPoolPair {
  roles: Pool;
  adminGraphql: Pool;
}

/** How often a retired pool is looked at until no request waits for one of its connections. */
const RETIRE_POLL_MS = 50;

export class OwnGraphqlPools {
  private level: IsolationLevel;
  private current: GraphqlPoolPair;
  private readonly retiring = new Set<Pool>();

  /** `open` makes the pair with the given connection options (the level's, or none). */
  constructor(
    private readonly open: (extra: { options?: string }) => GraphqlPoolPair,
    level: IsolationLevel = undefined,
  ) {
    this.level = level;
    this.current = open(isolationOptions(level));
  }

  /** The pools of `level`: the open ones when it is theirs, else new ones, the old ones retired. */
  at(level: IsolationLevel): GraphqlPoolPair {
    if (level === this.level) return this.current;
    const old = this.current;
    this.current = this.open(isolationOptions(level));
    this.level = level;
    for (const pool of [old.roles, old.adminGraphql]) this.retire(pool);
    return this.current;
  }

  /** End the open pools and those still retiring. */
  async close(): Promise<void> {
    const pools = [this.current.roles, this.current.adminGraphql, ...this.retiring];
    this.retiring.clear();
    await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
  }

  /**
   * Ended once no request waits for one of its connections: node-postgres serves no waiter of a
   * pool being ended, while the connections requests hold are closed when given back.
   */
  private retire(pool: Pool): void {
    this.retiring.add(pool);
    const attempt = () => {
      if (!this.retiring.has(pool)) return;
      if (pool.waitingCount > 0) {
        setTimeout(attempt, RETIRE_POLL_MS).unref();
        return;
      }
      this.retiring.delete(pool);
      void pool.end().catch(() => {});
    };
    attempt();
  }
}
