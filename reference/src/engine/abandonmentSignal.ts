// The AbortSignal of a metadata request's abandonment, for what takes one (the introspection of its
// remotes): made once a request here, as execute/abandonment.ts says why not for every query.
import type { Abandonment } from '../execute/abandonment';

/** An AbortSignal that aborts when the client goes away (at once when it has gone already), or none without an abandonment. */
export function abortSignalOf(gone: Abandonment | undefined): AbortSignal | undefined {
  if (!gone) return undefined;
  const controller = new AbortController();
  if (gone.abandoned) controller.abort();
  else gone.onAbandon(() => controller.abort());
  return controller.signal;
}
