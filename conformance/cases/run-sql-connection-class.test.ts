// A statement of run_sql that fails with an error of PostgreSQL's connection class (08: dblink's
// "could not establish connection" to another database, or the user's own RAISE … USING ERRCODE)
// on a connection that goes on is the statement's failure: 400 postgres-error with PostgreSQL's
// fields (decision dec.run_sql.errors), never a 5xx, and the next request runs as usual.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const runSql = (sql: string) => target.metadata({ type: 'run_sql', args: { sql } }, { endpoint: '/v1/query' });

test(covers(['op.run_sql', 'dec.run_sql.errors'], "a statement's own connection-class error is a 400 of that statement, and the server goes on"), async () => {
  const sql = "do $$ begin raise exception using errcode = '08001', message = 'could not establish connection'; end $$";
  expectResponse(await runSql(sql), 400, {
    path: '$.args',
    error: 'query execution failed',
    code: 'postgres-error',
    internal: {
      statement: sql,
      prepared: false,
      arguments: [],
      error: { exec_status: 'FatalError', status_code: '08001', message: 'could not establish connection', description: null, hint: null },
    },
  });
  expectResponse(await runSql('select 1 as one'), 200, { result_type: 'TuplesOk', result: [['one'], ['1']] });
});
