// DNS rebinding (decision dec.http.allowed-hosts): a page of evil.example whose name is made to
// point at 127.0.0.1 reaches a local server as a same-origin page, with Host: evil.example. A
// server answers only to the names it is reached by, checked before anything runs; without an
// admin secret (every request is admin) those are the loopback names unless more are listed.
import type { IncomingHttpHeaders } from 'node:http';
import type { EngineConfig } from '../config';

/** The host name of a Host header, lower-case, without port and IPv6 brackets. */
export function hostName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const text = header.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1];
  const m = /^([^:]+)(?::\d+)?$/.exec(text);
  return m ? m[1]!.replace(/\.$/, '') : undefined;
}

export type HostCheck = (headers: IncomingHttpHeaders) => string | undefined;

/** A check that answers the refused host name, or undefined when the request may go on. */
export function hostCheck(config: Pick<EngineConfig, 'allowedHosts'>): HostCheck {
  const any = config.allowedHosts.includes('*');
  // (A `*.` entry in `exact` matches only a Host spelled so, which `below` lets through anyway.)
  const exact = new Set(config.allowedHosts);
  const below = config.allowedHosts.filter((h) => h.startsWith('*.')).map((h) => h.slice(1));
  return (headers) => {
    if (any) return undefined;
    const name = hostName(headers.host);
    if (name !== undefined && (exact.has(name) || below.some((suffix) => name.endsWith(suffix)))) return undefined;
    // Refused: the Host as it came. HTTP/1.1 requires Host; a request without one (undefined) names
    // no host to check, as a client of this machine sends it, and goes on.
    return headers.host;
  };
}
