// Requests from web pages: which origin may use which API, the body types a browser may send,
// and the CORS headers (decisions dec.http.cross-origin and dec.http.content-type).
import { apiKindOf, corsHeaders, crossSite, originPolicy, refusedContentType } from './crossOrigin';

test('the API a path belongs to', () => {
  const paths = ['/v1/query', '/v1/metadata', '/v2/query', '/v1alpha1/config', '/v1alpha1/pg_dump', '/v1/graphql', '/v1alpha1/graphql', '/api/rest/x/y'];
  expect(paths.map(apiKindOf)).toEqual(['admin', 'admin', 'admin', 'admin', 'admin', 'graphql', 'graphql', 'graphql']);
  expect(['/healthz', '/api/restx', '/v1/metadata/', '/v1/graphql/x', '/console'].map(apiKindOf)).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

test('no list and no admin secret: only the server’s own origin', () => {
  const policy = originPolicy({ corsDomains: undefined, adminSecret: undefined });
  expect(policy.allows('http://a.example', 'graphql', undefined)).toBe(false);
  expect(policy.allows('http://localhost:8080', 'admin', 'localhost:8080')).toBe(true);
  expect(policy.allows('http://localhost:8080', 'graphql', 'LOCALHOST:8080')).toBe(true);
  // A Host without a port has the port of the origin's scheme (behind a TLS proxy, https's).
  expect(policy.allows('http://localhost', 'admin', 'localhost')).toBe(true);
  expect(policy.allows('https://localhost', 'admin', 'localhost')).toBe(true);
  expect(policy.allows('https://localhost', 'admin', 'localhost:80')).toBe(false);
  expect(policy.allows('https://localhost', 'admin', 'localhost:443')).toBe(true);
  expect(policy.allows('http://localhost:8081', 'admin', 'localhost:8080')).toBe(false);
  expect(policy.allows('null', 'graphql', 'localhost:8080')).toBe(false);
  expect(policy.allows('http://[::1]', 'admin', '[::1]')).toBe(true);
  expect(policy.allows('http://[::1]:8080', 'admin', '[::1]:8080')).toBe(true);
});

test('an admin secret without a list: every origin for GraphQL, none for the admin APIs', () => {
  const policy = originPolicy({ corsDomains: undefined, adminSecret: 's' });
  expect(policy.allows('https://anything.example:9', 'graphql', 'engine:8080')).toBe(true);
  expect(policy.allows('https://anything.example:9', 'admin', 'engine:8080')).toBe(false);
  expect(policy.allows('file://x', 'graphql', undefined)).toBe(false);
});

test('a list: patterns by scheme, host, subdomain and port; `*` opens GraphQL only', () => {
  const policy = originPolicy({
    corsDomains: ['https://*.example.com', 'http://localhost:3000', 'http://[::1]:8080', 'not an origin', ' https://Spaced.example '],
    adminSecret: 's',
  });
  const admin = (origin: string) => policy.allows(origin, 'admin', undefined);
  expect(admin('https://app.example.com')).toBe(true);
  expect(admin('https://app.example.com:443')).toBe(true);
  expect(admin('https://a.b.example.com')).toBe(true);
  expect(admin('https://example.com')).toBe(false);
  expect(admin('https://badexample.com')).toBe(false);
  expect(admin('http://app.example.com')).toBe(false);
  expect(admin('http://app.example.com:443')).toBe(false);
  // The whole origin, nothing before or after it.
  expect(admin('xhttp://localhost:3000')).toBe(false);
  expect(admin('http://localhost:3000/x')).toBe(false);
  expect(admin('http://localhost:3000.evil.example')).toBe(false);
  expect(admin('https://app.example.com:8443')).toBe(false);
  expect(admin('http://localhost:3000')).toBe(true);
  expect(admin('http://LOCALHOST:3000')).toBe(true);
  expect(admin('http://localhost:3001')).toBe(false);
  expect(admin('http://localhost')).toBe(false);
  expect(admin('http://[::1]:8080')).toBe(true);
  expect(admin('https://spaced.example')).toBe(true);
  expect(policy.allows('https://other.example', 'graphql', undefined)).toBe(false);
  expect(policy.allows('https://app.example.com', 'graphql', undefined)).toBe(true);
  const open = originPolicy({ corsDomains: ['*', 'http://localhost:3000'], adminSecret: undefined });
  expect(open.allows('https://other.example', 'graphql', undefined)).toBe(true);
  expect(open.allows('https://other.example', 'admin', undefined)).toBe(false);
  expect(open.allows('http://localhost:3000', 'admin', undefined)).toBe(true);
  expect(originPolicy({ corsDomains: [], adminSecret: 's' }).allows('https://other.example', 'graphql', undefined)).toBe(false);
});

test('body types: JSON always; other types only from clients that are not browsers', () => {
  expect(refusedContentType({})).toBeUndefined();
  expect(refusedContentType({ origin: 'http://x' })).toBeUndefined();
  expect(refusedContentType({ 'content-type': 'application/json', origin: 'http://x' })).toBeUndefined();
  expect(refusedContentType({ 'content-type': 'application/json; charset=utf-8', origin: 'http://x' })).toBeUndefined();
  expect(refusedContentType({ 'content-type': 'application/graphql-response+json', origin: 'http://x' })).toBeUndefined();
  expect(refusedContentType({ 'content-type': 'text/plain' })).toBeUndefined();
  expect(refusedContentType({ 'content-type': 'Text/Plain; charset=x', origin: 'http://x' })).toBe('text/plain');
  expect(refusedContentType({ 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' })).toBe(
    'application/x-www-form-urlencoded',
  );
  expect(refusedContentType({ 'content-type': ' multipart/form-data; boundary=b ', origin: 'null' })).toBe('multipart/form-data');
});

test('a page of another site, by Sec-Fetch-Site', () => {
  expect(['cross-site', 'same-site', 'same-origin', 'none', undefined].map((v) => crossSite(v === undefined ? {} : { 'sec-fetch-site': v }))).toEqual([
    true,
    true,
    false,
    false,
    false,
  ]);
});

test('CORS headers of an answer and of a preflight', () => {
  const answer = {
    'access-control-allow-origin': 'http://x',
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'x-request-id',
    vary: 'Origin',
  };
  expect(corsHeaders('http://x', undefined)).toEqual(answer);
  expect(corsHeaders('http://x', { 'access-control-request-headers': 'x-engine-role' })).toEqual({
    ...answer,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'x-engine-role',
    'access-control-max-age': '1728000',
  });
  expect(corsHeaders('http://x', {})['access-control-allow-headers']).toBe('content-type, authorization');
});
