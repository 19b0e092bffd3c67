// Webhook authentication (SPEC.md §5.4, shapes decided): the engine asks ENGINE_GRAPHQL_AUTH_HOOK
// about each request (GET with the client's headers, or POST with {headers, request}); 200 with
// session variables admits it, 401 refuses it.
import type { EngineConfig } from '../config';
import { engineError, type EngineError } from '../errors';
import { outgoingFetch } from '../remote/outgoingTls';
import { engineNamed, spokenName, type CompatHeaders } from '../sessionNames';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** Headers that describe the connection, not the client: never forwarded. */
const HOP_BY_HOP = new Set(['host', 'content-length', 'content-type', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'accept-encoding']);

const TIMEOUT_MS = 10_000;

export async function authenticateWebhook(
  headers: Headers,
  hook: NonNullable<EngineConfig['authHook']>,
  request: unknown,
  compat?: CompatHeaders,
): Promise<{ role: string; variables: Record<string, string> } | EngineError> {
  const forwarded: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    // A compatible server's hook was written for the x-hasura- names (decision dec.compat.headers).
    if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) forwarded[spokenName(k, compat)] = Array.isArray(v) ? v.join(', ') : v;
  }
  let response: Response;
  try {
    // A hook on a host of the metadata's TLS allow-list may present a self-signed certificate (dec.network.tls-allowlist).
    const allowlist = hook.allowlist?.() ?? [];
    response =
      hook.mode === 'GET'
        ? await outgoingFetch(hook.url, { method: 'GET', headers: forwarded, signal: AbortSignal.timeout(TIMEOUT_MS) }, allowlist)
        : await outgoingFetch(
            hook.url,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ headers: forwarded, request: request ?? null }),
              signal: AbortSignal.timeout(TIMEOUT_MS),
            },
            allowlist,
          );
  } catch {
    return engineError('webhook.unreachable', '$');
  }
  if (response.status === 401) return engineError('webhook.unauthorized', '$');
  if (response.status !== 200) return engineError('webhook.invalid-response', '$', [`status ${response.status}`]);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return engineError('webhook.invalid-response', '$', ['the body is not JSON']);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return engineError('webhook.invalid-response', '$', ['the body is not an object']);
  const named = engineNamed(body as Record<string, unknown>, compat, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  if (!('named' in named)) return engineError('invalid-headers.both-brands', '$', [...named.names]);
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(named.named)) {
    if (k.toLowerCase().startsWith('x-engine-')) variables[k.toLowerCase()] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  const role = variables['x-engine-role'];
  if (!role) return engineError('webhook.invalid-response', '$', ['X-Engine-Role is missing']);
  return { role, variables };
}
