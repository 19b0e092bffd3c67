// Subscriptions: SPEC.md §1.2 (tracked tables are subscribable) and the decision on how they are
// served (dec.graphql.subscriptions): live queries over WebSocket at /v1/graphql.
import { caseNeeding, covers } from '../harness/cases';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { REQUIRES_ADMIN_SECRET, useTarget } from '../harness/target';
import { legacySocket } from '../harness/legacySocket';
import { openSocket, type GraphQLSocket } from '../harness/websocket';

const target = useTarget();
const sockets: GraphQLSocket[] = [];
const open = (headers?: Record<string, string>) => {
  const socket = openSocket(target, headers);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  const r = await target.metadata({
    type: 'bulk',
    args: [
      ...musicMetadata(['artist', 'album'], ['artist.albums']).args,
      {
        type: 'create_select_permission',
        args: { table: musicTable('artist'), role: 'listener', permission: { columns: ['id', 'name'], filter: { country: { _eq: 'X-Engine-Country' } } } },
      },
    ],
  });
  expect(r.status).toBe(200);
});

afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
});

test(
  covers(
    ['rule.availability.tracked', 'dec.graphql.subscriptions'],
    'a subscription sends the result at once, then each changed result, never the same one twice',
  ),
  async () => {
    const socket = open();
    const live = socket.start('subscription { music_artist(where: {id: {_gte: 50}}, order_by: {id: asc}) { id name } }');
    expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [] } } });

    await target.sql("insert into music.artist (id, name, country) values (50, 'Delta Sleep', 'UK')");
    expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ id: 50, name: 'Delta Sleep' }] } } });

    // A change outside the selection gives the same result: nothing is sent for it.
    await target.sql('update music.artist set formed = 2011 where id = 50');
    expect(await live.drain(2500)).toEqual([]);

    await target.sql("insert into music.artist (id, name) values (51, 'Echo Park')");
    expect(await live.take()).toEqual({
      type: 'next',
      payload: {
        data: {
          music_artist: [
            { id: 50, name: 'Delta Sleep' },
            { id: 51, name: 'Echo Park' },
          ],
        },
      },
    });

    live.stop();
    await target.sql('delete from music.artist where id >= 50');
  },
);

test(
  covers(
    ['dec.graphql.subscriptions', 'rule.perm.select.filter', 'rule.perm.select.columns'],
    "a role's subscription sees the rows and columns its select permission allows",
  ),
  async () => {
    const socket = open({ ...target.adminHeaders(), 'x-engine-role': 'listener', 'x-engine-country': 'NO' });
    const live = socket.start('subscription { music_artist(order_by: {id: asc}) { id name } }');
    expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ id: 1, name: 'Aurora Lane' }] } } });

    await target.sql("insert into music.artist (id, name, country) values (60, 'Fjord', 'NO'), (61, 'Grit', 'US')");
    expect(await live.take()).toEqual({
      type: 'next',
      payload: {
        data: {
          music_artist: [
            { id: 1, name: 'Aurora Lane' },
            { id: 60, name: 'Fjord' },
          ],
        },
      },
    });

    const hidden = socket.start('subscription { music_artist { country } }');
    expect(await hidden.take()).toEqual({
      type: 'error',
      errors: [{ message: expect.any(String), extensions: { path: '$', code: 'validation-failed' } }],
    });
    live.stop();
    await target.sql('delete from music.artist where id >= 60');
  },
);

test(
  covers(
    ['dec.graphql.subscriptions', 'rule.perm.select.filter'],
    "subscriptions of one document in several sessions each follow their own session's permission, as the permission changes under them",
  ),
  async () => {
    const setPermission = async (filter: Record<string, unknown>, first = false) => {
      const r = await target.metadata({
        type: 'bulk',
        args: [
          ...(first ? [] : [{ type: 'drop_select_permission', args: { table: musicTable('artist'), role: 'fan' } }]),
          { type: 'create_select_permission', args: { table: musicTable('artist'), role: 'fan', permission: { columns: ['id'], filter } } },
        ],
      });
      expect(r.status).toBe(200);
    };
    await setPermission({}, true);
    try {
      const fan = (id: string) =>
        open({ ...target.adminHeaders(), 'x-engine-role': 'fan', 'x-engine-user-id': id }).start('subscription { music_artist(order_by: {id: asc}) { id } }');
      const [one, two] = [fan('1'), fan('2')];
      const all = { type: 'next', payload: { data: { music_artist: [{ id: 1 }, { id: 2 }, { id: 3 }] } } };
      expect([await one.take(), await two.take()]).toEqual([all, all]);
      // The filter now reads the session: each subscription gets the rows of its own session.
      await setPermission({ _or: [{ id: { _eq: 'X-Engine-User-Id' } }, { id: { _gte: 60 } }] });
      expect([await one.take(), await two.take()]).toEqual([
        { type: 'next', payload: { data: { music_artist: [{ id: 1 }] } } },
        { type: 'next', payload: { data: { music_artist: [{ id: 2 }] } } },
      ]);
      // A change both may see reaches each with its own rows.
      await target.sql("insert into music.artist (id, name) values (60, 'Both')");
      expect([await one.take(), await two.take()]).toEqual([
        { type: 'next', payload: { data: { music_artist: [{ id: 1 }, { id: 60 }] } } },
        { type: 'next', payload: { data: { music_artist: [{ id: 2 }, { id: 60 }] } } },
      ]);
      // And no longer: both see every row again, and a change reaches both.
      await setPermission({});
      const every = { type: 'next', payload: { data: { music_artist: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 60 }] } } };
      expect([await one.take(), await two.take()]).toEqual([every, every]);
      await target.sql("insert into music.artist (id, name) values (61, 'Both again')");
      const more = { type: 'next', payload: { data: { music_artist: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 60 }, { id: 61 }] } } };
      expect([await one.take(), await two.take()]).toEqual([more, more]);
    } finally {
      await target.sql('delete from music.artist where id >= 60');
      await target.metadata({ type: 'drop_select_permission', args: { table: musicTable('artist'), role: 'fan' } });
    }
  },
);

test(covers(['dec.graphql.subscriptions'], 'queries and mutations over the socket are answered once and completed'), async () => {
  const socket = open();
  const query = socket.start('query { music_artist_by_pk(id: 2) { name } }');
  expect(await query.take()).toEqual({ type: 'next', payload: { data: { music_artist_by_pk: { name: 'Brass Tacks' } } } });
  expect(await query.take()).toEqual({ type: 'complete' });

  const mutation = socket.start('mutation { update_music_artist_by_pk(pk_columns: {id: 3}, _set: {formed: 2001}) { id formed } }');
  expect(await mutation.take()).toEqual({ type: 'next', payload: { data: { update_music_artist_by_pk: { id: 3, formed: 2001 } } } });
  expect(await mutation.take()).toEqual({ type: 'complete' });
  expect(await target.sql('select formed from music.artist where id = 3')).toEqual([{ formed: 2001 }]);
  await target.sql('update music.artist set formed = null where id = 3');
});

test(covers(['dec.graphql.subscriptions'], 'an operation that does not validate gets an error message'), async () => {
  const socket = open();
  const op = socket.start('subscription { music_nothing { id } }');
  expect(await op.take()).toEqual({
    type: 'error',
    errors: [{ message: expect.any(String), extensions: { path: '$', code: 'validation-failed' } }],
  });
});

// A target without an admin secret refuses no credentials: the case is reported as not run there.
caseNeeding(REQUIRES_ADMIN_SECRET, ['dec.graphql.subscriptions'], 'a connection whose credentials are refused is closed with 4403', async () => {
  const socket = open({ 'x-engine-admin-secret': `${target.adminSecret}-wrong` });
  socket.start('subscription { music_artist { id } }');
  expect(await socket.closed()).toEqual({ type: 'closed', code: 4403, reason: 'Forbidden' });
});

test(
  covers(['dec.graphql.subscriptions', 'rule.availability.untracked'], 'a running subscription to a table that is untracked gets an error and ends'),
  async () => {
    const socket = open();
    const live = socket.start('subscription { music_album(where: {id: {_eq: 10}}) { title } }');
    expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_album: [{ title: 'First Light' }] } } });

    const r = await target.metadata({ type: 'untrack_table', args: { table: musicTable('album'), cascade: true } });
    expect(r.status).toBe(200);
    expect(await live.take()).toEqual({
      type: 'next',
      payload: { errors: [{ message: expect.any(String), extensions: { path: '$', code: 'validation-failed' } }] },
    });
    expect(await live.take()).toEqual({ type: 'complete' });
  },
);

test(
  covers(['dec.graphql.subscriptions'], 'a running subscription whose statement fails on a later poll gets the error and ends; the others go on'),
  async () => {
    await target.sql(`create table music.share (id integer primary key, parts integer not null);
      insert into music.share values (1, 2);
      create view music.portion as select id, 10 / parts as size from music.share`);
    expect((await target.metadata({ type: 'track_table', args: { table: musicTable('portion') } })).status).toBe(200);
    try {
      const socket = open();
      const failing = socket.start('subscription { music_portion(order_by: {id: asc}) { id size } }');
      const other = socket.start('subscription { music_artist(where: {id: {_eq: 1}}) { name } }');
      expect(await failing.take()).toEqual({ type: 'next', payload: { data: { music_portion: [{ id: 1, size: 5 }] } } });
      expect(await other.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ name: 'Aurora Lane' }] } } });
      // A row the view divides by zero: the statement fails from now on.
      await target.sql('insert into music.share values (2, 0)');
      const [error, end] = [await failing.take(), await failing.take()];
      expect(error).toEqual({ type: 'next', payload: { errors: [{ message: 'division by zero', extensions: { path: '$', code: 'data-exception' } }] } });
      expect(end).toEqual({ type: 'complete' });
      await target.sql("update music.artist set name = 'Aurora' where id = 1");
      expect(await other.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ name: 'Aurora' }] } } });
      other.stop();
    } finally {
      await target.sql("update music.artist set name = 'Aurora Lane' where id = 1");
      await target.metadata({ type: 'untrack_table', args: { table: musicTable('portion') } });
      await target.sql('drop view music.portion; drop table music.share');
    }
  },
);

test(
  covers(
    ['dec.graphql.legacy-ws', 'dec.graphql.subscriptions'],
    'the legacy graphql-ws subprotocol: init, ack and keep-alive, a live subscription until stop, a query answered once',
  ),
  async () => {
    const s = await legacySocket(target);
    expect(s.ws.protocol).toBe('graphql-ws');
    s.send({ type: 'connection_init', payload: { headers: target.adminHeaders() } });
    expect(await s.next()).toEqual({ type: 'connection_ack' });
    expect(s.messages.some((m) => m.type === 'ka') || (await new Promise((r) => setTimeout(r, 200)), s.messages.some((m) => m.type === 'ka'))).toBe(true);
    s.send({
      id: '1',
      type: 'start',
      payload: { query: 'subscription ($min: Int!) { music_artist(where: {id: {_gte: $min}}, order_by: {id: asc}) { id name } }', variables: { min: 60 } },
    });
    expect(await s.next()).toEqual({ id: '1', type: 'data', payload: { data: { music_artist: [] } } });
    await target.sql("insert into music.artist (id, name) values (60, 'Legacy One')");
    expect(await s.next()).toEqual({ id: '1', type: 'data', payload: { data: { music_artist: [{ id: 60, name: 'Legacy One' }] } } });
    s.send({
      id: '2',
      type: 'start',
      payload: { query: 'query Count { music_artist_aggregate(where: {id: {_gte: 60}}) { aggregate { count } } }', operationName: 'Count' },
    });
    expect([await s.next(), await s.next()]).toEqual([
      { id: '2', type: 'data', payload: { data: { music_artist_aggregate: { aggregate: { count: 1 } } } } },
      { id: '2', type: 'complete' },
    ]);
    s.send({ id: '3', type: 'start', payload: { query: '{ no_such_field }' } });
    expect([await s.next(), await s.next()]).toEqual([
      {
        id: '3',
        type: 'data',
        payload: { errors: [{ message: 'Cannot query field "no_such_field" on type "query_root".', extensions: { path: '$', code: 'validation-failed' } }] },
      },
      { id: '3', type: 'complete' },
    ]);
    s.send({ id: '1', type: 'stop' });
    expect(await s.next()).toEqual({ id: '1', type: 'complete' });
    await target.sql("insert into music.artist (id, name) values (61, 'Legacy Two')");
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(s.messages.filter((m) => m.type !== 'ka')).toEqual([]);
    s.send({ type: 'connection_terminate' });
    expect(await s.next()).toEqual({ closed: { code: 1000, reason: 'terminated' } });
    await target.sql('delete from music.artist where id >= 60');
  },
);

test(
  covers(['dec.graphql.legacy-ws'], 'the legacy subprotocol: an operation before connection_init, and a message that is not JSON, close the socket'),
  async () => {
    const early = await legacySocket(target);
    early.send({ id: '1', type: 'start', payload: { query: '{ __typename }' } });
    expect([await early.next(), await early.next()]).toEqual([
      { type: 'connection_error', payload: { message: 'send connection_init first' } },
      { closed: { code: 4401, reason: 'Unauthorized' } },
    ]);
    const garbage = await legacySocket(target);
    garbage.ws.send('{not json');
    expect(await garbage.next()).toEqual({ closed: { code: 4400, reason: 'invalid message' } });
  },
);

caseNeeding(REQUIRES_ADMIN_SECRET, ['dec.graphql.legacy-ws'], 'the legacy subprotocol: refused credentials get connection_error and a close', async () => {
  const s = await legacySocket(target);
  s.send({ type: 'connection_init', payload: { headers: { 'x-engine-admin-secret': 'wrong' } } });
  expect([await s.next(), await s.next()]).toEqual([
    { type: 'connection_error', payload: { message: 'invalid x-engine-admin-secret', extensions: { path: '$', code: 'access-denied' } } },
    { closed: { code: 4403, reason: 'Forbidden' } },
  ]);
});
