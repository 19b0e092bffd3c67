// Behind run_sql's parser check, PostgreSQL itself refuses a COMMIT the request did not make: the
// transaction guard's row arms a check at commit that only the engine's own token passes. The row
// holds the token's hash, so SQL that reads the row still cannot commit. And run_sql's session reads
// strings as the parser does, also where the database says otherwise.
import { createHash, randomBytes } from 'node:crypto';
import { DatabaseError } from 'pg';
import { useDatabase } from '../../../conformance/harness/database';
import { ensureCatalog } from '../catalog/catalog';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { startServer } from '../server';
import * as q from '../sql';

const database = useDatabase('all');

beforeAll(async () => {
  await ensureCatalog(database.client);
  await database.client.query('create table probe (id int)');
});

const guardToken = () => {
  const token = randomBytes(32).toString('hex');
  return { token, hash: createHash('sha256').update(token).digest('hex') };
};

async function commitRefusal(beforeCommit: (hash: string) => Promise<unknown>): Promise<string | undefined> {
  const db = database.client;
  const { hash } = guardToken();
  await q.run(db, q.begin);
  await q.run(db, q.armTransactionGuard(hash));
  await db.query('insert into probe values (1)');
  await beforeCommit(hash);
  try {
    await db.query('commit');
    return undefined;
  } catch (error) {
    await db.query('rollback').catch(() => {});
    return error instanceof DatabaseError ? `${error.code} ${error.message}` : String(error);
  }
}

const probeRows = async () => (await database.client.query<{ n: number }>('select count(*)::int as n from probe')).rows[0]!.n;

test('a COMMIT of SQL that does not know the token fails, and its writes are gone', async () => {
  expect(await commitRefusal(async () => {})).toBe('EA001 run_sql may not end the transaction of its request');
  expect(await probeRows()).toBe(0);
});

test("SQL that reads the guard's row and commits with what it holds fails too", async () => {
  const forged = () =>
    database.client.query("select set_config('engine.commit_token', token, true) from engine_catalog.engine_transaction_guard").then(() => undefined);
  expect(await commitRefusal(forged)).toBe('EA001 run_sql may not end the transaction of its request');
  expect(await probeRows()).toBe(0);
});

test('the engine commits with its own token', async () => {
  const db = database.client;
  const { token, hash } = guardToken();
  await q.run(db, q.begin);
  await q.run(db, q.armTransactionGuard(hash));
  await db.query('insert into probe values (2)');
  await q.run(db, q.disarmTransactionGuard(token, hash));
  await db.query('commit');
  expect(await probeRows()).toBe(1);
  await db.query('delete from probe');
});

test('run_sql reads strings as standard strings also on a database that says otherwise [dec.run_sql.standard-strings]', async () => {
  await database.client.query(`alter database "${database.url.split('/').pop()}" set standard_conforming_strings = off`);
  const server = await startServer(
    loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1' }),
    database.url,
    createLogger('silent'),
  );
  try {
    const run = async (sql: string, readOnly = false) => {
      const r = await fetch(`${server.url}/v2/query`, {
        method: 'POST',
        body: JSON.stringify({ type: 'run_sql', args: { sql, ...(readOnly ? { read_only: true } : {}) } }),
        headers: { 'x-engine-role': 'admin' },
      });
      return { status: r.status, body: (await r.json()) as unknown };
    };
    // Read the old way, `'a\'` would run on into the rest; read as the parser reads it, ROLLBACK is a statement.
    expect(await run("insert into probe values (3); select 'a\\'; rollback; insert into probe values (4)")).toEqual({
      status: 400,
      body: { path: '$.args.sql', error: 'run_sql runs inside the transaction of its request and may not end it: ROLLBACK (statement 3)', code: 'bad-request' },
    });
    expect(await run("select 'a\\b' as s", true)).toEqual({ status: 200, body: { result_type: 'TuplesOk', result: [['s'], ['a\\b']] } });
    expect(await probeRows()).toBe(0);
  } finally {
    await server.close();
  }
});
