// Start the reference server on a database: catalog, engine, HTTP. Used by main.ts and the tests.
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import pkg from '../../package.json';
import { ConfigError, type EngineConfig } from './config';
import { Engine } from './engine/engine';
import { Scheduler } from './events/scheduler';
import { ActionWorker } from './actions/worker';
import { EventWorker } from './events/worker';
import { SourceEventMover } from './events/sourceCapture';
import { createApp } from './http/app';
import { createGraphQLFastPath } from './http/graphqlFastPath';
import { attachGraphQLWebSocket, type GraphQLWebSocket } from './http/graphqlWebSocket';
import { createLogger, type ServerLogger } from './log';
import { engineError } from './errors';
import { hostCheck } from './http/allowedHosts';
import { adoptHeaderNames } from './http/headerNames';
import { tlsAllowlistOf } from './metadata/network';

export const SERVER_VERSION = `v${pkg.version}`;

export interface RunningServer {
  url: string;
  port: number;
  engine: Engine;
  /** Live-query pollers running: one per distinct subscribed plan. */
  livePollers(): number;
  /** The pollers of streaming subscriptions running (one per distinct streaming statement). */
  streamPollers(): number;
  /**
   * Stop accepting, close subscriptions (1001 Going away), let requests in flight finish for up to
   * `graceMs`, then close what is left and the engine's connections.
   */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(given: EngineConfig, databaseUrl: string, logger: ServerLogger = createLogger(given.logLevel)): Promise<RunningServer> {
  const engine = await Engine.open(given, databaseUrl, logger);
  // The auth webhook's requests follow the served metadata's TLS allow-list (dec.network.tls-allowlist).
  const config: EngineConfig = given.authHook
    ? { ...given, authHook: { ...given.authHook, allowlist: () => tlsAllowlistOf(engine.current().document) } }
    : given;
  engine.sourcePools.onConnectionFailure = (source, cause) => logger.log('warn', 'source-connection', { source, error: cause });
  if (config.logLevel === 'debug') engine.pools.logSql = (statement) => logger.log('debug', 'sql', statement);
  const app = createApp({ engine, config, logger, version: SERVER_VERSION });
  const fastPath = createGraphQLFastPath(engine, config, logger);
  let closing = false;
  const refusedHost = hostCheck(config);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    // While shutting down, a kept-alive connection ends with the answer it is waiting for.
    if (closing) res.setHeader('Connection', 'close');
    const host = refusedHost(req.headers);
    if (host !== undefined) {
      const error = engineError('access-denied.host', '$', [JSON.stringify(host)]);
      logger.log('warn', 'http-log', { method: req.method, url: req.url, status: error.status, error: error.toBody() });
      res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(error.toBody()));
      return;
    }
    if (config.compatHeaders && !adoptHeaderNames(req, res, config.compatHeaders, logger)) return;
    const handled = fastPath(req, res, (body) => {
      // The body is read already: hand it to the app as its body parser would have.
      Object.assign(req, { body, _body: true });
      app(req, res);
    });
    if (!handled) app(req, res);
  };
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = createServer(handler);
      s.once('error', reject);
      s.listen(config.port, config.host, () => resolve(s));
    });
  } catch (error) {
    await engine.close();
    const e = error as NodeJS.ErrnoException;
    // A setting to change, not a bug: said without a stack trace.
    if (e.code === 'EADDRINUSE') throw new ConfigError(`port ${config.port} is already in use; set ENGINE_GRAPHQL_SERVER_PORT`);
    throw error;
  }
  server.keepAliveTimeout = 5000;
  // Event trigger deliveries run beside the requests, on the engine's connections.
  const events = new EventWorker(engine.pool, config.events, () => engine.current(), logger);
  const fromSources = new SourceEventMover(engine.pool, engine.sourcePools, () => engine.current().document);
  events.fromSources = () => fromSources.move();
  events.start();
  const scheduler = new Scheduler(engine.pool, config.events, () => engine.current(), logger);
  scheduler.start();
  const actions = new ActionWorker(engine.pool, config.events, () => engine.current(), logger);
  actions.start();
  const workers = { events, scheduled: scheduler, actions };
  engine.onWork((kind) => workers[kind].announced());
  const sockets: GraphQLWebSocket | undefined = config.enabledApis.has('graphql') ? attachGraphQLWebSocket(server, engine, config, logger) : undefined;
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    engine,
    livePollers: () => sockets?.live.size ?? 0,
    streamPollers: () => sockets?.streams.size ?? 0,
    async close(graceMs = 0) {
      closing = true;
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // A kept-alive connection whose answer went out is idle now and closed at once, not after its timeout.
      const sweeper = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      await sockets?.close();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      clearInterval(sweeper);
      server.closeAllConnections();
      await drained;
      await Promise.all([events.stop(Math.min(graceMs, 5000)), scheduler.stop(Math.min(graceMs, 5000)), actions.stop(Math.min(graceMs, 5000))]);
      await engine.close();
    },
  };
}
