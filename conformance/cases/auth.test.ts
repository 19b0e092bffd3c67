// Who may use the metadata API: SPEC.md §5.1, §5.3 and the 401 decisions of §7.1.
import { caseNeeding, caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_ADMIN_SECRET, useTarget } from '../harness/target';

const target = useTarget({ profiles: ['no-admin-secret', 'unauthorized-role'] });
const exportEnvelope = { type: 'export_metadata', args: {} };
const adminOnly = { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' };

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['rule.auth.3', 'err.admin-secret.missing'],
  'with an admin secret configured, a request without one is refused',
  async () => {
    const r = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-role': 'admin' } });
    expectResponse(r, 401, { path: '$', error: 'x-engine-admin-secret required, but not found', code: 'access-denied' });
  },
);

caseNeeding(REQUIRES_ADMIN_SECRET, ['rule.auth.3', 'err.admin-secret.invalid'], 'a wrong admin secret is refused', async () => {
  const r = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-admin-secret': `${target.adminSecret}x` } });
  expectResponse(r, 401, { path: '$', error: 'invalid x-engine-admin-secret', code: 'access-denied' });
});

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['rule.auth.3', 'err.admin-secret.invalid'],
  'only the whole secret is admin: no prefix, no empty value, no other case, no repetition, also at /v1/graphql',
  async () => {
    const secret = target.adminSecret!;
    const almost = [
      secret.slice(0, -1),
      secret.slice(0, 1),
      '',
      secret.toUpperCase() === secret ? secret.toLowerCase() : secret.toUpperCase(),
      `${secret}${secret}`,
    ];
    for (const wrong of almost) {
      const r = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-admin-secret': wrong } });
      expectResponse(r, 401, { path: '$', error: 'invalid x-engine-admin-secret', code: 'access-denied' });
      const g = await target.request('POST', '/v1/graphql', { body: { query: '{ __typename }' }, headers: { 'x-engine-admin-secret': wrong } });
      expectResponse(g, 401, { errors: [{ message: 'invalid x-engine-admin-secret', extensions: { path: '$', code: 'access-denied' } }] });
    }
  },
);

caseNeeding(REQUIRES_ADMIN_SECRET, ['rule.auth.3', 'rule.auth.1'], 'the right admin secret is admin, whatever the case of the header name', async () => {
  const r = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'X-ENGINE-ADMIN-SECRET': target.adminSecret! } });
  expectResponse(r, 200, { version: 2, tables: [] });
});

test(
  covers(['rule.auth.1', 'err.access-denied.admin-only', 'dec.auth.admin-secret-role'], 'acting as a non-admin role, the metadata API is refused'),
  async () => {
    for (const endpoint of ['/v1/metadata', '/v1/query', '/v2/query']) {
      const r = await target.metadata(exportEnvelope, { endpoint, headers: { 'x-engine-role': 'user' } });
      expectResponse(r, 400, adminOnly);
    }
  },
);

caseNeeding(REQUIRES_ADMIN_SECRET, ['rule.auth.1', 'dec.auth.admin-secret-role'], 'the admin secret with X-Engine-Role: admin is admin', async () => {
  expectResponse(await target.metadata(exportEnvelope, { headers: { 'x-engine-role': 'admin' } }), 200, { version: 2, tables: [] });
});

caseWithProfile('no-admin-secret', ['dec.auth.no-secret', 'rule.auth.1'], 'without an admin secret, X-Engine-Role: admin (or no role) is admin', async () => {
  const t = target.profileTarget('no-admin-secret')!;
  expectResponse(await t.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-role': 'admin' } }), 200, { version: 2, tables: [] });
  expectResponse(await t.request('POST', '/v1/metadata', { body: exportEnvelope }), 200, { version: 2, tables: [] });
});

caseWithProfile(
  'no-admin-secret',
  ['dec.auth.no-secret', 'rule.auth.1', 'err.access-denied.admin-only'],
  'without an admin secret, another role is refused',
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    const r = await t.request('POST', '/v1/query', { body: exportEnvelope, headers: { 'x-engine-role': 'editor' } });
    expectResponse(r, 400, adminOnly);
  },
);

caseWithProfile(
  'unauthorized-role',
  ['rule.auth.1', 'err.access-denied.admin-only'],
  'a request without credentials takes the unauthorized role, which is no admin',
  async () => {
    const t = target.profileTarget('unauthorized-role')!;
    expectResponse(await t.request('POST', '/v1/metadata', { body: exportEnvelope }), 400, adminOnly);
  },
);
