// The connections of the sources added by pg_add_source (decision dec.source.forms): one pool per
// source and configuration, opened when first needed, closed when the source goes or changes.
import { Client, type Pool, type PoolConfig } from 'pg';
import type { ConnectionInfo, SourceEntry } from '../../../spec';
import { resilientPool } from './connectionLoss';
import { PoolLeases } from './poolLeases';

/** How long a check of a source waits for its database before calling it unreachable. */
const CHECK_TIMEOUT_MS = 5_000;

/**
 * What a source whose database cannot be had is reported with, whatever the cause: a URL that does
 * not parse, a certificate file that cannot be read, a refused or unanswered connection, a server
 * that is not PostgreSQL, refused credentials. One text, so that neither the answer nor its
 * message tells a secret (a URL's password, an environment variable's value) or probes a host,
 * a port or a file; the cause goes to the server's log (`SourcePools.onConnectionFailure`).
 */
export const COULD_NOT_CONNECT = 'could not connect to the database';

/** PostgreSQL's names of the engine's isolation levels, a space escaped as the connection's `options` want it. */
const ISOLATION = { 'read-committed': 'read\\ committed', 'repeatable-read': 'repeatable\\ read', serializable: 'serializable' } as const;

/**
 * A connection's startup options that make `level` the default of its transactions
 * (dec.source.isolation-level): PostgreSQL then runs every transaction on it, and every statement
 * outside one, at that level, at no cost per statement. None when no level is given.
 */
export function isolationOptions(level: ConnectionInfo['isolation_level']): { options?: string } {
  return level ? { options: `-c default_transaction_isolation=${ISOLATION[level]}` } : {};
}

/** Why a source has no pool settings: the problem answered, and the cause, only for the log. */
export interface ConfigProblem {
  problem: string;
  cause?: string;
}

/** The pool settings of a source's connection, or why there are none (an unset environment variable, a URL that does not parse). */
export function poolConfigOf(info: ConnectionInfo, env: NodeJS.ProcessEnv = process.env): PoolConfig | ConfigProblem {
  const url = info.database_url;
  let where: PoolConfig;
  if (typeof url === 'string') where = { connectionString: url };
  else if ('from_env' in url) {
    const value = env[url.from_env];
    if (value === undefined || value === '') return { problem: `environment variable "${url.from_env}" is not set` };
    where = { connectionString: value };
  } else {
    const p = url.connection_parameters;
    where = { host: p.host, port: p.port, user: p.username, database: p.database, ...(p.password !== undefined ? { password: p.password } : {}) };
  }
  // node-postgres reads the URL (and the files it names) when a client is made: asked here, a URL
  // it cannot read is a problem of the source rather than an exception of whoever connects first.
  try {
    new Client(where);
  } catch (error) {
    return { problem: COULD_NOT_CONNECT, cause: `the connection settings cannot be read: ${causeOf(error)}` };
  }
  if (where.port !== undefined && !(where.port >= 1 && where.port <= 65535)) return { problem: COULD_NOT_CONNECT, cause: `port ${where.port} is out of range` };
  const settings = info.pool_settings ?? {};
  return {
    ...where,
    ...isolationOptions(info.isolation_level),
    // The engine's defaults: 50 connections, closed after 180 s idle and 600 s after they opened (0: never).
    max: settings.max_connections ?? 50,
    idleTimeoutMillis: (settings.idle_timeout ?? 180) * 1000,
    connectionTimeoutMillis: settings.pool_timeout ? settings.pool_timeout * 1000 : CHECK_TIMEOUT_MS,
    maxLifetimeSeconds: settings.connection_lifetime ?? 600,
    application_name: 'engine-reference-source',
  };
}

/** The cause of a failed connection, for the log: node-postgres's message, never the URL it was given. */
export function causeOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message === '' ? 'the database did not answer' : message;
}

/** The pools GraphQL plans of a source run on: roles' and admin's, each with its statement timeout. */
export interface SourceGraphqlPools {
  admin: Pool;
  roles: Pool;
  adminGraphql: Pool;
  /** A read replica's: the read could not be had there; it is left aside for a while and the read goes to the primary. */
  unreachable?: () => void;
  /** Gives the pools back: those a metadata change retired meanwhile are ended once no request holds them (decision dec.source.in-flight). */
  release: () => void;
}

type TimedPools = { roles: Pool; adminGraphql: Pool };

/** How long a read replica that did not answer is left aside before reads try it again. */
const REPLICA_REST_MS = 30_000;

export class SourcePools {
  /** Told why a source's database could not be had (the server logs it); the answer says only COULD_NOT_CONNECT. */
  onConnectionFailure: (source: string, cause: string) => void = () => {};
  private readonly pools = new Map<string, { key: string; pool: Pool }>();
  private readonly graphql = new Map<string, { key: string; primary: TimedPools; replicas: (TimedPools & { downUntil: number })[]; next: number }>();
  /** The pools requests hold: one retired is ended when the last of them gives it back (decision dec.source.in-flight). */
  private readonly leases = new PoolLeases<object>();

  /** How many retired pools still wait for requests that hold them. */
  get retiredInUse(): number {
    return this.leases.waiting;
  }

  /**
   * The GraphQL pools of a source (opened on first use), or undefined when its URL cannot be had.
   * Reads (`write` false) go to its read replicas in turn, when it has any (decision dec.source.forms).
   * The caller holds them until it calls `release`.
   */
  graphqlPoolsOf(source: SourceEntry, timeouts: { statementTimeoutMs: number; adminStatementTimeoutMs: number }, write = true): SourceGraphqlPools | undefined {
    const admin = this.poolOf(source);
    if ('problem' in admin) return undefined;
    const key = JSON.stringify([source.configuration.connection_info, source.configuration.read_replicas]);
    let open = this.graphql.get(source.name);
    if (open?.key !== key) {
      const primary = timedPools(source.configuration.connection_info, timeouts);
      if (!primary) return undefined;
      const replicas = (source.configuration.read_replicas ?? []).flatMap((info) => {
        const pools = timedPools(info, timeouts);
        return pools ? [{ ...pools, downUntil: 0 }] : [];
      });
      if (open) for (const set of [open.primary, ...open.replicas]) this.retire(set);
      this.graphql.set(source.name, (open = { key, primary, replicas, next: 0 }));
    }
    // Reads go to the replicas in turn, past those resting after a failure; none answering: the primary.
    const now = Date.now();
    const up = write ? [] : open.replicas.filter((r) => r.downUntil <= now);
    const set = up.length === 0 ? open.primary : up[open.next++ % up.length]!;
    const leases = [this.leases.take(admin), this.leases.take(set)];
    const release = () => leases.forEach((give) => give());
    if (set === open.primary) return { admin, roles: set.roles, adminGraphql: set.adminGraphql, release };
    const replica = set as TimedPools & { downUntil: number };
    return {
      admin,
      release,
      roles: replica.roles,
      adminGraphql: replica.adminGraphql,
      unreachable: () => {
        replica.downUntil = Date.now() + REPLICA_REST_MS;
        this.onConnectionFailure(source.name, 'a read replica did not answer; reads go to the primary for a while');
      },
    };
  }

  /** The pool of a source, opened on first use (again when its configuration changed). */
  poolOf(source: SourceEntry): Pool | ConfigProblem {
    const key = JSON.stringify(source.configuration.connection_info);
    const open = this.pools.get(source.name);
    if (open?.key === key) return open.pool;
    const config = poolConfigOf(source.configuration.connection_info);
    if ('problem' in config) return config;
    if (open) this.leases.retire(open.pool, () => open.pool.end());
    const pool = resilientPool(config);
    this.pools.set(source.name, { key, pool });
    return pool;
  }

  /**
   * The pool of a source with a lease on it, for work that keeps using it over several steps (a
   * recovery pass): retired meanwhile, it is ended only once `release` is called (dec.source.in-flight).
   */
  leasedPoolOf(source: SourceEntry): { pool: Pool; release: () => void } | ConfigProblem {
    const pool = this.poolOf(source);
    if ('problem' in pool) return pool;
    return { pool, release: this.leases.take(pool) };
  }

  /** The pool open for the source's present configuration, if there is one (none is opened). */
  openPoolOf(source: SourceEntry): Pool | undefined {
    const open = this.pools.get(source.name);
    return open?.key === JSON.stringify(source.configuration.connection_info) ? open.pool : undefined;
  }

  /**
   * Why a source cannot be used now (its database does not answer), or undefined. Asked on a
   * connection of its own: the source's pool may be held whole by the request that asks.
   */
  async problemOf(source: SourceEntry): Promise<string | undefined> {
    return (await this.connectionProblem(source.name, source.configuration.connection_info)) ?? this.replicasProblem(source);
  }

  /** Why one of the source's read replicas cannot be connected to, or undefined: each is checked like the primary. */
  async replicasProblem(source: SourceEntry): Promise<string | undefined> {
    for (const info of source.configuration.read_replicas ?? []) {
      const problem = await this.connectionProblem(source.name, info);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  private async connectionProblem(name: string, info: ConnectionInfo): Promise<string | undefined> {
    const config = poolConfigOf(info);
    if ('problem' in config) {
      if (config.cause !== undefined) this.onConnectionFailure(name, config.cause);
      return config.problem;
    }
    const client = new Client({ ...config, connectionTimeoutMillis: CHECK_TIMEOUT_MS });
    client.on('error', () => {});
    try {
      await client.connect();
      return undefined;
    } catch (error) {
      this.onConnectionFailure(name, causeOf(error));
      return COULD_NOT_CONNECT;
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Close the pools of sources no longer in `sources`. */
  keepOnly(sources: readonly SourceEntry[]): void {
    const names = new Set(sources.map((s) => s.name));
    for (const [name, open] of this.pools) {
      if (names.has(name)) continue;
      this.pools.delete(name);
      this.leases.retire(open.pool, () => open.pool.end());
    }
    for (const [name, open] of this.graphql) {
      if (names.has(name)) continue;
      this.graphql.delete(name);
      for (const set of [open.primary, ...open.replicas]) this.retire(set);
    }
  }

  async close(): Promise<void> {
    const open = [...this.pools.values()];
    const graphql = [...this.graphql.values()];
    this.pools.clear();
    this.graphql.clear();
    await Promise.all([
      ...open.map((o) => o.pool.end().catch(() => {})),
      ...graphql.flatMap((g) => [g.primary, ...g.replicas].map(endAll)),
      this.leases.endAll(),
    ]);
  }

  private retire(set: TimedPools): void {
    this.leases.retire(set, () => endAll(set));
  }
}

/** The roles' and admin's GraphQL pools on one database, each with its statement timeout. */
function timedPools(info: ConnectionInfo, timeouts: { statementTimeoutMs: number; adminStatementTimeoutMs: number }): TimedPools | undefined {
  const config = poolConfigOf(info);
  if ('problem' in config) return undefined;
  const timed = (ms: number) => resilientPool({ ...config, ...(ms > 0 ? { statement_timeout: ms } : {}) });
  return { roles: timed(timeouts.statementTimeoutMs), adminGraphql: timed(timeouts.adminStatementTimeoutMs) };
}

async function endAll(pools: TimedPools): Promise<void> {
  await Promise.all([pools.roles.end().catch(() => {}), pools.adminGraphql.end().catch(() => {})]);
}
