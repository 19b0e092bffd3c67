// The schemas of the remote servers, as this server last introspected them. Kept in memory by
// name and definition: a changed definition is introspected again, and every server of a
// database introspects for itself (at start, on reload, and when another server adds one). A
// request introspects the definition it brings before it takes the metadata lock, and may be
// refused afterwards (the name is taken, a later part of its bulk fails): so a name keeps a few
// definitions, and the one the served metadata uses is never the one let go.
import type { GraphQLSchema } from 'graphql';
import type { MetadataDocument, RemoteSchema, TlsAllow } from '../../../spec';
import { engineError, EngineError } from '../errors';
import { tlsAllowlistOf } from '../metadata/network';
import { remoteSchemasOf } from '../metadata/remoteSchemas';
import { introspectRemote, UnframedRemoteFailure, remoteEndpoint, RemoteFailure, type RemoteEndpoint } from './client';

export type RemoteState = (
  | { key: string; endpoint: RemoteEndpoint; schema: GraphQLSchema }
  /** `unframed`: the problem is said in the engine's words alone, naming no remote (which entry of the catalogue it is). */
  | { key: string; problem: string; unframed?: UnframedRemoteFailure['kind'] }
) & {
  /** When it was introspected (ms since the epoch). */
  loadedAt: number;
};

/**
 * The refusal of a remote that cannot be used: a schema the engine cannot build, or a request that
 * did not get through, in the engine's words alone (decision dec.remote-schema.valid-schema,
 * err.remote-schema-error.http-exception); anything else naming the remote.
 */
export function remoteRefusal(name: string, state: { problem: string; unframed?: UnframedRemoteFailure['kind'] }): EngineError {
  if (!state.unframed) return engineError('remote-schema-error.unusable', '$.args', [JSON.stringify(name), state.problem]);
  const entry = engineError(`remote-schema-error.${state.unframed}`, '$.args', ['']);
  return new EngineError(entry.id, entry.status, entry.code, state.problem, '$.args');
}

export interface LoadOptions {
  /** With `force`: a state introspected at or after this time is fresh enough (a request's own, made before it took the metadata lock). */
  notBefore?: number;
  /** Aborted when the request that asks goes away: the introspection stops. */
  cancelled?: AbortSignal;
  /** The TLS allow-list of the metadata the remote is introspected for. */
  allowlist?: readonly TlsAllow[];
}

/** A definition is introspected again under another allow-list: a certificate refused before may pass now, or the reverse. */
const keyOf = (remote: RemoteSchema, allowlist: readonly TlsAllow[] = []) =>
  allowlist.length === 0 ? JSON.stringify(remote.definition) : JSON.stringify([remote.definition, allowlist]);
/** Definitions kept per name: the one in use and those of requests in flight or refused. */
export const DEFINITIONS_PER_NAME = 4;

export class RemoteSchemaStore {
  /** By name, then by definition, the least recently used first. */
  private readonly states = new Map<string, Map<string, RemoteState>>();
  /** The definition of each name in the served metadata. */
  private served = new Map<string, string>();

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The state of this remote schema as defined now, under the allow-list given, if it was introspected. */
  state(remote: RemoteSchema, allowlist: readonly TlsAllow[] = []): RemoteState | undefined {
    const byKey = this.states.get(remote.name);
    const key = keyOf(remote, allowlist);
    const found = byKey?.get(key);
    if (found) {
      // Used now: last to be let go.
      byKey!.delete(key);
      byKey!.set(key, found);
    }
    return found;
  }

  /** Introspect a remote (again when `force`, or when its definition changed). */
  async load(remote: RemoteSchema, force = false, options: LoadOptions = {}): Promise<RemoteState> {
    const known = this.state(remote, options.allowlist);
    if (known && (!force || (options.notBefore !== undefined && known.loadedAt >= options.notBefore))) return known;
    const key = keyOf(remote, options.allowlist);
    const loadedAt = Date.now();
    let state: RemoteState;
    try {
      const endpoint = remoteEndpoint(remote, this.env, options.allowlist);
      state = { key, endpoint, schema: await introspectRemote(endpoint, options.cancelled), loadedAt };
    } catch (error) {
      if (!(error instanceof RemoteFailure)) throw error;
      state = { key, problem: error.message, ...(error instanceof UnframedRemoteFailure ? { unframed: error.kind } : {}), loadedAt };
    }
    // A request that went away leaves no state behind: the next one asks the remote again.
    if (options.cancelled?.aborted) return state;
    const byKey = this.states.get(remote.name) ?? new Map<string, RemoteState>();
    byKey.delete(key);
    byKey.set(key, state);
    if (byKey.size > DEFINITIONS_PER_NAME) byKey.delete([...byKey.keys()].find((k) => k !== this.served.get(remote.name))!);
    this.states.set(remote.name, byKey);
    return state;
  }

  /** Introspect every remote of the document that has no state yet (all of them when `force`). */
  async loadAll(document: MetadataDocument, force = false, options: LoadOptions = {}): Promise<void> {
    const allowlist = tlsAllowlistOf(document);
    await Promise.all(remoteSchemasOf(document).map((r) => this.load(r, force, { ...options, allowlist })));
  }

  /** The metadata now served: its definitions stay kept. */
  serving(document: MetadataDocument): void {
    this.served = new Map(remoteSchemasOf(document).map((r) => [r.name, keyOf(r, tlsAllowlistOf(document))]));
  }

  /** Whether some remote of the document has not been introspected in its current definition. */
  missing(document: MetadataDocument): boolean {
    return remoteSchemasOf(document).some((r) => !this.state(r, tlsAllowlistOf(document)));
  }
}
