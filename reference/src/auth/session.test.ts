import { EngineError } from '../errors';
import { authenticate, secretsEqual } from './session';

describe('authenticate', () => {
  test('without an admin secret, no role header means admin', async () => {
    expect(await authenticate({}, {})).toEqual({ role: 'admin', variables: {} });
  });
  test('without an admin secret, X-Engine-Role selects the role and is a session variable', async () => {
    expect(await authenticate({ 'x-engine-role': 'user', 'x-engine-user-id': '7' }, {})).toEqual({
      role: 'user',
      variables: { 'x-engine-role': 'user', 'x-engine-user-id': '7' },
    });
  });
  test('with a secret, the right one is admin and the secret is no session variable', async () => {
    expect(await authenticate({ 'x-engine-admin-secret': 's3cret' }, { adminSecret: 's3cret' })).toEqual({ role: 'admin', variables: {} });
  });
  test('with a secret, a wrong one is refused with 401', async () => {
    const r = (await authenticate({ 'x-engine-admin-secret': 'nope' }, { adminSecret: 's3cret' })) as EngineError;
    expect(r.toBody()).toEqual({ path: '$', error: 'invalid x-engine-admin-secret', code: 'access-denied' });
    expect(r.status).toBe(401);
  });
  test('with a secret, none given is refused unless an unauthorized role is configured', async () => {
    const r = (await authenticate({}, { adminSecret: 's' })) as EngineError;
    expect(r.toBody()).toEqual({ path: '$', error: 'x-engine-admin-secret required, but not found', code: 'access-denied' });
    expect(await authenticate({}, { adminSecret: 's', unauthorizedRole: 'anonymous' })).toEqual({
      role: 'anonymous',
      variables: { 'x-engine-role': 'anonymous' },
    });
  });
  test('secretsEqual compares whole values', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
    expect(secretsEqual('', 'a')).toBe(false);
  });
});
