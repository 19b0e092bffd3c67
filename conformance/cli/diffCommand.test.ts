// `engine-conformance diff` before any scenario runs: help, bad usage, an unreachable target, B's
// credentials or database refused, each with its exit code and one clear line naming B's flags.
import type { RunningServer } from '../../reference/src/server';
import { createDatabase, dropDatabase } from '../harness/database';
import { CLUSTER_URL_VARIABLE } from '../harness/environment';
import { startOwnServer } from '../harness/ownServer';
import { capturedOutput } from './capturedOutput';
import { diffMain } from './diffCommand';
import { DIFF_USAGE } from './diffArguments';

const run = async (argv: string[]) => {
  const out = capturedOutput();
  const err = capturedOutput();
  const code = await diffMain(argv, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
};

test('--help prints the usage; bad usage exits 2 with the reason and the usage', async () => {
  expect(await run(['--help'])).toEqual({ code: 0, out: `${DIFF_USAGE}\n`, err: '' });
  expect(await run(['--target', 'http://a'])).toEqual({
    code: 2,
    out: '',
    err: `engine-conformance diff: --database is required\n\n${DIFF_USAGE}\n`,
  });
});

test('an unreachable target: exit 2, naming which of the two', async () => {
  const r = await run([
    ...['--target', 'http://127.0.0.1:65531', '--database', 'postgres://u:p@127.0.0.1:65531/a'],
    ...['--against', 'http://127.0.0.1:65531', '--against-database', 'postgres://u:p@127.0.0.1:65531/b'],
  ]);
  expect(r).toEqual({
    code: 2,
    out: '',
    err: 'engine-conformance diff: A (--target http://127.0.0.1:65531): cannot reach http://127.0.0.1:65531: ECONNREFUSED\n',
  });
});

describe('B refused before any scenario: its flags named', () => {
  const servers: RunningServer[] = [];
  const databases: { name: string; url: string }[] = [];
  beforeAll(async () => {
    for (const secret of ['a-secret', 'b-secret']) {
      const database = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
      databases.push(database);
      servers.push(await startOwnServer(database.url, { ENGINE_GRAPHQL_ADMIN_SECRET: secret }));
    }
    // A third database, that no server serves.
    databases.push(await createDatabase(process.env[CLUSTER_URL_VARIABLE]!));
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of databases) await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, d.name);
  });
  const [a, b] = [() => servers[0]!.url, () => servers[1]!.url];
  const args = (againstDatabase: number, extra: string[]) => [
    ...['--target', a(), '--database', databases[0]!.url, '--admin-secret', 'a-secret'],
    ...['--against', b(), '--against-database', databases[againstDatabase]!.url, ...extra],
  ];

  test("a database that answers but is not B's own", async () => {
    const r = await run(args(2, ['--against-admin-secret', 'b-secret']));
    expect({ ...r, err: r.err.replace(/engine_conformance_probe_[0-9a-f]{12}/, 'MARKER') }).toEqual({
      code: 2,
      out: '',
      err:
        `engine-conformance diff: B (--against ${b()}): the database given with --against-database is not the one the target serves: ` +
        "the schema MARKER made in it is not seen through the target's run_sql; give --against-database the URL of the target's own database\n",
    });
  });

  test("B's secret refused, given or taken from A's", async () => {
    expect(await run(args(1, ['--against-admin-secret', 'wrong']))).toEqual({
      code: 2,
      out: '',
      err: `engine-conformance diff: B (--against ${b()}): the target refused the admin secret given with --against-admin-secret (401: invalid x-engine-admin-secret)\n`,
    });
    expect((await run(args(1, []))).err).toBe(
      `engine-conformance diff: B (--against ${b()}): the target refused the admin secret given with --admin-secret (taken for B too: no --against-admin-secret was given) (401: invalid x-engine-admin-secret)\n`,
    );
  });
});
