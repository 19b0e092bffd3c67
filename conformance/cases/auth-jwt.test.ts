// JWT authentication: SPEC.md §5.2-5.4 and the decisions on tokens, claims and roles.
import { branded } from '../harness/brand';
import { caseWithProfile } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { blogArticleMetadata, fixtureSql } from '../harness/fixtures';
import { engineClaims, signToken } from '../harness/jwt';
import type { ProfileName } from '../harness/profiles';
import { useTarget, type Target } from '../harness/target';

const PROFILES: ProfileName[] = ['jwt-hs256', 'jwt-rs256', 'jwt-cookie', 'jwt-jwk', 'jwt-unauthorized-role'];
const target = useTarget({ profiles: PROFILES });
const NS = 'https://engine.example/claims';
const query = '{ blog_article(order_by: {id: asc}) { id } }';

async function setUp(t: Target): Promise<void> {
  const r = await t.metadata(blogArticleMetadata('reader'));
  if (r.status !== 200) throw new Error(r.text);
}

beforeAll(async () => {
  await target.sql(fixtureSql('blog'));
  for (const name of PROFILES) {
    const t = target.profileTarget(name);
    if (t) await setUp(t);
  }
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const hs = (claims: Record<string, unknown>, options = {}) => signToken({ [NS]: claims }, options);

caseWithProfile('jwt-hs256', ['rule.auth.2', 'rule.auth.4'], 'an HS256 token gives the default role and its session variables', async () => {
  const t = target.profileTarget('jwt-hs256')!;
  const token = await hs(engineClaims('user', ['user', 'reader'], { 'x-engine-user-id': '2' }), { expiresIn: '5m' });
  expectResponse(await t.graphql(query, undefined, { headers: bearer(token) }), 200, { data: { blog_article: [{ id: 3 }, { id: 4 }] } });
});

caseWithProfile('jwt-hs256', ['rule.auth.2', 'rule.auth.4'], 'the default role is the claim x-engine-default-role, not the first allowed role', async () => {
  const t = target.profileTarget('jwt-hs256')!;
  const token = await hs(engineClaims('reader', ['user', 'reader'], { 'x-engine-user-id': '2' }));
  expectResponse(await t.graphql(query, undefined, { headers: bearer(token) }), 200, { data: { blog_article: [{ id: 1 }, { id: 3 }] } });
  const other = await hs(engineClaims('user', ['reader', 'user'], { 'x-engine-user-id': '2' }));
  expectResponse(await t.graphql(query, undefined, { headers: bearer(other) }), 200, { data: { blog_article: [{ id: 3 }, { id: 4 }] } });
});

caseWithProfile(
  'jwt-hs256',
  ['rule.perm.insert.backend-only:refused', 'rule.perm.insert.backend-only:allowed'],
  'a token is not the admin secret: the backend-only header gives a JWT request no backend_only permission',
  async () => {
    const t = target.profileTarget('jwt-hs256')!;
    const article = { schema: 'blog', name: 'article' };
    expect(
      (
        await t.metadata({
          type: 'create_insert_permission',
          args: { table: article, role: 'feeder', permission: { check: {}, columns: ['title', 'author_id'], backend_only: true } },
        })
      ).status,
    ).toBe(200);
    try {
      const token = await hs(engineClaims('feeder', ['feeder']));
      const insert = 'mutation { insert_blog_article(objects: [{title: "by token", author_id: 1}]) { affected_rows } }';
      const r = await t.graphql(insert, undefined, { headers: { ...bearer(token), 'x-engine-use-backend-only-permissions': 'true' } });
      expect(r.body).toEqual({
        errors: [{ message: 'the schema is not configured for mutation operations', extensions: { path: '$', code: 'validation-failed' } }],
      });
      expect(await target.sql("select count(*)::int as n from blog.article where title = 'by token'")).toEqual([{ n: 0 }]);
      // The same request with the admin secret may.
      const admin = await t.graphql(insert, undefined, {
        headers: { ...t.adminHeaders(), 'x-engine-role': 'feeder', 'x-engine-use-backend-only-permissions': 'true' },
      });
      expect(admin.body).toEqual({ data: { insert_blog_article: { affected_rows: 1 } } });
    } finally {
      await target.sql("delete from blog.article where title = 'by token'");
      await t.metadata({ type: 'drop_insert_permission', args: { table: article, role: 'feeder' } });
    }
  },
);

caseWithProfile('jwt-hs256', ['rule.auth.4', 'err.jwt.role-not-allowed'], 'X-Engine-Role picks one of the allowed roles, and no other', async () => {
  const t = target.profileTarget('jwt-hs256')!;
  const token = await hs(engineClaims('user', ['user', 'reader'], { 'x-engine-user-id': '2' }));
  expectResponse(await t.graphql(query, undefined, { headers: { ...bearer(token), 'x-engine-role': 'reader' } }), 200, {
    data: { blog_article: [{ id: 1 }, { id: 3 }] },
  });
  const r = await t.graphql(query, undefined, { headers: { ...bearer(token), 'x-engine-role': 'editor' } });
  expectResponse(r, 400, { errors: [{ message: 'Your current role is not in allowed roles', extensions: { path: '$', code: 'access-denied' } }] });
});

caseWithProfile('jwt-hs256', ['err.jwt.invalid'], 'expired tokens, bad signatures and missing role claims are refused', async () => {
  const t = target.profileTarget('jwt-hs256')!;
  const expired = await hs(engineClaims('user', ['user']), { expiresIn: Math.floor(Date.now() / 1000) - 60 });
  expectResponse(await t.graphql(query, undefined, { headers: bearer(expired) }), 400, {
    errors: [{ message: 'Could not verify JWT: JWTExpired', extensions: { path: '$', code: 'invalid-jwt' } }],
  });
  const forged = await hs(engineClaims('user', ['user']), { key: 'another-key-that-is-also-32-bytes-long' });
  const r = await t.graphql(query, undefined, { headers: bearer(forged) });
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ errors: [{ message: expect.stringMatching(/^Could not verify JWT: /), extensions: { path: '$', code: 'invalid-jwt' } }] });
  const noRoles = await hs({ 'x-engine-default-role': 'user' });
  expect((await t.graphql(query, undefined, { headers: bearer(noRoles) })).body).toEqual({
    errors: [
      {
        message: branded('Could not verify JWT: x-engine-allowed-roles claim is missing or not a list of roles'),
        extensions: { path: '$', code: 'invalid-jwt' },
      },
    ],
  });
});

caseWithProfile('jwt-hs256', ['err.jwt.missing', 'rule.auth.3'], 'without a token a request is refused; the admin secret still works', async () => {
  const t = target.profileTarget('jwt-hs256')!;
  expectResponse(await t.graphql(query, undefined, { headers: {} }), 401, {
    errors: [{ message: "Missing 'Authorization' or 'Cookie' header in JWT authentication mode", extensions: { path: '$', code: 'access-denied' } }],
  });
  expectResponse(await t.graphql(query, undefined, { headers: t.adminHeaders() }), 200, {
    data: { blog_article: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] },
  });
  const config = await t.request('GET', '/v1alpha1/config', { headers: t.adminHeaders() });
  expect(config.body).toMatchObject({ is_jwt_set: true, jwt: { claims_namespace: NS, claims_format: 'json' } });
});

caseWithProfile(
  'jwt-unauthorized-role',
  ['err.jwt.missing', 'dec.auth.unauthorized-role', 'rule.auth.2'],
  'without a token a request takes the unauthorized role, whatever role it names; a token still gives its own',
  async () => {
    const t = target.profileTarget('jwt-unauthorized-role')!;
    const article = { schema: 'blog', name: 'article' };
    const anonymous = {
      type: 'create_select_permission',
      args: { table: article, role: 'anonymous', permission: { columns: ['id'], filter: { published: true } } },
    };
    // Before the role may read anything, the table is not in its schema: the request is no 401.
    expectResponse(await t.graphql(query, undefined, { headers: {} }), 200, {
      errors: [
        { message: expect.stringMatching(/^Cannot query field "blog_article" on type "query_root"\./), extensions: { path: '$', code: 'validation-failed' } },
      ],
    });
    expectResponse(await t.metadata(anonymous), 200, { message: 'success' });
    try {
      const published = { data: { blog_article: [{ id: 1 }, { id: 3 }] } };
      expectResponse(await t.graphql(query, undefined, { headers: {} }), 200, published);
      expectResponse(await t.graphql(query, undefined, { headers: { 'x-engine-role': 'user', 'x-engine-user-id': '2' } }), 200, published);
      const token = await hs(engineClaims('user', ['user'], { 'x-engine-user-id': '2' }));
      expectResponse(await t.graphql(query, undefined, { headers: bearer(token) }), 200, { data: { blog_article: [{ id: 3 }, { id: 4 }] } });
    } finally {
      await t.metadata({ type: 'drop_select_permission', args: { table: article, role: 'anonymous' } });
    }
  },
);

caseWithProfile('jwt-rs256', ['rule.auth.2', 'rule.auth.4'], 'an RS256 token with stringified claims at a namespace path, audience and issuer', async () => {
  const t = target.profileTarget('jwt-rs256')!;
  const claims = JSON.stringify(engineClaims('user', ['user'], { 'x-engine-user-id': '1' }));
  const good = await signToken({ engine: { claims } }, { algorithm: 'RS256', audience: 'conformance', issuer: 'harness', expiresIn: '5m' });
  expectResponse(await t.graphql(query, undefined, { headers: bearer(good) }), 200, { data: { blog_article: [{ id: 1 }, { id: 2 }] } });
  for (const options of [
    { audience: 'someone-else', issuer: 'harness' },
    { audience: 'conformance', issuer: 'mallory' },
    { audience: 'conformance', issuer: 'harness', notBefore: '10m' },
  ]) {
    const bad = await signToken({ engine: { claims } }, { algorithm: 'RS256', ...options });
    const r = await t.graphql(query, undefined, { headers: bearer(bad) });
    expect({ status: r.status, code: (r.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code }).toEqual({
      status: 400,
      code: 'invalid-jwt',
    });
  }
});

caseWithProfile('jwt-cookie', ['rule.auth.2'], 'the token may come in the configured cookie instead of Authorization', async () => {
  const t = target.profileTarget('jwt-cookie')!;
  const token = await hs(engineClaims('user', ['user'], { 'x-engine-user-id': '1' }));
  expectResponse(await t.graphql(query, undefined, { headers: { cookie: `theme=dark; engine_token=${token}` } }), 200, {
    data: { blog_article: [{ id: 1 }, { id: 2 }] },
  });
});

caseWithProfile('jwt-jwk', ['rule.auth.2', 'rule.auth.4'], 'keys from a jwk_url verify tokens, and the key set is cached', async () => {
  const t = target.profileTarget('jwt-jwk')!;
  const token = await signToken({ [NS]: engineClaims('user', ['user'], { 'x-engine-user-id': '1' }) }, { algorithm: 'RS256', expiresIn: '5m' });
  for (let i = 0; i < 3; i++) {
    expectResponse(await t.graphql(query, undefined, { headers: bearer(token) }), 200, { data: { blog_article: [{ id: 1 }, { id: 2 }] } });
  }
  expect(target.jwks().requests).toBe(1);
  // An HS256 token is no token of this key set, whatever it claims.
  const forged = await hs(engineClaims('user', ['user'], { 'x-engine-user-id': '1' }));
  const r = await t.graphql(query, undefined, { headers: bearer(forged) });
  expect({ status: r.status, body: r.body }).toEqual({
    status: 400,
    body: { errors: [{ message: expect.stringMatching(/^Could not verify JWT: /), extensions: { path: '$', code: 'invalid-jwt' } }] },
  });
});

caseWithProfile(
  'jwt-hs256',
  ['err.jwt.invalid', 'err.jwt.role-not-allowed'],
  'the legacy DML endpoint refuses an expired token and a role outside the allowed ones alike, and counts with an allowed one',
  async () => {
    const t = target.profileTarget('jwt-hs256')!;
    // Sent without the admin secret: the token alone decides.
    const count = (headers: Record<string, string>) =>
      t.request('POST', '/v1/query', { body: { type: 'count', args: { table: { schema: 'blog', name: 'article' } } }, headers });
    const expired = await hs(engineClaims('reader', ['reader']), { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    expectResponse(await count(bearer(expired)), 400, { path: '$', error: 'Could not verify JWT: JWTExpired', code: 'invalid-jwt' });
    const token = await hs(engineClaims('reader', ['reader'], { 'x-engine-user-id': '2' }));
    expectResponse(await count({ ...bearer(token), 'x-engine-role': 'editor' }), 400, {
      path: '$',
      error: 'Your current role is not in allowed roles',
      code: 'access-denied',
    });
    expectResponse(await count(bearer(token)), 200, { count: 2 });
  },
);
