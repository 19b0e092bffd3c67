// The CLI's check before a run, against servers on loopback that answer as real engines do.
import { http, HttpResponse } from 'msw';
import { Client } from 'pg';
import { freePort } from '../../reference/src/db/provision';
import { createDatabase, dropDatabase } from '../harness/database';
import { CLUSTER_URL_VARIABLE } from '../harness/environment';
import { startMockServer, type RunningMockServer } from '../harness/mockServer';
import type { CliOptions } from './arguments';
import { probeTarget } from './probe';

const countSchemas = async (url: string, name: string) => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('select count(*)::int as n from pg_namespace where nspname = $1', [name])).rows[0]!.n;
  } finally {
    await client.end();
  }
};

const CONFIG = { version: 'v1', is_admin_secret_set: true, is_auth_hook_set: false, is_jwt_set: false };
let engine: RunningMockServer;
let database: { name: string; url: string };
/** A database that answers, but that the mock engine does not serve. */
let other: { name: string; url: string };

const denied = (error: string) => HttpResponse.json({ path: '$', error, code: 'access-denied' }, { status: 401 });
/** run_sql of an engine that serves the database at `url`: `{result_type, result}` with every value as text. */
const runSqlOn = (url: string) => async (request: Request) => {
  const { args } = (await request.json()) as { args: { sql: string } };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query({ text: args.sql, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } });
    return HttpResponse.json({ result_type: 'TuplesOk', result: [r.fields.map((f) => f.name), ...(r.rows as unknown[][])] });
  } finally {
    await client.end();
  }
};
/** An engine whose admin secret is `secret` (or none), with its config API on or off, serving `serves` (the run's database unless said). */
const engineWith = (secret: string | undefined, configApi = true, serves = () => database.url) => {
  const check = (request: Request) => {
    if (secret === undefined) return undefined;
    const given = request.headers.get('x-engine-admin-secret');
    if (given === null) return denied('x-engine-admin-secret required, but not found');
    return given === secret ? undefined : denied('invalid x-engine-admin-secret');
  };
  engine.use(
    http.get('*/v1alpha1/config', ({ request }) =>
      configApi
        ? (check(request) ?? HttpResponse.json({ ...CONFIG, is_admin_secret_set: secret !== undefined }))
        : HttpResponse.json({ code: 'not-found' }, { status: 404 }),
    ),
    http.post('*/v1/metadata', ({ request }) => check(request) ?? HttpResponse.json({ version: 2, tables: [] })),
    http.post('*/v2/query', ({ request }) => check(request) ?? runSqlOn(serves())(request)),
  );
};
const options = (extra: Partial<CliOptions> = {}): CliOptions => ({
  target: engine.url,
  database: database.url,
  profiles: {},
  reportDir: '/tmp',
  allowClear: false,
  brand: 'engine',
  ...extra,
});

beforeAll(async () => {
  engine = await startMockServer();
  database = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
  other = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
});
afterAll(async () => {
  await engine.close();
  await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, database.name);
  await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, other.name);
});
beforeEach(() => engine.reset());

describe('engine-conformance checks the target before running', () => {
  test('the right secret: the configuration is read, and the database checked through run_sql, with the secret', async () => {
    engineWith('s3cret');
    expect(await probeTarget(options({ adminSecret: 's3cret' }))).toEqual({ adminSecret: 's3cret', config: { ...CONFIG }, notes: [] });
    expect(engine.requests.map((r) => [r.method, r.path, r.headers['x-engine-admin-secret']])).toEqual([
      ['GET', '/v1alpha1/config', 's3cret'],
      ['POST', '/v2/query', 's3cret'],
    ]);
    // The marker looked for is gone again.
    const sql = (engine.requests[1]!.body as { args: { sql: string } }).args.sql;
    const marker = /nspname = '(engine_conformance_probe_[0-9a-f]{12})'/.exec(sql)?.[1];
    expect(marker).toBeDefined();
    expect(await countSchemas(database.url, marker!)).toBe(0);
  });

  test('a database that answers but is not the one the target serves is refused, and left as it was', async () => {
    engineWith('s3cret', true, () => other.url);
    const refused = probeTarget(options({ adminSecret: 's3cret' }));
    await expect(refused).rejects.toThrow(
      /^the database given with --database is not the one the target serves: the schema engine_conformance_probe_[0-9a-f]{12} made in it is not seen through the target's run_sql; give --database the URL of the target's own database$/,
    );
    const marker = /(engine_conformance_probe_[0-9a-f]{12})/.exec(String(await refused.catch((e: Error) => e.message)))![1]!;
    expect([await countSchemas(database.url, marker), await countSchemas(other.url, marker)]).toEqual([0, 0]);
    // A target whose run_sql does not answer as run_sql does cannot be checked: said so, with its answer.
    engine.reset();
    engineWith('s3cret');
    engine.use(http.post('*/v2/query', () => HttpResponse.json({ code: 'not-supported' }, { status: 400 })));
    await expect(probeTarget(options({ adminSecret: 's3cret' }))).rejects.toThrow(
      `cannot check that the database given with --database is the target's: its run_sql answered 400: {"code":"not-supported"}`,
    );
  });

  test('a wrong or missing secret stops the run with one line saying what to do', async () => {
    engineWith('s3cret');
    await expect(probeTarget(options({ adminSecret: 'wrong' }))).rejects.toThrow(
      'the target refused the admin secret given with --admin-secret (401: invalid x-engine-admin-secret)',
    );
    await expect(probeTarget(options())).rejects.toThrow(
      'the target wants an admin secret (401: x-engine-admin-secret required, but not found); give it with --admin-secret',
    );
  });

  test('a target without a secret: a given secret is dropped, and the user is told', async () => {
    engineWith(undefined);
    expect(await probeTarget(options({ adminSecret: 'extra' }))).toEqual({
      config: { ...CONFIG, is_admin_secret_set: false },
      notes: ['the target has no admin secret (is_admin_secret_set: false): --admin-secret is not used, and the cases that need one are not run'],
    });
    expect(engine.requests[0]!.headers['x-engine-role']).toBeUndefined();
    expect((await probeTarget(options())).notes).toEqual([
      'the target has no admin secret: the cases that need one are not run, those of the no-admin-secret profile run against it',
    ]);
    expect(engine.requests[2]!.headers['x-engine-role']).toBe('admin');
  });

  test('with the config API disabled, the credentials are checked on the metadata API', async () => {
    engineWith('s3cret', false);
    expect(await probeTarget(options({ adminSecret: 's3cret' }))).toEqual({
      adminSecret: 's3cret',
      notes: ["the target's config API is disabled: the cases are chosen by the flags alone"],
    });
    await expect(probeTarget(options({ adminSecret: 'nope' }))).rejects.toThrow(
      'the target refused the admin secret given with --admin-secret (401: invalid x-engine-admin-secret)',
    );
  });

  test('an unreachable target, a target that is no engine, and a database that cannot be used', async () => {
    const closed = await freePort();
    await expect(probeTarget(options({ target: `http://127.0.0.1:${closed}` }))).rejects.toThrow(`cannot reach http://127.0.0.1:${closed}: ECONNREFUSED`);
    engine.use(http.get('*/v1alpha1/config', () => new HttpResponse('<html>hello</html>', { status: 200 })));
    await expect(probeTarget(options())).rejects.toThrow("the target's /v1alpha1/config is not JSON: <html>hello</html>");
    engine.reset();
    engine.use(http.get('*/v1alpha1/config', () => new HttpResponse('oops', { status: 500 })));
    await expect(probeTarget(options())).rejects.toThrow('the target answered GET /v1alpha1/config with 500: oops');
    engine.reset();
    engineWith(undefined);
    const wrongPassword = database.url.replace(/:\/\/([^:]+):[^@]*@/, '://$1:wrong@');
    const refused = probeTarget(options({ database: wrongPassword }));
    await expect(refused).rejects.toThrow(/^cannot use the database given with --database: /);
    await expect(refused).rejects.not.toThrow('wrong');
  });
});
