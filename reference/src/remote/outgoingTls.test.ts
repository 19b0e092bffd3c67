// Outgoing HTTPS under the TLS allow-list: which entries apply to an address, which certificate
// failures an entry lets pass, and real connections to servers on loopback with the test certificates.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../packageRoot';
import { allowanceFor, outgoingFetch, refusedCertificate } from './outgoingTls';

const key = (name: string) => readFileSync(join(PACKAGE_ROOT, 'fixtures', 'keys', name), 'utf8');

test('an entry applies to https on its host, at the port its suffix names (443 when the address names none), with permission self-signed', () => {
  const list = [{ host: 'a.example', suffix: '8443' }, { host: 'b.example' }, { host: 'c.example', permissions: [] }, { host: '::1', suffix: '9' }];
  expect(allowanceFor(list, 'https://a.example:8443/x')).toEqual([{ host: 'a.example', suffix: '8443' }]);
  expect(allowanceFor(list, 'https://a.example/x')).toEqual([]);
  expect(allowanceFor(list, 'https://a.example:443/x')).toEqual([]);
  expect(allowanceFor([{ host: 'a.example', suffix: '443' }], 'https://a.example/x')).toEqual([{ host: 'a.example', suffix: '443' }]);
  expect(allowanceFor(list, 'https://b.example:1234/')).toEqual([{ host: 'b.example' }]);
  expect(allowanceFor(list, 'http://b.example/')).toEqual([]);
  expect(allowanceFor(list, 'https://sub.b.example/')).toEqual([]);
  expect(allowanceFor(list, 'https://c.example/')).toEqual([]);
  expect(allowanceFor(list, 'https://[::1]:9/')).toEqual([{ host: '::1', suffix: '9' }]);
  expect(allowanceFor(list, 'not a url')).toEqual([]);
});

test('only a certificate that signs itself passes; every other failure is named', () => {
  expect(refusedCertificate({ authorized: true, authorizationError: undefined as unknown as Error })).toBeUndefined();
  const failing = (reason: unknown) => refusedCertificate({ authorized: false, authorizationError: reason as Error });
  expect(failing('DEPTH_ZERO_SELF_SIGNED_CERT')).toBeUndefined();
  expect(failing(Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }))).toBeUndefined();
  expect(failing('CERT_HAS_EXPIRED')).toBe('CERT_HAS_EXPIRED');
  expect(failing(Object.assign(new Error('x'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }))).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  // Not verified, and no reason given: refused, named as it is.
  expect(failing(undefined)).toBe('undefined');
});

describe('connections', () => {
  const servers: Server[] = [];
  const serve = async (name: string): Promise<string> => {
    const server = createServer({ key: key(`${name}.key.pem`), cert: key(`${name}.cert.pem`) }, (_req, res) => res.end('"hello"'));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  };
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });
  const codeOf = async (p: Promise<Response>) =>
    p.then(
      () => 'answered',
      (e: { cause?: { code?: string } }) => e.cause?.code,
    );

  test('a self-signed certificate, not made for the address, is refused off the list and taken on it', async () => {
    const url = await serve('tls-self-signed');
    expect(await codeOf(outgoingFetch(url, {}, []))).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(await codeOf(outgoingFetch(url, {}, [{ host: '127.0.0.1', suffix: '1' }]))).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    const answer = await outgoingFetch(url, { method: 'POST', body: '{}' }, [{ host: '127.0.0.1' }]);
    expect([answer.status, await answer.text()]).toEqual([200, '"hello"']);
  });

  test('an address on the list where no server listens: the connection refused as always', async () => {
    const url = await serve('tls-self-signed');
    const closed = servers.pop()!;
    closed.closeAllConnections();
    await new Promise((resolve) => closed.close(resolve));
    expect(await codeOf(outgoingFetch(url, {}, [{ host: '127.0.0.1' }]))).toBe('ECONNREFUSED');
  });

  test('a certificate of an unknown authority is refused on the list too', async () => {
    const url = await serve('tls-unknown-authority');
    expect(await codeOf(outgoingFetch(url, {}, []))).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(await codeOf(outgoingFetch(url, {}, [{ host: '127.0.0.1' }]))).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });
});
