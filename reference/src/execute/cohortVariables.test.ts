// Subscriptions whose GraphQL variables differ only where they are compared with a column share one
// poller (one statement per batch of requests), each subscriber getting the rows of its own values;
// a variable that shapes the statement (a limit, a list) keeps its own poller.
import { useSubscriptionServer } from '../../test-support/subscriptionServer';

const { server, post, sql, subscribe, waitFor } = useSubscriptionServer({ ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '100' });

beforeAll(async () => {
  await post(
    {
      type: 'run_sql',
      args: {
        sql: `create table item (id int primary key, label text, owner int not null, doc jsonb, flag boolean);
              insert into item values (1, 'one', 1, '{"a": 1}', true), (2, 'it''s "q" ünï', 1, '"x"', false), (3, 'three', 2, null, null)`,
      },
    },
    '/v2/query',
  );
  await post({ type: 'track_table', args: { table: 'item' } });
  // A field of rows named as a root field whose arguments are a primary key: its arguments are not.
  await post({
    type: 'create_array_relationship',
    args: { table: 'item', name: 'item_by_pk', using: { manual_configuration: { remote_table: 'item', column_mapping: { id: 'id' } } } },
  });
  await post({
    type: 'create_select_permission',
    args: { table: 'item', role: 'reader', permission: { columns: ['id', 'label'], filter: { owner: { _eq: 'X-Engine-User-Id' } } } },
  });
});

test('variables compared with columns: one poller for every value, each subscriber its own rows, also after a change', async () => {
  const query = 'subscription ($id: Int, $label: String) { item(where: {_or: [{id: {_eq: $id}}, {label: {_eq: $label}}]}, order_by: {id: asc}) { id label } }';
  const all = [
    subscribe(query, { id: 1, label: null }),
    subscribe(query, { id: 3, label: 'it\'s "q" ünï' }),
    subscribe(query, { id: 99, label: 'none' }),
    subscribe(query, { id: 1, label: null }),
  ];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([
    { data: { item: [{ id: 1, label: 'one' }] } },
    {
      data: {
        item: [
          { id: 2, label: 'it\'s "q" ünï' },
          { id: 3, label: 'three' },
        ],
      },
    },
    { data: { item: [] } },
    { data: { item: [{ id: 1, label: 'one' }] } },
  ]);
  expect(server().livePollers()).toBe(1);
  // Each answer is of its own values: only the subscribers whose rows changed are sent anything.
  await sql("update item set label = 'three!' where id = 3");
  await waitFor(() => all[1]!.results.length === 2);
  expect(all[1]!.results[1]).toEqual({
    data: {
      item: [
        { id: 2, label: 'it\'s "q" ünï' },
        { id: 3, label: 'three!' },
      ],
    },
  });
  await sql("update item set label = 'none' where id = 1");
  await waitFor(() => all[2]!.results.length === 2 && all[0]!.results.length === 2 && all[3]!.results.length === 2);
  expect([all[0]!.results[1], all[2]!.results[1], all[1]!.results.length]).toEqual([
    { data: { item: [{ id: 1, label: 'none' }] } },
    { data: { item: [{ id: 1, label: 'none' }] } },
    2,
  ]);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
  await sql("update item set label = case id when 1 then 'one' else 'three' end where id in (1, 3)");
});

test("a primary key's argument: one poller for every value", async () => {
  const query = 'subscription ($id: Int!) { item_by_pk(id: $id) { id label } }';
  const all = [subscribe(query, { id: 1 }), subscribe(query, { id: 3 }), subscribe(query, { id: 99 })];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([
    { data: { item_by_pk: { id: 1, label: 'one' } } },
    { data: { item_by_pk: { id: 3, label: 'three' } } },
    { data: { item_by_pk: null } },
  ]);
  expect(server().livePollers()).toBe(1);
  await sql("update item set label = 'three?' where id = 3");
  await waitFor(() => all[1]!.results.length === 2);
  expect([all[0]!.results.length, all[1]!.results[1], all[2]!.results.length]).toEqual([1, { data: { item_by_pk: { id: 3, label: 'three?' } } }, 1]);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
  await sql("update item set label = 'three' where id = 3");
});

test('a variable that is also a limit is bound: other values, another poller; the compared one still shares, and so does a list for _in', async () => {
  const limited = 'subscription ($n: Int!, $from: Int!) { item(where: {id: {_gte: $from}}, limit: $n, order_by: {id: asc}) { id } }';
  const listed = 'subscription ($ids: [Int!]) { item(where: {id: {_in: $ids}}, order_by: {id: asc}) { id } }';
  const twice = 'subscription ($id: Int!) { item(where: {id: {_gte: $id}}, limit: $id, order_by: {id: asc}) { id } }';
  const all = [
    subscribe(limited, { n: 1, from: 1 }),
    subscribe(limited, { n: 1, from: 2 }),
    subscribe(limited, { n: 2, from: 1 }),
    subscribe(listed, { ids: [1] }),
    subscribe(listed, { ids: [2, 3] }),
    subscribe(twice, { id: 1 }),
    subscribe(twice, { id: 2 }),
  ];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([
    { data: { item: [{ id: 1 }] } },
    { data: { item: [{ id: 2 }] } },
    { data: { item: [{ id: 1 }, { id: 2 }] } },
    { data: { item: [{ id: 1 }] } },
    { data: { item: [{ id: 2 }, { id: 3 }] } },
    { data: { item: [{ id: 1 }] } },
    { data: { item: [{ id: 2 }, { id: 3 }] } },
  ]);
  // limit 1 (from 1 and 2 share), limit 2, both lists, and each value of the variable used twice.
  expect(server().livePollers()).toBe(5);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
});

test("sessions read by the permission and variables compared: one poller, each subscriber its session's rows of its values", async () => {
  const query = 'subscription ($id: Int!) { item(where: {id: {_neq: $id}}, order_by: {id: asc}) { id } }';
  const reader = (user: number) => ({ 'x-engine-role': 'reader', 'x-engine-user-id': String(user) });
  const all = [
    subscribe(query, { id: 1 }, reader(1)),
    subscribe(query, { id: 2 }, reader(1)),
    subscribe(query, { id: 1 }, reader(2)),
    subscribe(query, { id: 3 }, reader(2)),
  ];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([
    { data: { item: [{ id: 2 }] } },
    { data: { item: [{ id: 1 }] } },
    { data: { item: [{ id: 3 }] } },
    { data: { item: [] } },
  ]);
  expect(server().livePollers()).toBe(1);
  await sql('update item set owner = 2 where id = 2');
  await waitFor(() => all[0]!.results.length === 2 && all[2]!.results.length === 2 && all[3]!.results.length === 2);
  expect([all[0]!.results[1], all[1]!.results.length, all[2]!.results[1], all[3]!.results[1]]).toEqual([
    { data: { item: [] } },
    1,
    { data: { item: [{ id: 2 }, { id: 3 }] } },
    { data: { item: [{ id: 2 }] } },
  ]);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
  await sql('update item set owner = 1 where id = 2');
});

test('a JSON column compared with a variable: a string or a list of scalars shares the poller, an object is bound; each answered as its own statement answers', async () => {
  const query = 'subscription ($doc: jsonb) { item(where: {doc: {_eq: $doc}}, order_by: {id: asc}) { id } }';
  const contains = 'subscription ($doc: jsonb) { item(where: {doc: {_contains: $doc}}, order_by: {id: asc}) { id } }';
  const listed = 'subscription ($docs: [jsonb!]) { item(where: {doc: {_in: $docs}}, order_by: {id: asc}) { id } }';
  const all = [
    subscribe(query, { doc: 'x' }),
    subscribe(query, { doc: 'y' }),
    subscribe(contains, { doc: { a: 1 } }),
    subscribe(contains, { doc: { a: 2 } }),
    subscribe(listed, { docs: ['x', 1] }),
    subscribe(listed, { docs: [2] }),
    subscribe(listed, { docs: [{ a: 1 }] }),
  ];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([
    { data: { item: [{ id: 2 }] } },
    { data: { item: [] } },
    { data: { item: [{ id: 1 }] } },
    { data: { item: [] } },
    { data: { item: [{ id: 2 }] } },
    { data: { item: [] } },
    { data: { item: [{ id: 1 }] } },
  ]);
  // The strings share one, so do the lists of scalars; each object, and each list holding one, has its own.
  expect(server().livePollers()).toBe(5);
  await new Promise((resolve) => setTimeout(resolve, 350));
  expect(all.map((s) => s.results.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
});

test('a boolean compared shares the poller; beside a variable compared, one that chooses the SQL (an is-null test, an order, a directive too, the arguments of a field of rows) is bound', async () => {
  // Each document compares $id too, so that its cohort is the one its subscribers poll with.
  const flagged = 'subscription ($b: Boolean, $id: Int!) { item(where: {flag: {_eq: $b}, id: {_gte: $id}}, order_by: {id: asc}) { id } }';
  const nulls = 'subscription ($b: Boolean!, $id: Int!) { item(where: {flag: {_is_null: $b}, id: {_gte: $id}}, order_by: {id: asc}) { id } }';
  const ordered = 'subscription ($dir: order_by!, $id: Int!) { item(where: {id: {_lte: $id}}, order_by: {id: $dir}) { id } }';
  const shown = 'subscription ($b: Boolean!, $id: Int!) { item(where: {flag: {_eq: $b}, id: {_gte: $id}}) { id label @include(if: $b) } }';
  const nested = 'subscription ($n: Int!, $id: Int!) { item(where: {id: {_eq: $id}}) { id item_by_pk(limit: $n) { id } } }';
  const all = [
    subscribe(flagged, { b: true, id: 1 }),
    subscribe(flagged, { b: false, id: 1 }),
    subscribe(nulls, { b: true, id: 1 }),
    subscribe(nulls, { b: false, id: 1 }),
    subscribe(ordered, { dir: 'asc', id: 2 }),
    subscribe(ordered, { dir: 'desc', id: 2 }),
    subscribe(shown, { b: true, id: 1 }),
    subscribe(shown, { b: false, id: 1 }),
    subscribe(nested, { n: 1, id: 1 }),
    subscribe(nested, { n: 0, id: 1 }),
  ];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([
    { data: { item: [{ id: 1 }] } },
    { data: { item: [{ id: 2 }] } },
    { data: { item: [{ id: 3 }] } },
    { data: { item: [{ id: 1 }, { id: 2 }] } },
    { data: { item: [{ id: 1 }, { id: 2 }] } },
    { data: { item: [{ id: 2 }, { id: 1 }] } },
    { data: { item: [{ id: 1, label: 'one' }] } },
    { data: { item: [{ id: 2 }] } },
    { data: { item: [{ id: 1, item_by_pk: [{ id: 1 }] }] } },
    { data: { item: [{ id: 1, item_by_pk: [] }] } },
  ]);
  // One for both booleans compared, then one for each value of the others.
  expect(server().livePollers()).toBe(9);
  // A few polls later, nobody was sent anything more: each poller answers as its first statement did.
  await new Promise((resolve) => setTimeout(resolve, 350));
  expect(all.map((s) => s.results.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
});

test('lists for _in and _nin: one poller for every list, text with quotes, commas and braces, an empty list; a null list is bound', async () => {
  const inside = 'subscription ($labels: [String!]) { item(where: {label: {_in: $labels}}, order_by: {id: asc}) { id } }';
  const outside = 'subscription ($labels: [String!]) { item(where: {label: {_nin: $labels}}, order_by: {id: asc}) { id } }';
  const all = [
    subscribe(inside, { labels: ['one', 'it\'s "q" ünï'] }),
    subscribe(inside, { labels: ['three', 'a,b', '{c}', ' d '] }),
    subscribe(inside, { labels: [] }),
    subscribe(outside, { labels: ['one', 'it\'s "q" ünï'] }),
    subscribe(outside, { labels: [] }),
    subscribe(outside, { labels: null }),
  ];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([
    { data: { item: [{ id: 1 }, { id: 2 }] } },
    { data: { item: [{ id: 3 }] } },
    { data: { item: [] } },
    { data: { item: [{ id: 3 }] } },
    { data: { item: [{ id: 1 }, { id: 2 }, { id: 3 }] } },
    { data: { item: [] } },
  ]);
  // One for every list of each document, and the null list its own.
  expect(server().livePollers()).toBe(3);
  await new Promise((resolve) => setTimeout(resolve, 350));
  expect(all.map((s) => s.results.length)).toEqual([1, 1, 1, 1, 1, 1]);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
});

test('values too large for a row of a batch stay bound: a statement of their own', async () => {
  const query = 'subscription ($label: String, $id: Int) { item(where: {_or: [{label: {_eq: $label}}, {id: {_eq: $id}}]}) { id } }';
  const large = 'x'.repeat(16 * 1024);
  const all = [subscribe(query, { label: 'one', id: 2 }), subscribe(query, { label: 'three', id: 0 }), subscribe(query, { label: large, id: 2 })];
  await waitFor(() => all.every((s) => s.results.length === 1));
  expect(all.map((s) => s.results[0])).toEqual([{ data: { item: [{ id: 1 }, { id: 2 }] } }, { data: { item: [{ id: 3 }] } }, { data: { item: [{ id: 2 }] } }]);
  expect(server().livePollers()).toBe(2);
  await Promise.all(all.map((s) => s.client.dispose()));
  await waitFor(() => server().livePollers() === 0);
});
