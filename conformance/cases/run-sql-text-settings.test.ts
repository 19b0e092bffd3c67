// run_sql's text is read by PostgreSQL as run_sql's transaction-control check reads it, whatever an
// earlier run_sql of the request set (decision dec.run_sql.text-settings): with
// standard_conforming_strings off, `'a\'` would end its string one quote later, and a COMMIT hidden
// in a string to the check would run; a client_encoding set before would read the bytes of the next
// text otherwise. On the server's own database and on a source alike.
import { caseNeeding, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const bulk = (...args: unknown[]) => target.metadata({ type: 'bulk', args }, { endpoint: '/v1/query' });
const runSql = (sql: string, source?: string) => ({ type: 'run_sql', args: { sql, ...(source ? { source } : {}) } });

// Read with standard_conforming_strings on, one SELECT of two strings; read with it off, a SELECT,
// a COMMIT, an INSERT and another SELECT.
const HIDDEN_COMMIT = "select 'a\\' , $$ ' ; commit ; insert into public.leak values (1) ; select $$ --' $$";

afterEach(async () => {
  await target.reset();
  await target.sql('drop table if exists public.leak');
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop table if exists public.leak');
});

test(
  covers(
    ['dec.run_sql.text-settings', 'op.run_sql', 'op.bulk'],
    "an earlier run_sql's settings do not change how the next text is read, on the server's own database",
  ),
  async () => {
    await target.sql('create table public.leak (n int)');
    const answer = await bulk(runSql('set standard_conforming_strings = off'), runSql(HIDDEN_COMMIT));
    expectResponse(answer, 200, [
      { result_type: 'CommandOk', result: null },
      {
        result_type: 'TuplesOk',
        result: [
          ['?column?', '?column?'],
          ['a\\', " ' ; commit ; insert into public.leak values (1) ; select "],
        ],
      },
    ]);
    expect(await target.sql('select count(*)::int as n from public.leak')).toEqual([{ n: 0 }]);
    const encoded = await bulk(runSql("set client_encoding = 'LATIN1'"), runSql("select 'é' as e"));
    expectResponse(encoded, 200, [
      { result_type: 'CommandOk', result: null },
      { result_type: 'TuplesOk', result: [['e'], ['é']] },
    ]);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.run_sql.text-settings', 'op.run_sql', 'dec.source.forms'],
  "an earlier run_sql's settings do not change how the next text is read, on a source",
  async () => {
    await second.sql('create table public.leak (n int)');
    expectResponse(
      await target.metadata({ type: 'pg_add_source', args: { name: 'other', configuration: { connection_info: { database_url: second.url } } } }),
      200,
    );
    const answer = await bulk(runSql('set standard_conforming_strings = off', 'other'), runSql(HIDDEN_COMMIT, 'other'), runSql('select 1 / 0'));
    expect([answer.status, (answer.body as { code: string }).code]).toEqual([400, 'postgres-error']);
    expect(await second.sql('select count(*)::int as n from public.leak')).toEqual([{ n: 0 }]);
    const read = await bulk(runSql('set standard_conforming_strings = off', 'other'), runSql(HIDDEN_COMMIT, 'other'));
    expectResponse(read, 200, [
      { result_type: 'CommandOk', result: null },
      {
        result_type: 'TuplesOk',
        result: [
          ['?column?', '?column?'],
          ['a\\', " ' ; commit ; insert into public.leak values (1) ; select "],
        ],
      },
    ]);
    expect(await second.sql('select count(*)::int as n from public.leak')).toEqual([{ n: 0 }]);
  },
);
