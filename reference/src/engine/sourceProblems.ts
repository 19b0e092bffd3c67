// The sources of a document whose database cannot be reached now: inconsistent objects of type
// source, in the engine's words (decision dec.source.forms).
import { formatMessage, type MetadataDocument } from '../../../spec';
import type { SourcePools } from '../db/sourcePools';
import { engineError, type EngineError } from '../errors';
import type { InconsistentObject } from '../metadata/inconsistency';
import { sourcesOf } from '../metadata/sources';

export async function sourceProblemsOf(pools: SourcePools, document: MetadataDocument, only?: readonly string[]): Promise<InconsistentObject[]> {
  const sources = sourcesOf(document).filter((s) => !only || only.includes(s.name));
  const problems = await Promise.all(sources.map((s) => pools.problemOf(s)));
  return sources.flatMap((s, i): InconsistentObject[] => {
    const message = problems[i];
    return message === undefined
      ? []
      : [{ type: 'source', name: `source ${s.name}`, definition: s.name, reason: formatMessage('err.invalid-configuration.source-connection'), message }];
  });
}

/** What a change that brings unreachable sources is refused with. */
export const sourceConnectionError = (objects: readonly InconsistentObject[]): EngineError =>
  engineError('invalid-configuration.source-connection', '$.args', [], objects);
