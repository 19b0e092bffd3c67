// The CLI's check before a run, against servers on loopback that answer as real engines do.
import { http, HttpResponse } from 'msw';
import { freePort } from '../../reference/src/db/provision';
import { createDatabase, dropDatabase } from '../harness/database';
import { CLUSTER_URL_VARIABLE } from '../harness/environment';
import { startMockServer, type RunningMockServer } from '../harness/mockServer';
import type { CliOptions } from './arguments';
import { probeTarget } from './probe';

const CONFIG = { version: 'v1', is_admin_secret_set: true, is_auth_hook_set: false, is_jwt_set: false };
let engine: RunningMockServer;
let database: { name: string; url: string };

const denied = (error: string) => HttpResponse.json({ path: '$', error, code: 'access-denied' }, { status: 401 });
/** An engine whose admin secret is `secret` (or none), with its config API on or off. */
const engineWith = (secret: string | undefined, configApi = true) => {
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
});
afterAll(async () => {
  await engine.close();
  await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, database.name);
});
beforeEach(() => engine.reset());

describe('engine-conformance checks the target before running', () => {
  test('the right secret: the configuration is read, with the secret sent once', async () => {
    engineWith('s3cret');
    expect(await probeTarget(options({ adminSecret: 's3cret' }))).toEqual({ adminSecret: 's3cret', config: { ...CONFIG }, notes: [] });
    expect(engine.requests.map((r) => [r.method, r.path, r.headers['x-engine-admin-secret']])).toEqual([['GET', '/v1alpha1/config', 's3cret']]);
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
    expect(engine.requests[1]!.headers['x-engine-role']).toBe('admin');
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
