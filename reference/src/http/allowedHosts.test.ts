// The Host header's name, and which names a server answers to (dec.http.allowed-hosts), on both
// sides of each rule: the forms that name a host and those that do not.
import { hostCheck, hostName } from './allowedHosts';

test.each([
  [undefined, undefined],
  ['localhost', 'localhost'],
  ['  LocalHost:8080 ', 'localhost'],
  ['localhost.', 'localhost'],
  ['api.example.com.:443', 'api.example.com'],
  ['[::1]', '::1'],
  ['[::1]:8080', '::1'],
  // Not a host name: the whole header must be one.
  ['x[::1]', undefined],
  ['[::1]x', undefined],
  ['[::1]:80x', undefined],
  ['evil.example:80:90', undefined],
  ['localhost:80x', undefined],
  [':80', undefined],
])('the name of Host %p is %p', (header, name) => {
  expect(hostName(header)).toBe(name);
});

test('exact names and names below a *. entry are answered; others are refused with their Host', () => {
  const check = hostCheck({ allowedHosts: ['localhost', '*.a.example', '*.b.example'] });
  expect(check({ host: 'localhost:8080' })).toBeUndefined();
  expect(check({ host: 'x.a.example' })).toBeUndefined();
  expect(check({ host: 'y.z.b.example' })).toBeUndefined();
  // The bare domain of a *. entry is not below it.
  expect(check({ host: 'a.example' })).toBe('a.example');
  expect(check({ host: 'evil.example' })).toBe('evil.example');
  // An exact name covers itself only, not the names that end like it.
  expect(check({ host: 'xocalhost' })).toBe('xocalhost');
  expect(check({ host: 'notlocalhost' })).toBe('notlocalhost');
  // A Host that names no host is refused as it came.
  expect(check({ host: 'a:b:c' })).toBe('a:b:c');
  // Without Host (HTTP/1.0 from this machine) there is no name to check.
  expect(check({})).toBeUndefined();
  expect(hostCheck({ allowedHosts: ['*'] })({ host: 'anything.example' })).toBeUndefined();
});

test('an exact name covers itself only, not the names that begin like it', () => {
  const check = hostCheck({ allowedHosts: ['localhost', '10.0.0.5', '::1', 'api.example.com', '*.a.example'] });
  for (const host of ['localhost', 'LOCALHOST:80', '10.0.0.5:8080', '[::1]:80', 'api.example.com.', 'x.a.example']) expect(check({ host })).toBeUndefined();
  for (const host of [
    'localhost.evil.example',
    'localhostx:80',
    'localhost-evil.example',
    '10.0.0.50',
    '10.0.0.5.evil.example',
    '[::1:2]',
    'api.example.com.evil.example',
    'x.a.example.evil.example',
  ])
    expect(check({ host })).toBe(host);
});
