// A server killed between the phases of a commit over two databases (decision
// dec.source.atomic-commit): started again, it finds the request's write on both databases or on
// neither, and no prepared transaction left. The kill points are the test-only pauses of
// engine/testPause.ts (ENGINE_TEST_PAUSE_AT): after the prepares (the decision not taken: neither)
// and after the server's own COMMIT (the decision taken: both).
import { createDatabase, dropDatabase, onCluster } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { children, post, startServerOn } from '../../test-support/serverProcess';
import type { PausePoint } from './testPause';

jest.setTimeout(120_000);

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
const made: { name: string; url: string }[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await Promise.all(made.map((d) => dropDatabase(cluster(), d.name)));
});

const rows = (url: string, text: string): Promise<unknown[]> => onCluster(url, async (c) => (await c.query(text)).rows);

/** A bulk that writes `id` to the source's ledger and to the server's own note. */
const writeBoth = (url: string, id: number) =>
  post(
    url,
    {
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { source: 'archive', sql: `insert into public.ledger values (${id})` } },
        { type: 'run_sql', args: { sql: `insert into public.note values (${id})` } },
      ],
    },
    '/v1/query',
  );

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const cases: [PausePoint, string, unknown[]][] = [
  ['prepared', 'before its own COMMIT: the write is on neither database', []],
  ['committed', 'after its own COMMIT: the write is on both databases', [{ id: 1 }]],
];

test.each(cases)('kill -9 at %s, %s, and no prepared transaction is left [dec.source.atomic-commit]', async (point, _title, expected) => {
  const [own, source] = await Promise.all([createDatabase(cluster()), createDatabase(cluster())]);
  made.push(own, source);
  await rows(source.url, 'create table public.ledger (id int primary key)');
  await rows(own.url, 'create table public.note (id int primary key)');
  const paused = await startServerOn(own.url, { ENGINE_TEST_PAUSE_AT: point });
  const added = await post(paused.url, { type: 'pg_add_source', args: { name: 'archive', configuration: { connection_info: { database_url: source.url } } } });
  expect(added).toEqual({ status: 200, body: { message: 'success' } });
  const request = writeBoth(paused.url, 1);
  request.catch(() => {});
  await until(() => paused.output().includes(`paused for a test at ${point}`), `the pause at ${point}`);
  expect(await rows(source.url, "select count(*)::int as n from pg_prepared_xacts where database = current_database() and gid like 'engine_commit_%'")).toEqual(
    [{ n: 1 }],
  );
  paused.child.kill('SIGKILL');
  await paused.exit;
  // The request never got its answer.
  await expect(request).rejects.toThrow('fetch failed');

  const again = await startServerOn(own.url);
  // Recovery ran before the server answered.
  expect(await rows(source.url, 'select gid from pg_prepared_xacts where database = current_database()')).toEqual([]);
  expect(await rows(source.url, 'select id from public.ledger')).toEqual(expected);
  expect(await rows(own.url, 'select id from public.note')).toEqual(expected);
  expect(await rows(own.url, 'select gid from engine_catalog.engine_prepared_commit')).toEqual([]);
  // The source takes part in the next request as before.
  const next = await writeBoth(again.url, 2);
  expect(next.status).toBe(200);
  expect(await rows(source.url, 'select id from public.ledger where id = 2')).toEqual([{ id: 2 }]);
  again.child.kill('SIGTERM');
  await again.exit;
});
