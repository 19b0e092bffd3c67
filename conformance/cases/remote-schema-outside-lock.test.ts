// A remote schema that is slow to answer its introspection holds only the request that asks for it
// (decision dec.remote-schema.outside-the-lock): other metadata requests are answered meanwhile, and
// when the asking client goes away the introspection stops and nothing changes. The remote here is
// a loopback server that never answers and tells when its request is closed.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { until } from '../harness/wait';
import { useTarget } from '../harness/target';

const target = useTarget();
const remote = useMockServer();
let silent: Server;
let silentUrl = '';
/** Requests the silent remote holds, and those whose client closed them. */
const held: IncomingMessage[] = [];
let closed = 0;

beforeAll(async () => {
  silent = createServer((req) => {
    held.push(req);
    req.on('close', () => closed++);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}/graphql`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});
beforeEach(async () => {
  await target.reset();
});

test(
  covers(
    ['dec.remote-schema.outside-the-lock', 'op.add_remote_schema', 'op.export_metadata.v1'],
    'while a remote never answers add_remote_schema, other metadata requests are answered; the client that leaves stops the introspection and changes nothing',
  ),
  async () => {
    const before = (await target.metadata({ type: 'export_metadata', args: {} })).body;
    const leaving = new AbortController();
    const adding = fetch(`${target.url}/v1/metadata`, {
      method: 'POST',
      headers: { ...target.adminHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'add_remote_schema', args: { name: 'silent', definition: { url: silentUrl, timeout_seconds: 3600 } } }),
      signal: leaving.signal,
    }).then(
      (r) => r.status,
      () => 'gone',
    );
    let settled = false;
    void adding.then(() => (settled = true));
    expect(
      await until(
        async () => held.length,
        (n) => n === 1,
      ),
    ).toBe(1);
    // Other requests do not wait for the remote: a change and a read are answered while it is silent.
    expectResponse(await target.metadata({ type: 'create_query_collection', args: { name: 'meanwhile', definition: { queries: [] } } }), 200);
    const meanwhile = await target.metadata({ type: 'export_metadata', args: {} });
    expect((meanwhile.body as { query_collections?: unknown }).query_collections).toEqual([{ name: 'meanwhile', definition: { queries: [] } }]);
    expect(settled).toBe(false);
    leaving.abort();
    expect(await adding).toBe('gone');
    // The introspection request is closed once the client went away.
    expect(
      await until(
        async () => closed,
        (n) => n === 1,
      ),
    ).toBe(1);
    expectResponse(await target.metadata({ type: 'drop_query_collection', args: { collection: 'meanwhile' } }), 200);
    expect((await target.metadata({ type: 'export_metadata', args: {} })).body).toEqual(before);
  },
);

test(
  covers(
    [
      'dec.remote-schema.outside-the-lock',
      'op.add_remote_schema',
      'op.update_remote_schema',
      'err.already-exists.remote-schema',
      'op.get_inconsistent_metadata',
    ],
    'a refused change that introspected another definition under a taken name leaves the stored remote served and consistent',
  ),
  async () => {
    remote.use(graphQLServer('/first', 'type Query { first: String }', { first: () => 'one' }));
    remote.use(graphQLServer('/second', 'type Query { second: String }', { second: () => 'two' }));
    const answer = { data: { first: 'one' } };
    expectResponse(await target.metadata({ type: 'add_remote_schema', args: { name: 'taken', definition: { url: `${remote.url}/first` } } }), 200);
    const before = (await target.metadata({ type: 'export_metadata', args: {} })).body;
    // Each introspects the second remote before it is refused: the name is taken, the bulk fails later.
    const add = (timeout: number) => ({
      type: 'add_remote_schema',
      args: { name: 'taken', definition: { url: `${remote.url}/second`, timeout_seconds: timeout } },
    });
    const refusals = [
      add(60),
      // Several other definitions in a row, none of them read in between.
      { type: 'bulk', args: [add(1), add(2), add(3), add(4), add(5)] },
      {
        type: 'bulk',
        args: [
          { type: 'update_remote_schema', args: { name: 'taken', definition: { url: `${remote.url}/second` } } },
          { type: 'track_table', args: { table: { schema: 'public', name: 'no_such_table' } } },
        ],
      },
    ];
    for (const refusal of refusals) {
      expect((await target.metadata(refusal)).status).toBe(400);
      expect(remote.requestsTo('/second').length).toBeGreaterThan(0);
      expectResponse(await target.metadata({ type: 'get_inconsistent_metadata', args: {} }), 200, []);
      expect((await target.graphql('{ first }')).body).toEqual(answer);
      // A later change builds the schemas again from the stored remote.
      expectResponse(await target.metadata({ type: 'reload_metadata', args: {} }), 200, { message: 'success', is_consistent: true });
      expect((await target.graphql('{ first }')).body).toEqual(answer);
      expect((await target.metadata({ type: 'export_metadata', args: {} })).body).toEqual(before);
    }
  },
);
