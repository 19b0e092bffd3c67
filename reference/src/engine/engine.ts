// The engine a server runs: opens the pools, reads the stored metadata and the database it names,
// and wires the parts that each own one concern — metadataCommit.ts (where a metadata change is
// committed), requestContext.ts (what one request's operations see), served.ts (what is served
// and its GraphQL schemas), clusterSync.ts (other servers' changes).
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { ensureCatalog, readMetadata } from '../catalog/catalog';
import type { EngineConfig } from '../config';
import { resilientPool } from '../db/connectionLoss';
import { introspectionOf } from '../db/introspection';
import { RoleGate } from '../execute/roleGate';
import type { Abandonment } from '../execute/abandonment';
import type { PlanPools } from '../execute/runPlan';
import { SourceRemoved } from '../execute/answers';
import { StatementGenerations } from '../execute/preparedStatements';
import { loadEnumValues, type SchemaCache } from '../execute/schemaCache';
import type { Session } from '../auth/session';
import { functionsNamedBy, tablesNamedBy } from '../metadata/document';
import type { ParsedOperation } from '../operations/envelope';
import { runAsRoleIn } from '../operations/roleDml';
import { RemoteSchemaStore } from '../remote/store';
import { RemoteAnswerBytes } from '../remote/answerBytes';
import { SourcePools } from '../db/sourcePools';
import { OwnGraphqlPools, type PoolShape } from '../db/ownGraphqlPools';
import { sourcesOf } from '../metadata/sources';
import { loadSourceInputs } from './sourceInputs';
import * as q from '../sql';
import { loadFunctions, loadRelations, loadTables } from '../sql/loadIntrospection';
import { ClusterSync } from './clusterSync';
import { commitOperation, type CommitSources } from './metadataCommit';
import { ServedState, type MetadataSnapshot } from './served';
import { PreparedRecovery } from './preparedRecovery';
import type { Logger } from '../log';

export type { MetadataSnapshot } from './served';

export class Engine {
  /** Where GraphQL plans run: roles other than admin on connections with the statement timeout. */
  readonly pools: PlanPools;
  /** The remote schemas as this server introspected them. */
  readonly remotes = new RemoteSchemaStore();
  /** The connections of the sources besides the server's own database. */
  readonly sourcePools = new SourcePools();
  private readonly served: ServedState;
  /** The server's own GraphQL pools, at the default source's isolation level (dec.source.isolation-level). */
  private readonly ownGraphql: OwnGraphqlPools;
  private readonly sources: CommitSources;
  private readonly sync: ClusterSync;
  /** Settles the prepared transactions a commit over several databases left behind. */
  private readonly recovery: PreparedRecovery;

  private constructor(
    readonly pool: Pool,
    readonly config: EngineConfig,
    pools: Omit<PlanPools, 'admin' | 'statements' | 'roles' | 'adminGraphql'>,
    ownGraphql: OwnGraphqlPools,
    databaseUrl: string,
    logger: Logger,
  ) {
    this.ownGraphql = ownGraphql;
    // The level is read from the metadata served when a plan takes its pool: a new one holds for the next request.
    const ownInfo = () => this.served.snapshot?.document.default_source?.configuration?.connection_info;
    const own = () => ownGraphql.at(ownInfo());
    this.pools = {
      admin: pool,
      ...pools,
      get roles() {
        return own().roles;
      },
      get adminGraphql() {
        return own().adminGraphql;
      },
      get preparedStatements() {
        return ownGraphql.prepares(ownInfo());
      },
      statements: new StatementGenerations(),
      // Plans of another source run on its pools, with the same limits (decision dec.source.forms);
      // one planned before its source left the metadata is answered so (decision dec.source.in-flight).
      sourcePools: (name, write) => {
        const source = sourcesOf(this.served.snapshot?.document ?? { version: 2, tables: [] }).find((s) => s.name === name);
        if (!source) throw new SourceRemoved(name);
        const own = this.sourcePools.graphqlPoolsOf(source, pools, write);
        // The engine's default for a source: statements not prepared.
        const prepared = source.configuration.connection_info.use_prepared_statements === true;
        return own ? { ...this.pools, ...own, preparedStatements: prepared, sourcePools: () => undefined } : undefined;
      },
    };
    // What the GraphQL pools' connections prepared is not run again once the database changed.
    this.served = new ServedState(config, this.remotes, () => this.pools.statements.advance());
    const serverId = randomUUID();
    // The catalog's tag is read when the engine opens, before any request commits.
    const coordinator = { catalogTag: '', serverId, leftBehind: () => this.recovery.soon() };
    this.recovery = new PreparedRecovery(
      pool,
      this.sourcePools,
      () => this.current().document,
      () => coordinator.catalogTag,
      logger,
    );
    this.sources = { pool, config, remotes: this.remotes, served: this.served, sourcePools: this.sourcePools, serverId, coordinator };
    this.sync = new ClusterSync(this.sources, databaseUrl, serverId);
  }

  static async open(config: EngineConfig, databaseUrl: string, logger: Logger = { log: () => {} }): Promise<Engine> {
    // A connection idle for pgTimeoutSeconds is closed (0: never; pg's idleTimeoutMillis 0 means the same).
    const shape = { connectionString: databaseUrl, max: config.pgConnections, idleTimeoutMillis: config.pgTimeoutSeconds * 1000 };
    const pool = resilientPool({ ...shape, application_name: 'engine-reference' });
    const { statementTimeoutMs, adminStatementTimeoutMs } = config.limits;
    const timed = (name: string, timeout: number, extra: PoolShape) =>
      resilientPool({ ...shape, ...extra, application_name: name, ...(timeout > 0 ? { statement_timeout: timeout } : {}) });
    const gate = new RoleGate(config.maxConnectionsPerRole, config.pgConnections);
    const ownGraphql = new OwnGraphqlPools(
      (extra) => {
        // The roles' statements at once are held to the connections their pool has.
        gate.resize(extra.max ?? config.pgConnections);
        return {
          roles: timed('engine-reference-roles', statementTimeoutMs, extra),
          adminGraphql: timed('engine-reference-admin-graphql', adminStatementTimeoutMs, extra),
        };
      },
      undefined,
      config.usePreparedStatements,
    );
    const engine = new Engine(
      pool,
      config,
      {
        gate,
        remoteAnswers: new RemoteAnswerBytes(config.limits.remoteAnswerMaxBytes, config.limits.remoteAnswerRoleMaxBytes),
        statementTimeoutMs,
        adminStatementTimeoutMs,
        maxQueryCost: config.limits.maxQueryCost,
      },
      ownGraphql,
      databaseUrl,
      logger,
    );
    const client = await pool.connect();
    try {
      await ensureCatalog(client);
      engine.sources.coordinator.catalogTag = (await q.run<{ tag: string }>(client, q.readCatalogTag))[0]!.tag;
      const stored = await readMetadata(client);
      const introspection = introspectionOf(
        await loadRelations(client),
        await loadTables(client, tablesNamedBy(stored.document)),
        await loadFunctions(client, functionsNamedBy(stored.document)),
      );
      const enumValues = await loadEnumValues(client, stored.document, introspection);
      // A remote that cannot be reached now is an inconsistent object; the server starts anyway.
      await engine.remotes.loadAll(stored.document);
      const snapshot = { document: stored.document, resourceVersion: stored.resourceVersion };
      const sources = await loadSourceInputs(engine.sourcePools, stored.document);
      engine.served.adopt(snapshot, introspection.tables, false, { document: stored.document, introspection, enumValues, sources });
    } finally {
      client.release();
    }
    // What a server that stopped between the phases of a commit left on the sources is settled first.
    await engine.recovery.recover(true).catch((error: unknown) => logger.log('warn', 'prepared-transactions', { error: String(error) }));
    engine.recovery.start();
    await engine.sync.start();
    return engine;
  }

  /** Call `listener` whenever new work for a background worker is announced (by any server, or by SQL). */
  onWork(listener: (kind: q.WorkKind) => void): void {
    this.sync.onWork(listener);
  }

  async close(): Promise<void> {
    await this.recovery.stop();
    await this.sync.close();
    await this.pool.end();
    await this.ownGraphql.close();
    await this.sourcePools.close();
  }

  /** What keeps the engine from answering, or undefined when nothing does. */
  async healthProblem(): Promise<string | undefined> {
    try {
      await q.run(this.pool, q.ping);
      return undefined;
    } catch {
      // The health endpoint needs no credentials: it names the part, not the database's address.
      return 'the database does not answer';
    }
  }

  /** Run one metadata operation (a bulk with its children) as one transaction (metadataCommit.ts). */
  execute(operation: ParsedOperation, options: { gone?: Abandonment } = {}): Promise<unknown> {
    return commitOperation(this.sources, operation, options);
  }

  /** Legacy DML of a role other than admin, under its permissions (operations/roleDml.ts). */
  executeAsRole(operation: ParsedOperation, session: Session): Promise<unknown> {
    return runAsRoleIn(this.pools, this.served.schemaInput!, operation, session);
  }

  /** The GraphQL schemas and caches of the current metadata, built on first use after a change. */
  graphql(): SchemaCache {
    return this.served.graphql();
  }

  /** The last metadata this server committed or read. */
  current(): MetadataSnapshot {
    return this.served.snapshot!;
  }
}
