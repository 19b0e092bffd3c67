// The remote schemas a metadata request introspects, introspected before it takes the metadata
// lock (decision dec.remote-schema.outside-the-lock): a remote that is slow, or never answers, then
// holds its own request only, and stops when that request's client goes away. Inside the lock the
// operations take these fresh states when the definitions are still the same, and introspect again
// only what changed meanwhile.
import type { MetadataDocument, RemoteSchema, TlsAllow } from '../../../spec';
import { tlsAllowlistOf } from '../metadata/network';
import { remoteSchemasOf } from '../metadata/remoteSchemas';
import type { ParsedOperation } from '../operations/envelope';
import type { RemoteSchemaStore } from '../remote/store';

/**
 * The remotes an operation (a bulk's children too) introspects: each with whether it is introspected
 * anew, and the TLS allow-list it is introspected under (the stored metadata's, or the one replacing it).
 */
export function remotesToIntrospect(
  operation: ParsedOperation,
  stored: MetadataDocument | undefined,
): { remote: RemoteSchema; force: boolean; allowlist: readonly TlsAllow[] }[] {
  const allowlist = stored ? tlsAllowlistOf(stored) : [];
  const args = operation.args as Record<string, unknown> | undefined;
  switch (operation.type) {
    case 'bulk':
      return (operation.children ?? []).flatMap((child) => remotesToIntrospect(child, stored));
    case 'add_remote_schema':
    case 'update_remote_schema':
      return [{ remote: args as unknown as RemoteSchema, force: true, allowlist }];
    case 'reload_remote_schema': {
      const remote = stored && remoteSchemasOf(stored).find((r) => r.name === args?.name);
      return remote ? [{ remote, force: true, allowlist }] : [];
    }
    case 'reload_metadata':
      return args?.reload_remote_schemas === true && stored ? remoteSchemasOf(stored).map((remote) => ({ remote, force: true, allowlist })) : [];
    case 'replace_metadata': {
      const document = (typeof args?.metadata === 'object' && args.metadata !== null ? args.metadata : args) as MetadataDocument | undefined;
      return document ? remoteSchemasOf(document).map((remote) => ({ remote, force: false, allowlist: tlsAllowlistOf(document) })) : [];
    }
    default:
      return [];
  }
}

/** Introspects them all at once; what fails is kept as a problem for the operation to refuse. */
export async function prefetchRemotes(
  store: RemoteSchemaStore,
  operation: ParsedOperation,
  stored: MetadataDocument | undefined,
  cancelled?: AbortSignal,
): Promise<void> {
  const wanted = remotesToIntrospect(operation, stored);
  await Promise.all(
    wanted.map(({ remote, force, allowlist }) => store.load(remote, force, { allowlist, ...(cancelled ? { cancelled } : {}) }).catch(() => undefined)),
  );
}
