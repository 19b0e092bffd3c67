// Subscriptions: SPEC.md §1.2 (tracked tables are subscribable) and the decision on how they are
// served (dec.graphql.subscriptions): live queries over WebSocket at /v1/graphql.
import { caseNeeding, covers } from '../harness/cases';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { REQUIRES_ADMIN_SECRET, useTarget } from '../harness/target';
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

test(covers(['rule.availability.tracked', 'dec.graphql.subscriptions'], 'a subscription sends the result at once, then each changed result, never the same one twice'), async () => {
  const socket = open();
  const live = socket.start('subscription { music_artist(where: {id: {_gte: 50}}, order_by: {id: asc}) { id name } }');
  expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [] } } });

  await target.sql("insert into music.artist (id, name, country) values (50, 'Delta Sleep', 'UK')");
  expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ id: 50, name: 'Delta Sleep' }] } } });

  // A change outside the selection gives the same result: nothing is sent for it.
  await target.sql('update music.artist set formed = 2011 where id = 50');
  expect(await live.drain(2500)).toEqual([]);

  await target.sql("insert into music.artist (id, name) values (51, 'Echo Park')");
  expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ id: 50, name: 'Delta Sleep' }, { id: 51, name: 'Echo Park' }] } } });

  live.stop();
  await target.sql('delete from music.artist where id >= 50');
});

test(covers(['dec.graphql.subscriptions', 'rule.perm.select.filter', 'rule.perm.select.columns'], "a role's subscription sees the rows and columns its select permission allows"), async () => {
  const socket = open({ ...target.adminHeaders(), 'x-engine-role': 'listener', 'x-engine-country': 'NO' });
  const live = socket.start('subscription { music_artist(order_by: {id: asc}) { id name } }');
  expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ id: 1, name: 'Aurora Lane' }] } } });

  await target.sql("insert into music.artist (id, name, country) values (60, 'Fjord', 'NO'), (61, 'Grit', 'US')");
  expect(await live.take()).toEqual({ type: 'next', payload: { data: { music_artist: [{ id: 1, name: 'Aurora Lane' }, { id: 60, name: 'Fjord' }] } } });

  const hidden = socket.start('subscription { music_artist { country } }');
  expect(await hidden.take()).toEqual({
    type: 'error',
    errors: [{ message: expect.any(String), extensions: { path: '$', code: 'validation-failed' } }],
  });
  live.stop();
  await target.sql('delete from music.artist where id >= 60');
});

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

test(covers(['dec.graphql.subscriptions', 'rule.availability.untracked'], 'a running subscription to a table that is untracked gets an error and ends'), async () => {
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
});
