// Streaming subscriptions of one document share a poller whatever their cursors, sessions and
// compared variables (decision dec.graphql.stream.multiplexed): each poll binds their distinct rows,
// ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE per statement; a statement that shapes
// the rows otherwise (batch_size, ordering) has a poller of its own.
import { useSubscriptionServer } from '../../test-support/subscriptionServer';

const support = useSubscriptionServer({
  ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '50',
  ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE: '2',
});
const { server, post, sql, waitFor } = support;

beforeAll(async () => {
  await sql(
    'create table item (id int primary key, grp int not null, owner int not null); insert into item select i, i % 2, i % 3 from generate_series(1, 6) i',
  );
  await post({ type: 'track_table', args: { table: 'item' } });
  await post({
    type: 'create_select_permission',
    args: { table: 'item', role: 'reader', permission: { columns: ['id', 'grp'], filter: { owner: { _eq: 'X-Engine-User-Id' } } } },
  });
});

/** A streaming subscription: the ids of each batch it was sent (anything else as it came). */
function subscribe(query: string, variables: Record<string, unknown>, headers?: Record<string, string>) {
  const { client, results } = support.subscribe(query, variables, headers);
  const idsOf = (r: unknown) => {
    const data = (r as { data?: Record<string, { id: number }[]> }).data;
    return data ? Object.values(data)[0]!.map((row) => row.id) : r;
  };
  return { client, batches: () => results.map(idsOf) };
}

/** The rows each streaming statement bound, while `during` runs. */
async function boundRows(during: () => Promise<void>): Promise<unknown[][]> {
  const bound: unknown[][] = [];
  server().engine.pools.logSql = (statement) => {
    if (statement.text.includes('cursor text')) bound.push(JSON.parse(statement.values[0] as string) as unknown[]);
  };
  try {
    await during();
  } finally {
    delete server().engine.pools.logSql;
  }
  return bound;
}

const DOCUMENT =
  'subscription ($from: Int!, $grp: Int!) { item_stream(batch_size: 2, cursor: {initial_value: {id: $from}}, where: {grp: {_eq: $grp}}) { id } }';
const reader = (user: number) => ({ 'x-engine-role': 'reader', 'x-engine-user-id': String(user) });

test('subscribers with other cursors, sessions and compared variables share one poller; each poll binds their distinct rows, two per statement', async () => {
  const all = [
    subscribe(DOCUMENT, { from: 0, grp: 0 }, reader(0)),
    subscribe(DOCUMENT, { from: 0, grp: 0 }, reader(0)),
    subscribe(DOCUMENT, { from: 0, grp: 1 }, reader(1)),
    subscribe(DOCUMENT, { from: 3, grp: 0 }, reader(2)),
    subscribe(DOCUMENT, { from: 6, grp: 0 }, reader(0)),
  ];
  // owner 0: 3, 6 (grp 1, 0); owner 1: 1, 4 (grp 1, 0); owner 2: 2, 5 (grp 0, 1).
  await waitFor(() => all.slice(0, 3).every((s) => s.batches().length === 1));
  expect(all.map((s) => s.batches())).toEqual([[[6]], [[6]], [[1]], [], []]);
  await waitFor(() => server().streamPollers() === 1);
  const bound = await boundRows(async () => {
    await sql('insert into item values (7, 1, 1), (8, 0, 2), (9, 0, 0), (12, 0, 0), (15, 0, 0)');
    await waitFor(() => all.map((s) => s.batches().length).join() === '3,3,2,1,2');
  });
  expect(all.map((s) => s.batches())).toEqual([[[6], [9, 12], [15]], [[6], [9, 12], [15]], [[1], [7]], [[8]], [[9, 12], [15]]]);
  // Three distinct rows (the first two subscribers and the last share session, variables and cursor), at most two in a statement.
  expect(bound.every((rows) => rows.length <= 2)).toBe(true);
  expect(bound.some((rows) => rows.length === 2)).toBe(true);
  expect(server().streamPollers()).toBe(1);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().streamPollers() === 0);
  await sql('delete from item where id > 6');
});

test('a batch_size or an ordering of its own is a poller of its own; a subscriber that leaves ends only its own subscription', async () => {
  const ordered = (direction: string, size: number) =>
    `subscription { item_stream(batch_size: ${size}, cursor: {initial_value: {id: 3}, ordering: ${direction}}) { id } }`;
  const up = subscribe(ordered('ASC', 10), {});
  const down = subscribe(ordered('DESC', 10), {});
  const small = subscribe(ordered('ASC', 1), {});
  const again = subscribe(ordered('ASC', 10), {});
  await waitFor(() => [up, down, small, again].every((s) => s.batches().length >= 1));
  expect([up, down, small, again].map((s) => s.batches()[0])).toEqual([[4, 5, 6], [2, 1], [4], [4, 5, 6]]);
  expect(server().streamPollers()).toBe(3);
  await waitFor(() => small.batches().length === 3);
  await again.client.dispose();
  await sql('insert into item values (7, 1, 1)');
  await waitFor(() => up.batches().length === 2 && small.batches().length === 4);
  expect([up.batches()[1], small.batches(), down.batches().length, again.batches().length]).toEqual([[7], [[4], [5], [6], [7]], 1, 1]);
  await Promise.all([up, down, small].map((s) => s.client.dispose()));
  await waitFor(() => server().streamPollers() === 0);
  await sql('delete from item where id > 6');
});

test('a stream whose statement fails on a later poll is sent the error and ends; the other streams go on', async () => {
  await sql(
    'create table share (id int primary key, parts int not null); insert into share values (1, 2); create view portion as select id, 10 / parts as size from share',
  );
  await post({ type: 'track_table', args: { table: 'portion' } });
  const failing = subscribe('subscription { portion_stream(batch_size: 5, cursor: {initial_value: {id: 0}}) { id size } }', {});
  const other = subscribe('subscription { item_stream(batch_size: 5, cursor: {initial_value: {id: 6}}) { id } }', {});
  await waitFor(() => failing.batches().length === 1 && server().streamPollers() === 2);
  // A row the view divides by zero: the statement fails from now on.
  await sql('insert into share values (2, 0)');
  await waitFor(() => failing.batches().length === 2 && server().streamPollers() === 1);
  await sql('insert into item values (7, 1, 1)');
  await waitFor(() => other.batches().length === 1);
  expect([failing.batches(), other.batches()]).toEqual([
    [[1], { errors: [{ message: 'division by zero', extensions: { path: '$', code: 'data-exception' } }] }],
    [[7]],
  ]);
  await Promise.all([failing, other].map((s) => s.client.dispose()));
  await waitFor(() => server().streamPollers() === 0);
  await sql('delete from item where id > 6');
});

test('a stream whose field a customization gives to a root field of rows is sent the error and ends', async () => {
  const stream = subscribe('subscription { item_stream(batch_size: 5, cursor: {initial_value: {id: 5}}) { id } }', {});
  await waitFor(() => stream.batches().length === 1 && server().streamPollers() === 1);
  await post({
    type: 'set_table_customization',
    args: { table: 'item', configuration: { custom_root_fields: { select: 'item_stream', select_stream: 'item_feed' } } },
  });
  try {
    await waitFor(() => stream.batches().length === 2 && server().streamPollers() === 0);
    expect(stream.batches()).toEqual([
      [6],
      {
        errors: ['batch_size', 'cursor'].map((name) => ({
          message: `Unknown argument "${name}" on field "subscription_root.item_stream".`,
          extensions: { path: '$', code: 'validation-failed' },
        })),
      },
    ]);
  } finally {
    await stream.client.dispose();
    await post({ type: 'set_table_customization', args: { table: 'item', configuration: {} } });
  }
});
