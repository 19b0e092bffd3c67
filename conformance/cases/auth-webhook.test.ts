// Webhook authentication: SPEC.md §5.4 (the webhook may produce the session variables) and the
// decided request and response shapes, against a real webhook on loopback.
import { caseWithProfile } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { blogArticleMetadata, fixtureSql } from '../harness/fixtures';
import type { ProfileName } from '../harness/profiles';
import { useTarget } from '../harness/target';

const PROFILES: ProfileName[] = ['auth-hook-get', 'auth-hook-post'];
const target = useTarget({ profiles: [...PROFILES, 'auth-hook-down'] });
const query = '{ blog_article(order_by: {id: asc}) { id } }';

beforeAll(async () => {
  await target.sql(fixtureSql('blog'));
  for (const name of PROFILES) {
    const t = target.profileTarget(name);
    if (!t) continue;
    await t.metadata(blogArticleMetadata('anonymous'));
  }
});

for (const name of PROFILES) {
  caseWithProfile(name, ['rule.auth.4'], `${name}: the webhook's session variables decide the role and rows`, async () => {
    const t = target.profileTarget(name)!;
    expectResponse(await t.graphql(query, undefined, { headers: { authorization: 'Bearer user-1' } }), 200, { data: { blog_article: [{ id: 1 }, { id: 2 }] } });
    expectResponse(await t.graphql(query, undefined, { headers: {} }), 200, { data: { blog_article: [{ id: 1 }, { id: 3 }] } });
    const config = await t.request('GET', '/v1alpha1/config', { headers: t.adminHeaders() });
    expect(config.body).toMatchObject({ is_auth_hook_set: true, is_jwt_set: false });
  });

  caseWithProfile(
    name,
    ['err.webhook.unauthorized', 'err.webhook.invalid-response'],
    `${name}: a 401 from the webhook refuses the request, other answers are errors`,
    async () => {
      const t = target.profileTarget(name)!;
      expectResponse(await t.graphql(query, undefined, { headers: { authorization: 'Bearer deny' } }), 401, {
        errors: [{ message: 'Authentication hook unauthorized this request', extensions: { path: '$', code: 'access-denied' } }],
      });
      expectResponse(await t.graphql(query, undefined, { headers: { authorization: 'Bearer broken' } }), 500, {
        errors: [{ message: 'Invalid response from authorization hook: status 500', extensions: { path: '$', code: 'unexpected' } }],
      });
    },
  );
}

caseWithProfile('auth-hook-post', ['rule.auth.4'], 'in POST mode the webhook gets the client headers and the GraphQL request', async () => {
  const t = target.profileTarget('auth-hook-post')!;
  const hook = target.authHook();
  hook.calls.length = 0;
  await t.graphql(query, { unused: 1 }, { headers: { authorization: 'Bearer user-2', 'x-custom': 'yes' } });
  expect(hook.calls).toHaveLength(1);
  expect(hook.calls[0]).toMatchObject({
    method: 'POST',
    body: { headers: { authorization: 'Bearer user-2', 'x-custom': 'yes' }, request: { query, variables: { unused: 1 } } },
  });
});

caseWithProfile('auth-hook-get', ['rule.auth.4'], 'in GET mode the webhook gets the client headers', async () => {
  const t = target.profileTarget('auth-hook-get')!;
  const hook = target.authHook();
  hook.calls.length = 0;
  await t.graphql(query, undefined, { headers: { authorization: 'Bearer user-2', 'x-custom': 'yes' } });
  expect(hook.calls).toHaveLength(1);
  expect(hook.calls[0]).toMatchObject({ method: 'GET', headers: { authorization: 'Bearer user-2', 'x-custom': 'yes' } });
});

caseWithProfile('auth-hook-down', ['err.webhook.unreachable'], 'a webhook that cannot be reached is a server error', async () => {
  const t = target.profileTarget('auth-hook-down')!;
  expectResponse(await t.graphql(query, undefined, { headers: {} }), 500, {
    errors: [{ message: 'The authentication hook could not be reached', extensions: { path: '$', code: 'unexpected' } }],
  });
});

caseWithProfile(
  'auth-hook-get',
  ['err.webhook.unauthorized', 'err.webhook.invalid-response'],
  "the legacy DML endpoint refuses what the webhook refuses, and answers the webhook's failure as an error, in its own answer form",
  async () => {
    const t = target.profileTarget('auth-hook-get')!;
    const count = (authorization: string) =>
      t.request('POST', '/v1/query', { body: { type: 'count', args: { table: { schema: 'blog', name: 'article' } } }, headers: { authorization } });
    expectResponse(await count('Bearer deny'), 401, { path: '$', error: 'Authentication hook unauthorized this request', code: 'access-denied' });
    expectResponse(await count('Bearer broken'), 500, { path: '$', error: 'Invalid response from authorization hook: status 500', code: 'unexpected' });
  },
);

caseWithProfile(
  'auth-hook-down',
  ['err.webhook.unreachable'],
  'a webhook that cannot be reached is a server error at the legacy DML endpoint too',
  async () => {
    const t = target.profileTarget('auth-hook-down')!;
    const r = await t.request('POST', '/v1/query', { body: { type: 'count', args: { table: { schema: 'blog', name: 'article' } } }, headers: {} });
    expectResponse(r, 500, { path: '$', error: 'The authentication hook could not be reached', code: 'unexpected' });
  },
);
