// API limits and introspection options served (decisions dec.api-limits and
// dec.graphql.introspection-disabled): each limit binds every role but admin, a role's per_role
// entry before the global one, nothing when disabled; refused requests run nothing.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicTable } from '../harness/fixtures';
import { legacySocket } from '../harness/legacySocket';
import { useTarget } from '../harness/target';
import { openSocket } from '../harness/websocket';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const as = (role: string, variables: Record<string, string> = {}) => ({ ...target.adminHeaders(), 'x-engine-role': role, ...variables });
const gql = async (query: string, role: string, variables: Record<string, string> = {}) =>
  (await target.graphql(query, undefined, { headers: role === 'admin' ? target.adminHeaders() : as(role, variables) })).body;
const refusal = (message: string, code: string) => ({ errors: [{ message, extensions: { path: '$', code } }] });

const artist = {
  table: musicTable('artist'),
  select_permissions: ['fan', 'critic'].map((role) => ({ role, permission: { columns: ['id', 'name'], filter: {} } })),
};
const album = {
  table: musicTable('album'),
  object_relationships: [{ name: 'artist', using: { foreign_key_constraint_on: 'artist_id' } }],
  select_permissions: ['fan', 'critic'].map((role) => ({ role, permission: { columns: ['id', 'title'], filter: {} } })),
};
const slow = { function: { schema: 'music', name: 'slow_artists' } };
/** A table whose inserts take 3 s (a trigger sleeps): fan may insert into it. */
const note = { table: musicTable('slow_note'), insert_permissions: [{ role: 'fan', permission: { columns: ['id'], check: {} } }] };
const withLimits = (api_limits: unknown, more: Record<string, unknown> = {}) =>
  run('replace_metadata', { version: 2, tables: [artist, album, note], functions: [slow], api_limits, ...more });

/** Depth 3 (album, artist, name) and 2 nodes (album, artist). */
const DEEP = '{ music_album(where: {id: {_eq: 10}}) { artist { name } } }';

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  await target.sql(
    'create or replace function music.slow_artists() returns setof music.artist language plpgsql stable as $$ begin perform pg_sleep(3); return query select * from music.artist; end $$',
  );
  await target.sql(`create table music.slow_note (id integer primary key);
    create function music.sleep_first() returns trigger language plpgsql as $$ begin perform pg_sleep(3); return new; end $$;
    create trigger sleep_first before insert on music.slow_note for each row execute function music.sleep_first()`);
  expectResponse(await run('reload_metadata', {}), 200);
});
afterAll(async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: [] }), 200, ok);
});

test(
  covers(
    ['dec.api-limits', 'err.graphql.depth-limit', 'err.graphql.node-limit', 'op.set_api_limits'],
    "depth and node limits refuse a role's operation before it runs: its per_role limit, else the global one; admin and a disabled set are not bound",
  ),
  async () => {
    expectResponse(await withLimits({ depth_limit: { global: 3, per_role: { fan: 2 } }, node_limit: { global: 1, per_role: { fan: 5 } } }), 200, ok);
    expect(await gql(DEEP, 'fan')).toEqual(refusal('depth limit of 2 exceeded', 'validation-failed'));
    expect(await gql(DEEP, 'critic')).toEqual(refusal('node limit of 1 exceeded', 'validation-failed'));
    const answer = { data: { music_album: [{ artist: { name: 'Aurora Lane' } }] } };
    expect(await gql(DEEP, 'admin')).toEqual(answer);
    // A fragment counts where it is spread; __typename counts for neither.
    expect(await gql('{ music_artist(limit: 1) { ...f } } fragment f on music_artist { id __typename }', 'fan')).toEqual({
      data: { music_artist: [{ id: 1, __typename: 'music_artist' }] },
    });
    expect(await gql('{ music_album(limit: 1) { ...f } } fragment f on music_album { artist { id } }', 'fan')).toEqual(
      refusal('depth limit of 2 exceeded', 'validation-failed'),
    );
    expectResponse(await run('set_api_limits', { disabled: true, depth_limit: { global: 1 } }), 200, ok);
    expect(await gql(DEEP, 'fan')).toEqual(answer);
    expectResponse(await run('set_api_limits', { depth_limit: { global: 3 } }), 200, ok);
    expect(await gql(DEEP, 'fan')).toEqual(answer);
  },
);

test(
  covers(
    ['dec.api-limits', 'err.graphql.rate-limit', 'op.set_api_limits'],
    'a rate limit counts the requests of a role in the last minute, per session variables when asked',
  ),
  async () => {
    expectResponse(
      await withLimits({
        rate_limit: { global: { max_reqs_per_min: 2 }, per_role: { critic: { max_reqs_per_min: 1, unique_params: ['x-engine-user-id'] } } },
      }),
      200,
      ok,
    );
    const query = '{ music_artist(where: {id: {_eq: 1}}) { name } }';
    const answer = { data: { music_artist: [{ name: 'Aurora Lane' }] } };
    expect(await gql(query, 'fan')).toEqual(answer);
    expect(await gql(query, 'fan')).toEqual(answer);
    expect(await gql(query, 'fan')).toEqual(refusal('rate limit of 2 exceeded', 'rate-limit-exceeded'));
    expect(await gql(query, 'critic', { 'x-engine-user-id': '1' })).toEqual(answer);
    expect(await gql(query, 'critic', { 'x-engine-user-id': '1' })).toEqual(refusal('rate limit of 1 exceeded', 'rate-limit-exceeded'));
    expect(await gql(query, 'critic', { 'x-engine-user-id': '2' })).toEqual(answer);
    for (let i = 0; i < 3; i++) expect(await gql(query, 'admin')).toEqual(answer);
  },
);

test(
  covers(
    ['dec.api-limits', 'err.graphql.rate-limit', 'dec.graphql.subscriptions', 'dec.graphql.legacy-ws'],
    'a rate limit counts the operations a role starts over WebSocket, with either protocol, together with its requests over HTTP',
  ),
  async () => {
    expectResponse(await withLimits({ rate_limit: { global: { max_reqs_per_min: 3 }, per_role: {} } }), 200, ok);
    const query = '{ music_artist(where: {id: {_eq: 1}}) { name } }';
    const answer = { data: { music_artist: [{ name: 'Aurora Lane' }] } };
    const socket = openSocket(target, as('fan'));
    const admin = openSocket(target);
    try {
      const live = socket.start(`subscription ${query}`);
      expect(await live.take()).toEqual({ type: 'next', payload: answer });
      const once = socket.start(`query ${query}`);
      expect([await once.take(), await once.take()]).toEqual([{ type: 'next', payload: answer }, { type: 'complete' }]);
      expect(await gql(query, 'fan')).toEqual(answer);
      // The fourth operation of the minute: refused over either protocol and over HTTP; admin is not bound.
      const refused = [{ message: 'rate limit of 3 exceeded', extensions: { path: '$', code: 'rate-limit-exceeded' } }];
      expect(await socket.start(`subscription ${query}`).take()).toEqual({ type: 'error', errors: refused });
      const legacy = await legacySocket(target);
      legacy.send({ type: 'connection_init', payload: { headers: as('fan') } });
      expect(await legacy.next()).toEqual({ type: 'connection_ack' });
      legacy.send({ id: '1', type: 'start', payload: { query: `subscription ${query}` } });
      expect([await legacy.next(), await legacy.next()]).toEqual([
        { type: 'data', id: '1', payload: { errors: refused } },
        { type: 'complete', id: '1' },
      ]);
      legacy.ws.close();
      expect(await gql(query, 'fan')).toEqual(refusal('rate limit of 3 exceeded', 'rate-limit-exceeded'));
      for (let i = 0; i < 4; i++) expect(await admin.start(`subscription ${query}`).take()).toEqual({ type: 'next', payload: answer });
      live.stop();
    } finally {
      await Promise.all([socket.close(), admin.close()]);
    }
  },
);

test(
  covers(
    ['dec.api-limits', 'err.graphql.batch-limit', 'err.graphql.time-limit'],
    'a batch beyond the batch limit runs none of it; a time limit cancels what runs longer',
  ),
  async () => {
    expectResponse(await withLimits({ batch_limit: { global: 2, per_role: {} }, time_limit: { global: 1, per_role: {} } }), 200, ok);
    const one = { query: '{ music_artist(where: {id: {_eq: 2}}) { name } }' };
    const batch = async (n: number, role: string) =>
      (
        await target.request('POST', '/v1/graphql', {
          body: Array.from({ length: n }, () => one),
          headers: role === 'admin' ? target.adminHeaders() : as(role),
        })
      ).body;
    const answer = { data: { music_artist: [{ name: 'Brass Tacks' }] } };
    expect(await batch(2, 'fan')).toEqual([answer, answer]);
    expect(await batch(3, 'fan')).toEqual(refusal('batch limit of 2 exceeded', 'validation-failed'));
    expect(await batch(3, 'admin')).toEqual([answer, answer, answer]);
    const started = Date.now();
    expect(await gql('{ music_slow_artists(limit: 1) { id } }', 'fan')).toEqual(refusal('time limit of 1 seconds exceeded', 'timeout'));
    expect(Date.now() - started).toBeLessThan(2500);
    // A mutation cut short is undone.
    expect(await gql('mutation { insert_music_slow_note(objects: [{id: 1}]) { affected_rows } }', 'fan')).toEqual(
      refusal('time limit of 1 seconds exceeded', 'timeout'),
    );
    expect(await target.sql('select count(*)::int as n from music.slow_note')).toEqual([{ n: 0 }]);
  },
);

test(
  covers(
    ['dec.graphql.introspection-disabled', 'err.graphql.introspection-disabled', 'op.set_graphql_schema_introspection_options'],
    'a role introspection is disabled for may not ask for __schema or __type; __typename and other roles are answered',
  ),
  async () => {
    expectResponse(await withLimits(undefined, { graphql_schema_introspection: { disabled_for_roles: ['fan'] } }), 200, ok);
    const refused = refusal('introspection is disabled for role: fan', 'not-supported');
    expect(await gql('{ __schema { queryType { name } } }', 'fan')).toEqual(refused);
    expect(await gql('query { ...q } fragment q on query_root { __type(name: "music_artist") { name } }', 'fan')).toEqual(refused);
    expect(await gql('{ __typename }', 'fan')).toEqual({ data: { __typename: 'query_root' } });
    const schema = { data: { __schema: { queryType: { name: 'query_root' } } } };
    expect(await gql('{ __schema { queryType { name } } }', 'critic')).toEqual(schema);
    expect(await gql('{ __schema { queryType { name } } }', 'admin')).toEqual(schema);
    expectResponse(await run('set_graphql_schema_introspection_options', { disabled_for_roles: [] }), 200, ok);
    expect(await gql('{ __schema { queryType { name } } }', 'fan')).toEqual(schema);
  },
);
