// Outgoing HTTPS under the metadata's TLS allow-list (decision dec.network.tls-allowlist): a request
// to a host on the list (and to the port its suffix names, when it names one) accepts a certificate
// that is self-signed or not made for that name; every other failure of the certificate (expired,
// signed by an unknown authority, …) refuses it still, and every other request checks as always.
import type { TLSSocket } from 'node:tls';
import type { Agent } from 'undici';
import type { TlsAllow } from '../../../spec';

/** What Node calls a certificate that signs itself: the one failure `self-signed` lets pass (its name is not checked). */
const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);

/** The entries of the list that let a request to `url` accept a self-signed certificate: none for http or another host. */
export function allowanceFor(allowlist: readonly TlsAllow[], url: string): TlsAllow[] {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return [];
  }
  if (target.protocol !== 'https:') return [];
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = target.port || '443';
  return allowlist.filter(
    (t) => t.host === host && (t.suffix === undefined || t.suffix === port) && (t.permissions ?? ['self-signed']).includes('self-signed'),
  );
}

/** Why a certificate the TLS layer did not verify may not be used, or undefined when it is only self-signed. */
export function refusedCertificate(socket: Pick<TLSSocket, 'authorized' | 'authorizationError'>): string | undefined {
  if (socket.authorized) return undefined;
  const reason = socket.authorizationError as unknown;
  const code = typeof reason === 'string' ? reason : ((reason as { code?: string; message?: string } | undefined)?.code ?? String(reason));
  return SELF_SIGNED.has(code) ? undefined : code;
}

/**
 * Connections that take a self-signed certificate, and refuse any other failure: made (and undici
 * loaded) the first time an address of the allow-list is reached.
 */
let lenient: Agent | undefined;
function lenientAgent(): Agent {
  if (lenient) return lenient;
  const { Agent, buildConnector } = require('undici') as typeof import('undici');
  const connect = buildConnector({ rejectUnauthorized: false, checkServerIdentity: () => undefined });
  lenient = new Agent({
    connect: (options, callback) =>
      connect(options, (error, socket) => {
        if (error) return callback(error, null);
        const refused = refusedCertificate(socket as TLSSocket);
        if (refused === undefined) return callback(null, socket);
        socket.destroy();
        callback(Object.assign(new Error(refused), { code: refused }), null);
      }),
  });
  return lenient;
}

/** fetch, through the lenient connections when the allow-list has an entry for the address. */
export async function outgoingFetch(url: string, init: RequestInit, allowlist: readonly TlsAllow[]): Promise<Response> {
  if (allowanceFor(allowlist, url).length === 0) return fetch(url, init);
  const { fetch: lenientFetch } = require('undici') as typeof import('undici');
  return (await lenientFetch(url, { ...(init as object), dispatcher: lenientAgent() })) as unknown as Response;
}
