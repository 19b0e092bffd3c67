// The network's TLS allow-list (decision dec.network.tls-allowlist): hosts whose certificates the
// engine's outgoing HTTPS requests accept when they are self-signed (followed by
// remote/outgoingTls.ts). Pure functions over the document.
import type { MetadataDocument, TlsAllow } from '../../../spec';
import { engineError } from '../errors';
import { withPart } from './topLevel';

export const tlsAllowlistOf = (document: MetadataDocument): readonly TlsAllow[] => document.network?.tls_allowlist ?? [];

/** An entry is a host with a suffix, or without one: the same host may be there with several suffixes. */
const sameEntry = (t: TlsAllow, host: string, suffix: string | undefined) => t.host === host && t.suffix === suffix;
/** How the messages name an entry. */
export const entryName = (host: string, suffix: string | undefined) =>
  suffix === undefined ? JSON.stringify(host) : `${JSON.stringify(host)} with suffix ${JSON.stringify(suffix)}`;

export function addHostToTlsAllowlist(document: MetadataDocument, entry: TlsAllow): MetadataDocument {
  if (tlsAllowlistOf(document).some((t) => sameEntry(t, entry.host, entry.suffix)))
    throw engineError('already-exists.tls-host', '$.args', [entryName(entry.host, entry.suffix)]);
  return withPart(document, 'network', { ...document.network, tls_allowlist: [...tlsAllowlistOf(document), entry] });
}

export function dropHostFromTlsAllowlist(document: MetadataDocument, args: { host: string; suffix?: string }): MetadataDocument {
  if (args.host === '') throw engineError('bad-request.tls-host-empty', '$.args');
  if (!tlsAllowlistOf(document).some((t) => sameEntry(t, args.host, args.suffix)))
    throw engineError('not-exists.tls-host', '$.args', [entryName(args.host, args.suffix)]);
  return withPart(document, 'network', { ...document.network, tls_allowlist: tlsAllowlistOf(document).filter((t) => !sameEntry(t, args.host, args.suffix)) });
}
