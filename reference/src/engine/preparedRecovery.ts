// What a crash or a lost connection leaves between the phases of a commit over several databases
// (decision dec.source.atomic-commit, atomicCommit.ts): transactions of this catalog prepared on
// the sources. Every request holds the catalog lock from its first PREPARE to its last COMMIT
// PREPARED; holding it too, recovery meets none still on its way: one the catalog records was
// decided and is committed, one it does not record was not and is rolled back. Run at start-up and
// every few seconds; a look that finds nothing asks each source one question and takes no lock.
import type { Pool } from 'pg';
import type { MetadataDocument, SourceEntry } from '../../../spec';
import type { SourcePools } from '../db/sourcePools';
import type { Logger } from '../log';
import { sourcesOf } from '../metadata/sources';
import * as q from '../sql';

/** How often a server looks, and how soon after a commit of its own left something behind. */
const LOOK_EVERY_MS = 10_000;
const LOOK_SOON_MS = 1_000;

interface Found {
  source: SourceEntry;
  /** Leased for the pass: a source dropped or changed meanwhile keeps its pool until the pass gives it back. */
  pool: Pool;
  release: () => void;
  gids: string[];
}

interface PreparedRecord {
  gid: string;
  source: string;
}

/** Recorded transactions gone from their source (which answered): committed, their records done with. */
function finished(records: readonly PreparedRecord[], found: readonly Found[]): string[] {
  const asked = new Set(found.map((f) => f.source.name));
  const left = new Set(found.flatMap((f) => f.gids));
  return records.filter((r) => asked.has(r.source) && !left.has(r.gid)).map((r) => r.gid);
}

export interface Recovered {
  committed: string[];
  rolledBack: string[];
}

export class PreparedRecovery {
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<unknown> = Promise.resolve();
  private running = false;
  /** A look was asked for while one ran. */
  private wanted = false;
  private stopped = false;

  constructor(
    /** The server's own database, with the catalog. */
    private readonly pool: Pool,
    private readonly sourcePools: SourcePools,
    private readonly document: () => MetadataDocument,
    /** The catalog's tag (sql/preparedCommits.ts), known once the catalog is read. */
    private readonly catalogTag: () => string,
    private readonly logger: Logger,
  ) {}

  /**
   * One look. `wait`: for the catalog lock (at start-up); otherwise a look that finds the lock taken
   * leaves what it found to the next one.
   */
  async recover(wait: boolean): Promise<Recovered> {
    const recovered: Recovered = { committed: [], rolledBack: [] };
    // Records first: a transaction recorded before the sources are asked, and gone from its source
    // then, was committed.
    const records = await q.run<PreparedRecord>(this.pool, q.readPreparedRecords);
    const leased: Found[] = [];
    try {
      const found = await this.preparedOnEach(sourcesOf(this.document()), leased);
      if (found.every((f) => f.gids.length === 0)) {
        const gone = finished(records, found);
        if (gone.length > 0) await q.run(this.pool, q.forgetPrepared(gone));
        return recovered;
      }
      return await this.settle(found, wait, recovered, leased);
    } finally {
      for (const f of leased) f.release();
    }
  }

  /** Under the catalog lock: commit what the catalog records, roll back the rest. */
  private async settle(found: readonly Found[], wait: boolean, recovered: Recovered, leased: Found[]): Promise<Recovered> {
    const client = await this.pool.connect();
    let ended = false;
    try {
      await q.run(client, q.begin);
      if (wait) await q.run(client, q.lockCatalog);
      else if (!(await q.run<{ locked: boolean }>(client, q.tryLockCatalog))[0]?.locked) return recovered;
      const decided = await q.run<PreparedRecord>(client, q.readPreparedRecords);
      const recorded = new Set(decided.map((r) => r.gid));
      const now = await this.preparedOnEach(
        found.map((f) => f.source),
        leased,
      );
      const settled = new Set<string>();
      for (const { source, pool, gids } of now) {
        // Two sources may name one database: each transaction is settled once.
        for (const gid of gids.filter((g) => !settled.has(g))) {
          settled.add(gid);
          const commit = recorded.has(gid);
          try {
            await q.run(pool, commit ? q.commitPrepared(gid) : q.rollbackPrepared(gid));
            (commit ? recovered.committed : recovered.rolledBack).push(gid);
            this.logger.log('warn', 'prepared-transactions', {
              source: source.name,
              gid,
              message: commit ? 'committed by recovery' : 'rolled back by recovery',
            });
          } catch (error) {
            this.logger.log('warn', 'prepared-transactions', { source: source.name, gid, error: String(error) });
          }
        }
      }
      const forget = [...recovered.committed, ...finished(decided, now)];
      if (forget.length > 0) await q.run(client, q.forgetPrepared(forget));
      await q.run(client, q.commit);
      ended = true;
      return recovered;
    } finally {
      if (!ended)
        ended = await q.run(client, q.rollback).then(
          () => true,
          () => false,
        );
      client.release(!ended);
    }
  }

  /** Look every LOOK_EVERY_MS until stopped. */
  start(): void {
    this.schedule(LOOK_EVERY_MS);
  }

  /** Look within a second (a commit of this server left something behind). */
  soon(): void {
    this.wanted = true;
    if (!this.running) this.schedule(LOOK_SOON_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.looking;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = true;
      this.wanted = false;
      this.looking = this.recover(false)
        .catch((error: unknown) => this.logger.log('warn', 'prepared-transactions', { error: String(error) }))
        .finally(() => {
          this.running = false;
          this.schedule(this.wanted ? LOOK_SOON_MS : LOOK_EVERY_MS);
        });
    }, ms);
    this.timer.unref();
  }

  /** Each source's prepared transactions of this catalog; every pool asked joins `leased`, to be given back by the caller. */
  private async preparedOnEach(sources: readonly SourceEntry[], leased: Found[]): Promise<Found[]> {
    return (await Promise.all(sources.map((source) => this.preparedOn(source, leased)))).flatMap((f) => (f ? [f] : []));
  }

  /** This catalog's prepared transactions on the source, or undefined when it does not answer. */
  private async preparedOn(source: SourceEntry, leased: Found[]): Promise<Found | undefined> {
    const lease = this.sourcePools.leasedPoolOf(source);
    if ('problem' in lease) return undefined;
    const found: Found = { source, pool: lease.pool, release: lease.release, gids: [] };
    leased.push(found);
    try {
      found.gids = (await q.run<{ gid: string }>(lease.pool, q.preparedHere(this.catalogTag()))).map((r) => r.gid);
      return found;
    } catch {
      return undefined;
    }
  }
}
