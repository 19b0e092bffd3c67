// The isolation level of the server's own database as the stored metadata names it (decision
// dec.source.isolation-level): a server that starts on a database whose metadata names one runs its
// GraphQL at that level, and one that reads another server's change takes the new level.
import { useFixtureServers, waitFor } from '../../test-support/fixtureServers';
import { useWorkerDatabase } from '../../test-support/workerDatabase';
import type { RunningServer } from '../server';

const fixture = useWorkerDatabase('own_isolation', "create view iso_level as select current_setting('transaction_isolation') as level");
const { start, stop, post } = useFixtureServers(fixture);
const levelOf = async (server: RunningServer) => (await post(server, '/v1/graphql', { query: '{ iso_level { level } }' })).body;
const level = (name: string) => ({ data: { iso_level: [{ level: name }] } });
const withLevel = (isolation: string) => ({
  version: 2,
  tables: [{ table: { schema: 'public', name: 'iso_level' } }],
  default_source: { configuration: { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, isolation_level: isolation } } },
});

test('a server started on stored metadata that names a level runs at it, and takes the level another server sets', async () => {
  const first = await start();
  expect((await post(first, '/v1/metadata', { type: 'replace_metadata', args: withLevel('serializable') })).body).toEqual({ message: 'success' });
  await stop(first);
  const [a, b] = [await start(), await start()];
  expect(await levelOf(a)).toEqual(level('serializable'));
  expect(await levelOf(b)).toEqual(level('serializable'));
  expect((await post(a, '/v1/metadata', { type: 'replace_metadata', args: withLevel('repeatable-read') })).body).toEqual({ message: 'success' });
  expect(await levelOf(a)).toEqual(level('repeatable read'));
  await waitFor(async () => JSON.stringify(await levelOf(b)) === JSON.stringify(level('repeatable read')));
  expect(await levelOf(b)).toEqual(level('repeatable read'));
});
