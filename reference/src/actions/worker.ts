// The action worker: takes the logged requests of asynchronous actions, calls their handlers,
// and settles each with the output or the errors. A request is tried once (as the engine does);
// a server that dies holding one gives it up at its deadline, and another server takes it.
import { PollingWorker } from '../events/polling';
import { ActionFailed, callHandler } from '../execute/actions';
import { actionsOf } from '../metadata/actions';
import * as q from '../sql';
import type { MetadataDocument } from '../../../spec';
import { tlsAllowlistOf } from '../metadata/network';

export class ActionWorker extends PollingWorker {
  protected readonly name = 'action-delivery';

  protected async poll(): Promise<number> {
    if (this.free <= 0) return 0;
    const longest = Math.max(30, ...actionsOf(this.document()).map((a) => a.definition.timeout));
    const rows = await q.run<q.ActionLogRow>(
      this.pool,
      q.claimActionRequests(this.free, this.holding(longest + this.settings.lockMarginSeconds), this.instance, this.held),
    );
    if (rows.length === 0) return 0;
    const document = await this.currentDocument();
    for (const row of rows) this.track(row.id, this.deliver(row, document));
    return rows.length;
  }

  protected async release(): Promise<void> {
    await q.run(this.pool, q.releaseActionRequests(this.instance));
  }

  protected async keepHolds(ids: readonly string[], seconds: number): Promise<void> {
    await q.run(this.pool, q.keepActionHolds(this.instance, ids, seconds));
  }

  private async deliver(row: q.ActionLogRow, document: MetadataDocument): Promise<void> {
    const action = actionsOf(document).find((a) => a.name === row.action_name);
    let outcome: { output: unknown } | { errors: unknown };
    if (!action) {
      outcome = { errors: { message: `the action ${JSON.stringify(row.action_name)} no longer exists`, extensions: { path: '$', code: 'not-exists' } } };
    } else {
      try {
        const answer = await callHandler(
          action,
          { input: row.input, session: row.session_variables, headers: {}, requestQuery: row.request_query },
          this.env,
          tlsAllowlistOf(document),
        );
        outcome = 'output' in answer ? { output: answer.output } : { errors: answer.errors };
      } catch (error) {
        if (!(error instanceof ActionFailed)) throw error;
        outcome = { errors: { message: error.message, extensions: error.extensions } };
      }
    }
    await q.run(this.pool, q.settleActionRequest(row.id, this.instance, outcome));
    this.logger.log('info', 'action-delivery', { id: row.id, action: row.action_name, outcome: 'output' in outcome ? 'completed' : 'error' });
  }
}
