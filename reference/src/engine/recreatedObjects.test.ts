// Two servers on one database: objects that run_sql on one server drops and makes again alike are
// answered from as they are now on the other too (decision dec.run_sql.recreated-objects).
import { useFixtureServers, waitFor } from '../../test-support/fixtureServers';
import { useWorkerDatabase } from '../../test-support/workerDatabase';
import type { RunningServer } from '../server';

const MOOD = "create type mood as enum ('calm', 'glad'); create table rm (id int primary key, m mood); insert into rm values (1, 'glad')";
const fixture = useWorkerDatabase('recreated', MOOD);
const { start, post } = useFixtureServers(fixture);
const ask = async (server: RunningServer) =>
  (await post(server, '/v1/graphql', { query: 'query ($m: mood) { rm(where: {m: {_eq: $m}}) { id m } }', variables: { m: 'glad' } })).body;

test("a table and its column's type made again by run_sql on one server are answered from on the other", async () => {
  const [a, b] = [await start(), await start()];
  expect((await post(a, '/v1/metadata', { type: 'track_table', args: { table: 'rm' } })).body).toEqual({ message: 'success' });
  const answer = { data: { rm: [{ id: 1, m: 'glad' }] } };
  const seen = async () => JSON.stringify(await ask(b)) === JSON.stringify(answer);
  await waitFor(seen);
  expect(await ask(b)).toEqual(answer);
  const made = await post(a, '/v2/query', { type: 'run_sql', args: { sql: `drop table rm; drop type mood; ${MOOD}, (2, 'calm')` } });
  expect(made.body).toEqual({ result_type: 'CommandOk', result: null });
  // Once b has read the change, it answers from the new table (the second row) and type.
  const both = { data: { rm: [{ id: 1, m: 'glad' }] } };
  await waitFor(async () => {
    const r = (await post(b, '/v1/graphql', { query: '{ rm(order_by: {id: asc}) { id } }' })).body;
    return JSON.stringify(r) === '{"data":{"rm":[{"id":1},{"id":2}]}}';
  });
  for (let i = 0; i < 2; i++) expect(await ask(b)).toEqual(both);
});
