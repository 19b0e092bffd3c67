// A database whose own defaults read SQL text otherwise (ALTER DATABASE … SET
// standard_conforming_strings = off): run_sql's text is still read as its transaction-control check
// reads it, on every connection, the first run_sql of a connection included.
import { useDatabase } from '../../../conformance/harness/database';
import { startOwnServer } from '../../../conformance/harness/ownServer';
import type { RunningServer } from '../server';

const db = useDatabase('all');
let server: RunningServer;

// Read with standard_conforming_strings on, one SELECT of two strings; read with it off, a SELECT,
// a COMMIT, an INSERT and another SELECT.
const HIDDEN_COMMIT = "select 'a\\' , $$ ' ; commit ; insert into public.leak values (1) ; select $$ --' $$";

beforeAll(async () => {
  await db.client.query(`do $$ begin execute format('alter database %I set standard_conforming_strings = off', current_database()); end $$`);
  await db.client.query('create table public.leak (n int)');
  server = await startOwnServer(db.url, {});
});
afterAll(async () => {
  await server?.close();
});

test('run_sql on a database whose default has standard_conforming_strings off reads strings with it on: a COMMIT in a string stays a string [dec.run_sql.text-settings]', async () => {
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${server.url}/v2/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engine-role': 'admin' },
      body: JSON.stringify({ type: 'run_sql', args: { sql: HIDDEN_COMMIT } }),
    });
    expect({ status: r.status, body: await r.json() }).toEqual({
      status: 200,
      body: {
        result_type: 'TuplesOk',
        result: [
          ['?column?', '?column?'],
          ['a\\', " ' ; commit ; insert into public.leak values (1) ; select "],
        ],
      },
    });
  }
  expect((await db.client.query('select count(*)::int as n from public.leak')).rows).toEqual([{ n: 0 }]);
});
