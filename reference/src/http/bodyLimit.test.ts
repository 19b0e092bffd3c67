import { bodyLimit } from './bodyLimit';

const ADMIN = 1_000_000;
const ROLE = 1_000;
const settings = (extra: Record<string, unknown>) =>
  ({ adminSecret: undefined, jwt: undefined, authHook: undefined, maxRequestBodyBytes: ADMIN, maxRoleRequestBodyBytes: ROLE, ...extra }) as Parameters<
    typeof bodyLimit
  >[1];

test('a server with no auth at all takes the admin limit from every request', () => {
  expect(bodyLimit({}, settings({}))).toBe(ADMIN);
});

test('without an admin secret but with JWT or a webhook, every request is a role and gets the smaller limit', () => {
  expect(bodyLimit({}, settings({ jwt: { key: 'k' } }))).toBe(ROLE);
  expect(bodyLimit({}, settings({ authHook: { url: 'http://127.0.0.1:1/hook' } }))).toBe(ROLE);
});

test('with an admin secret, only the right secret gets the admin limit; a wrong, missing or repeated header gets the smaller', () => {
  const config = settings({ adminSecret: 's3cret' });
  expect(bodyLimit({ 'x-engine-admin-secret': 's3cret' }, config)).toBe(ADMIN);
  expect(bodyLimit({ 'x-engine-admin-secret': 's3cret-not' }, config)).toBe(ROLE);
  expect(bodyLimit({ 'x-engine-admin-secret': '' }, config)).toBe(ROLE);
  expect(bodyLimit({}, config)).toBe(ROLE);
  expect(bodyLimit({ 'x-engine-admin-secret': ['s3cret', 's3cret'] as unknown as string }, config)).toBe(ROLE);
});

test('the untrusted limit is the smaller of the two, whichever is configured lower', () => {
  const config = settings({ adminSecret: 's3cret', maxRequestBodyBytes: 500, maxRoleRequestBodyBytes: 2_000 });
  expect(bodyLimit({}, config)).toBe(500);
  expect(bodyLimit({ 'x-engine-admin-secret': 's3cret' }, config)).toBe(500);
});
