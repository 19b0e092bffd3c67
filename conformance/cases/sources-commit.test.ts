// A request that writes to several databases (decision dec.source.atomic-commit): a bulk with
// run_sql on other sources and on the server's own database commits on all of them or on none,
// also when one of them refuses only at commit (a deferred unique constraint), and leaves no
// prepared transaction behind.
import { Client } from 'pg';
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { startOtherCluster } from '../harness/otherCluster';
import { makeDatabase, makesDatabases, REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const archive = useSourceDatabase();
const ok = { message: 'success' };
const MANAGED = { met: makesDatabases, needs: 'a run that makes its own databases (a managed run)' };
const addSource = (name: string, url: string) =>
  target.metadata({ type: 'pg_add_source', args: { name, configuration: { connection_info: { database_url: url } } } });
const bulk = (args: unknown[]) => target.metadata({ type: 'bulk', args }, { endpoint: '/v1/query' });
const runSql = (sql: string, source?: string) => ({ type: 'run_sql', args: { sql, ...(source ? { source } : {}) } });
/** A table whose second row of a key fails only when its transaction commits. */
const ONCE = 'create table public.once (k int, constraint once_k unique (k) deferrable initially deferred); insert into public.once values (1)';
/** What PostgreSQL says of the deferred violation, in the engine's envelope. */
const violation = {
  path: '$',
  error: 'query execution failed',
  code: 'postgres-error',
  internal: {
    statement: '',
    prepared: false,
    arguments: [],
    error: {
      exec_status: 'FatalError',
      status_code: '23505',
      message: 'duplicate key value violates unique constraint "once_k"',
      description: 'Key (k)=(1) already exists.',
      hint: null,
    },
  },
};

afterEach(async () => {
  await target.reset();
  await target.sql('drop table if exists public.once, public.note');
  if (REQUIRES_SOURCE_DATABASE.met) await archive.sql('drop table if exists public.ledger, public.once');
});

/** The prepared transactions PostgreSQL keeps in these databases. */
const preparedIn = async (...databases: string[]) =>
  archive.sql('select gid from pg_prepared_xacts where database = any($1::text[]) order by gid', [databases]);
const nameOf = async (sql: (text: string) => Promise<Record<string, unknown>[]>) => (await sql('select current_database() as name'))[0]!.name as string;

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.atomic-commit', 'dec.source.forms', 'op.run_sql', 'op.bulk'],
  "a bulk whose SQL on the server's own database fails at commit leaves the source's write undone too",
  async () => {
    await target.sql(ONCE);
    await archive.sql('create table public.ledger (id int primary key)');
    expectResponse(await addSource('archive', archive.url), 200, ok);
    const refused = await bulk([runSql('insert into public.ledger values (1)', 'archive'), runSql('insert into public.once values (1)')]);
    expectResponse(refused, 400, violation);
    expect(await archive.sql('select id from public.ledger')).toEqual([]);
    expect(await target.sql('select k from public.once')).toEqual([{ k: 1 }]);
    expect(await preparedIn(await nameOf(archive.sql))).toEqual([]);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.atomic-commit', 'dec.source.forms', 'op.run_sql', 'op.bulk'],
  "a bulk whose later member is refused leaves the source's write undone and nothing of it held: the same row is written again at once",
  async () => {
    await archive.sql('create table public.ledger (id int primary key)');
    expectResponse(await addSource('archive', archive.url), 200, ok);
    const refused = await bulk([runSql('insert into public.ledger values (1)', 'archive'), runSql('select 1/0')]);
    expectResponse(refused, 400, {
      path: '$.args[1].args',
      error: 'query execution failed',
      code: 'postgres-error',
      internal: {
        statement: 'select 1/0',
        prepared: false,
        arguments: [],
        error: { exec_status: 'FatalError', status_code: '22012', message: 'division by zero', description: null, hint: null },
      },
    });
    expect(await archive.sql('select id from public.ledger')).toEqual([]);
    // A transaction of the request left open on the source would hold the row's key: this insert would wait for it.
    const probe = new Client({ connectionString: archive.url });
    await probe.connect();
    try {
      await probe.query("set lock_timeout = '3s'");
      await probe.query('insert into public.ledger values (1)');
    } finally {
      await probe.end();
    }
    expect(
      await archive.sql("select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'"),
    ).toEqual([{ n: 0 }]);
  },
);

/** In a managed run: `archive` and a second source `annex` on a database of its own, both added, for `work`. */
async function withAnnex(work: (annex: { name: string; sql: (text: string) => Promise<unknown[]> }) => Promise<void>): Promise<void> {
  const other = await makeDatabase();
  const client = new Client({ connectionString: other.url });
  await client.connect();
  try {
    expectResponse(await addSource('archive', archive.url), 200, ok);
    expectResponse(await addSource('annex', other.url), 200, ok);
    await work({ name: new URL(other.url).pathname.slice(1), sql: async (text) => (await client.query(text)).rows });
  } finally {
    await target.reset();
    await client.end();
    await other.drop();
  }
}

caseNeeding(
  MANAGED,
  ['dec.source.atomic-commit', 'dec.source.forms', 'op.run_sql', 'op.bulk'],
  'a bulk over two sources whose second fails at commit leaves the first one unchanged',
  () =>
    withAnnex(async (annex) => {
      await archive.sql('create table public.ledger (id int primary key)');
      await annex.sql(ONCE);
      const refused = await bulk([runSql('insert into public.ledger values (1)', 'archive'), runSql('insert into public.once values (1)', 'annex')]);
      expectResponse(refused, 400, violation);
      expect(await archive.sql('select id from public.ledger')).toEqual([]);
      expect(await annex.sql('select k from public.once')).toEqual([{ k: 1 }]);
      expect(await preparedIn(await nameOf(archive.sql), annex.name)).toEqual([]);
    }),
);

caseNeeding(
  MANAGED,
  ['dec.source.atomic-commit', 'dec.source.forms', 'op.run_sql', 'op.bulk'],
  "a bulk writing to two sources and to the server's own database commits on all three and leaves no prepared transaction",
  () =>
    withAnnex(async (annex) => {
      await archive.sql('create table public.ledger (id int primary key)');
      await target.sql('create table public.note (id int primary key)');
      const done = await bulk([
        runSql('create table public.once (k int primary key); insert into public.once values (7)', 'annex'),
        runSql('insert into public.ledger values (1)', 'archive'),
        runSql('insert into public.note values (2)'),
      ]);
      const commandOk = { result_type: 'CommandOk', result: null };
      expectResponse(done, 200, [commandOk, commandOk, commandOk]);
      expect(await archive.sql('select id from public.ledger')).toEqual([{ id: 1 }]);
      expect(await target.sql('select id from public.note')).toEqual([{ id: 2 }]);
      expect(await annex.sql('select k from public.once')).toEqual([{ k: 7 }]);
      expect(await preparedIn(await nameOf(archive.sql), annex.name)).toEqual([]);
    }),
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.atomic-commit', 'dec.source.forms', 'op.run_sql'],
  'run_sql writing to one source alone commits there plainly: what PREPARE TRANSACTION refuses (a temporary table) is taken',
  async () => {
    await archive.sql('create table public.ledger (id int primary key)');
    expectResponse(await addSource('archive', archive.url), 200, ok);
    const sql = 'create temporary table scratch (id int); insert into scratch values (3); insert into public.ledger select id from scratch';
    expectResponse(await target.metadata(runSql(sql, 'archive'), { endpoint: '/v2/query' }), 200, { result_type: 'CommandOk', result: null });
    expect(await archive.sql('select id from public.ledger')).toEqual([{ id: 3 }]);
  },
);

caseNeeding(
  MANAGED,
  ['dec.source.atomic-commit', 'err.invalid-configuration.source-prepared-transactions', 'op.pg_add_source', 'op.pg_update_source', 'op.replace_metadata.v2'],
  'a source whose PostgreSQL has max_prepared_transactions = 0 is refused by pg_add_source, pg_update_source and replace_metadata, changing nothing',
  async () => {
    const lean = await startOtherCluster({ max_prepared_transactions: '0' });
    try {
      const refusal = (name: string) => ({
        path: '$.args',
        error: `source "${name}" cannot commit together with other databases: its PostgreSQL has max_prepared_transactions = 0; set max_prepared_transactions (for instance to its max_connections) in its postgresql.conf and restart it`,
        code: 'invalid-configuration',
      });
      expectResponse(await addSource('lean', lean.url), 400, refusal('lean'));
      expectResponse(await addSource('archive', archive.url), 200, ok);
      const moved = { name: 'archive', configuration: { connection_info: { database_url: lean.url } } };
      expectResponse(await target.metadata({ type: 'pg_update_source', args: moved }), 400, refusal('archive'));
      const entry = (name: string, url: string) => ({ name, kind: 'postgres', configuration: { connection_info: { database_url: url } }, tables: [] });
      const document = { version: 2, tables: [], sources: [entry('archive', archive.url), entry('lean', lean.url)] };
      expectResponse(await target.metadata({ type: 'replace_metadata', args: document }), 400, refusal('lean'));
      expect((await target.metadata({ type: 'export_metadata', args: {} })).body).toEqual({ version: 2, tables: [], sources: [entry('archive', archive.url)] });
    } finally {
      await target.reset();
      await lean.stop();
    }
  },
  60_000,
);
