import { engineNamed, isSessionVariable, sessionKey, spokenName, spokenText, spokenVariables } from './sessionNames';

test('session variable names: x-engine- always, x-hasura- only with the compatibility setting, in any case [dec.compat.headers]', () => {
  expect(['X-Engine-User-Id', 'x-engine-a', 'X-ENGINE-B', 'X-Hasura-User-Id', 'my-x-engine-ids', 7].map((v) => isSessionVariable(v))).toEqual([
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
  expect(['X-Hasura-User-Id', 'x-hasura-a', 'X-Engine-User-Id', 'x-hasuraa', 'hasura-user'].map((v) => isSessionVariable(v, 'hasura'))).toEqual([
    true,
    true,
    true,
    false,
    false,
  ]);
  expect(['X-Hasura-User-Id', 'X-ENGINE-LABEL', 'x-engine-role'].map(sessionKey)).toEqual(['x-engine-user-id', 'x-engine-label', 'x-engine-role']);
});

test('what a compatible server says and sends is named x-hasura-, in the case it was written in', () => {
  expect(['X-Engine-User-Id', 'x-engine-role', 'X-ENGINE-LABEL', 'authorization'].map((n) => spokenName(n, 'hasura'))).toEqual([
    'X-Hasura-User-Id',
    'x-hasura-role',
    'X-HASURA-LABEL',
    'authorization',
  ]);
  expect(spokenName('X-Engine-User-Id')).toBe('X-Engine-User-Id');
  expect(spokenText('invalid x-engine-admin-secret; X-Engine-Role is missing', 'hasura')).toBe('invalid x-hasura-admin-secret; X-Hasura-Role is missing');
  expect(spokenText('invalid x-engine-admin-secret')).toBe('invalid x-engine-admin-secret');
  expect(spokenVariables({ 'x-engine-role': 'user', 'x-engine-user-id': '1' }, 'hasura')).toEqual({ 'x-hasura-role': 'user', 'x-hasura-user-id': '1' });
  expect(spokenVariables({ 'x-engine-role': 'user' })).toEqual({ 'x-engine-role': 'user' });
});

test('x-hasura- entries are taken as x-engine- ones; one variable under both names with different values is a conflict', () => {
  expect(engineNamed({ 'x-hasura-role': 'user', 'X-Hasura-User-Id': '1', authorization: 'a' }, 'hasura')).toEqual({
    named: { 'x-engine-role': 'user', 'x-engine-user-id': '1', authorization: 'a' },
  });
  expect(engineNamed({ 'x-hasura-role': 'user', 'x-engine-role': 'user' }, 'hasura')).toEqual({ named: { 'x-engine-role': 'user' } });
  expect(engineNamed({ 'x-engine-user-id': '1', 'X-Hasura-User-Id': '2' }, 'hasura')).toEqual({ names: ['x-engine-user-id', 'X-Hasura-User-Id'] });
  expect(engineNamed({ 'x-hasura-role': 'user' }, undefined)).toEqual({ named: { 'x-hasura-role': 'user' } });
});
