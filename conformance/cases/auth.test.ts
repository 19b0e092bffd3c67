// Who may use the metadata API: SPEC.md §5.1, §5.3 and the 401 decisions of §7.1.
import { branded } from '../harness/brand';
import { caseNeeding, caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_ADMIN_SECRET, useTarget, type Target } from '../harness/target';

const target = useTarget({ profiles: ['no-admin-secret', 'unauthorized-role'] });
const exportEnvelope = { type: 'export_metadata', args: {} };
const adminOnly = { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' };

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['rule.auth.3:refused', 'err.admin-secret.missing'],
  'with an admin secret configured, a request without one is refused',
  async () => {
    const r = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-role': 'admin' } });
    expectResponse(r, 401, { path: '$', error: branded('x-engine-admin-secret required, but not found'), code: 'access-denied' });
  },
);

caseNeeding(REQUIRES_ADMIN_SECRET, ['rule.auth.3:refused', 'err.admin-secret.invalid'], 'a wrong admin secret is refused', async () => {
  const r = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-admin-secret': `${target.adminSecret}x` } });
  expectResponse(r, 401, { path: '$', error: branded('invalid x-engine-admin-secret'), code: 'access-denied' });
});

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['rule.auth.3:refused', 'err.admin-secret.invalid'],
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
      expectResponse(r, 401, { path: '$', error: branded('invalid x-engine-admin-secret'), code: 'access-denied' });
      const g = await target.request('POST', '/v1/graphql', { body: { query: '{ __typename }' }, headers: { 'x-engine-admin-secret': wrong } });
      expectResponse(g, 401, { errors: [{ message: branded('invalid x-engine-admin-secret'), extensions: { path: '$', code: 'access-denied' } }] });
    }
  },
);

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['rule.auth.3:allowed', 'rule.auth.1:allowed'],
  'the right admin secret is admin, whatever the case of the header name',
  async () => {
    const r = await target.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'X-ENGINE-ADMIN-SECRET': target.adminSecret! } });
    expectResponse(r, 200, { version: 2, tables: [] });
  },
);

test(
  covers(['rule.auth.1:refused', 'err.access-denied.admin-only', 'dec.auth.admin-secret-role'], 'acting as a non-admin role, the metadata API is refused'),
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

caseWithProfile(
  'no-admin-secret',
  ['dec.auth.no-secret', 'rule.auth.1:allowed'],
  'without an admin secret, X-Engine-Role: admin (or no role) is admin',
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    expectResponse(await t.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-role': 'admin' } }), 200, { version: 2, tables: [] });
    expectResponse(await t.request('POST', '/v1/metadata', { body: exportEnvelope }), 200, { version: 2, tables: [] });
  },
);

caseWithProfile(
  'no-admin-secret',
  ['dec.auth.no-secret', 'rule.auth.1:refused', 'err.access-denied.admin-only'],
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

// A function whose session argument shows the session variables a request carries.
const ECHO_SQL = `
  drop schema if exists authecho cascade;
  create schema authecho;
  create table authecho.echo (id integer primary key, body text not null);
  create function authecho.whoami(engine_session json) returns setof authecho.echo
    language sql stable as $$ select 1, engine_session::text $$;
`;
const echoMetadata = {
  type: 'replace_metadata',
  args: {
    version: 2,
    tables: [
      {
        table: { schema: 'authecho', name: 'echo' },
        select_permissions: ['anonymous', 'user'].map((role) => ({ role, permission: { columns: ['id', 'body'], filter: {} } })),
      },
    ],
    functions: [{ function: { schema: 'authecho', name: 'whoami' }, configuration: { session_argument: 'engine_session' } }],
  },
};
const whoami = '{ authecho_whoami { body } }';
type EchoTarget = Pick<Target, 'metadata' | 'graphql'>;

/** The session variables the target gives a request with these headers, as its function's session argument sees them. */
async function sessionOf(t: EchoTarget, headers: Record<string, string>): Promise<unknown> {
  const r = await t.graphql(whoami, undefined, { headers });
  const rows = (r.body as { data?: { authecho_whoami?: { body: string }[] } }).data?.authecho_whoami;
  if (r.status !== 200 || !rows) throw new Error(`${r.status} ${r.text}`);
  expect(rows).toHaveLength(1);
  return JSON.parse(rows[0]!.body) as unknown;
}

async function withEcho(t: EchoTarget, body: () => Promise<void>): Promise<void> {
  expectResponse(await t.metadata(echoMetadata), 200, { message: 'success' });
  try {
    await body();
  } finally {
    await t.metadata({ type: 'clear_metadata', args: {} });
  }
}

beforeAll(async () => {
  await target.sql(ECHO_SQL);
});

test(
  covers(
    ['rule.auth.4', 'dec.auth.session-variables'],
    'the session variables are the X-ENGINE-* headers: names lower-cased, no admin secret, no other header',
  ),
  async () => {
    await withEcho(target, async () => {
      const headers = {
        ...target.adminHeaders(),
        'x-engine-role': 'user',
        'x-engine-user-id': '7',
        'X-Engine-Org-Id': 'acme',
        'x-other': '1',
        'engine-user-id': '8',
      };
      expect(await sessionOf(target, headers)).toEqual(branded({ 'x-engine-role': 'user', 'x-engine-user-id': '7', 'x-engine-org-id': 'acme' }));
      // Acting as admin without naming it: the role is still there.
      expect(await sessionOf(target, { ...target.adminHeaders(), 'x-engine-user-id': '7' })).toEqual(
        branded({ 'x-engine-role': 'admin', 'x-engine-user-id': '7' }),
      );
    });
  },
);

caseWithProfile(
  'no-admin-secret',
  ['dec.auth.no-secret', 'dec.auth.session-variables'],
  'without an admin secret configured, an X-Engine-Admin-Secret header is ignored and is no session variable',
  async () => {
    const t = target.profileTarget('no-admin-secret')!;
    await withEcho(t, async () => {
      for (const secret of ['', 'anything', 'x'.repeat(64)]) {
        expectResponse(await t.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-admin-secret': secret } }), 200, {
          version: 2,
          tables: [expect.objectContaining({ table: { schema: 'authecho', name: 'echo' } })],
          functions: [expect.objectContaining({ function: { schema: 'authecho', name: 'whoami' } })],
        });
        expect(await sessionOf(t, { 'x-engine-admin-secret': secret, 'x-engine-role': 'user', 'x-engine-user-id': '3' })).toEqual(
          branded({ 'x-engine-role': 'user', 'x-engine-user-id': '3' }),
        );
        // Still a request of that role: the metadata API stays admin only.
        const asUser = await t.request('POST', '/v1/metadata', { body: exportEnvelope, headers: { 'x-engine-admin-secret': secret, 'x-engine-role': 'user' } });
        expectResponse(asUser, 400, adminOnly);
      }
    });
  },
);

caseWithProfile(
  'unauthorized-role',
  ['dec.auth.unauthorized-role', 'rule.auth.4'],
  'the unauthorized role ignores the X-Engine-Role and X-ENGINE-* headers of a request without credentials',
  async () => {
    const t = target.profileTarget('unauthorized-role')!;
    await withEcho(t, async () => {
      const anonymous = branded({ 'x-engine-role': 'anonymous' });
      expect(await sessionOf(t, {})).toEqual(anonymous);
      expect(await sessionOf(t, { 'x-engine-role': 'user', 'x-engine-user-id': '7' })).toEqual(anonymous);
      expect(await sessionOf(t, { 'x-engine-role': 'admin' })).toEqual(anonymous);
      // With the secret the headers count again.
      expect(await sessionOf(t, { ...t.adminHeaders(), 'x-engine-role': 'user', 'x-engine-user-id': '7' })).toEqual(
        branded({ 'x-engine-role': 'user', 'x-engine-user-id': '7' }),
      );
    });
  },
);

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['err.admin-secret.missing'],
  'without the admin secret, the query endpoints refuse a request that names only the admin role, and run nothing',
  async () => {
    await target.sql('drop table if exists public.secret_probe');
    for (const endpoint of ['/v1/query', '/v2/query']) {
      const r = await target.request('POST', endpoint, {
        body: { type: 'run_sql', args: { sql: 'create table public.secret_probe (id int)' } },
        headers: { 'x-engine-role': 'admin' },
      });
      expectResponse(r, 401, { path: '$', error: branded('x-engine-admin-secret required, but not found'), code: 'access-denied' });
    }
    expect(await target.sql("select count(*)::int as n from pg_tables where tablename = 'secret_probe'")).toEqual([{ n: 0 }]);
  },
);
