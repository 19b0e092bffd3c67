// A server's subscriptions: live queries (execute/liveQueries.ts) and streaming ones
// (execute/streamingQueries.ts), both WebSocket protocols starting them alike.
import type { Session } from '../auth/session';
import type { GraphQLRequest } from './graphql';
import type { LiveQueries } from './liveQueries';
import type { CompiledPlan, SchemaCache } from './schemaCache';
import type { StreamingQueries } from './streamingQueries';

export interface Subscriptions {
  live: LiveQueries;
  streams: StreamingQueries;
}

/** Start a subscription whose request compiled to `plan`: streaming when its field is one (decision dec.graphql.stream.cursor), else a live query. */
export function subscribe(subscriptions: Subscriptions, session: Session, request: GraphQLRequest, cache: SchemaCache, plan: CompiledPlan) {
  return (plan.stream ? subscriptions.streams : subscriptions.live).subscribe(session, request, cache, plan);
}
