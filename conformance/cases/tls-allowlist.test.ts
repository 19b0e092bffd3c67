// The TLS allow-list followed (decision dec.network.tls-allowlist): a remote schema or an action
// handler served over HTTPS with a self-signed certificate, not made for the address it is served
// on, is refused until its host, with its port as the suffix, is on the list; and again once the
// entry is dropped. The HTTPS servers are msw handlers on loopback with the harness's test certificate.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { PACKAGE_ROOT } from '../../reference/src/packageRoot';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { graphQLServer, startMockServer, type RunningMockServer } from '../harness/mockServer';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const key = (name: string) => readFileSync(join(PACKAGE_ROOT, 'fixtures', 'keys', name), 'utf8');
let secure: RunningMockServer;
let port: string;

beforeAll(async () => {
  secure = await startMockServer(
    [graphQLServer('/graphql', 'type Query { hello: String! }', { hello: () => 'over TLS' }), http.post('/greet', () => HttpResponse.json('hello'))],
    0,
    { key: key('tls-self-signed.key.pem'), cert: key('tls-self-signed.cert.pem') },
  );
  port = new URL(secure.url).port;
});
beforeEach(async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: [] }), 200, ok);
});
afterAll(async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: [] }), 200, ok);
  await secure.close();
});

const unusable = (name: string) => ({
  path: '$.args',
  code: 'remote-schema-error',
  error: expect.stringMatching(new RegExp(`^the remote schema "${name}" cannot be used: `)),
});
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;

test(
  covers(
    ['dec.network.tls-allowlist', 'op.add_host_to_tls_allowlist', 'op.drop_host_from_tls_allowlist', 'op.add_remote_schema'],
    'a remote schema with a self-signed certificate is refused until its host and port are on the allow-list, and answers through it then',
  ),
  async () => {
    const remote = { name: 'secure', definition: { url: `${secure.url}/graphql` } };
    expectResponse(await run('add_remote_schema', remote), 400, unusable('secure'));
    // Another port of the same host does not let it in.
    expectResponse(await run('add_host_to_tls_allowlist', { host: '127.0.0.1', suffix: '1' }), 200, ok);
    expectResponse(await run('add_remote_schema', remote), 400, unusable('secure'));
    expect((await exported()).remote_schemas).toBeUndefined();
    expectResponse(await run('add_host_to_tls_allowlist', { host: '127.0.0.1', suffix: port, permissions: ['self-signed'] }), 200, ok);
    expectResponse(await run('add_remote_schema', remote), 200, ok);
    expectResponse(await target.graphql('{ hello }'), 200, { data: { hello: 'over TLS' } });
    // Taking the entry away would leave the remote unusable: refused, nothing changed.
    expectResponse(await run('drop_host_from_tls_allowlist', { host: '127.0.0.1', suffix: port }), 400, unusable('secure'));
    expect((await exported()).network).toEqual({
      tls_allowlist: [
        { host: '127.0.0.1', suffix: '1' },
        { host: '127.0.0.1', suffix: port, permissions: ['self-signed'] },
      ],
    });
    expectResponse(await run('remove_remote_schema', { name: 'secure' }), 200, ok);
    expectResponse(await run('drop_host_from_tls_allowlist', { host: '127.0.0.1', suffix: port }), 200, ok);
    // A document that brings the remote and the entry for it together is taken whole.
    const stated = { ...remote, definition: { ...remote.definition, timeout_seconds: 60, forward_client_headers: false } };
    const whole = { version: 2, tables: [], remote_schemas: [stated] };
    expectResponse(await run('replace_metadata', whole), 400, {
      path: '$.args',
      code: 'unexpected',
      error: 'cannot continue due to inconsistent metadata',
      internal: [
        {
          definition: stated,
          name: 'remote_schema secure',
          reason: expect.stringMatching(/^Inconsistent object: the remote schema "secure" cannot be used: /),
          type: 'remote_schema',
        },
      ],
    });
    expectResponse(await run('replace_metadata', { ...whole, network: { tls_allowlist: [{ host: '127.0.0.1' }] } }), 200, ok);
    expectResponse(await target.graphql('{ hello }'), 200, { data: { hello: 'over TLS' } });
  },
);

test(
  covers(
    ['dec.network.tls-allowlist', 'op.add_host_to_tls_allowlist', 'op.create_action'],
    'an action handler with a self-signed certificate answers when its host is on the allow-list, any port, and fails off it',
  ),
  async () => {
    const action = { name: 'greet', definition: { kind: 'synchronous', type: 'query', arguments: [], output_type: 'String!', handler: `${secure.url}/greet` } };
    expectResponse(await run('create_action', action), 200, ok);
    // The handler is not reached: the certificate is refused before anything is sent.
    expectResponse(await target.graphql('{ greet }'), 200, { errors: [{ message: expect.any(String), extensions: { path: '$', code: 'unexpected' } }] });
    expect(secure.requestsTo('/greet')).toEqual([]);
    expectResponse(await run('add_host_to_tls_allowlist', '127.0.0.1'), 200, ok);
    expectResponse(await target.graphql('{ greet }'), 200, { data: { greet: 'hello' } });
    expect(secure.requestsTo('/greet')).toHaveLength(1);
  },
);
