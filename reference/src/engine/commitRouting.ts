// Where each operation of a metadata request runs, decided from the operation alone (metadataCommit.ts
// runs it there): the members of a bulk one by one, each refusal reported at the member's place; an
// operation naming another source on that source's part (decision dec.source.forms), any other on
// the server's own database; and whether the request runs SQL of its own, whose connection then goes
// back to the pool reset (sessionReset.ts).
import { DEFAULT_SOURCE } from '../../../spec';
import { engineError, EngineError } from '../errors';
import type { OperationHandler } from '../operations/context';
import type { ParsedOperation } from '../operations/envelope';

/** Whether the operation runs SQL of the request's own in the request's transaction (a bulk: any member, at any depth). */
export function runsUserSql(operation: ParsedOperation): boolean {
  if (operation.type === 'run_sql') return (operation.args as { read_only?: boolean }).read_only !== true;
  return (operation.children ?? []).some(runsUserSql);
}

/** Operations with a `source` that act on the server's own database: run_sql (routed by itself), and the event logs, kept in the catalog for every source. */
const ON_THE_CATALOG = new Set([
  'run_sql',
  'invoke_event_trigger',
  'pause_event_trigger',
  'resume_event_trigger',
  'redeliver_event',
  'get_event_logs',
  'get_event_invocation_logs',
]);

/** The source on whose part of the request the operation runs (engine/sourceLens.ts), or undefined: the server's own database. */
export function sourcePartOf(operation: ParsedOperation): string | undefined {
  const { source, type } = operation;
  // An operation that names no source gets its `source` back: undefined, the server's own database too.
  return source !== DEFAULT_SOURCE && !ON_THE_CATALOG.has(type) ? source : undefined;
}

/** Operations that take away what a to_source relationship may lead to (run_sql: by dropping a tracked table). */
const TAKES_TARGETS = new Set(['untrack_table', 'pg_drop_source', 'run_sql']);

/** Whether the relationships that lead to what the operation took away are settled after it (decision dec.remote-relationship.to-source). */
export function takesRelationshipTargets(operation: ParsedOperation): boolean {
  return TAKES_TARGETS.has(operation.type);
}

/** The handler of an operation type; a type this server does not implement is refused (decision not-supported.not-implemented). */
export function handlerOf(type: string, handlers: Readonly<Record<string, OperationHandler>>): OperationHandler {
  const handler = handlers[type] as OperationHandler | undefined;
  if (!handler) throw engineError('not-supported.not-implemented', '$.type', [`the operation ${type}`]);
  return handler;
}

/** What a bulk member threw, a refusal reported below the member's place (unless it names that place already). */
export function memberError(error: unknown, member: ParsedOperation): unknown {
  return error instanceof EngineError && !error.path.startsWith(member.path) ? error.under(member.path) : error;
}
