// run_sql's connection serves the next request once its session is as it was opened: what the user's
// SQL left in the session (settings, temporary tables, advisory locks, LISTEN, prepared statements,
// cursors) goes, and the connection is not closed for it.
import { useTarget } from '../../../conformance/harness/target';

const target = useTarget();

const runSql = async (sql: string, extra: Record<string, unknown> = {}) => {
  const r = await target.request('POST', '/v2/query', { body: { type: 'run_sql', args: { sql, ...extra } }, headers: target.adminHeaders() });
  expect(r.status).toBe(200);
  return (r.body as { result: string[][] }).result;
};
/** run_sql as the last member of a bulk whose first member runs no SQL of the user's. */
const inBulk = async (sql: string) => {
  const members = [
    { type: 'export_metadata', args: {} },
    { type: 'run_sql', args: { sql } },
  ];
  const r = await target.request('POST', '/v1/query', { body: { type: 'bulk', args: members }, headers: target.adminHeaders() });
  expect(r.status).toBe(200);
  return (r.body as [unknown, { result: string[][] }])[1].result;
};

const LEAVE = `
  set work_mem = '7MB';
  select set_config('engine.left_behind', 'yes', false);
  create temp table left_behind (x int);
  select pg_advisory_lock(4242);
  listen left_behind;
  prepare left_behind as select 1;
  declare left_behind cursor with hold for select 1;
  select pg_backend_pid()::text`;

const LOOK = `select pg_backend_pid()::text,
  current_setting('work_mem'),
  coalesce(current_setting('engine.left_behind', true), ''),
  (to_regclass('pg_temp.left_behind') is null)::text,
  (select count(*) from pg_locks where locktype = 'advisory' and objid = 4242 and objsubid = 1 and pid = pg_backend_pid())::text,
  (select count(*) from pg_listening_channels())::text,
  (select count(*) from pg_prepared_statements where from_sql)::text,
  (select count(*) from pg_cursors)::text`;

/**
 * Leaves state in a session, then looks at the session the next run_sql gets. Other work of the
 * server may take the connection in between: tried until the same connection comes back.
 */
async function leaveThenLook(options: Record<string, unknown>, leave: (sql: string) => Promise<string[][]> = (sql) => runSql(sql, options)): Promise<string[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const left = (
      await leave(LEAVE.replace('create temp table left_behind (x int);', options.read_only ? '' : 'create temp table left_behind (x int);'))
    ).slice(1)[0]![0]!;
    const [seen] = (await runSql(LOOK, options)).slice(1);
    if (seen![0] === left) return seen!.slice(1);
  }
  throw new Error('run_sql never came back to the connection it used before: the connection was closed after user SQL');
}

test('after run_sql, its connection is used again with nothing the SQL left in the session', async () => {
  expect(await leaveThenLook({})).toEqual(['4MB', '', 'true', '0', '0', '0', '0']);
});

test('the same after a read-only run_sql', async () => {
  expect(await leaveThenLook({ read_only: true })).toEqual(['4MB', '', 'true', '0', '0', '0', '0']);
});

test('the same after a run_sql in a bulk with other operations', async () => {
  expect(await leaveThenLook({}, inBulk)).toEqual(['4MB', '', 'true', '0', '0', '0', '0']);
});

test('connections are not opened anew for each run_sql', async () => {
  const pids = new Set<string>();
  for (let i = 0; i < 10; i++) pids.add((await runSql('select pg_backend_pid()::text')).slice(1)[0]![0]!);
  // The server's other work (event and cron workers) may take a connection now and then.
  expect(pids.size).toBeLessThanOrEqual(3);
});

test('a connection the SQL ended is not given back: the next run_sql gets another', async () => {
  const r = await target.request('POST', '/v2/query', {
    body: { type: 'run_sql', args: { sql: 'select pg_terminate_backend(pg_backend_pid())' } },
    headers: target.adminHeaders(),
  });
  expect({ status: r.status, body: r.body }).toEqual({
    status: 500,
    body: { code: 'postgres-error', error: 'connection error', internal: { message: 'terminating connection due to administrator command' }, path: '$' },
  });
  expect(await runSql('select 1 as one')).toEqual([['one'], ['1']]);
});

test('a run_sql its SQL refused is rolled back and its connection used again', async () => {
  const pids = new Set<string>();
  for (let attempt = 0; attempt < 5; attempt++) {
    const r = await target.request('POST', '/v2/query', {
      body: { type: 'run_sql', args: { sql: "create temp table refused_left (x int); do $$ begin raise exception 'pid %', pg_backend_pid(); end $$" } },
      headers: target.adminHeaders(),
    });
    expect(r.status).toBe(400);
    const refusedOn = /pid (\d+)/.exec(JSON.stringify(r.body))![1]!;
    pids.add(refusedOn);
    // Answered at all: its transaction is not the refused one, aborted. The temporary table went with it.
    const [seen] = (await runSql("select pg_backend_pid()::text, (to_regclass('pg_temp.refused_left') is null)::text")).slice(1);
    expect(seen![1]).toBe('true');
    if (seen![0] === refusedOn) return;
  }
  throw new Error(`run_sql never came back to a connection a refused run_sql used (${[...pids].join(', ')}): it was closed`);
});
