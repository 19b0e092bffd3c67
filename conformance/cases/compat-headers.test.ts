// The compatibility setting (decisions dec.compat.headers, err.invalid-headers.both-brands): a
// server started with ENGINE_GRAPHQL_COMPAT_HEADERS=hasura takes the X-Hasura-* names of clients
// written for the engine this API comes from, and names what it sends and says so; the main target,
// without the setting, treats those names as any other. These cases send both brands themselves,
// so they run when the suite speaks the Engine brand.
import { http, HttpResponse } from 'msw';
import { BRAND } from '../harness/brand';
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { signToken } from '../harness/jwt';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { profileAvailable, useTarget, type Requirement, type Target } from '../harness/target';
import { until } from '../harness/wait';
import { openSocket } from '../harness/websocket';

const target = useTarget({ profiles: ['compat-hasura'] });
const handlers = useMockServer();
const compat = (): Target => target.profileTarget('compat-hasura')!;
const NEEDS: Requirement = {
  met: profileAvailable('compat-hasura') && BRAND === 'engine',
  needs: 'ENGINE_URL_COMPAT_HASURA, and the suite speaking the engine brand (these cases send both brands themselves)',
};
const caseInCompatMode = (ids: string[], title: string, fn: () => Promise<void>) => caseNeeding(NEEDS, ['dec.compat.headers', ...ids], title, fn);

const note = { schema: 'compat', name: 'note' };
const author = { schema: 'compat', name: 'author' };
const METADATA = {
  version: 2,
  tables: [
    { table: author, select_permissions: [{ role: 'lister', permission: { columns: ['id', 'name'], filter: { id: { _in: 'X-Hasura-Ids' } } } }] },
    {
      table: note,
      computed_fields: [{ name: 'reader', definition: { function: { schema: 'compat', name: 'note_reader' }, session_argument: 'session' } }],
      insert_permissions: [{ role: 'user', permission: { check: {}, columns: ['id', 'tag', 'body'], set: { author_id: 'X-Hasura-User-Id' } } }],
      select_permissions: [
        { role: 'user', permission: { columns: ['id', 'author_id', 'body'], computed_fields: ['reader'], filter: { author_id: { _eq: 'X-Hasura-User-Id' } } } },
        { role: 'tagger', permission: { columns: ['id', 'body'], filter: { tag: { _eq: 'X-Hasura-Tag' } } } },
      ],
    },
  ],
};

const secretOf = (t: Target) => ({ 'x-hasura-admin-secret': t.adminSecret! });
const userNotes = '{ compat_note(order_by: {id: asc}) { id body reader } }';

beforeAll(async () => {
  await target.sql(`
    drop schema if exists compat cascade;
    create schema compat;
    create table compat.author (id integer primary key, name text not null);
    create table compat.note (id integer primary key, author_id integer not null references compat.author (id), tag text not null, body text not null);
    insert into compat.author values (1, 'Ann'), (2, 'Bo');
    insert into compat.note values (1, 1, 'blue', 'ann blue'), (2, 2, 'X-Hasura-Tag', 'literal'), (3, 2, 'red', 'bo red');
    create function compat.note_reader(n compat.note, session json) returns text language sql stable
      as $$ select coalesce(session ->> 'x-hasura-user-id', '-') || '/' || coalesce(session ->> 'x-engine-user-id', '-') $$;`);
  if (NEEDS.met) expectResponse(await compat().metadata({ type: 'replace_metadata', args: METADATA }, { headers: secretOf(compat()) }), 200);
});

caseInCompatMode(
  ['rule.auth.3', 'err.admin-secret.invalid'],
  'x-hasura-admin-secret is the admin secret; a wrong one is refused naming x-hasura-admin-secret',
  async () => {
    const t = compat();
    const exported = await t.request('POST', '/v1/metadata', { body: { type: 'export_metadata', args: {} }, headers: secretOf(t) });
    expect([exported.status, (exported.body as { version: number }).version]).toEqual([200, 2]);
    const wrong = await t.request('POST', '/v1/metadata', { body: { type: 'export_metadata', args: {} }, headers: { 'x-hasura-admin-secret': 'nope' } });
    expectResponse(wrong, 401, { path: '$', error: 'invalid x-hasura-admin-secret', code: 'access-denied' });
    const graphql = await t.request('POST', '/v1/graphql', { body: { query: '{ __typename }' }, headers: { 'x-hasura-admin-secret': 'nope' } });
    expectResponse(graphql, 401, { errors: [{ message: 'invalid x-hasura-admin-secret', extensions: { path: '$', code: 'access-denied' } }] });
  },
);

caseInCompatMode(['rule.auth.4'], 'X-Hasura-* headers are the session: permissions, _in lists and the session argument of a computed field', async () => {
  const t = compat();
  const asUser = { ...secretOf(t), 'x-hasura-role': 'user', 'x-hasura-user-id': '2' };
  const bo = {
    data: {
      compat_note: [
        { id: 2, body: 'literal', reader: '2/-' },
        { id: 3, body: 'bo red', reader: '2/-' },
      ],
    },
  };
  expectResponse(await t.graphql(userNotes, undefined, { headers: asUser }), 200, bo);
  // The X-Engine-* names are still taken, and the function still reads x-hasura-user-id.
  expectResponse(await t.graphql(userNotes, undefined, { headers: { ...t.adminHeaders(), 'x-engine-role': 'user', 'X-Engine-User-Id': '2' } }), 200, bo);
  expectResponse(
    await t.graphql('{ compat_note { id body } }', undefined, { headers: { ...secretOf(t), 'x-hasura-role': 'tagger', 'x-hasura-tag': 'blue' } }),
    200,
    {
      data: { compat_note: [{ id: 1, body: 'ann blue' }] },
    },
  );
  const lister = { ...secretOf(t), 'x-hasura-role': 'lister', 'x-hasura-ids': '{2}' };
  expectResponse(await t.graphql('{ compat_author { id name } }', undefined, { headers: lister }), 200, { data: { compat_author: [{ id: 2, name: 'Bo' }] } });
});

caseInCompatMode(['err.invalid-headers.missing', 'err.invalid-headers.user-id-integer'], 'what a permission misses is named X-Hasura-*', async () => {
  const t = compat();
  const ask = (extra: Record<string, string>) => t.graphql(userNotes, undefined, { headers: { ...secretOf(t), 'x-hasura-role': 'user', ...extra } });
  expectResponse(await ask({}), 200, { errors: [{ message: 'missing header : X-Hasura-User-Id', extensions: { path: '$', code: 'invalid-headers' } }] });
  expectResponse(await ask({ 'x-hasura-user-id': 'two' }), 200, {
    errors: [{ message: 'X-Hasura-User-Id should be an integer', extensions: { path: '$', code: 'invalid-headers' } }],
  });
});

caseInCompatMode(['rule.perm.insert.set'], 'a column preset written X-Hasura-User-Id takes the session variable', async () => {
  const t = compat();
  const insert = 'mutation { insert_compat_note_one(object: {id: 10, tag: "green", body: "new"}) { id body } }';
  expectResponse(await t.graphql(insert, undefined, { headers: { ...secretOf(t), 'x-hasura-role': 'user', 'x-hasura-user-id': '1' } }), 200, {
    data: { insert_compat_note_one: { id: 10, body: 'new' } },
  });
  expect(await t.sql('select author_id from compat.note where id = 10')).toEqual([{ author_id: 1 }]);
  await t.sql('delete from compat.note where id = 10');
});

caseInCompatMode(
  ['err.invalid-headers.both-brands'],
  'one header under both names with different values is refused; with the same value it is that value',
  async () => {
    const t = compat();
    const both = { ...secretOf(t), 'x-hasura-role': 'user', 'x-engine-user-id': '1', 'x-hasura-user-id': '2' };
    expectResponse(await t.graphql(userNotes, undefined, { headers: both }), 400, {
      errors: [{ message: 'x-engine-user-id and x-hasura-user-id are both given, with different values', extensions: { path: '$', code: 'invalid-headers' } }],
    });
    const metadata = await t.request('POST', '/v1/metadata', {
      body: { type: 'export_metadata', args: {} },
      headers: { ...secretOf(t), 'x-engine-admin-secret': 'other' },
    });
    expectResponse(metadata, 400, {
      path: '$',
      error: 'x-hasura-admin-secret and x-engine-admin-secret are both given, with different values',
      code: 'invalid-headers',
    });
    expectResponse(await t.graphql(userNotes, undefined, { headers: { ...both, 'x-engine-user-id': '2' } }), 200, {
      data: {
        compat_note: [
          { id: 2, body: 'literal', reader: '2/-' },
          { id: 3, body: 'bo red', reader: '2/-' },
        ],
      },
    });
  },
);

caseInCompatMode(
  ['rule.auth.2', 'dec.compat.settings'],
  'a JWT with x-hasura-* claims under https://hasura.io/jwt/claims; claims under both names that differ are refused',
  async () => {
    const t = compat();
    const claims = { 'x-hasura-allowed-roles': ['user'], 'x-hasura-default-role': 'user', 'x-hasura-user-id': '1' };
    const bearer = async (c: Record<string, unknown>) => ({ authorization: `Bearer ${await signToken({ 'https://hasura.io/jwt/claims': c })}` });
    expectResponse(await t.graphql(userNotes, undefined, { headers: await bearer(claims) }), 200, {
      data: { compat_note: [{ id: 1, body: 'ann blue', reader: '1/-' }] },
    });
    const config = await t.request('GET', '/v1alpha1/config', { headers: secretOf(t) });
    expect(config.body).toMatchObject({ is_jwt_set: true, jwt: { claims_namespace: 'https://hasura.io/jwt/claims' } });
    expectResponse(await t.graphql(userNotes, undefined, { headers: await bearer({ ...claims, 'x-engine-user-id': '2' }) }), 400, {
      errors: [{ message: 'x-hasura-user-id and x-engine-user-id are both given, with different values', extensions: { path: '$', code: 'invalid-headers' } }],
    });
  },
);

caseInCompatMode(['op.create_action', 'dec.actions.forms'], 'an action handler gets session_variables named x-hasura-*', async () => {
  const t = compat();
  handlers.use(http.post('/echo', () => HttpResponse.json({ id: 'e1' })));
  const run = (type: string, args: unknown) => t.metadata({ type, args }, { headers: secretOf(t) });
  expectResponse(await run('set_custom_types', { objects: [{ name: 'Echo', fields: [{ name: 'id', type: 'ID!' }] }] }), 200);
  expectResponse(await run('create_action', { name: 'echo', definition: { handler: `${handlers.url}/echo`, output_type: 'Echo!', kind: 'synchronous' } }), 200);
  expectResponse(await run('create_action_permission', { action: 'echo', role: 'user' }), 200);
  const headers = { ...secretOf(t), 'x-hasura-role': 'user', 'x-hasura-user-id': '7' };
  expectResponse(await t.graphql('mutation { echo { id } }', undefined, { headers }), 200, { data: { echo: { id: 'e1' } } });
  expect((handlers.requestsTo('/echo')[0]!.body as { session_variables: unknown }).session_variables).toEqual({
    'x-hasura-role': 'user',
    'x-hasura-user-id': '7',
  });
  expectResponse(await run('drop_action', { name: 'echo' }), 200);
});

caseInCompatMode(['op.create_event_trigger', 'dec.events.form'], 'an event webhook gets the session_variables of the change named x-hasura-*', async () => {
  const t = compat();
  handlers.use(http.post('/note-event', () => HttpResponse.json({ ok: true })));
  const run = (type: string, args: unknown) => t.metadata({ type, args }, { headers: secretOf(t) });
  expectResponse(
    await run('create_event_trigger', { name: 'compat_note_added', table: note, webhook: `${handlers.url}/note-event`, insert: { columns: '*' } }),
    200,
  );
  const insert = 'mutation { insert_compat_note_one(object: {id: 11, tag: "t", body: "evented"}) { id } }';
  expectResponse(await t.graphql(insert, undefined, { headers: { ...secretOf(t), 'x-hasura-role': 'user', 'x-hasura-user-id': '2' } }), 200);
  const calls = await until(
    async () => handlers.requestsTo('/note-event'),
    (c) => c.length > 0,
  );
  expect((calls[0]!.body as { event: { session_variables: unknown } }).event.session_variables).toEqual({ 'x-hasura-role': 'user', 'x-hasura-user-id': '2' });
  expectResponse(await run('delete_event_trigger', { name: 'compat_note_added' }), 200);
  await t.sql('delete from compat.note where id = 11');
});

caseInCompatMode(['dec.graphql.subscriptions'], "a socket's connection_init takes X-Hasura-* headers", async () => {
  const t = compat();
  const socket = openSocket(t, { 'x-hasura-admin-secret': t.adminSecret!, 'x-hasura-role': 'user', 'x-hasura-user-id': '1' });
  const live = socket.start('subscription { compat_note { id reader } }');
  expect(await live.take()).toEqual({ type: 'next', payload: { data: { compat_note: [{ id: 1, reader: '1/-' }] } } });
  await socket.close();
});

caseInCompatMode(['op.add_remote_schema', 'dec.remote-schema.headers'], 'a remote schema gets the session as X-Hasura-* headers', async () => {
  const t = compat();
  const sdl = 'type Query { echo_headers: [Header!]! } type Header { name: String! value: String! }';
  const echo = (_: unknown, context: { headers: Headers }) =>
    [...context.headers.entries()].filter(([n]) => n.startsWith('x-')).map(([name, value]) => ({ name, value }));
  handlers.use(graphQLServer('/remote', sdl, { echo_headers: echo }));
  const run = (type: string, args: unknown) => t.metadata({ type, args }, { headers: secretOf(t) });
  expectResponse(await run('add_remote_schema', { name: 'echo', definition: { url: `${handlers.url}/remote`, forward_client_headers: true } }), 200);
  const headers = { ...secretOf(t), 'x-hasura-role': 'admin', 'x-hasura-user-id': '5', 'x-client': 'c' };
  const r = await t.graphql('{ echo_headers { name value } }', undefined, { headers });
  const got = (r.body as { data: { echo_headers: { name: string; value: string }[] } }).data.echo_headers;
  expect(Object.fromEntries(got.map((h) => [h.name, h.value]))).toEqual({ 'x-client': 'c', 'x-hasura-role': 'admin', 'x-hasura-user-id': '5' });
  expectResponse(await run('remove_remote_schema', { name: 'echo' }), 200);
});

caseInCompatMode(
  ['op.add_remote_schema_permissions', 'dec.remote-schema.presets'],
  'a remote schema permission presets an argument from X-Hasura-User-Id',
  async () => {
    const t = compat();
    handlers.use(graphQLServer('/greeter', 'type Query { greet(name: String!): String! }', { greet: ({ name }) => `hello ${String(name)}` }));
    const run = (type: string, args: unknown) => t.metadata({ type, args }, { headers: secretOf(t) });
    expectResponse(await run('add_remote_schema', { name: 'greeter', definition: { url: `${handlers.url}/greeter` } }), 200);
    const sdl = 'type Query { greet(name: String! @preset(value: "X-Hasura-User-Id")): String! }';
    expectResponse(await run('add_remote_schema_permissions', { remote_schema: 'greeter', role: 'user', definition: { schema: sdl } }), 200);
    const user = { ...secretOf(t), 'x-hasura-role': 'user', 'x-hasura-user-id': '7' };
    expectResponse(await t.graphql('{ greet }', undefined, { headers: user }), 200, { data: { greet: 'hello 7' } });
    expectResponse(await t.graphql('{ greet }', undefined, { headers: { ...secretOf(t), 'x-hasura-role': 'user' } }), 200, {
      errors: [{ message: 'missing header : x-hasura-user-id', extensions: { path: '$', code: 'invalid-headers' } }],
    });
    expectResponse(await run('remove_remote_schema', { name: 'greeter' }), 200);
  },
);

caseNeeding(
  NEEDS,
  ['dec.compat.headers', 'rule.auth.3', 'rule.auth.4'],
  'without the setting X-Hasura-* names are ordinary: headers ignored, a permission value a literal',
  async () => {
    const headers = { 'x-hasura-admin-secret': target.adminSecret! };
    expectResponse(await target.request('POST', '/v1/metadata', { body: { type: 'export_metadata', args: {} }, headers }), 401, {
      path: '$',
      error: 'x-engine-admin-secret required, but not found',
      code: 'access-denied',
    });
    // The tagger's filter compares with the text "X-Hasura-Tag" itself, whatever the headers say.
    const asTagger = { ...target.adminHeaders(), 'x-engine-role': 'tagger', 'x-hasura-tag': 'blue' };
    const seen = await until(
      () => target.graphql('{ compat_note { id body } }', undefined, { headers: asTagger }),
      (r) => JSON.stringify(r.body).includes('compat_note'),
    );
    expectResponse(seen, 200, { data: { compat_note: [{ id: 2, body: 'literal' }] } });
  },
);
