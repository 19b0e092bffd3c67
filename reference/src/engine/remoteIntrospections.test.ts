// A metadata request introspects each remote it brings once: before it takes the metadata lock
// (engine/remotePrefetch.ts), and inside it only what changed meanwhile. The remote is an msw handler
// on loopback that counts what it is asked.
import { graphQLServer, useMockServer } from '../../../conformance/harness/mockServer';
import { useTarget } from '../../../conformance/harness/target';

const target = useTarget();
const remote = useMockServer();
const run = (type: string, args: unknown) => target.metadata({ type, args });

beforeEach(async () => {
  await target.reset();
  remote.use(graphQLServer('/once', 'type Query { once: Int }', { once: () => 1 }));
});
afterEach(async () => {
  await target.reset();
});

test('add_remote_schema and reload_remote_schema ask the remote once each', async () => {
  const asked = () => remote.requestsTo('/once').length;
  expect((await run('add_remote_schema', { name: 'once', definition: { url: `${remote.url}/once` } })).status).toBe(200);
  expect(asked()).toBe(1);
  expect((await run('reload_remote_schema', { name: 'once' })).status).toBe(200);
  expect(asked()).toBe(2);
  expect((await target.graphql('{ once }')).body).toEqual({ data: { once: 1 } });
});
