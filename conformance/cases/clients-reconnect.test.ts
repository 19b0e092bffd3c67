// The WebSocket clients applications use, unmodified — graphql-ws (graphql-transport-ws) and
// subscriptions-transport-ws (the legacy graphql-ws subprotocol) — keep their subscriptions across
// a restart of the server: a server this case starts, stops and starts again on the same port.
import { createClient } from 'graphql-ws';
import type { SubscriptionClient as Legacy } from 'subscriptions-transport-ws';
import WebSocket from 'ws';
import type { RunningServer } from '../../reference/src/server';
import { caseNeeding } from '../harness/cases';
import { authorHeaders, librariesInstalled, setUpLibrary } from '../harness/clientProject';
import { isManaged, profileAvailable, useTarget, type Requirement } from '../harness/target';
import { socketUrl } from '../harness/websocket';

const target = useTarget({ profiles: ['auth-hook-get'] });
const LEGACY = librariesInstalled(['subscriptions-transport-ws']);
const OWN_SERVER: Requirement = {
  met: isManaged && LEGACY.met,
  needs: `a run that starts the reference server itself (the case stops and starts one)${LEGACY.met ? '' : `, and ${LEGACY.needs}`}`,
};
const WITH_HOOK: Requirement = { met: LEGACY.met && profileAvailable('auth-hook-get'), needs: `${LEGACY.needs}, and ENGINE_URL_AUTH_HOOK_GET` };
const legacyClient = () => (require('subscriptions-transport-ws') as { SubscriptionClient: typeof Legacy }).SubscriptionClient;
const TITLES = 'subscription Titles { library_book(order_by: {id: asc}) { id title } }';

/** Results in order, and a wait for the n-th. */
function results() {
  const seen: unknown[] = [];
  return {
    seen,
    push: (value: unknown) => seen.push(value),
    async count(n: number, timeoutMs = 15_000): Promise<unknown[]> {
      const deadline = Date.now() + timeoutMs;
      while (seen.length < n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return seen.slice(0, n);
    },
  };
}

beforeAll(async () => {
  await setUpLibrary(target);
});

caseNeeding(
  OWN_SERVER,
  ['dec.graphql.clients', 'dec.graphql.subscriptions', 'dec.graphql.legacy-ws'],
  'graphql-ws and subscriptions-transport-ws clients connect again after the server restarts, and their subscriptions go on',
  async () => {
    const { startOwnServer } = require('../harness/ownServer') as typeof import('../harness/ownServer');
    const settings = { ENGINE_GRAPHQL_ADMIN_SECRET: target.adminSecret! };
    let server: RunningServer = await startOwnServer(target.databaseUrl, settings);
    const port = server.port;
    const url = `ws://127.0.0.1:${port}/v1/graphql`;
    const headers = authorHeaders(target, '2');
    const modern = results();
    const legacy = results();
    const current = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { headers },
      retryAttempts: 100,
      retryWait: () => new Promise((resolve) => setTimeout(resolve, 100)),
      shouldRetry: () => true,
    });
    const stopModern = current.subscribe(
      { query: TITLES },
      { next: (r) => modern.push(r), error: (e) => modern.push({ error: String(e) }), complete: () => undefined },
    );
    const SubscriptionClient = legacyClient();
    const old = new SubscriptionClient(url, { reconnect: true, connectionParams: { headers } }, WebSocket);
    const stopLegacy = old.request({ query: TITLES }).subscribe({ next: (r) => legacy.push(r), error: (e: unknown) => legacy.push({ error: String(e) }) });
    const pratchett = {
      data: {
        library_book: [
          { id: 3, title: 'Guards! Guards!' },
          { id: 4, title: 'Night Watch' },
        ],
      },
    };
    try {
      expect([await modern.count(1), await legacy.count(1)]).toEqual([[pratchett], [pratchett]]);
      await server.close();
      server = await startOwnServer(target.databaseUrl, { ...settings, ENGINE_GRAPHQL_SERVER_PORT: String(port) });
      // Connected again, each client subscribes again and is sent the rows at once.
      expect([await modern.count(2), await legacy.count(2)]).toEqual([
        [pratchett, pratchett],
        [pratchett, pratchett],
      ]);
      await target.sql("insert into library.book values (13, 2, 'Mort', 1987)");
      const withMort = {
        data: {
          library_book: [
            { id: 3, title: 'Guards! Guards!' },
            { id: 4, title: 'Night Watch' },
            { id: 13, title: 'Mort' },
          ],
        },
      };
      expect([(await modern.count(3))[2], (await legacy.count(3))[2]]).toEqual([withMort, withMort]);
    } finally {
      stopModern();
      stopLegacy.unsubscribe();
      old.close();
      await current.dispose();
      await server.close();
      await target.sql('delete from library.book where id = 13');
    }
  },
  60_000,
);

caseNeeding(
  WITH_HOOK,
  ['dec.graphql.legacy-ws', 'dec.graphql.clients'],
  "subscriptions-transport-ws sends its first operation before connection_init's ack: it runs once the webhook has answered",
  async () => {
    const t = target.profileTarget('auth-hook-get')!;
    const SubscriptionClient = legacyClient();
    const client = new SubscriptionClient(socketUrl(t), { connectionParams: { headers: { authorization: 'Bearer user-2' } } }, WebSocket);
    const answers = results();
    const running = client
      .request({ query: 'query Who { __typename }' })
      .subscribe({ next: (r) => answers.push(r), error: (e: unknown) => answers.push({ error: String(e) }) });
    try {
      expect(await answers.count(1)).toEqual([{ data: { __typename: 'query_root' } }]);
    } finally {
      running.unsubscribe();
      client.close();
    }
  },
);
