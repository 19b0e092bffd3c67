// GraphQL over WebSocket at /v1/graphql (the graphql-transport-ws protocol, served by graphql-ws):
// the session comes from connection_init's payload headers over the upgrade request's; every
// operation compiles as over HTTP; subscriptions are live queries (execute/liveQueries.ts).
import type { IncomingMessage, Server } from 'node:http';
import { parse, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { authenticate, type Session } from '../auth/session';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine';
import { EngineError } from '../errors';
import { GRAPHQL_PATHS, originPolicy } from './crossOrigin';
import { prepareGraphQLRequest, schemaFor, type GraphQLRequest } from '../execute/graphql';
import { answerOf, LiveQueries, resultOf, type LiveResult } from '../execute/liveQueries';
import type { CompiledPlan, SchemaCache } from '../execute/schemaCache';
import type { Logger } from '../log';

/** What onSubscribe hands to execute/subscribe: a compiled plan, or an answer already made. */
type Work = { session: Session; request: GraphQLRequest; cache: SchemaCache; plan: CompiledPlan } | { result: LiveResult };

// graphql-ws picks execute or subscribe from the document's operation; these stand for ours.
const DOCUMENTS = {
  query: parse('query { __typename }'),
  mutation: parse('mutation { __typename }'),
  subscription: parse('subscription { __typename }'),
};

export interface GraphQLWebSocket {
  readonly live: LiveQueries;
  close(): Promise<void>;
}

export function attachGraphQLWebSocket(server: Server, engine: Engine, config: EngineConfig, logger: Logger): GraphQLWebSocket {
  // A page of another origin may not open a socket in the user's name (decision dec.http.cross-origin).
  const origins = originPolicy(config);
  const wss = new WebSocketServer({
    server,
    verifyClient: ({ req }: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
      if (!GRAPHQL_PATHS.has((req.url ?? '').split('?')[0]!)) return done(false, 404, 'Not Found');
      const origin = req.headers.origin;
      if (origin === undefined || origins.allows(origin, 'graphql', req.headers.host)) return done(true);
      done(false, 403, 'origin not allowed');
    },
  });
  const live = new LiveQueries(engine.pools, () => engine.graphql(), config.liveQueries.refetchDelaySeconds * 1000);
  const sessions = new WeakMap<object, Session>();

  const work = (args: ExecutionArgs) => args.contextValue as Work;
  const run = async (args: ExecutionArgs): Promise<LiveResult> => {
    const w = work(args);
    return 'result' in w ? w.result : (await answerOf(engine.pools, w.plan, { session: w.session, headers: {} })).result;
  };

  const disposable = useServer<{ headers?: Record<string, unknown> } | undefined>(
    {
      async onConnect(ctx) {
        const given = ctx.connectionParams?.headers;
        const headers: Record<string, string | string[] | undefined> = { ...ctx.extra.request.headers };
        if (given && typeof given === 'object') {
          for (const [name, value] of Object.entries(given)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
        }
        const session = await authenticate(headers, config);
        if (session instanceof EngineError) return false;
        sessions.set(ctx.extra, session);
        return true;
      },
      onSubscribe(ctx, _id, payload) {
        const session = sessions.get(ctx.extra)!;
        const request: GraphQLRequest = { query: payload.query, variables: payload.variables ?? undefined, operationName: payload.operationName ?? undefined };
        const cache = engine.graphql();
        const prepared = prepareGraphQLRequest(cache, session, request);
        if ('answer' in prepared) {
          const body = resultOf(prepared.answer.body);
          if (body.errors && !('data' in body)) return body.errors;
          // introspection: answered already
          return { schema: schemaFor(cache, session).built.schema, document: DOCUMENTS.query, contextValue: { result: body } satisfies Work };
        }
        return {
          schema: schemaFor(cache, session).built.schema,
          document: DOCUMENTS[prepared.plan.operation],
          contextValue: { session, request, cache, plan: prepared.plan } satisfies Work,
        };
      },
      execute: run,
      subscribe: (args) => {
        const w = work(args);
        if ('result' in w) return w.result;
        return live.subscribe(w.session, w.request, w.cache, w.plan);
      },
      onError(_ctx, _id, _payload, errors) {
        logger.log('debug', 'websocket-error', { errors: errors.map((e) => e.message) });
      },
    },
    wss,
  );

  return {
    live,
    async close() {
      live.close();
      // Every client is told 1001 Going away; one that does not finish the closing handshake soon is cut.
      await disposable.dispose();
      const deadline = Date.now() + 1000;
      while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const client of wss.clients) client.terminate();
    },
  };
}
