// The request envelope and its errors: SPEC.md §4.2, §7.1, §7.2, §9.
import { branded } from '../harness/brand';
import { caseNeeding, caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { gzipSync } from 'node:zlib';
import { REQUIRES_ADMIN_SECRET, useTarget } from '../harness/target';

const target = useTarget({ profiles: ['small-body-limit'] });

const post = (body: unknown, raw = false, endpoint = '/v1/metadata') => target.request('POST', endpoint, { headers: target.adminHeaders(), body, raw });

test(covers(['err.invalid-json'], 'a body that is not JSON is invalid-json'), async () => {
  for (const endpoint of ['/v1/metadata', '/v1/query', '/v2/query']) {
    expectResponse(await post('{"type": "export_metadata", "args": {', true, endpoint), 400, { path: '$', error: 'invalid json', code: 'invalid-json' });
  }
});

test(covers(['err.invalid-json'], 'an empty body is invalid-json'), async () => {
  expectResponse(await post('', true), 400, { path: '$', error: 'invalid json', code: 'invalid-json' });
});

test(covers(['rule.envelope.shape:refused', 'err.parse-failed.arguments'], 'the envelope must be an object'), async () => {
  expectResponse(await post([{ type: 'export_metadata', args: {} }]), 400, {
    path: '$',
    error: 'expected Object, but encountered Array',
    code: 'parse-failed',
  });
});

test(covers(['rule.envelope.shape:refused', 'err.parse-failed.arguments'], 'type is required'), async () => {
  expectResponse(await post({ args: {} }), 400, { path: '$', error: 'key "type" not found', code: 'parse-failed' });
});

test(covers(['rule.envelope.shape:refused', 'err.parse-failed.arguments'], 'args is required'), async () => {
  expectResponse(await post({ type: 'export_metadata' }), 400, { path: '$', error: 'key "args" not found', code: 'parse-failed' });
});

test(covers(['rule.envelope.shape', 'err.parse-failed.arguments'], 'type must be a string'), async () => {
  expectResponse(await post({ type: 3, args: {} }), 400, { path: '$.type', error: 'expected String, but encountered Number', code: 'parse-failed' });
});

test(covers(['err.parse-failed.unknown-operation'], 'an unknown type is refused'), async () => {
  expectResponse(await post({ type: 'no_such_operation', args: {} }), 400, {
    path: '$.type',
    error: 'unknown operation type : no_such_operation',
    code: 'parse-failed',
  });
});

test(
  covers(['err.parse-failed.unsupported-operation-version', 'rule.envelope.version-explicit'], 'a version the operation does not have is refused'),
  async () => {
    expectResponse(await post({ type: 'replace_metadata', version: 3, args: { version: 2, tables: [] } }), 400, {
      path: '$.version',
      error: 'unsupported version 3 for replace_metadata; supported: 1, 2',
      code: 'parse-failed',
    });
  },
);

test(covers(['err.parse-failed.arguments', 'rule.envelope.version-explicit'], 'version must be an integer'), async () => {
  expectResponse(await post({ type: 'export_metadata', version: '1', args: {} }), 400, {
    path: '$.version',
    error: 'expected Integer, but encountered String',
    code: 'parse-failed',
  });
});

test(covers(['err.parse-failed.arguments'], 'a missing argument is reported at its object'), async () => {
  expectResponse(await post({ type: 'replace_metadata', version: 2, args: {} }), 400, {
    path: '$.args',
    error: 'key "metadata" not found',
    code: 'parse-failed',
  });
});

test(covers(['err.parse-failed.arguments'], 'a mistyped argument is reported at its path'), async () => {
  expectResponse(
    await post({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: 'yes', metadata: { version: 2, tables: [] } } }),
    400,
    { path: '$.args.allow_inconsistent_metadata', error: 'expected Boolean, but encountered String', code: 'parse-failed' },
  );
});

test(covers(['err.parse-failed.arguments'], 'an unknown argument key is refused, not ignored'), async () => {
  expectResponse(await post({ type: 'export_metadata', args: { verbose: true } }), 400, {
    path: '$.args',
    error: 'unexpected key "verbose"',
    code: 'parse-failed',
  });
});

test(covers(['err.parse-failed.arguments', 'dec.metadata.older-forms'], 'a metadata document of a config version there is not is refused'), async () => {
  expectResponse(await post({ type: 'replace_metadata', args: { version: 4, sources: [] } }), 400, {
    path: '$.args.version',
    error: 'unexpected value 4; expected one of 1, 2, 3',
    code: 'parse-failed',
  });
});

test(covers(['err.parse-failed.arguments', 'rule.envelope.shape'], 'bad input changes nothing'), async () => {
  await post({ type: 'replace_metadata', args: { version: 2, tables: [] } });
  await post({ type: 'replace_metadata', version: 2, args: { metadata: { version: 2, tables: [{ table: { schema: 'x' } }] } } });
  expectResponse(await post({ type: 'export_metadata', args: {} }), 200, { version: 2, tables: [] });
});

caseWithProfile('small-body-limit', ['err.request-too-large'], 'a body over the configured limit is refused with 413', async () => {
  const t = target.profileTarget('small-body-limit')!;
  const r = await t.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], padding: 'x'.repeat(2000) } });
  expectResponse(r, 413, { path: '$', error: 'request body is larger than 1024 bytes', code: 'request-too-large' });
});

caseWithProfile('small-body-limit', ['err.request-too-large'], 'a GraphQL request over the configured limit is refused with 413 too', async () => {
  const t = target.profileTarget('small-body-limit')!;
  const r = await t.graphql(`query { ${'__typename '.repeat(200)}}`);
  expectResponse(r, 413, { path: '$', error: 'request body is larger than 1024 bytes', code: 'request-too-large' });
});

for (const endpoint of ['/v1/metadata', '/v1/graphql']) {
  test(covers(['err.unsupported-media-type.encoding'], `a body with an unknown Content-Encoding is refused with 415 at ${endpoint}`), async () => {
    const r = await target.request('POST', endpoint, {
      body: endpoint === '/v1/graphql' ? { query: '{ __typename }' } : { type: 'export_metadata', args: {} },
      headers: { ...target.adminHeaders(), 'content-encoding': 'zstd' },
    });
    expectResponse(r, 415, { path: '$', error: 'unsupported Content-Encoding zstd; send identity, gzip, deflate or br', code: 'unsupported-media-type' });
  });
}

/** A gzip body that inflates to `bytes` of valid JSON: an envelope padded beside its args. */
const inflating = (bytes: number, envelope: Record<string, unknown>) => {
  const text = JSON.stringify({ ...envelope, padding: '' });
  return gzipSync(text.replace('"padding":""', `"padding":"${'x'.repeat(bytes - text.length)}"`));
};
// Compressed before any test runs: making it takes a second or two of this process, long enough for
// a kept-alive connection to the target to time out under it and fail the next request.
const BOMB = inflating(95 * 1024 * 1024, { type: 'export_metadata', args: {} });
const postGzip = async (endpoint: string, body: Uint8Array, headers: Record<string, string>) => {
  const r = await fetch(target.url + endpoint, {
    method: 'POST',
    body: new Blob([new Uint8Array(body)]),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers },
  });
  return { status: r.status, body: (await r.json()) as unknown };
};

caseNeeding(
  REQUIRES_ADMIN_SECRET,
  ['err.request-too-large'],
  'a compressed body without the admin secret may inflate to 1 MiB only: more is refused while it streams, on every API',
  async () => {
    const bomb = BOMB;
    expect(bomb.length).toBeLessThan(200 * 1024);
    const tooLarge = { path: '$', error: 'request body is larger than 1048576 bytes', code: 'request-too-large' };
    for (const endpoint of ['/v1/metadata', '/v1/query', '/v1/graphql']) {
      expect(await postGzip(endpoint, bomb, {})).toEqual({ status: 413, body: tooLarge });
      expect(await postGzip(endpoint, bomb, { 'x-engine-role': 'user' })).toEqual({ status: 413, body: tooLarge });
      expect(await postGzip(endpoint, bomb, { 'x-engine-admin-secret': `${target.adminSecret}-not` })).toEqual({ status: 413, body: tooLarge });
    }
    // Under the limit it is read as usual: without credentials, refused for what it is.
    const small = inflating(512 * 1024, { type: 'export_metadata', args: {} });
    expect(await postGzip('/v1/metadata', small, {})).toEqual({
      status: 401,
      body: { path: '$', error: branded('x-engine-admin-secret required, but not found'), code: 'access-denied' },
    });
  },
);

caseNeeding(REQUIRES_ADMIN_SECRET, ['err.request-too-large'], 'with the admin secret a compressed body may inflate up to the request body limit', async () => {
  const body = inflating(5 * 1024 * 1024, { type: 'export_metadata', args: {} });
  const r = await postGzip('/v1/metadata', body, target.adminHeaders());
  expect({ status: r.status, version: (r.body as { version?: number }).version }).toEqual({ status: 200, version: 2 });
});
