// Which transaction access mode an operation needs (decision err.bad-request.access-mode): a bulk
// runs in one transaction, so its members must agree before any of them runs.
import { engineError, type EngineError } from '../errors';
import type { ParsedOperation } from './parsedOperation';

export type AccessMode = 'READ ONLY' | 'READ WRITE';

/** Operations that only read, and run in a transaction of either mode. */
const READS = new Set(['select', 'count', 'export_metadata', 'get_inconsistent_metadata', 'get_catalog_state']);

/** The mode an operation needs, or undefined when either will do. */
export function accessModeOf(operation: ParsedOperation): AccessMode | undefined {
  if (operation.type === 'bulk') return combine(operation).mode;
  if (operation.type === 'run_sql') return (operation.args as { read_only?: boolean }).read_only === true ? 'READ ONLY' : 'READ WRITE';
  return READS.has(operation.type) ? undefined : 'READ WRITE';
}

/** The members of a bulk, and of the bulks in it, in order. */
const members = (operation: ParsedOperation): ParsedOperation[] => (operation.type === 'bulk' ? (operation.children ?? []).flatMap(members) : [operation]);

/** The first member that needs a mode sets it; the first that needs the other is the problem. */
function combine(bulk: ParsedOperation): { mode?: AccessMode; problem?: EngineError } {
  let mode: AccessMode | undefined;
  for (const member of members(bulk)) {
    const needs = accessModeOf(member);
    if (needs === undefined) continue;
    if (mode === undefined) mode = needs;
    else if (needs !== mode) return { mode, problem: engineError('bad-request.access-mode', '$', [mode, member.path, needs]) };
  }
  return mode ? { mode } : {};
}

/** The refusal of a bulk whose members need different modes, or undefined. */
export function accessModeProblem(bulk: ParsedOperation): EngineError | undefined {
  return combine(bulk).problem;
}
