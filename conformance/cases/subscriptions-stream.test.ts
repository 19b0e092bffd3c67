// Streaming subscriptions (<table>_stream), as the engine generates and serves them: the schema
// (dec.graphql.stream.schema), the batches past a cursor (dec.graphql.stream.cursor) and
// subscribers of one document sharing their statements (dec.graphql.stream.multiplexed).
import { caseNeeding, covers } from '../harness/cases';
import { expectError, expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { legacySocket } from '../harness/legacySocket';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';
import { openSocket, type GraphQLSocket, type Operation } from '../harness/websocket';

const target = useTarget();
const second = useSourceDatabase();
const message = { schema: 'chat', name: 'message' };
const sockets: GraphQLSocket[] = [];
const open = (headers?: Record<string, string>) => {
  const socket = openSocket(target, headers);
  sockets.push(socket);
  return socket;
};
const member = (room: string) => ({ ...target.adminHeaders(), 'x-engine-role': 'member', 'x-engine-room': room });

beforeAll(async () => {
  await target.sql(fixtureSql('chat'));
  const r = await target.metadata({
    type: 'bulk',
    args: [
      { type: 'reload_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      { type: 'track_table', args: { table: { schema: 'chat', name: 'mood' }, is_enum: true } },
      { type: 'track_table', args: { table: message } },
      { type: 'track_function', args: { function: { schema: 'chat', name: 'search' } } },
      {
        type: 'create_select_permission',
        args: { table: message, role: 'member', permission: { columns: ['id', 'room', 'body'], filter: { room: { _eq: 'X-Engine-Room' } }, limit: 2 } },
      },
    ],
  });
  expect(r.status).toBe(200);
});

afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
  await target.sql('delete from chat.message where id not between 1 and 4');
});

/** The next message of a subscription that is a batch: the rows it carries. */
async function batch(op: Operation): Promise<unknown> {
  const event = await op.take(10_000);
  if (event.type !== 'next') return event;
  return (event.payload as { data?: Record<string, unknown> }).data?.chat_message_stream ?? event.payload;
}

const ids = (...values: number[]) => values.map((id) => ({ id }));

const TYPE = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
const INPUT = `kind name description inputFields { name description defaultValue type { ${TYPE} } }`;
const INTROSPECTION = `{
  __schema {
    queryType { fields { name } }
    subscriptionType { fields { name description args { name description defaultValue type { ${TYPE} } } type { ${TYPE} } } }
  }
  cursor: __type(name: "chat_message_stream_cursor_input") { ${INPUT} }
  value: __type(name: "chat_message_stream_cursor_value_input") { ${INPUT} }
  ordering: __type(name: "cursor_ordering") { kind name description enumValues { name description } }
}`;

type Named = { name: string };
interface Introspected {
  __schema: { queryType: { fields: Named[] }; subscriptionType: { fields: (Named & { args: Named[] })[] } };
  cursor: { inputFields: Named[] } | null;
  value: { inputFields: Named[] } | null;
  ordering: unknown;
}

// The order of arguments and input fields is not what is checked: sorted by name.
const byName = <T extends Named>(list: T[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : 1));
const scalar = (name: string) => ({ kind: 'SCALAR', name, ofType: null });
const nonNull = (ofType: unknown) => ({ kind: 'NON_NULL', name: null, ofType });
const named = (kind: string, name: string) => ({ kind, name, ofType: null });
const field = (name: string, description: string | null, type: unknown) => ({ name, description, defaultValue: null, type });

async function introspect(headers?: Record<string, string>) {
  const r = await target.graphql(INTROSPECTION, undefined, headers ? { headers } : undefined);
  expect(r.status).toBe(200);
  const data = (r.body as { data: Introspected }).data;
  const streams = data.__schema.subscriptionType.fields.filter((f) => f.name.endsWith('_stream'));
  return {
    queryStreams: data.__schema.queryType.fields.filter((f) => f.name.endsWith('_stream')),
    streams: streams.map((f) => f.name).sort(),
    stream: streams.filter((f) => f.name === 'chat_message_stream').map((f) => ({ ...f, args: byName(f.args) })),
    cursor: data.cursor && { ...data.cursor, inputFields: byName(data.cursor.inputFields) },
    value: data.value && { ...data.value, inputFields: byName(data.value.inputFields) },
    ordering: data.ordering,
  };
}

test(
  covers(
    ['dec.graphql.stream.schema', 'dec.graphql.subscriptions'],
    'the subscription root has <table>_stream for each table the role selects from, with the cursor types as the engine names and describes them; the query root and functions have none',
  ),
  async () => {
    const admin = await introspect();
    expect(admin).toEqual({
      queryStreams: [],
      // The enum table is a table like any other here.
      streams: ['chat_message_stream', 'chat_mood_stream'],
      stream: [
        {
          name: 'chat_message_stream',
          description: 'fetch data from the table in a streaming manner: "chat.message"',
          args: [
            field('batch_size', 'maximum number of rows returned in a single batch', nonNull(scalar('Int'))),
            field(
              'cursor',
              'cursor to stream the results returned by the query',
              nonNull({ kind: 'LIST', name: null, ofType: { kind: 'INPUT_OBJECT', name: 'chat_message_stream_cursor_input', ofType: null } }),
            ),
            field('where', 'filter the rows returned', named('INPUT_OBJECT', 'chat_message_bool_exp')),
          ],
          type: nonNull({ kind: 'LIST', name: null, ofType: { kind: 'NON_NULL', name: null, ofType: { kind: 'OBJECT', name: 'chat_message' } } }),
        },
      ],
      cursor: {
        kind: 'INPUT_OBJECT',
        name: 'chat_message_stream_cursor_input',
        description: 'Streaming cursor of the table "chat_message"',
        inputFields: [
          field('initial_value', 'Stream column input with initial value', nonNull(named('INPUT_OBJECT', 'chat_message_stream_cursor_value_input'))),
          field('ordering', 'cursor ordering', named('ENUM', 'cursor_ordering')),
        ],
      },
      value: {
        kind: 'INPUT_OBJECT',
        name: 'chat_message_stream_cursor_value_input',
        description: 'Initial value of the column from where the streaming should start',
        inputFields: [
          field('author', null, scalar('String')),
          field('body', 'what was said', scalar('String')),
          field('id', null, scalar('Int')),
          field('mood', null, named('ENUM', 'chat_mood_enum')),
          field('pinned', null, scalar('Boolean')),
          field('room', null, scalar('String')),
          field('score', null, scalar('Float')),
          field('sent_at', null, scalar('timestamptz')),
        ],
      },
      ordering: {
        kind: 'ENUM',
        name: 'cursor_ordering',
        description: 'ordering argument of a cursor',
        enumValues: [
          { name: 'ASC', description: 'ascending ordering of the cursor' },
          { name: 'DESC', description: 'descending ordering of the cursor' },
        ],
      },
    });
    // A role's cursor takes the columns it may select, no other.
    const role = await introspect(member('lobby'));
    expect([role.streams, role.value?.inputFields.map((f) => f.name)]).toEqual([['chat_message_stream'], ['body', 'id', 'room']]);
  },
);

test(
  covers(
    ['dec.graphql.stream.schema', 'op.set_table_customization', 'err.already-exists.graphql-name', 'err.validation-failed.graphql-name'],
    'custom_root_fields.select_stream names the streaming field; a name another root field has, or that is not a GraphQL name, is refused and nothing changes',
  ),
  async () => {
    const customize = (configuration: Record<string, unknown>) => target.metadata({ type: 'set_table_customization', args: { table: message, configuration } });
    const exported = async () => {
      const r = await target.metadata({ type: 'export_metadata', args: {} });
      const tables = (r.body as { tables: { table: { name: string }; configuration?: unknown }[] }).tables;
      return tables.filter((t) => t.table.name === 'message').map((t) => t.configuration ?? null);
    };
    try {
      expectResponse(await customize({ custom_root_fields: { select_stream: 'messageFeed' } }), 200, { message: 'success' });
      expect(await exported()).toEqual([{ custom_root_fields: { select_stream: 'messageFeed' } }]);
      expect((await introspect()).streams).toEqual(['chat_mood_stream']);
      const feed = open().start('subscription { messageFeed(batch_size: 10, cursor: {initial_value: {id: 3}}) { id } }');
      expect(await feed.take(10_000)).toEqual({ type: 'next', payload: { data: { messageFeed: ids(4) } } });

      expectError(await customize({ custom_root_fields: { select_stream: 'chat_message' } }), 400, {
        path: '$.args',
        code: 'already-exists',
        error: 'the GraphQL name "chat_message" of root field select_stream of table "chat.message" conflicts with root field select',
      });
      expectError(await customize({ custom_root_fields: { select_stream: 'message feed' } }), 400, {
        path: '$.args',
        code: 'validation-failed',
        error: '"message feed" (root field select_stream of table "chat.message") is not a valid GraphQL name',
      });
      expect(await exported()).toEqual([{ custom_root_fields: { select_stream: 'messageFeed' } }]);
    } finally {
      expectResponse(await customize({}), 200, { message: 'success' });
    }
  },
);

test(
  covers(
    ['dec.graphql.stream.cursor'],
    'the first batch is the rows past the initial value (not the value itself), then rows added later, once each, in cursor order; an empty batch sends nothing, a row behind the cursor never comes',
  ),
  async () => {
    const stream = open().start('subscription { chat_message_stream(batch_size: 10, cursor: {initial_value: {id: 1}, ordering: ASC}) { id body } }');
    expect(await batch(stream)).toEqual([
      { id: 2, body: 'hi' },
      { id: 3, body: 'psst' },
      { id: 4, body: 'bye' },
    ]);
    await target.sql("insert into chat.message (id, room, body) values (6, 'lobby', 'six'), (5, 'lobby', 'five')");
    expect(await batch(stream)).toEqual([
      { id: 5, body: 'five' },
      { id: 6, body: 'six' },
    ]);
    // Nothing was sent while nothing was new: the next message is the next row past the cursor; 0 is behind it.
    await target.sql("insert into chat.message (id, room, body) values (0, 'lobby', 'zero'), (7, 'lobby', 'seven')");
    expect(await batch(stream)).toEqual([{ id: 7, body: 'seven' }]);
  },
);

test(
  covers(['dec.graphql.stream.cursor'], 'a timestamp cursor goes on from the exact value of the last row sent, fractions of a second and offsets included'),
  async () => {
    const stream = open().start('subscription { chat_message_stream(batch_size: 2, cursor: {initial_value: {sent_at: "2024-01-01T10:30:00Z"}}) { id } }');
    expect(await batch(stream)).toEqual(ids(2, 3));
    // Row 4 was sent half a second after row 3 (at 13:00:00.5+01:00).
    expect(await batch(stream)).toEqual(ids(4));
    await target.sql(`insert into chat.message (id, room, body, sent_at) values
      (5, 'lobby', 'late', '2024-01-01T12:00:00.25Z'), (6, 'lobby', 'next day', '2024-01-02T00:00:00Z')`);
    expect(await batch(stream)).toEqual(ids(6));
  },
);

test(
  covers(['dec.graphql.stream.cursor'], 'batch_size splits a backlog into batches; DESC streams downwards, and rows above the cursor never come'),
  async () => {
    const socket = open();
    const up = socket.start('subscription { chat_message_stream(batch_size: 3, cursor: {initial_value: {id: 0}}) { id } }');
    const down = socket.start('subscription { chat_message_stream(batch_size: 2, cursor: {initial_value: {id: 5}, ordering: DESC}) { id } }');
    expect([await batch(up), await batch(down)]).toEqual([ids(1, 2, 3), ids(4, 3)]);
    expect([await batch(up), await batch(down)]).toEqual([ids(4), ids(2, 1)]);
    await target.sql("insert into chat.message (id, room, body) values (9, 'lobby', 'up'), (-1, 'lobby', 'down')");
    expect([await batch(up), await batch(down)]).toEqual([ids(9), ids(-1)]);
  },
);

test(
  covers(
    ['dec.graphql.stream.cursor', 'rule.perm.select.filter', 'rule.perm.select.limit'],
    "a role's stream holds only the rows its permission shows that where keeps, at most its limit per batch",
  ),
  async () => {
    const stream = open(member('lobby')).start(
      'subscription { chat_message_stream(batch_size: 10, cursor: {initial_value: {id: 0}}, where: {body: {_neq: "skip"}}) { id room body } }',
    );
    expect(await batch(stream)).toEqual([
      { id: 1, room: 'lobby', body: 'hello' },
      { id: 2, room: 'lobby', body: 'hi' },
    ]);
    expect(await batch(stream)).toEqual([{ id: 4, room: 'lobby', body: 'bye' }]);
    await target.sql(`insert into chat.message (id, room, body) values
      (5, 'attic', 'a'), (6, 'lobby', 'skip'), (7, 'lobby', 'b'), (8, 'lobby', 'c'), (9, 'lobby', 'd'), (10, 'attic', 'e')`);
    expect(await batch(stream)).toEqual([
      { id: 7, room: 'lobby', body: 'b' },
      { id: 8, room: 'lobby', body: 'c' },
    ]);
    expect(await batch(stream)).toEqual([{ id: 9, room: 'lobby', body: 'd' }]);
  },
);

test(covers(['dec.graphql.stream.cursor'], 'bad cursors and batch sizes are refused with the messages of the engine, and nothing is streamed'), async () => {
  const refused = (message: string) => ({ type: 'error', errors: [{ message, extensions: { path: '$', code: 'validation-failed' } }] });
  const socket = open();
  const attempt = (args: string, variables?: Record<string, unknown>, on = socket) =>
    on.start(`subscription${variables ? ' ($n: Int!)' : ''} { chat_message_stream(${args}) { id } }`, variables).take(10_000);
  const cases: [string, Record<string, unknown> | undefined, string][] = [
    ['batch_size: 1, cursor: [{initial_value: {id: 1}}, {initial_value: {id: 2}}]', undefined, 'multiple column cursors are not supported yet'],
    ['batch_size: 1, cursor: {initial_value: {id: 1, room: "lobby"}}', undefined, 'multiple column cursors are not supported yet'],
    ['batch_size: 1, cursor: {initial_value: {}}', undefined, 'one streaming column field is expected'],
    ['batch_size: 1, cursor: []', undefined, 'one streaming column field is expected'],
    ['batch_size: 1, cursor: [null]', undefined, 'one streaming column field is expected'],
    ['batch_size: 1, cursor: {initial_value: {id: 1}, ordering: null}', undefined, 'expected an enum value for type "cursor_ordering", but found null'],
    ['batch_size: -1, cursor: {initial_value: {id: 1}}', undefined, 'expected a non-negative 32-bit integer for type "Int", but found an integer'],
    ['batch_size: $n, cursor: {initial_value: {id: 1}}', { n: -5 }, 'expected a non-negative 32-bit integer for type "Int", but found a number'],
    ['batch_size: 1, cursor: {initial_value: {id: null}}', undefined, 'expected a 32-bit integer for type "Int", but found null'],
    ['batch_size: 1, cursor: {initial_value: {body: null}}', undefined, 'expected a string for type "String", but found null'],
    ['batch_size: 1, cursor: {initial_value: {score: null}}', undefined, 'expected a float for type "Float", but found null'],
    ['batch_size: 1, cursor: {initial_value: {pinned: null}}', undefined, 'expected a boolean for type "Boolean", but found null'],
    ['batch_size: 1, cursor: {initial_value: {mood: null}}', undefined, 'expected an enum value for type "chat_mood_enum", but found null'],
    ['batch_size: 1, cursor: {initial_value: {id: "x"}}', undefined, 'Int cannot represent non-integer value: "x"'],
    ['cursor: {initial_value: {id: 1}}', undefined, 'Field "chat_message_stream" argument "batch_size" of type "Int!" is required, but it was not provided.'],
  ];
  const answers = [];
  for (const [args, variables] of cases) answers.push(await attempt(args, variables));
  expect(answers).toEqual(cases.map(([, , message]) => refused(message)));
  // A column the role may not select is no field of its cursor.
  expect(await attempt('batch_size: 1, cursor: {initial_value: {author: "ann"}}', undefined, open(member('lobby')))).toEqual(
    refused('Field "author" is not defined by type "chat_message_stream_cursor_value_input".'),
  );
});

test(
  covers(
    ['dec.graphql.stream.multiplexed', 'dec.graphql.stream.cursor'],
    'subscribers of one document with different cursors, sessions and variables each get exactly their rows, once, in order',
  ),
  async () => {
    const document =
      'subscription ($from: Int!, $skip: String!) { chat_message_stream(batch_size: 2, cursor: {initial_value: {id: $from}}, where: {body: {_neq: $skip}}) { id } }';
    const admin = open();
    const from = (id: number, socket = admin, skip = 'none') => socket.start(document, { from: id, skip });
    // Three skips the body "b": the only subscriber whose compared variable differs.
    const [zero, zeroAgain, one, three, four] = [from(0), from(0), from(1), from(3, admin, 'b'), from(4)];
    const lobby = from(0, open(member('lobby')));
    const attic = from(0, open(member('attic')));
    const received = async (op: Operation, count: number) => {
      const batches = [];
      while (batches.length < count) batches.push(await batch(op));
      return batches;
    };
    expect(
      await Promise.all([received(zero, 2), received(zeroAgain, 2), received(one, 2), received(three, 1), received(lobby, 2), received(attic, 1)]),
    ).toEqual([[ids(1, 2), ids(3, 4)], [ids(1, 2), ids(3, 4)], [ids(2, 3), ids(4)], [ids(4)], [ids(1, 2), ids(4)], [ids(3)]]);
    await target.sql("insert into chat.message (id, room, body) values (5, 'lobby', 'a'), (6, 'attic', 'b'), (7, 'lobby', 'c')");
    expect(
      await Promise.all([
        received(zero, 2),
        received(zeroAgain, 2),
        received(one, 2),
        received(three, 1),
        received(four, 2),
        received(lobby, 1),
        received(attic, 1),
      ]),
    ).toEqual([[ids(5, 6), ids(7)], [ids(5, 6), ids(7)], [ids(5, 6), ids(7)], [ids(5, 7)], [ids(5, 6), ids(7)], [ids(5, 7)], [ids(6)]]);
    // Nothing more was sent to any of them: the next batch of each is the next row.
    await target.sql("insert into chat.message (id, room, body) values (8, 'attic', 'd'), (9, 'lobby', 'e')");
    expect(await Promise.all([zero, zeroAgain, one, three, four, lobby, attic].map((op) => batch(op)))).toEqual([
      ids(8, 9),
      ids(8, 9),
      ids(8, 9),
      ids(8, 9),
      ids(8, 9),
      ids(9),
      ids(8),
    ]);
  },
);

test(covers(['dec.graphql.stream.cursor'], 'a metadata change compiles a streaming subscription again; it goes on from its cursor'), async () => {
  const stream = open().start('subscription { chat_message_stream(batch_size: 10, cursor: {initial_value: {id: 2}}) { id } }');
  expect(await batch(stream)).toEqual(ids(3, 4));
  expectResponse(
    await target.metadata({ type: 'create_select_permission', args: { table: message, role: 'reader', permission: { columns: ['id'], filter: {} } } }),
    200,
    { message: 'success' },
  );
  try {
    await target.sql("insert into chat.message (id, room, body) values (5, 'lobby', 'after')");
    expect(await batch(stream)).toEqual(ids(5));
  } finally {
    await target.metadata({ type: 'drop_select_permission', args: { table: message, role: 'reader' } });
  }
});

test(
  covers(['dec.graphql.stream.cursor', 'dec.graphql.legacy-ws'], 'the legacy graphql-ws subprotocol streams too: a data message per batch until stop'),
  async () => {
    const s = await legacySocket(target);
    s.send({ type: 'connection_init', payload: { headers: target.adminHeaders() } });
    expect(await s.next()).toEqual({ type: 'connection_ack' });
    s.send({
      id: '1',
      type: 'start',
      payload: { query: 'subscription { chat_message_stream(batch_size: 10, cursor: {initial_value: {id: 3}}) { id } }' },
    });
    expect(await s.next()).toEqual({ id: '1', type: 'data', payload: { data: { chat_message_stream: ids(4) } } });
    await target.sql("insert into chat.message (id, room, body) values (5, 'lobby', 'legacy')");
    expect(await s.next()).toEqual({ id: '1', type: 'data', payload: { data: { chat_message_stream: ids(5) } } });
    s.send({ id: '1', type: 'stop' });
    expect(await s.next()).toEqual({ id: '1', type: 'complete' });
    s.send({ type: 'connection_terminate' });
    expect(await s.next()).toEqual({ closed: { code: 1000, reason: 'terminated' } });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.graphql.stream.cursor', 'dec.source.forms'],
  "a table of another source streams from that source's database",
  async () => {
    await second.sql("create table public.note (id int primary key, body text not null); insert into public.note values (1, 'one'), (2, 'two')");
    const run = (type: string, args: Record<string, unknown>) => target.metadata({ type, args });
    try {
      expectResponse(await run('pg_add_source', { name: 'notes', configuration: { connection_info: { database_url: second.url } } }), 200, {
        message: 'success',
      });
      expectResponse(await run('pg_track_table', { source: 'notes', table: 'note' }), 200, { message: 'success' });
      const stream = open().start('subscription { note_stream(batch_size: 10, cursor: {initial_value: {id: 1}}) { id body } }');
      expect(await stream.take(10_000)).toEqual({ type: 'next', payload: { data: { note_stream: [{ id: 2, body: 'two' }] } } });
      await second.sql("insert into public.note values (3, 'three')");
      expect(await stream.take(10_000)).toEqual({ type: 'next', payload: { data: { note_stream: [{ id: 3, body: 'three' }] } } });
    } finally {
      await Promise.all(sockets.splice(0).map((s) => s.close()));
      await run('pg_drop_source', { name: 'notes' });
      await second.sql('drop table if exists public.note');
    }
  },
);
