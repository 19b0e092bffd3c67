// Where each operation of a metadata request runs, decided from the operation alone (commitRouting.ts).
import { EngineError, engineError } from '../errors';
import type { OperationHandler } from '../operations/context';
import type { ParsedOperation } from '../operations/envelope';
import { handlerOf, memberError, runsUserSql, sourcePartOf, takesRelationshipTargets } from './commitRouting';

const op = (type: string, extra: Partial<ParsedOperation> = {}): ParsedOperation => ({ type, version: 1, args: {}, path: '$', ...extra });
const runSql = (args: Record<string, unknown> = {}, path = '$'): ParsedOperation => op('run_sql', { args: { sql: 'select 1', ...args }, path });
const bulk = (children: ParsedOperation[] | undefined, path = '$'): ParsedOperation => op('bulk', { args: [], path, ...(children ? { children } : {}) });

describe('runsUserSql: whether the request runs SQL of its own', () => {
  test('run_sql does, unless it is read_only: true', () => {
    expect(runsUserSql(runSql())).toBe(true);
    expect(runsUserSql(runSql({ read_only: false }))).toBe(true);
    expect(runsUserSql(runSql({ read_only: true }))).toBe(false);
  });

  test('read_only counts only when it is true itself, not a truthy stand-in', () => {
    expect(runsUserSql(runSql({ read_only: 'true' }))).toBe(true);
    expect(runsUserSql(runSql({ read_only: 1 }))).toBe(true);
  });

  test('an operation that is not run_sql does not, whatever its arguments', () => {
    expect(runsUserSql(op('track_table', { args: { table: 'authors', sql: 'select 1' } }))).toBe(false);
    expect(runsUserSql(op('export_metadata'))).toBe(false);
  });

  test('a bulk does when any member does, at any depth', () => {
    expect(runsUserSql(bulk([op('export_metadata'), runSql()]))).toBe(true);
    expect(runsUserSql(bulk([runSql(), op('export_metadata')]))).toBe(true);
    expect(runsUserSql(bulk([op('track_table'), bulk([op('export_metadata'), runSql()])]))).toBe(true);
  });

  test('a bulk does not when its only run_sql members are read-only, nor when it is empty', () => {
    expect(runsUserSql(bulk([runSql({ read_only: true }), op('export_metadata')]))).toBe(false);
    expect(runsUserSql(bulk([bulk([runSql({ read_only: true })])]))).toBe(false);
    expect(runsUserSql(bulk([]))).toBe(false);
    expect(runsUserSql(bulk(undefined))).toBe(false);
  });

  test('a read-only run_sql beside one that writes still counts', () => {
    expect(runsUserSql(bulk([runSql({ read_only: true }), runSql()]))).toBe(true);
  });
});

describe('sourcePartOf: the source whose part of the request runs the operation', () => {
  test("an operation naming another source runs on that source's part", () => {
    expect(sourcePartOf(op('pg_track_table', { source: 'second' }))).toBe('second');
    expect(sourcePartOf(op('pg_create_select_permission', { source: 'third' }))).toBe('third');
  });

  test("one naming no source, or the default source, runs on the server's own database", () => {
    expect(sourcePartOf(op('pg_track_table'))).toBeUndefined();
    expect(sourcePartOf(op('pg_track_table', { source: 'default' }))).toBeUndefined();
  });

  test('run_sql runs on the catalog whatever source it names: it routes its SQL itself', () => {
    expect(sourcePartOf(op('run_sql', { source: 'second' }))).toBeUndefined();
  });

  test.each(['invoke_event_trigger', 'pause_event_trigger', 'resume_event_trigger', 'redeliver_event', 'get_event_logs', 'get_event_invocation_logs'])(
    '%s runs on the catalog, which keeps the event logs of every source',
    (type) => expect(sourcePartOf(op(type, { source: 'second' }))).toBeUndefined(),
  );

  test('the other event-trigger operations go to the source they name', () => {
    expect(sourcePartOf(op('pg_create_event_trigger', { source: 'second' }))).toBe('second');
    expect(sourcePartOf(op('pg_delete_event_trigger', { source: 'second' }))).toBe('second');
  });
});

describe('takesRelationshipTargets: whether the operation may take away what a to_source relationship leads to', () => {
  test('untrack_table, pg_drop_source and run_sql may', () => {
    expect(takesRelationshipTargets(op('untrack_table'))).toBe(true);
    expect(takesRelationshipTargets(op('pg_drop_source'))).toBe(true);
    expect(takesRelationshipTargets(op('run_sql'))).toBe(true);
  });

  test('operations that add, or take away something else, may not', () => {
    expect(takesRelationshipTargets(op('track_table'))).toBe(false);
    expect(takesRelationshipTargets(op('pg_add_source'))).toBe(false);
    expect(takesRelationshipTargets(op('drop_relationship'))).toBe(false);
    expect(takesRelationshipTargets(op('bulk'))).toBe(false);
  });
});

describe('handlerOf: the handler of an operation type', () => {
  const trackTable: OperationHandler = async () => 'tracked';
  const handlers: Readonly<Record<string, OperationHandler>> = { track_table: trackTable };

  test('a type with a handler gets that handler', () => {
    expect(handlerOf('track_table', handlers)).toBe(trackTable);
  });

  test('a type without one is refused as not supported, at $.type', () => {
    let refused: unknown;
    try {
      handlerOf('pg_track_logical_model', handlers);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).toBody()).toEqual({
      path: '$.type',
      error: 'the operation pg_track_logical_model is not supported by this server yet',
      code: 'not-supported',
    });
    expect((refused as EngineError).status).toBe(400);
  });
});

describe("memberError: a bulk member's refusal, at the member's place", () => {
  const member = runSql({}, '$.args[1]');

  test('a refusal at the root or below $ of the member is reported below the member', () => {
    expect((memberError(engineError('not-exists.source', '$.args', ['"x"']), member) as EngineError).path).toBe('$.args[1].args');
    expect((memberError(engineError('conflict', '$', ['3']), member) as EngineError).path).toBe('$.args[1]');
  });

  test('a refusal that names its place in the bulk already stays there', () => {
    const placed = engineError('not-exists.source', '$.args[1].args', ['"x"']);
    expect(memberError(placed, member)).toBe(placed);
    const nested = engineError('not-exists.source', '$.args[1].args[0].args', ['"x"']);
    expect(memberError(nested, member)).toBe(nested);
  });

  test('the message, code and status go with it unchanged', () => {
    const moved = memberError(engineError('not-exists.source', '$.args', ['"x"']), member) as EngineError;
    expect(moved.toBody()).toEqual({ path: '$.args[1].args', error: 'source with name "x" does not exist', code: 'not-exists' });
    expect(moved.status).toBe(400);
  });

  test('an error that is not a refusal of ours passes unchanged', () => {
    const failure = new Error('connection terminated');
    expect(memberError(failure, member)).toBe(failure);
    expect(memberError('thrown text', member)).toBe('thrown text');
  });
});
