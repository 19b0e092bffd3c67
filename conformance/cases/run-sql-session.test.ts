// What run_sql's text leaves in its session (decision dec.run_sql.session): a search_path, a setting,
// a temporary table, a prepared statement hold for the rest of the request, the later members of a
// bulk, and reach no later request. An engine keeps connections in a pool, and the next request
// is most likely to get the one given back last: each leaving is looked at by the next request,
// several times over.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const runSql = (sql: string, extra: Record<string, unknown> = {}) => ({ type: 'run_sql', args: { sql, ...extra } });
const query = (envelope: unknown) => target.metadata(envelope, { endpoint: '/v1/query' });

/** The session as the server opened it: its search_path and settings, no temporary table, no statement PREPAREd. */
const LOOK = `select current_setting('search_path') = (select reset_val from pg_settings where name = 'search_path') as own_path,
  coalesce(current_setting('session_probe.left', true), '') = '' as own_settings,
  to_regclass('pg_temp.session_left') is null as no_temp,
  (select count(*) from pg_prepared_statements where from_sql) as prepared`;
const clean = {
  result_type: 'TuplesOk',
  result: [
    ['own_path', 'own_settings', 'no_temp', 'prepared'],
    ['t', 't', 't', '0'],
  ],
};
const LEAVE = `set search_path to session_probe, public; select set_config('session_probe.left', 'yes', false);
  create temp table session_left (x int); prepare session_left as select 41 + 1 as answer`;

beforeEach(async () => {
  await target.sql(`drop schema if exists session_probe cascade; create schema session_probe;
    create table session_probe.marker (here text); insert into session_probe.marker values ('probe')`);
});
afterEach(async () => {
  await target.reset();
  await target.sql('drop schema if exists session_probe cascade');
});

test(
  covers(['dec.run_sql.session', 'op.run_sql', 'op.bulk'], "a bulk's later members see what its run_sql left in the session; the next request does not"),
  async () => {
    for (let i = 0; i < 4; i++) {
      const leaving = await query({
        type: 'bulk',
        args: [
          runSql(LEAVE),
          runSql(
            "select (select here from marker) as here, current_schema() as schema, (select count(*) from session_left) as temp, current_setting('session_probe.left') as left",
          ),
          runSql('execute session_left'),
        ],
      });
      expectResponse(leaving, 200, [
        { result_type: 'CommandOk', result: null },
        {
          result_type: 'TuplesOk',
          result: [
            ['here', 'schema', 'temp', 'left'],
            ['probe', 'session_probe', '0', 'yes'],
          ],
        },
        { result_type: 'TuplesOk', result: [['answer'], ['42']] },
      ]);
      expectResponse(await query(runSql(LOOK)), 200, clean);
      // The statement, the table and the path are gone for a bulk too.
      expectResponse(await query({ type: 'bulk', args: [runSql(LOOK)] }), 200, [clean]);
    }
  },
);

test(
  covers(['dec.run_sql.session', 'op.run_sql', 'op.bulk', 'op.select'], 'the same for a run_sql among other operations of a bulk, and after them'),
  async () => {
    const marker = { schema: 'session_probe', name: 'marker' };
    expectResponse(await target.metadata({ type: 'track_table', args: { table: marker } }), 200, { message: 'success' });
    const select = { type: 'select', args: { table: marker, columns: ['here'] } };
    for (let i = 0; i < 4; i++) {
      const leaving = await query({ type: 'bulk', args: [select, runSql(LEAVE), runSql('execute session_left'), select] });
      expectResponse(leaving, 200, [
        [{ here: 'probe' }],
        { result_type: 'CommandOk', result: null },
        { result_type: 'TuplesOk', result: [['answer'], ['42']] },
        [{ here: 'probe' }],
      ]);
      expectResponse(await query(runSql(LOOK)), 200, clean);
      // Nor a request that runs no user SQL, nor one after it.
      expectResponse(await query({ type: 'bulk', args: [select] }), 200, [[{ here: 'probe' }]]);
      expectResponse(await query({ type: 'bulk', args: [select, runSql(LOOK)] }), 200, [[{ here: 'probe' }], clean]);
    }
  },
);

test(
  covers(['dec.run_sql.session', 'dec.run_sql.read-only', 'op.bulk'], 'a read_only run_sql in a bulk leaves nothing to the next request either'),
  async () => {
    for (let i = 0; i < 4; i++) {
      const leaving = await query({
        type: 'bulk',
        args: [runSql("set search_path to session_probe, public; prepare session_left as select 'ro' as answer", { read_only: true })],
      });
      expectResponse(leaving, 200, [{ result_type: 'CommandOk', result: null }]);
      expectResponse(await query(runSql(LOOK)), 200, clean);
    }
  },
);
