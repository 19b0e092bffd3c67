// Plans of another source (decision dec.source.forms) run on its pools: writes on its primary,
// reads on a read replica when it has any. A read a replica cannot serve runs on the primary.
import { DatabaseError } from 'pg';
import { ConnectionLost } from './answers';

/** What a source's pools need here: whether they are a read replica's, which is then left aside. */
interface SourcePoolsOf<P> {
  sourcePools?: (source: string, write: boolean) => (P & { unreachable?: () => void; release?: () => void }) | undefined;
}

/**
 * Run on another source's pools. A read that a read replica could not serve (it did not answer, or
 * lost the connection) runs again on the source's primary: never a failure while the primary serves.
 */
export async function onSource<P>(pools: SourcePoolsOf<P>, source: string, write: boolean, run: (where: P) => Promise<string>): Promise<string> {
  const where = pools.sourcePools?.(source, write);
  if (!where) throw new ConnectionLost();
  try {
    return await run(where);
  } catch (error) {
    if (write || !replicaUnavailable(error) || !where.unreachable) throw error;
    where.unreachable();
    const primary = pools.sourcePools?.(source, true);
    if (!primary) throw error;
    try {
      return await run(primary);
    } finally {
      primary.release?.();
    }
  } finally {
    // Held until the work is done: a metadata change meanwhile ends them only then (decision dec.source.in-flight).
    where.release?.();
  }
}

/**
 * A read replica that could not serve: the connection was lost or refused, or PostgreSQL refused the
 * session itself (a connection exception, the database or the credentials, shutting down, too many
 * connections), as opposed to a failure of the statement.
 */
function replicaUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionLost) return true;
  return error instanceof DatabaseError && /^(08|28|3D|57P|53)/.test(error.code ?? '');
}
