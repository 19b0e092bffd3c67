// A metadata request commits on every database it wrote to, or on none (decision
// dec.source.atomic-commit). The server's own database coordinates: the other sources' transactions
// that wrote are prepared and recorded in the catalog, the request's own COMMIT decides, and the
// prepared ones are committed after it. From its first PREPARE to its last COMMIT PREPARED the
// request holds the catalog lock, so that recovery (preparedRecovery.ts), which takes it too, never
// meets a request between its phases.
import { randomBytes } from 'node:crypto';
import { DatabaseError, type PoolClient } from 'pg';
import { isConnectionLoss } from '../db/connectionLoss';
import { engineError } from '../errors';
import * as q from '../sql';
import { giveBack } from './sessionReset';
import { pauseForTest } from './testPause';

/** A request's open transaction on another source. */
export interface SourceParticipant {
  name: string;
  client: PoolClient;
  /** Whether SQL of the request's ran in it: its session is reset before the connection is used again. */
  ranSql: boolean;
  /** The transaction guard armed on it (sql/sourceGuard.ts): disarmed before it commits or prepares. */
  guard?: { token: string; hash: string };
}

/** Who coordinates: the catalog and the server, both named in every gid. */
export interface Coordinator {
  catalogTag: string;
  serverId: string;
  /** Something prepared was left after the decision: recovery should look soon. */
  leftBehind(): void;
}

interface Prepared {
  participant: SourceParticipant;
  gid: string;
}

/**
 * Commit `own` (the request's transaction on the server's database, holding the catalog lock)
 * together with the participants; `ownEnded` is told when own's transaction is over. Throws when
 * nothing was committed: every participant is then rolled back and given back, own is left to the
 * caller while it is still open. When own's COMMIT loses its connection the outcome is unknown:
 * recovery settles the prepared transactions by what the catalog recorded.
 */
export async function commitTogether(
  own: PoolClient,
  participants: readonly SourceParticipant[],
  coordinator: Coordinator,
  ownEnded: () => void,
): Promise<void> {
  let writers: SourceParticipant[];
  let alone: boolean;
  try {
    await Promise.all(participants.map((p) => (p.guard ? q.run(p.client, q.disarmSourceGuard(p.guard.token, p.guard.hash)) : undefined)));
    const wrote = await Promise.all(participants.map((p) => hasWritten(p.client)));
    writers = participants.filter((_, i) => wrote[i]);
    // At most one database wrote: its own COMMIT is the decision, nothing needs preparing.
    alone = writers.length === 0 || (writers.length === 1 && !(await hasWritten(own)));
  } catch (error) {
    await endEach(participants, false);
    throw error;
  }
  const readers = participants.filter((p) => !writers.includes(p));
  if (alone) return commitPlainly(own, writers[0], readers, ownEnded);
  return commitPrepared(own, writers, readers, coordinator, ownEnded);
}

async function commitPlainly(own: PoolClient, writer: SourceParticipant | undefined, readers: SourceParticipant[], ownEnded: () => void): Promise<void> {
  if (writer) {
    try {
      await q.run(writer.client, q.commit);
    } catch (error) {
      await giveBack(writer.client, writer.ranSql, !isConnectionLoss(error));
      await endEach(readers, false);
      throw error;
    }
    await giveBack(writer.client, writer.ranSql, true);
  }
  try {
    await q.run(own, q.commit);
    ownEnded();
  } catch (error) {
    if (!isConnectionLoss(error)) ownEnded();
    await endEach(readers, false);
    // Own wrote nothing when a source did: that source's commit was the decision.
    if (!writer) throw error;
    return;
  }
  await endEach(readers, true);
}

async function commitPrepared(
  own: PoolClient,
  writers: SourceParticipant[],
  readers: SourceParticipant[],
  coordinator: Coordinator,
  ownEnded: () => void,
): Promise<void> {
  // Phase 1: every writer prepares; one that cannot undoes them all.
  const outcomes = await Promise.all(writers.map((participant) => prepare(participant, gidOf(coordinator))));
  const prepared = outcomes.flatMap((o) => ('gid' in o ? [o] : []));
  const refusal = outcomes.find((o): o is { error: unknown } => 'error' in o);
  try {
    if (refusal) throw refusal.error;
    await q.run(own, q.recordPrepared(prepared.map((p) => ({ gid: p.gid, source: p.participant.name }))));
    await q.run(own, q.holdCatalogLock);
  } catch (error) {
    await undo(prepared);
    await endEach(readers, false);
    throw error;
  }
  await pauseForTest('prepared');
  // The decision: the records are committed with it, or not at all.
  try {
    await q.run(own, q.commit);
  } catch (error) {
    if (isConnectionLoss(error)) {
      // Committed or not: recovery reads the records once the connection's lock is gone.
      coordinator.leftBehind();
      await Promise.all(prepared.map((p) => giveBack(p.participant.client, p.participant.ranSql, true)));
    } else {
      ownEnded();
      await undo(prepared);
      await q.run(own, q.releaseCatalogLock).catch(() => {});
    }
    await endEach(readers, false);
    throw error;
  }
  ownEnded();
  await pauseForTest('committed');
  // Phase 2: what fails here is left to recovery; the request has committed.
  const done = await Promise.all(
    prepared.map(async ({ participant, gid }) => {
      const committed = await q.run(participant.client, q.commitPrepared(gid)).then(
        () => true,
        () => false,
      );
      await giveBack(participant.client, participant.ranSql, true);
      return committed ? [gid] : [];
    }),
  );
  const committed = done.flat();
  if (committed.length < prepared.length) coordinator.leftBehind();
  await q.run(own, q.forgetPrepared(committed)).catch(() => coordinator.leftBehind());
  await q.run(own, q.releaseCatalogLock).catch(() => {});
  await endEach(readers, true);
}

/** Prepare the participant's transaction as `gid`; on failure, its transaction is over. */
async function prepare(participant: SourceParticipant, gid: string): Promise<Prepared | { error: unknown }> {
  const { client, ranSql, name } = participant;
  try {
    await q.run(client, q.prepareTransaction(gid));
    return { participant, gid };
  } catch (error) {
    // A failed PREPARE ends the transaction as a failed COMMIT does; the rollback makes sure.
    const ended = await q.run(client, q.rollback).then(
      () => true,
      () => false,
    );
    const refused = ended && (await preparingRefused(client, error));
    await giveBack(client, ranSql, ended);
    return { error: refused ? engineError('invalid-configuration.source-prepared-transactions', '$', [JSON.stringify(name)]) : error };
  }
}

/** Whether PREPARE failed because the source's PostgreSQL allows no prepared transactions. */
async function preparingRefused(client: PoolClient, error: unknown): Promise<boolean> {
  if (!(error instanceof DatabaseError) || error.code !== '55000') return false;
  const [row] = await q.run<{ allowed: boolean }>(client, q.preparedTransactionsAllowed).catch(() => []);
  return row?.allowed === false;
}

/** Roll back what was prepared; what cannot be is not recorded, so recovery rolls it back. */
async function undo(prepared: readonly Prepared[]): Promise<void> {
  await Promise.all(
    prepared.map(async ({ participant, gid }) => {
      await q.run(participant.client, q.rollbackPrepared(gid)).catch(() => {});
      await giveBack(participant.client, participant.ranSql, true);
    }),
  );
}

/** Commit (or roll back) each participant, failures aside, and give its connection back. */
export async function endEach(participants: readonly SourceParticipant[], commit: boolean): Promise<void> {
  await Promise.all(
    participants.map(async ({ client, ranSql }) => {
      const ended = await q.run(client, commit ? q.commit : q.rollback).then(
        () => true,
        () => false,
      );
      await giveBack(client, ranSql, ended);
    }),
  );
}

async function hasWritten(client: PoolClient): Promise<boolean> {
  const [row] = await q.run<{ xid: string | null }>(client, q.assignedTransactionId);
  return row?.xid != null;
}

const gidOf = ({ catalogTag, serverId }: Coordinator) => `${q.gidPrefix(catalogTag)}${serverId}_${randomBytes(8).toString('hex')}`;
