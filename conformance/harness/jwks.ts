// A JWK set on loopback with the harness's RS256 public key, for the jwk_url case (an msw handler
// served by the harness's mock server); it counts how often it is asked, so the case can see that
// the engine caches it.
import { exportJWK, importSPKI } from 'jose';
import { http, HttpResponse } from 'msw';
import { startMockServer } from './mockServer';
import { RS256_PUBLIC_KEY } from './profiles';

export interface JwksServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

export async function startJwks(): Promise<JwksServer> {
  const jwk = { ...(await exportJWK(await importSPKI(RS256_PUBLIC_KEY, 'RS256'))), alg: 'RS256', use: 'sig' };
  const server = await startMockServer([http.get('/jwks.json', () => HttpResponse.json({ keys: [jwk] }))], Number(process.env.ENGINE_JWKS_PORT ?? 0));
  return {
    url: `${server.url}/jwks.json`,
    get requests() {
      return server.requests.length;
    },
    close: () => server.close(),
  };
}
