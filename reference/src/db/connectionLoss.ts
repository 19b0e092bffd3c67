// A database that went away (restart, failover, pg_terminate_backend) must never take the server
// with it: every pool and client has an error listener, and a lost connection is told apart from a
// refusal of the SQL itself.
import { DatabaseError, Pool, type PoolConfig } from 'pg';

/**
 * Whether an error means the database could not be reached or dropped the connection: SQLSTATE
 * class 08, an administrator's or crash shutdown (57P01–57P03), or node-postgres's own socket and
 * "Connection terminated" errors. Refusals of the SQL are DatabaseErrors of other classes.
 */
export function isConnectionLoss(error: unknown): boolean {
  // Only a FATAL answer ends the session: an ERROR of class 08 is a statement's own failure on a
  // connection that goes on (dblink's "could not establish connection" to another database, a bind
  // message that does not fit), not the loss of this one.
  if (error instanceof DatabaseError) {
    const ends = error.severity === 'FATAL' || error.severity === 'PANIC';
    return ends && ((error.code ?? '').startsWith('08') || ['57P01', '57P02', '57P03'].includes(error.code ?? ''));
  }
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND)$/.test(code)) return true;
  return typeof message === 'string' && /^Connection terminated|^Client has encountered a connection error|^Client was closed/.test(message);
}

/**
 * A pool whose clients never raise an unhandled `error` event: pg emits one on a checked-out
 * client whose connection drops between queries, and Node ends the process for it. The failure
 * surfaces instead on the client's next query, and the pool drops the client when it comes back.
 */
export function resilientPool(config: PoolConfig, onLoss: (error: Error) => void = () => {}): Pool {
  const pool = new Pool(config);
  pool.on('error', onLoss);
  pool.on('connect', (client) => client.on('error', onLoss));
  return pool;
}
