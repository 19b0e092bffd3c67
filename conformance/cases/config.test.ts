// The config API: SPEC.md §2.10, §4.5, §5.5.
import { caseWithProfile, covers } from '../harness/cases';
import { expectError, expectResponse } from '../harness/client';
import { targetHasAdminSecret, useTarget } from '../harness/target';

const target = useTarget({ profiles: ['configured', 'graphql-metadata', 'graphql-only', 'no-admin-secret'] });

const isVersion = expect.stringMatching(/\S/);

test(covers(['rule.config.admin-only:allowed', 'rule.config.fields', 'dec.config.jwt'], 'an admin gets the configuration object'), async () => {
  const r = await target.request('GET', '/v1alpha1/config', { headers: target.adminHeaders() });
  expectResponse(r, 200, {
    version: isVersion,
    is_function_permissions_inferred: true,
    // As the run was told: --admin-secret given or not.
    is_admin_secret_set: targetHasAdminSecret,
    is_auth_hook_set: false,
    is_jwt_set: false,
    is_allow_list_enabled: false,
    live_queries: { batch_size: 100, refetch_delay: 1 },
  });
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
});

caseWithProfile('configured', ['rule.config.fields'], 'the configuration object reports the real settings', async () => {
  const t = target.profileTarget('configured')!;
  const r = await t.request('GET', '/v1alpha1/config', { headers: t.adminHeaders() });
  expectResponse(r, 200, {
    version: isVersion,
    is_function_permissions_inferred: false,
    is_admin_secret_set: true,
    is_auth_hook_set: false,
    is_jwt_set: true,
    jwt: { claims_namespace: 'https://example.test/claims', claims_format: 'stringified_json' },
    is_allow_list_enabled: true,
    live_queries: { batch_size: 250, refetch_delay: 1.5 },
  });
});

caseWithProfile(
  'no-admin-secret',
  ['rule.config.fields', 'rule.auth.3'],
  'without an admin secret, is_admin_secret_set is false and X-Engine-Role: admin is admin',
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    const r = await t.request('GET', '/v1alpha1/config', { headers: { 'x-engine-role': 'admin' } });
    expectResponse(r, 200, {
      version: isVersion,
      is_function_permissions_inferred: true,
      is_admin_secret_set: false,
      is_auth_hook_set: false,
      is_jwt_set: false,
      is_allow_list_enabled: false,
      live_queries: { batch_size: 100, refetch_delay: 1 },
    });
  },
);

test(covers(['rule.config.admin-only:refused', 'err.access-denied.admin-endpoint', 'rule.auth.1:refused'], 'a non-admin role is refused'), async () => {
  const r = await target.request('GET', '/v1alpha1/config', { headers: { ...target.adminHeaders(), 'x-engine-role': 'user' } });
  expectError(r, 400, { path: '$', error: 'You have to be admin to access this endpoint', code: 'access-denied' });
});

test(
  covers(
    ['err.access-denied.admin-endpoint', 'rule.config.admin-only:refused'],
    'only the role named admin, in its own spelling, may read the config; the secret alone is not enough beside another role',
  ),
  async () => {
    for (const role of ['ADMIN', 'Admin', 'anonymous']) {
      const r = await target.request('GET', '/v1alpha1/config', { headers: { ...target.adminHeaders(), 'x-engine-role': role } });
      expectError(r, 400, { path: '$', error: 'You have to be admin to access this endpoint', code: 'access-denied' });
    }
    const admin = await target.request('GET', '/v1alpha1/config', { headers: { ...target.adminHeaders(), 'x-engine-role': 'admin' } });
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual(expect.objectContaining({ is_admin_secret_set: targetHasAdminSecret }));
  },
);

caseWithProfile(
  'graphql-metadata',
  ['rule.auth.5:allowed', 'rule.auth.5:refused', 'dec.apis.disabled-404', 'err.not-found'],
  'a list of graphql,metadata disables the config API',
  async () => {
    const t = target.profileTarget('graphql-metadata')!;
    const r = await t.request('GET', '/v1alpha1/config', { headers: t.adminHeaders() });
    expectResponse(r, 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
    const m = await t.metadata({ type: 'export_metadata', args: {} });
    expectResponse(m, 200, { version: 2, tables: [] });
  },
);

caseWithProfile(
  'graphql-only',
  ['rule.auth.5:refused', 'dec.apis.disabled-404', 'err.not-found'],
  'a list of only graphql disables the metadata and config APIs',
  async () => {
    const t = target.profileTarget('graphql-only')!;
    for (const endpoint of ['/v1/metadata', '/v1/query', '/v2/query']) {
      const r = await t.metadata({ type: 'export_metadata', args: {} }, { endpoint });
      expectResponse(r, 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
    }
    const c = await t.request('GET', '/v1alpha1/config', { headers: t.adminHeaders() });
    expectResponse(c, 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
  },
);

test(covers(['err.not-found'], 'an unknown path answers 404 not-found'), async () => {
  const r = await target.request('GET', '/v1/no-such-thing', { headers: target.adminHeaders() });
  expectResponse(r, 404, { path: '$', error: 'No such resource exists', code: 'not-found' });
});

test(covers(['dec.healthz'], 'GET /healthz answers OK'), async () => {
  const r = await target.request('GET', '/healthz');
  expect({ status: r.status, text: r.text }).toEqual({ status: 200, text: 'OK' });
});

test(covers(['dec.version'], 'GET /v1/version answers the server version without credentials'), async () => {
  const r = await target.request('GET', '/v1/version');
  expectResponse(r, 200, { version: expect.stringMatching(/\S/) });
  expect(Object.keys(r.body as object)).toEqual(['version']);
});

test(covers(['dec.healthz', 'dec.version'], 'health and version answer alike whatever the credentials: none, a wrong admin secret, a role'), async () => {
  const bare = await target.request('GET', '/v1/version');
  for (const headers of [{ 'x-engine-admin-secret': 'not-the-secret' }, { 'x-engine-role': 'user' }, target.adminHeaders()]) {
    const health = await target.request('GET', '/healthz', { headers });
    expect({ status: health.status, text: health.text }).toEqual({ status: 200, text: 'OK' });
    expectResponse(await target.request('GET', '/v1/version', { headers }), 200, bare.body);
  }
});
