// A JWK set on loopback with the harness's RS256 public key, for the jwk_url case; it counts how
// often it is asked, so the case can see that the engine caches it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, importSPKI } from 'jose';
import { RS256_PUBLIC_KEY } from './profiles';

export interface JwksServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

export async function startJwks(): Promise<JwksServer> {
  const jwk = { ...(await exportJWK(await importSPKI(RS256_PUBLIC_KEY, 'RS256'))), alg: 'RS256', use: 'sig' };
  const state = { requests: 0 };
  const server = createServer((_req, res) => {
    state.requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(Number(process.env.ENGINE_JWKS_PORT ?? 0), '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
