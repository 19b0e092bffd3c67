// Events captured in other sources' databases (decision dec.source.forms): each poll of the event
// worker moves what a source with event triggers captured into the catalog's event log, where it is
// delivered as any other event. The source's rows go only when the log has them: a move whose
// source commit is lost is taken again, and the log keeps one of each (by the event's id).
import type { Pool } from 'pg';
import type { MetadataDocument, SourceEntry } from '../../../spec';
import { eventTriggersOf } from '../metadata/eventTriggers';
import { sourcesOf, sourceView } from '../metadata/sources';
import * as q from '../sql';

/** At most this many events are moved from one source per poll. */
const MOVE_AT_MOST = 500;

export class SourceEventMover {
  constructor(
    /** The server's own database, with the event log. */
    private readonly catalog: Pool,
    private readonly pools: { poolOf(source: SourceEntry): Pool | { problem: string } },
    private readonly document: () => MetadataDocument,
  ) {}

  /** Move what each source with event triggers captured. A source that does not answer waits for the next poll. */
  async move(): Promise<void> {
    const document = this.document();
    for (const source of sourcesOf(document)) {
      if (eventTriggersOf(sourceView(document, source.name)).length === 0) continue;
      const pool = this.pools.poolOf(source);
      if ('problem' in pool) continue;
      await this.moveFrom(pool).catch(() => {});
    }
  }

  private async moveFrom(pool: Pool): Promise<void> {
    const client = await pool.connect();
    try {
      await q.run(client, q.begin);
      const [setup] = await q.run<{ present: boolean }>(client, q.hasSourceCapture);
      const rows = setup!.present ? await q.run<q.CapturedEvent>(client, q.takeCaptured(MOVE_AT_MOST)) : [];
      if (rows.length > 0) await q.run(this.catalog, q.logCaptured(rows));
      await q.run(client, q.commit);
    } catch (error) {
      await q.run(client, q.rollback).catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
