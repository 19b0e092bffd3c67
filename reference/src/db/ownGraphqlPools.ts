// The GraphQL pools of the server's own database (roles' and admin's), opened as the default
// source's configuration says (decision dec.source.isolation-level, dec.metadata.default-source):
// at its isolation level, a startup option of their connections so that a query costs no statement
// more, and with at most its max_connections each. When the metadata says otherwise, new pools are
// opened for the next request and the old ones closed.
import type { Pool } from 'pg';
import type { ConnectionInfo } from '../../../spec';
import { isolationOptions } from './sourcePools';

/** What of the default source's connection_info the pools follow. */
export type OwnPoolSettings = Pick<ConnectionInfo, 'isolation_level' | 'pool_settings' | 'use_prepared_statements'> | undefined;

/** The roles' and admin's GraphQL pools of one level. */
export interface GraphqlPoolPair {
  roles: Pool;
  adminGraphql: Pool;
}

/**
 * How the pools of a pair are opened: the level's startup option (none: the database's default),
 * their size, idle timeout and connection lifetime (none: the server's settings), and how long a
 * request waits for a connection (none: as long as it takes).
 */
export interface PoolShape {
  options?: string;
  max?: number;
  idleTimeoutMillis?: number;
  maxLifetimeSeconds?: number;
  connectionTimeoutMillis?: number;
}

/** How often a retired pool is looked at until no request waits for one of its connections. */
const RETIRE_POLL_MS = 50;

/** The default source's pool_settings as node-postgres takes them (the engine's 0 pool_timeout: no bound). */
export function shapeOf(settings: OwnPoolSettings): PoolShape {
  const pool = settings?.pool_settings;
  return {
    ...isolationOptions(settings?.isolation_level),
    ...(pool?.max_connections !== undefined ? { max: pool.max_connections } : {}),
    ...(pool?.idle_timeout !== undefined ? { idleTimeoutMillis: pool.idle_timeout * 1000 } : {}),
    ...(pool?.connection_lifetime !== undefined ? { maxLifetimeSeconds: pool.connection_lifetime } : {}),
    ...(pool?.pool_timeout ? { connectionTimeoutMillis: pool.pool_timeout * 1000 } : {}),
  };
}
/**
 * Whether the server's own GraphQL statements are prepared: as the server is set up when the metadata
 * gives the default source no configuration, else as its use_prepared_statements says (the engine's
 * default for a configuration: false).
 */
export const ownPreparesStatements = (settings: OwnPoolSettings, serverSetting = true) =>
  settings === undefined ? serverSetting : settings.use_prepared_statements === true;

/**
 * What tells pools apart: their shape, and whether statements are prepared on them (pools opened
 * anew when that changes hold no statement prepared before, for a pooler that keeps no session).
 */
const keyOf = (shape: PoolShape, prepares: boolean) =>
  [shape.options, shape.max, shape.idleTimeoutMillis, shape.maxLifetimeSeconds, shape.connectionTimeoutMillis, prepares].map((v) => v ?? '').join('\u0000');

export class OwnGraphqlPools {
  private key: string;
  /** The settings last asked for (documents are never changed in place). */
  private seen: OwnPoolSettings | null = null;
  private current: GraphqlPoolPair;
  private readonly retiring = new Set<Pool>();

  /** `open` makes the pair of a shape; `serverPrepares`: ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS. */
  constructor(
    private readonly open: (shape: PoolShape) => GraphqlPoolPair,
    settings: OwnPoolSettings = undefined,
    private readonly serverPrepares = true,
  ) {
    const shape = shapeOf(settings);
    this.key = keyOf(shape, ownPreparesStatements(settings, serverPrepares));
    this.current = open(shape);
  }

  /** The pools of `settings`: the open ones when they are theirs, else new ones, the old ones retired. */
  at(settings: OwnPoolSettings): GraphqlPoolPair {
    // Asked on every plan: the metadata's own object, unchanged, is answered without building its key.
    if (settings === this.seen) return this.current;
    this.seen = settings;
    const shape = shapeOf(settings);
    const key = keyOf(shape, this.prepares(settings));
    if (key === this.key) return this.current;
    const old = this.current;
    this.current = this.open(shape);
    this.key = key;
    for (const pool of [old.roles, old.adminGraphql]) this.retire(pool);
    return this.current;
  }

  /** Whether statements are prepared on the pools of `settings`. */
  prepares(settings: OwnPoolSettings): boolean {
    return ownPreparesStatements(settings, this.serverPrepares);
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
