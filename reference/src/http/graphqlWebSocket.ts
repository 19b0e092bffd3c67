// GraphQL over WebSocket at /v1/graphql (the graphql-transport-ws protocol, served by graphql-ws,
// and the legacy graphql-ws subprotocol of subscriptions-transport-ws, in legacyWebSocket.ts):
// the session comes from connection_init's payload headers over the upgrade request's; every
// operation compiles as over HTTP; subscriptions are live queries (execute/liveQueries.ts).
import type { IncomingMessage, Server } from 'node:http';
import { parse, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Session } from '../auth/session';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine/engine';
import { EngineError } from '../errors';
import { GRAPHQL_PATHS, originPolicy } from './crossOrigin';
import { hostCheck } from './allowedHosts';
import { prepareGraphQLRequest, schemaFor, type GraphQLRequest } from '../execute/graphql';
import { answerOf, LiveQueries, resultOf, type LiveResult } from '../execute/liveQueries';
import { rateLimitAnswer } from '../execute/roleLimits';
import { StreamingQueries } from '../execute/streamingQueries';
import { subscribe } from '../execute/subscriptions';
import type { CompiledPlan, SchemaCache } from '../execute/schemaCache';
import type { Logger } from '../log';
import { serveLegacyProtocol } from './legacyWebSocket';
import { graphqlOperationLabel } from './graphqlLog';
import { socketSession } from './socketSession';

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
  readonly streams: StreamingQueries;
  close(): Promise<void>;
}

const LEGACY_PROTOCOL = 'graphql-ws';

export function attachGraphQLWebSocket(server: Server, engine: Engine, config: EngineConfig, logger: Logger): GraphQLWebSocket {
  // A page of another origin may not open a socket in the user's name (decision dec.http.cross-origin).
  const origins = originPolicy(config);
  // Nor a page of another name that resolves to this server (decision dec.http.allowed-hosts).
  const refusedHost = hostCheck(config);
  const wss = new WebSocketServer({ noServer: true });
  // Clients that speak only subscriptions-transport-ws (subprotocol graphql-ws) get it (decision dec.graphql.legacy-ws).
  const legacyWss = new WebSocketServer({ noServer: true, handleProtocols: () => LEGACY_PROTOCOL });
  // Each as its settings say: the interval between polls, the most rows of a cohort per statement.
  const live = new LiveQueries(
    { pools: engine.pools, intervalMs: config.liveQueries.refetchDelaySeconds * 1000, batchSize: config.liveQueries.batchSize },
    () => engine.graphql(),
  );
  const streams = new StreamingQueries(
    { pools: engine.pools, intervalMs: config.streamingQueries.refetchDelaySeconds * 1000, batchSize: config.streamingQueries.batchSize },
    () => engine.graphql(),
  );
  const subscriptions = { live, streams };
  const legacy = serveLegacyProtocol(legacyWss, engine, config, subscriptions, logger);
  const refuse = (socket: Duplex, status: string) => {
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (refusedHost(req.headers) !== undefined) return refuse(socket, '403 Forbidden');
    if (!GRAPHQL_PATHS.has((req.url ?? '').split('?')[0]!)) return refuse(socket, '404 Not Found');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.allows(origin, 'graphql', req.headers.host)) return refuse(socket, '403 Forbidden');
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const target = offered.includes(LEGACY_PROTOCOL) && !offered.includes('graphql-transport-ws') ? legacyWss : wss;
    target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);
  const sessions = new WeakMap<object, Session>();

  const work = (args: ExecutionArgs) => args.contextValue as Work;
  const run = async (args: ExecutionArgs): Promise<LiveResult> => {
    const w = work(args);
    return 'result' in w ? w.result : (await answerOf(engine.pools, w.plan, { session: w.session, headers: {} })).result;
  };

  const disposable = useServer<{ headers?: Record<string, unknown> } | undefined>(
    {
      async onConnect(ctx) {
        const session = await socketSession(ctx.extra.request, ctx.connectionParams?.headers, config);
        if (session instanceof EngineError) {
          logger.log('info', 'websocket-log', { event: 'refused', protocol: 'graphql-transport-ws', error: session.toBody() });
          return false;
        }
        sessions.set(ctx.extra, session);
        logger.log('info', 'websocket-log', { event: 'connect', protocol: 'graphql-transport-ws', role: session.role });
        return true;
      },
      onSubscribe(ctx, id, payload) {
        const session = sessions.get(ctx.extra)!;
        const request: GraphQLRequest = { query: payload.query, variables: payload.variables ?? undefined, operationName: payload.operationName ?? undefined };
        logger.log('info', 'websocket-log', { event: 'subscribe', id, role: session.role, operation: graphqlOperationLabel(request) });
        const cache = engine.graphql();
        // Each operation started counts against the role's rate limit, as a request over HTTP does.
        const limited = rateLimitAnswer(cache, session, ctx.extra.request.socket.remoteAddress);
        const prepared = limited ? { answer: limited } : prepareGraphQLRequest(cache, session, request);
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
        return subscribe(subscriptions, w.session, w.request, w.cache, w.plan);
      },
      onError(_ctx, _id, _payload, errors) {
        logger.log('debug', 'websocket-error', { errors: errors.map((e) => e.message) });
      },
      onComplete(ctx, id) {
        logger.log('info', 'websocket-log', { event: 'complete', id, role: sessions.get(ctx.extra)?.role });
      },
      onClose(ctx, code, reason) {
        logger.log('info', 'websocket-log', { event: 'close', protocol: 'graphql-transport-ws', code, reason, role: sessions.get(ctx.extra)?.role });
      },
    },
    wss,
  );

  return {
    live,
    streams,
    async close() {
      server.off('upgrade', onUpgrade);
      live.close();
      streams.close();
      // Every client is told 1001 Going away; one that does not finish the closing handshake soon is cut.
      await Promise.all([disposable.dispose(), legacy.close()]);
      const deadline = Date.now() + 1000;
      while (wss.clients.size + legacyWss.clients.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const client of [...wss.clients, ...legacyWss.clients]) client.terminate();
    },
  };
}
