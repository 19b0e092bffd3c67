// The legacy GraphQL over WebSocket protocol (subprotocol graphql-ws, from subscriptions-transport-ws),
// which many deployed clients still speak (decision dec.graphql.legacy-ws): connection_init with
// the session's headers, connection_ack and keep-alive `ka`, `start` (an operation: a query or
// mutation is answered by one `data` and `complete`; a subscription is a live query, one `data`
// per changed result), `stop`, and `connection_terminate`. Operations run exactly as over the
// graphql-transport-ws protocol.
import type { IncomingMessage } from 'node:http';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { Session } from '../auth/session';
import type { EngineConfig } from '../config';
import type { Engine } from '../engine/engine';
import { EngineError } from '../errors';
import { prepareGraphQLRequest, type GraphQLRequest } from '../execute/graphql';
import { answerOf, type LiveResult } from '../execute/liveQueries';
import { rateLimitAnswer } from '../execute/roleLimits';
import type { Logger } from '../log';
import { graphqlOperationLabel } from './graphqlLog';
import { socketSession } from './socketSession';
import { subscribe, type Subscriptions } from '../execute/subscriptions';

/** How often a connection hears `ka`; clients close a connection that stays silent for longer than theirs (30 s by default). */
export const KEEP_ALIVE_MS = 10_000;

type Message = { type?: unknown; id?: unknown; payload?: unknown };

export function serveLegacyProtocol(
  wss: WebSocketServer,
  engine: Engine,
  config: EngineConfig,
  subscriptions: Subscriptions,
  logger: Logger,
): { close(): Promise<void> } {
  wss.on('connection', (ws: WebSocket, request: IncomingMessage) => {
    let session: Session | undefined;
    let initialising = false;
    // Clients (subscriptions-transport-ws) send their first start right after connection_init, before its ack.
    let initialised: Promise<unknown> | undefined;
    /** Operations running, by id; a subscription's stream once it has one. */
    const operations = new Map<string, AsyncIterableIterator<LiveResult> | undefined>();
    const send = (message: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const keepAlive = setInterval(() => send({ type: 'ka' }), KEEP_ALIVE_MS);
    keepAlive.unref();
    const stopAll = () => {
      for (const stream of operations.values()) void stream?.return?.();
      operations.clear();
    };
    ws.on('close', (code, reason) => {
      clearInterval(keepAlive);
      stopAll();
      logger.log('info', 'websocket-log', { event: 'close', protocol: 'graphql-ws', code, reason: String(reason), role: session?.role });
    });

    const start = async (id: string, payload: Record<string, unknown>, who: Session) => {
      const query = payload.query;
      if (typeof query !== 'string') return send({ type: 'error', id, payload: { message: 'start needs a payload with a string query' } });
      operations.set(id, undefined);
      const graphqlRequest: GraphQLRequest = {
        query,
        ...(payload.variables && typeof payload.variables === 'object' ? { variables: payload.variables as Record<string, unknown> } : {}),
        ...(typeof payload.operationName === 'string' ? { operationName: payload.operationName } : {}),
      };
      logger.log('info', 'websocket-log', { event: 'subscribe', id, role: who.role, operation: graphqlOperationLabel(graphqlRequest) });
      const cache = engine.graphql();
      // Each operation started counts against the role's rate limit, as a request over HTTP does.
      const limited = rateLimitAnswer(cache, who, request.socket.remoteAddress);
      const prepared = limited ? { answer: limited } : prepareGraphQLRequest(cache, who, graphqlRequest);
      const finish = (result: unknown) => {
        if (!operations.has(id)) return;
        operations.delete(id);
        send({ type: 'data', id, payload: result });
        send({ type: 'complete', id });
      };
      if ('answer' in prepared) return finish(JSON.parse(prepared.answer.body));
      if (prepared.plan.operation !== 'subscription') return finish((await answerOf(engine.pools, prepared.plan, { session: who, headers: {} })).result);
      const stream = await subscribe(subscriptions, who, graphqlRequest, cache, prepared.plan);
      if (!(Symbol.asyncIterator in stream)) return finish(stream);
      if (!operations.has(id)) return void stream.return?.();
      operations.set(id, stream);
      for await (const result of stream) {
        if (!operations.has(id)) break;
        send({ type: 'data', id, payload: result });
      }
    };

    const handle = async (data: RawData) => {
      let message: Message;
      try {
        message = JSON.parse(String(data)) as Message;
        if (typeof message !== 'object' || message === null || Array.isArray(message)) throw new Error('not an object');
      } catch {
        return ws.close(4400, 'invalid message');
      }
      switch (message.type) {
        case 'connection_init': {
          if (session || initialising) return ws.close(4429, 'too many initialisation requests');
          initialising = true;
          const given = message.payload && typeof message.payload === 'object' ? (message.payload as { headers?: unknown }).headers : undefined;
          const asked = socketSession(request, given, config);
          initialised = asked;
          const who = await asked;
          if (who instanceof EngineError) {
            logger.log('info', 'websocket-log', { event: 'refused', protocol: 'graphql-ws', error: who.toBody() });
            send({ type: 'connection_error', payload: { message: who.message, extensions: { path: who.path, code: who.code } } });
            return ws.close(4403, 'Forbidden');
          }
          session = who;
          logger.log('info', 'websocket-log', { event: 'connect', protocol: 'graphql-ws', role: who.role });
          send({ type: 'connection_ack' });
          return send({ type: 'ka' });
        }
        case 'start': {
          if (!session && initialised) await initialised;
          if (ws.readyState !== ws.OPEN) return;
          if (!session) {
            send({ type: 'connection_error', payload: { message: 'send connection_init first' } });
            return ws.close(4401, 'Unauthorized');
          }
          if (typeof message.id !== 'string' || message.id === '') return ws.close(4400, 'start needs an id');
          if (operations.has(message.id)) return ws.close(4409, `an operation with id ${message.id} is running`);
          const payload = message.payload && typeof message.payload === 'object' ? (message.payload as Record<string, unknown>) : {};
          return start(message.id, payload, session);
        }
        case 'stop': {
          if (typeof message.id !== 'string' || !operations.has(message.id)) return;
          const stream = operations.get(message.id);
          operations.delete(message.id);
          await stream?.return?.();
          logger.log('info', 'websocket-log', { event: 'complete', id: message.id, role: session?.role });
          return send({ type: 'complete', id: message.id });
        }
        case 'connection_terminate':
          return ws.close(1000, 'terminated');
        default:
          return ws.close(4400, `unknown message type ${JSON.stringify(message.type)}`);
      }
    };
    ws.on('message', (data) => {
      handle(data).catch((error: unknown) => {
        logger.log('error', 'websocket-error', { protocol: 'graphql-ws', error: error instanceof Error ? error.stack : String(error) });
        ws.close(1011, 'internal error');
      });
    });
  });
  return {
    async close() {
      for (const client of wss.clients) client.close(1001, 'Going away');
    },
  };
}
