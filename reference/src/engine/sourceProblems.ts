// The sources of a document whose database cannot be reached now: inconsistent objects of type
// source, in the engine's words (decision dec.source.forms).
import type { Pool } from 'pg';
import { formatMessage, type MetadataDocument, type SourceEntry } from '../../../spec';
import type { SourcePools } from '../db/sourcePools';
import { engineError, type EngineError } from '../errors';
import type { InconsistentObject } from '../metadata/inconsistency';
import { sourcesOf } from '../metadata/sources';
import * as q from '../sql';
import type { SourceTransactions } from './sourceTransactions';

export async function sourceProblemsOf(
  pools: SourcePools,
  document: MetadataDocument,
  only: readonly string[] | undefined,
  holds: (name: string, pool: Pool) => boolean,
): Promise<InconsistentObject[]> {
  const sources = sourcesOf(document).filter((s) => !only || only.includes(s.name));
  const problems = await Promise.all(sources.map((s) => problemOf(pools, s, holds)));
  return sources.flatMap((s, i): InconsistentObject[] => {
    const message = problems[i];
    return message === undefined
      ? []
      : [{ type: 'source', name: `source ${s.name}`, definition: s.name, reason: formatMessage('err.invalid-configuration.source-connection'), message }];
  });
}

/**
 * Why the source does not answer, or undefined. A connection already open to it answers for it: the
 * one the request holds there, or one idle in its pool; a new connection is opened only without
 * them (or when the idle one fails, to say why), so that checks neither churn connections nor
 * need one more than the source's pool and the database allow.
 */
async function problemOf(pools: SourcePools, source: SourceEntry, holds: (name: string, pool: Pool) => boolean): Promise<string | undefined> {
  const pool = pools.openPoolOf(source);
  if (pool && holds(source.name, pool)) return pools.replicasProblem(source);
  if (pool && pool.idleCount > 0) {
    try {
      await q.run(pool, q.ping);
      return pools.replicasProblem(source);
    } catch {
      // Asked again below on a connection of its own, which says why.
    }
  }
  return pools.problemOf(source);
}

/** What a change that brings unreachable sources is refused with. */
export const sourceConnectionError = (objects: readonly InconsistentObject[]): EngineError =>
  engineError('invalid-configuration.source-connection', '$.args', [], objects);

/**
 * Refuse the first of these sources whose PostgreSQL cannot prepare transactions: a request that
 * writes to it and to another database could not commit on both (decision dec.source.atomic-commit).
 * Asked through the request's own transaction there; one that does not answer is left to the
 * connection checks (refused, or an inconsistent object where the request accepts them).
 */
export async function refuseUnprepared(
  document: MetadataDocument,
  names: readonly string[],
  transactions: SourceTransactions,
  pools: SourcePools,
): Promise<void> {
  for (const source of sourcesOf(document).filter((s) => names.includes(s.name))) {
    const client = await transactions.client(source.name, () => pools.poolOf(source)).catch(() => undefined);
    if (!client) continue;
    const [row] = await q.run<{ allowed: boolean }>(client, q.preparedTransactionsAllowed);
    if (row?.allowed === false) throw engineError('invalid-configuration.source-prepared-transactions', '$.args', [JSON.stringify(source.name)]);
  }
}
