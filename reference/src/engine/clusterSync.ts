// Other servers on the same database: listen for their change notifications and, on one, read the
// metadata (and, after run_sql, the database) again, so GraphQL answers from it without waiting
// for a metadata request. A lost connection is made again, followed by a refresh for what was
// missed meanwhile. The same connection hears new work announced for the background workers.
import { loadSourceInputs } from './sourceInputs';
import { sourcesOf } from '../metadata/sources';
import { Client } from 'pg';
import { readMetadataSince } from '../catalog/catalog';
import { loadEnumValues } from '../execute/schemaCache';
import * as q from '../sql';
import { requestContext, type ContextSources } from './requestContext';

export class ClusterSync {
  private listener: Client | undefined;
  private closing = false;
  private refreshing: Promise<void> = Promise.resolve();
  /** Told of each announcement of new work (sql/work.ts). */
  private readonly workListeners: ((kind: q.WorkKind) => void)[] = [];

  constructor(
    private readonly sources: ContextSources,
    private readonly databaseUrl: string,
    private readonly serverId: string,
  ) {}

  async start(): Promise<void> {
    await this.listen(false);
  }

  /** Call `listener` whenever new work for a background worker is announced. */
  onWork(listener: (kind: q.WorkKind) => void): void {
    this.workListeners.push(listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener?.end().catch(() => {});
    await this.refreshing;
  }

  private async listen(afterLoss: boolean): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'engine-reference-listener' });
    const again = () => {
      if (this.closing || this.listener !== client) return;
      this.listener = undefined;
      setTimeout(() => {
        if (!this.closing) this.listen(true).catch(again);
      }, 1000).unref();
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (message) => {
      if (q.isWorkChannel(message.channel)) {
        const kind = message.payload;
        if (q.isWorkKind(kind)) for (const listener of this.workListeners) listener(kind);
        return;
      }
      if (!q.isChangesChannel(message.channel)) return;
      let change: { sender?: unknown; database_changed?: unknown };
      try {
        change = JSON.parse(message.payload ?? '') as typeof change;
      } catch {
        return;
      }
      if (change.sender !== this.serverId) this.scheduleRefresh(change.database_changed === true);
    });
    this.listener = client;
    try {
      await client.connect();
      await q.run(client, q.listenForChanges);
      await q.run(client, q.listenForWork);
    } catch (error) {
      if (!afterLoss) throw error;
      again();
      return;
    }
    if (afterLoss) this.scheduleRefresh(true);
  }

  private scheduleRefresh(databaseChanged: boolean): void {
    this.refreshing = this.refreshing.then(() => this.refresh(databaseChanged)).catch(() => {});
  }

  /** Read what another server changed; keep this server's newer state if it has one. */
  private async refresh(databaseChanged: boolean): Promise<void> {
    if (this.closing) return;
    const { pool, served, remotes } = this.sources;
    const client = await pool.connect();
    try {
      await q.run(client, q.beginReadOnly);
      try {
        const stored = await readMetadataSince(client, served.snapshot);
        if (stored === served.snapshot && !databaseChanged) return;
        const { ctx, loaded } = requestContext(this.sources, client, stored);
        if (databaseChanged) ctx.invalidateIntrospection();
        const introspection = await ctx.introspect();
        const enumValues = await loadEnumValues(client, stored.document, introspection);
        await remotes.loadAll(stored.document);
        const sources = await loadSourceInputs(this.sources.sourcePools, stored.document);
        if (served.snapshot && stored.resourceVersion < served.snapshot.resourceVersion) return;
        served.adopt(stored, loaded, databaseChanged, { document: stored.document, introspection, enumValues, sources });
        this.sources.sourcePools.keepOnly(sourcesOf(stored.document));
      } finally {
        await q.run(client, q.rollback);
      }
    } finally {
      client.release();
    }
  }
}
