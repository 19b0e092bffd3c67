// The schemas of the remote servers, as this server last introspected them. Kept in memory by
// name and definition: a changed definition is introspected again, and every server of a
// database introspects for itself (at start, on reload, and when another server adds one).
import type { GraphQLSchema } from 'graphql';
import type { MetadataDocument, RemoteSchema } from '../../../spec';
import { remoteSchemasOf } from '../metadata/remoteSchemas';
import { introspectRemote, remoteEndpoint, RemoteFailure, type RemoteEndpoint } from './client';

export type RemoteState = { key: string; endpoint: RemoteEndpoint; schema: GraphQLSchema } | { key: string; problem: string };

const keyOf = (remote: RemoteSchema) => JSON.stringify(remote.definition);

export class RemoteSchemaStore {
  private readonly states = new Map<string, RemoteState>();

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The state of this remote schema as defined now, if it was introspected. */
  state(remote: RemoteSchema): RemoteState | undefined {
    const found = this.states.get(remote.name);
    return found?.key === keyOf(remote) ? found : undefined;
  }

  /** Introspect a remote (again when `force`, or when its definition changed). */
  async load(remote: RemoteSchema, force = false): Promise<RemoteState> {
    const known = this.state(remote);
    if (known && !force) return known;
    const key = keyOf(remote);
    let state: RemoteState;
    try {
      const endpoint = remoteEndpoint(remote, this.env);
      state = { key, endpoint, schema: await introspectRemote(endpoint) };
    } catch (error) {
      if (!(error instanceof RemoteFailure)) throw error;
      state = { key, problem: error.message };
    }
    this.states.set(remote.name, state);
    return state;
  }

  /** Introspect every remote of the document that has no state yet (all of them when `force`). */
  async loadAll(document: MetadataDocument, force = false): Promise<void> {
    await Promise.all(remoteSchemasOf(document).map((r) => this.load(r, force)));
  }

  /** Whether some remote of the document has not been introspected in its current definition. */
  missing(document: MetadataDocument): boolean {
    return remoteSchemasOf(document).some((r) => !this.state(r));
  }
}
